import { createServer } from "node:net";
import {
  type ScriptedModelServer,
  startScriptedModelServer,
  textAnswer,
  toolCallsAnswer,
} from "@svc/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type ChatTool,
  chatModelFromEnv,
  createOpenAiCompatibleChatModel,
  LANGUAGE_MODEL_REPLY_BOUNDS,
  ModelUnavailableError,
  type ToolLoopRequest,
} from "../src/index.js";

/**
 * The chat-model port's OpenAI-compatible adapter against a scripted model on loopback: the tool
 * loop, failed tool calls reported back to the model, the step bound, and every way the model can
 * be unavailable (down, slow, failing) surfacing as ModelUnavailableError without retries.
 */
let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(async () => {
  await server.close();
});

const executedInputs: unknown[] = [];
const checkInteractions: ChatTool<{ medications: string[] }, { interactions: number }> = {
  name: "checkInteractions",
  description: "Checks a medication list for interactions.",
  inputSchema: z.object({ medications: z.array(z.string()).min(1) }),
  execute(input) {
    executedInputs.push(input);
    return { interactions: input.medications.length - 1 };
  },
};

/**
 * Each loop's prompt carries its own case number, and `thisCase()` keeps only the requests that
 * carry it: a request the previous case aborted can still reach the server after `script()`
 * cleared the log (seen on a loaded machine), and is not this case's.
 */
let caseNumber = 0;
const casePrompt = () => `Assess: sertraline, tramadol. (case ${caseNumber})`;
function thisCase(): Record<string, unknown>[] {
  const marker = `(case ${caseNumber})`;
  return server.received.filter((request) => JSON.stringify(request).includes(marker));
}

function loop(overrides: Partial<ToolLoopRequest> = {}): ToolLoopRequest {
  executedInputs.length = 0;
  caseNumber += 1;
  return {
    system: "You assess medication lists with the tools only.",
    prompt: casePrompt(),
    tools: [checkInteractions],
    maxSteps: 4,
    callTimeoutMs: 2_000,
    totalTimeoutMs: 5_000,
    ...overrides,
  };
}

const model = () => createOpenAiCompatibleChatModel({ baseUrl: server.baseUrl, apiKey: "k", model: "m" });

async function unavailable(run: Promise<unknown>): Promise<ModelUnavailableError> {
  const error = await run.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ModelUnavailableError);
  return error as ModelUnavailableError;
}

describe("createOpenAiCompatibleChatModel", () => {
  it("runs a tool call, gives its result to the model and returns the final text", async () => {
    server.script([
      toolCallsAnswer([{ name: "checkInteractions", args: { medications: ["sertraline", "tramadol"] } }]),
      textAnswer("One interaction found."),
    ]);
    const result = await model().runToolLoop(loop());

    expect(result).toEqual({
      text: "One interaction found.",
      toolCalls: [
        {
          name: "checkInteractions",
          ok: true,
          input: { medications: ["sertraline", "tramadol"] },
          output: { interactions: 1 },
        },
      ],
      steps: 2,
      stoppedAtStepBound: false,
    });
    expect(thisCase()).toHaveLength(2);
    const first = thisCase()[0] as { model: string; tools: { function: { name: string } }[] };
    expect(first.model).toBe("m");
    expect(first.tools.map((t) => t.function.name)).toEqual(["checkInteractions"]);
    const secondMessages = (thisCase()[1] as { messages: { role: string; content: unknown }[] }).messages;
    expect(secondMessages.at(-1)).toMatchObject({
      role: "tool",
      content: JSON.stringify({ interactions: 1 }),
    });
  });

  it("records malformed tool arguments as a failed call, reports them to the model and goes on", async () => {
    server.script([
      toolCallsAnswer([
        { name: "checkInteractions", args: { medications: [] } },
        { name: "checkInteractions", args: "{not json" },
        { name: "noSuchTool", args: {} },
      ]),
      textAnswer("I could not check the list."),
    ]);
    const result = await model().runToolLoop(loop());

    expect(result.text).toBe("I could not check the list.");
    expect(result.steps).toBe(2);
    expect(result.toolCalls).toEqual([
      {
        name: "checkInteractions",
        ok: false,
        input: { medications: [] },
        error: "input does not match the tool's schema",
      },
      {
        name: "checkInteractions",
        ok: false,
        input: "{not json",
        error: "input does not match the tool's schema",
      },
      { name: "noSuchTool", ok: false, input: {}, error: "no such tool" },
    ]);
    expect(executedInputs).toEqual([]);
    const toolMessages = (thisCase()[1] as { messages: { role: string }[] }).messages.filter(
      (message) => message.role === "tool",
    );
    expect(toolMessages).toHaveLength(3);
  });

  it("records a tool that throws as a failed call", async () => {
    const failing: ChatTool = {
      ...checkInteractions,
      name: "failing",
      execute: () => Promise.reject(new Error("engine down")),
    };
    server.script([
      toolCallsAnswer([{ name: "failing", args: { medications: ["a"] } }]),
      textAnswer("Done."),
    ]);
    const result = await model().runToolLoop(loop({ tools: [failing] }));

    expect(result.toolCalls).toEqual([
      { name: "failing", ok: false, input: { medications: ["a"] }, error: "engine down" },
    ]);
    expect(result.text).toBe("Done.");
  });

  it("stops a model that keeps calling tools at the step bound", async () => {
    server.script([toolCallsAnswer([{ name: "checkInteractions", args: { medications: ["a", "b"] } }])]);
    const result = await model().runToolLoop(loop({ maxSteps: 3 }));

    expect(thisCase()).toHaveLength(3);
    expect(result.steps).toBe(3);
    expect(result.stoppedAtStepBound).toBe(true);
    expect(result.text).toBe("");
    expect(result.toolCalls).toHaveLength(3);
  });

  it("reports a model that cannot be reached as unavailable", async () => {
    const down = createOpenAiCompatibleChatModel({
      baseUrl: `http://127.0.0.1:${await closedPort()}/v1`,
      model: "m",
    });
    const error = await unavailable(down.runToolLoop(loop()));
    expect(error.reason).toBe("unreachable");
  });

  it("reports a model slower than the call limit as unavailable within the limit", async () => {
    server.script([{ ...textAnswer("late"), delayMs: 3_000 }]);
    const started = performance.now();
    const error = await unavailable(model().runToolLoop(loop({ callTimeoutMs: 300 })));

    expect(error.reason).toBe("timed_out");
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(thisCase()).toHaveLength(1);
  });

  it("stops the whole loop at the total limit even when each call is in time", async () => {
    server.script([
      {
        ...toolCallsAnswer([{ name: "checkInteractions", args: { medications: ["a", "b"] } }]),
        delayMs: 200,
      },
    ]);
    const started = performance.now();
    const error = await unavailable(
      model().runToolLoop(loop({ maxSteps: 20, callTimeoutMs: 1_000, totalTimeoutMs: 500 })),
    );

    expect(error.reason).toBe("timed_out");
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it("reports a 500 answer as unavailable after exactly one request (no retries)", async () => {
    server.script([{ status: 500, body: { error: { message: "overloaded" } } }]);
    const error = await unavailable(model().runToolLoop(loop()));

    expect(error.reason).toBe("failed");
    expect(error.message).toBe("model unavailable: answered 500");
    expect(thisCase()).toHaveLength(1);
  });

  it("reports a 429 answer as unavailable after exactly one request", async () => {
    server.script([{ status: 429, body: { error: { message: "slow down" } } }]);
    const error = await unavailable(model().runToolLoop(loop()));

    expect(error.reason).toBe("failed");
    expect(thisCase()).toHaveLength(1);
  });

  it("reports a malformed answer as unavailable", async () => {
    server.script([{ body: { choices: "nope" } }]);
    const error = await unavailable(model().runToolLoop(loop()));
    expect(error.reason).toBe("failed");
  });

  it("passes the caller's own abort through rather than blaming the model", async () => {
    server.script([{ ...textAnswer("late"), delayMs: 2_000 }]);
    const caller = new AbortController();
    const run = model().runToolLoop(loop({ signal: caller.signal }));
    setTimeout(() => caller.abort(new Error("client went away")), 100);

    await expect(run).rejects.toThrow("client went away");
  });
});

describe("a hostile model's reply is bounded", () => {
  it("refuses a reply with 2,000 tool calls before running any, without holding the event loop", async () => {
    const calls = Array.from({ length: 2_000 }, () => ({
      name: "checkInteractions",
      args: { medications: ["a", "b"] },
    }));
    server.script([toolCallsAnswer(calls), textAnswer("Done.")]);
    const started = performance.now();
    const error = await unavailable(model().runToolLoop(loop({ totalTimeoutMs: 30_000 })));

    expect(error.reason).toBe("reply_over_bound");
    expect(error.message).toBe(
      `model unavailable: reply asked for 2000 tool calls, over the bound of ${LANGUAGE_MODEL_REPLY_BOUNDS.maxToolCallsPerStep} per step`,
    );
    expect(executedInputs).toEqual([]);
    expect(thisCase()).toHaveLength(1);
    // Refused on the bytes, before the SDK turned 2,000 calls into work.
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("runs a reply with tool calls at the bound", async () => {
    const calls = Array.from({ length: LANGUAGE_MODEL_REPLY_BOUNDS.maxToolCallsPerStep }, () => ({
      name: "checkInteractions",
      args: { medications: ["a", "b"] },
    }));
    server.script([toolCallsAnswer(calls), textAnswer("Done.")]);
    const result = await model().runToolLoop(loop());
    expect(result.toolCalls).toHaveLength(LANGUAGE_MODEL_REPLY_BOUNDS.maxToolCallsPerStep);
    expect(result.text).toBe("Done.");
  });

  it("refuses a 30 MB reply with a Content-Length", async () => {
    server.script([textAnswer("x".repeat(30_000_000))]);
    const error = await unavailable(
      model().runToolLoop(loop({ callTimeoutMs: 10_000, totalTimeoutMs: 20_000 })),
    );

    expect(error.reason).toBe("reply_over_bound");
    expect(error.message).toMatch(/^model unavailable: reply of \d+ bytes, over the bound of 1048576$/);
  });

  it("refuses a 30 MB chunked reply while reading it, not after buffering it", async () => {
    server.script([{ ...textAnswer("x".repeat(30_000_000)), chunked: true }]);
    const error = await unavailable(
      model().runToolLoop(loop({ callTimeoutMs: 10_000, totalTimeoutMs: 20_000 })),
    );

    expect(error.reason).toBe("reply_over_bound");
    expect(error.message).toBe("model unavailable: reply over the bound of 1048576 bytes");
    // Reading stopped near the bound: the rest was never taken (socket buffers allow some slack).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.bytesSent).toBeLessThan(12_000_000);
  });

  it("clips a tool's error message that may echo the model's input", async () => {
    const echoing: ChatTool = {
      ...checkInteractions,
      name: "echoing",
      execute: (input) => Promise.reject(new Error(`bad input ${JSON.stringify(input)}`)),
    };
    server.script([
      toolCallsAnswer([{ name: "echoing", args: { medications: ["y".repeat(5_000)] } }]),
      textAnswer("Done."),
    ]);
    const result = await model().runToolLoop(loop({ tools: [echoing] }));
    const [record] = result.toolCalls;
    expect(record?.ok).toBe(false);
    expect(record && !record.ok && record.error.length).toBeLessThanOrEqual(200);
  });
});

describe("chatModelFromEnv", () => {
  it("is undefined without MODEL_BASE_URL and a chat model with it", () => {
    expect(chatModelFromEnv({})).toBeUndefined();
    expect(chatModelFromEnv({ MODEL_BASE_URL: server.baseUrl, MODEL_NAME: "m" })).toHaveProperty(
      "runToolLoop",
    );
  });
});

/** A loopback port nothing listens on (bound once, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
