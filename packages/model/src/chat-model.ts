import type { z } from "zod";

/**
 * The chat-model port the agents run on: one bounded tool loop. The agent defines the tools (the
 * engines' deterministic functions), the model decides which to call; the port validates every
 * call against the tool's schema, runs it, reports the outcome back to the model and records it.
 * Nothing here depends on a model vendor or an SDK; the adapter (openai-compatible.ts) does.
 */

/** A tool the model may call: validated with `inputSchema` before `execute` sees the input. */
export interface ChatTool<Input = unknown, Output = unknown> {
  /** The name the model calls it by (also what an agent reports in `toolCalls`). */
  name: string;
  description: string;
  inputSchema: z.ZodType<Input>;
  // Method syntax on purpose: a tool of a narrower input still fits a `ChatTool[]` list.
  execute(input: Input): Promise<Output> | Output;
}

/** What a tool loop may do: the prompt, the tools and its bounds. */
export interface ToolLoopRequest {
  system: string;
  prompt: string;
  tools: readonly ChatTool[];
  /** Most model calls in the loop; a model still calling tools at this bound is stopped. */
  maxSteps: number;
  /** Time limit of each single model call. */
  callTimeoutMs: number;
  /** Time limit of the whole loop, model calls and tool runs together. */
  totalTimeoutMs: number;
  /** The caller's cancellation (the client went away); its abort is passed through as is. */
  signal?: AbortSignal;
  /** Most bytes of one model reply (after decompression); default LANGUAGE_MODEL_REPLY_BOUNDS.maxReplyBytes. */
  maxReplyBytes?: number;
  /** Most tool calls in one model reply; default LANGUAGE_MODEL_REPLY_BOUNDS.maxToolCallsPerStep. */
  maxToolCallsPerStep?: number;
}

/**
 * The bounds on what one model reply may hold. A reply over either is refused while it is read
 * (ModelUnavailableError, reason "reply_over_bound"): nothing of it is parsed into tool calls or
 * run, so a hostile or broken model cannot hold the event loop or the memory of the service. A
 * chat-completions reply with a few tool calls and a 2,000-character answer is a few kilobytes;
 * the agents offer a handful of tools, so sixteen calls in one step is already a model repeating
 * itself.
 */
export const LANGUAGE_MODEL_REPLY_BOUNDS = Object.freeze({
  maxReplyBytes: 1_048_576,
  maxToolCallsPerStep: 16,
  /** Nesting of one tool call's arguments (the input screen's bound for a body; decision 168). */
  maxArgumentDepth: 32,
});

/** One tool call of the loop, in the order the model made them. */
export type ToolCallRecord =
  | { name: string; ok: true; input: unknown; output: unknown }
  /** A call that failed: input failing the schema, an unknown tool, or `execute` throwing. */
  | { name: string; ok: false; input: unknown; error: string };

export interface ToolLoopResult {
  /** The model's last text; empty when it stopped at the step bound while still calling tools. */
  text: string;
  toolCalls: ToolCallRecord[];
  /** Model calls made. */
  steps: number;
  /** True when the loop ended because of `maxSteps`, not because the model finished. */
  stoppedAtStepBound: boolean;
}

export interface ChatModel {
  runToolLoop(request: ToolLoopRequest): Promise<ToolLoopResult>;
}

/** Why the model could not serve the loop; agents answer 503 service_unavailable for any of them. */
export type ModelUnavailableReason = "unreachable" | "failed" | "timed_out" | "reply_over_bound";

/**
 * The model could not be reached, answered with an error or nonsense, ran past a time limit or
 * sent a reply over LANGUAGE_MODEL_REPLY_BOUNDS.
 * The message carries the reason and an HTTP status at most, never prompt or tool content.
 */
export class ModelUnavailableError extends Error {
  override readonly name = "ModelUnavailableError";
  readonly reason: ModelUnavailableReason;

  constructor(reason: ModelUnavailableReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/**
 * Why the model could not serve, in words a caller can read: the agent routes put it in their 503
 * so a reply refused for its bounds is not mistaken for an outage. Never prompt or tool content.
 */
export function describeModelUnavailable(error: ModelUnavailableError): string {
  switch (error.reason) {
    case "reply_over_bound":
      return "its reply was over the service's bounds for a model reply";
    case "timed_out":
      return "it did not answer in time";
    case "unreachable":
      return "it could not be reached";
    case "failed":
      return "it answered with an error";
  }
}
