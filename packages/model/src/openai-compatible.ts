import { clipModelText } from "@svc/intelligence";
import type { StepResult, Tool, ToolSet } from "ai";
import {
  type ChatModel,
  type ChatTool,
  LANGUAGE_MODEL_REPLY_BOUNDS,
  ModelUnavailableError,
  type ModelUnavailableReason,
  type ToolCallRecord,
  type ToolLoopRequest,
  type ToolLoopResult,
} from "./chat-model.js";
import type { LanguageModelEnv } from "./language-model-narrator.js";
import { readBounded, replyOverBound } from "./reply-bounds.js";

/**
 * The chat-model port over any OpenAI-compatible chat-completions endpoint, with the AI SDK's
 * tool loop (`generateText` with tools and a step-count stop condition) rather than our own:
 * it validates tool input against the schemas, reports failed calls back to the model and keeps
 * the message history. We add the bounds (no retries, a time limit per model call and per loop)
 * and the reply bounds (LANGUAGE_MODEL_REPLY_BOUNDS: bytes read, tool calls per reply, checked on the
 * bytes before the SDK parses them) and turn every model failure into a ModelUnavailableError.
 */
export interface OpenAiCompatibleChatModelOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
}

/**
 * The AI SDK and its OpenAI-compatible provider, loaded on the first model call rather than at
 * start: ~30 MB a process without a configured model (or never asked to explain) does not need.
 */
let aiSdk: Promise<AiSdk> | undefined;
type AiSdk = typeof import("ai") & Pick<typeof import("@ai-sdk/openai-compatible"), "createOpenAICompatible">;
function loadAiSdk(): Promise<AiSdk> {
  aiSdk ??= Promise.all([import("ai"), import("@ai-sdk/openai-compatible")]).then(([ai, provider]) => ({
    ...ai,
    createOpenAICompatible: provider.createOpenAICompatible,
  }));
  return aiSdk;
}

export function createOpenAiCompatibleChatModel(options: OpenAiCompatibleChatModelOptions): ChatModel {
  return {
    async runToolLoop(request: ToolLoopRequest): Promise<ToolLoopResult> {
      const sdk = await loadAiSdk();
      const { generateText, isStepCount } = sdk;
      const provider = sdk.createOpenAICompatible({
        name: "model",
        baseURL: options.baseUrl.replace(/\/$/, ""),
        apiKey: options.apiKey,
        fetch: boundedFetch(request.callTimeoutMs, {
          maxReplyBytes: request.maxReplyBytes ?? LANGUAGE_MODEL_REPLY_BOUNDS.maxReplyBytes,
          maxToolCallsPerStep: request.maxToolCallsPerStep ?? LANGUAGE_MODEL_REPLY_BOUNDS.maxToolCallsPerStep,
        }),
      });
      try {
        const result = await generateText({
          model: provider.chatModel(options.model),
          system: request.system,
          prompt: request.prompt,
          tools: toSdkTools(sdk, request.tools),
          stopWhen: isStepCount(request.maxSteps),
          // A failing model is reported at once; the caller answers 503 rather than waiting.
          maxRetries: 0,
          timeout: { totalMs: request.totalTimeoutMs },
          abortSignal: request.signal,
          temperature: 0,
        });
        return toToolLoopResult(sdk, result, request.maxSteps);
      } catch (error) {
        throw toModelUnavailableError(sdk, error, request.signal);
      }
    },
  };
}

/**
 * The chat model the environment configures (MODEL_BASE_URL, MODEL_API_KEY, MODEL_NAME), or
 * undefined when MODEL_BASE_URL is unset (the agents then answer 503 service_unavailable).
 */
export function chatModelFromEnv(env: LanguageModelEnv): ChatModel | undefined {
  if (!env.MODEL_BASE_URL || !env.MODEL_NAME) return undefined;
  return createOpenAiCompatibleChatModel({
    baseUrl: env.MODEL_BASE_URL,
    apiKey: env.MODEL_API_KEY,
    model: env.MODEL_NAME,
  });
}

/**
 * fetch bounded per model call: in time (the call's own signal, the loop limit or the caller, or
 * the call limit) and in what the reply may hold. The body is read here up to maxReplyBytes and
 * refused past it (the rest is never read); a successful reply asking for more than
 * maxToolCallsPerStep tool calls is refused before the SDK parses it into calls and runs them.
 * The SDK then gets the bytes read, as a fresh response.
 */
function boundedFetch(
  callTimeoutMs: number,
  bounds: { maxReplyBytes: number; maxToolCallsPerStep: number },
): typeof fetch {
  return async (input, init) => {
    const callLimit = AbortSignal.timeout(callTimeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, callLimit]) : callLimit;
    const response = await fetch(input, { ...init, signal, redirect: "error" });
    const bytes = await readBounded(response, bounds.maxReplyBytes);
    if (response.ok) refuseToolCallsOverBound(bytes, bounds.maxToolCallsPerStep);
    const headers = new Headers(response.headers);
    // The body is already decoded and its length is what was read.
    headers.delete("content-encoding");
    headers.delete("content-length");
    return new Response(bytes, { status: response.status, statusText: response.statusText, headers });
  };
}

/**
 * Refuses a chat-completions reply whose first choice (the one the SDK reads) holds more tool
 * calls than the bound. A body that is not such JSON is left to the SDK, which reports it.
 */
function refuseToolCallsOverBound(bytes: Uint8Array, maxToolCalls: number): void {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return;
  }
  const choices = (body as { choices?: unknown } | null)?.choices;
  const first = Array.isArray(choices) ? (choices[0] as { message?: { tool_calls?: unknown } }) : undefined;
  const calls = first?.message?.tool_calls;
  if (Array.isArray(calls) && calls.length > maxToolCalls)
    throw replyOverBound(
      `model unavailable: reply asked for ${calls.length} tool calls, over the bound of ${maxToolCalls} per step`,
    );
  if (!Array.isArray(calls)) return;
  for (const call of calls) {
    const args = (call as { function?: { arguments?: unknown } } | null)?.function?.arguments;
    if (typeof args === "string" && jsonDepthOver(args, LANGUAGE_MODEL_REPLY_BOUNDS.maxArgumentDepth))
      throw replyOverBound(
        `model unavailable: tool call arguments nested over the bound of ${LANGUAGE_MODEL_REPLY_BOUNDS.maxArgumentDepth} levels`,
      );
  }
}

/**
 * True when the JSON text nests arrays and objects deeper than `maxDepth`: one pass over the
 * characters, outside strings, no parse. The AI SDK copies tool input recursively, so arguments
 * nested 200,000 deep overflowed its stack (decision 168); no tool's input nests past a few levels.
 */
function jsonDepthOver(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}

function toSdkTools({ tool }: AiSdk, tools: readonly ChatTool[]): ToolSet {
  const sdkTools: Record<string, Tool> = {};
  for (const chatTool of tools) {
    if (chatTool.name in sdkTools) throw new Error(`duplicate tool name ${chatTool.name}`);
    sdkTools[chatTool.name] = tool({
      description: chatTool.description,
      inputSchema: chatTool.inputSchema,
      execute: async (input: unknown) => chatTool.execute(input),
    });
  }
  return sdkTools;
}

function toToolLoopResult(
  sdk: AiSdk,
  result: { text: string; steps: readonly StepResult<ToolSet>[] },
  maxSteps: number,
): ToolLoopResult {
  const lastStep = result.steps.at(-1);
  return {
    text: result.text,
    toolCalls: result.steps.flatMap((step) => toolCallRecordsOf(sdk, step)),
    steps: result.steps.length,
    // The model asked for more tools in the last allowed step: the bound, not the model, ended it.
    stoppedAtStepBound: result.steps.length >= maxSteps && lastStep?.finishReason === "tool-calls",
  };
}

/** The step's tool calls in the order the model made them, each with its output or error. */
function toolCallRecordsOf(sdk: AiSdk, step: StepResult<ToolSet>): ToolCallRecord[] {
  return step.toolCalls.map((call): ToolCallRecord => {
    const outcome = step.content.find(
      (part) =>
        (part.type === "tool-result" || part.type === "tool-error") && part.toolCallId === call.toolCallId,
    );
    if (outcome?.type === "tool-result") {
      return { name: call.toolName, ok: true, input: call.input, output: outcome.output };
    }
    // An invalid call (bad JSON, failing schema, unknown tool) keeps the typed error on the call;
    // its tool-error part only holds the text the model was sent.
    const error = call.invalid || outcome?.type !== "tool-error" ? call.error : outcome.error;
    return { name: call.toolName, ok: false, input: call.input, error: describeToolError(sdk, error) };
  });
}

/** A short reason for a failed tool call, without echoing the model's input back. */
function describeToolError({ InvalidToolInputError, NoSuchToolError }: AiSdk, error: unknown): string {
  if (InvalidToolInputError.isInstance(error)) return "input does not match the tool's schema";
  if (NoSuchToolError.isInstance(error)) return "no such tool";
  // A tool's own error; clipped like any text that may echo what the model sent.
  if (error instanceof Error) return clipModelText(error.message, 200);
  return "tool call failed";
}

/** Any failure of the model becomes a ModelUnavailableError; the caller's own abort passes through. */
function toModelUnavailableError(sdk: AiSdk, error: unknown, callerSignal: AbortSignal | undefined): unknown {
  if (callerSignal?.aborted) return callerSignal.reason;
  // A bound of the reply refused in boundedFetch, passed through the SDK as it was thrown.
  const refused = findInCauses(error, (e) => e instanceof ModelUnavailableError);
  if (refused) return refused;
  const reason = unavailableReasonOf(sdk, error);
  if (!reason) return error;
  const status = sdk.APICallError.isInstance(error) ? error.statusCode : undefined;
  const detail = status === undefined ? reason.replace("_", " ") : `answered ${status}`;
  return new ModelUnavailableError(reason, `model unavailable: ${detail}`, { cause: error });
}

function unavailableReasonOf(
  { AISDKError, APICallError }: AiSdk,
  error: unknown,
): ModelUnavailableReason | undefined {
  if (isTimeLimit(error)) return "timed_out";
  if (APICallError.isInstance(error)) return error.statusCode === undefined ? "unreachable" : "failed";
  if (AISDKError.isInstance(error)) return "failed";
  return undefined;
}

function findInCauses(error: unknown, match: (error: unknown) => boolean, depth = 0): unknown {
  if (match(error)) return error;
  if (!(error instanceof Error) || depth >= 8 || error.cause === error) return undefined;
  return findInCauses(error.cause, match, depth + 1);
}

function isTimeLimit(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "TimeoutError" || error.name === "AbortError") return true;
  return error.cause !== error && isTimeLimit(error.cause);
}
