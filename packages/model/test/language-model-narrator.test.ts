import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { NarrationRequest } from "@svc/intelligence";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLanguageModelNarrator, languageModelNarratorFromEnv } from "../src/index.js";

/**
 * The model adapter against a scripted OpenAI-compatible server on loopback: what it sends, what
 * it accepts, and that every bad answer is an error (attachReasoning turns errors into null).
 */
type Answer = { status: number; body: unknown };
let answer: Answer = { status: 200, body: {} };
const received: { url?: string; headers: IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        url: req.url,
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
      });
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received.length = 0;
});

const request: NarrationRequest = {
  engine: "relapse",
  summary: {
    status: "moderate",
    headline: "Moderate relapse early-warning score.",
    flagged: [],
    requiresClinicianReview: true,
  },
  confidence: { level: "moderate", score: 0.6, reasons: [] },
  change: null,
  highlights: ["Sleep below 6 hours."],
};

const reply = (content: unknown): Answer => ({
  status: 200,
  body: { choices: [{ message: { role: "assistant", content } }] },
});

describe("createLanguageModelNarrator", () => {
  it("posts the engine output to chat/completions and returns the answer", async () => {
    answer = reply("The score is moderate.");
    const narrator = createLanguageModelNarrator({ baseUrl, apiKey: "sk-test", model: "scripted" });
    expect(narrator.kind).toBe("model");
    await expect(narrator.narrate(request, AbortSignal.timeout(2_000))).resolves.toBe(
      "The score is moderate.",
    );
    const [call] = received;
    expect(call?.url).toBe("/v1/chat/completions");
    expect(call?.headers.authorization).toBe("Bearer sk-test");
    expect(call?.body.model).toBe("scripted");
    const messages = call?.body.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(JSON.parse(messages[1]?.content ?? "")).toEqual(request);
  });

  it("sends no authorization header without an API key", async () => {
    answer = reply("Fine.");
    await createLanguageModelNarrator({ baseUrl, model: "scripted" }).narrate(
      request,
      AbortSignal.timeout(2_000),
    );
    expect(received[0]?.headers.authorization).toBeUndefined();
  });

  it("fails on an error status, an empty answer or a malformed one", async () => {
    const narrator = createLanguageModelNarrator({ baseUrl, model: "scripted" });
    for (const bad of [
      { status: 500, body: {} },
      reply("   "),
      reply(42),
      { status: 200, body: { choices: [] } },
    ]) {
      answer = bad;
      await expect(narrator.narrate(request, AbortSignal.timeout(2_000))).rejects.toThrow();
    }
  });

  it("refuses a reply over the 1 MiB bound rather than buffering it (attachReasoning gives null)", async () => {
    answer = reply("x".repeat(5_000_000));
    const narrator = createLanguageModelNarrator({ baseUrl, model: "scripted" });
    await expect(narrator.narrate(request, AbortSignal.timeout(5_000))).rejects.toThrow(
      "model unavailable: reply over the bound of 1048576 bytes",
    );
  });
});

describe("languageModelNarratorFromEnv", () => {
  it("is undefined without MODEL_BASE_URL and a model narrator with it", () => {
    expect(languageModelNarratorFromEnv({})).toBeUndefined();
    expect(languageModelNarratorFromEnv({ MODEL_BASE_URL: baseUrl, MODEL_NAME: "scripted" })?.kind).toBe(
      "model",
    );
  });
});
