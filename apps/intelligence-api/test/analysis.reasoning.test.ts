import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createLanguageModelNarrator } from "@svc/model";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RelapsePredictionResponse, RelapsePredictRequest } from "../src/index.js";

/**
 * `explain: true` through the model port's real adapter against a scripted OpenAI-compatible
 * server on loopback: a good answer, a failing server and a slow one (reasoning null, the rest
 * of the analysis intact).
 */
type Behaviour = "ok" | "fail" | "slow" | "empty";
let behaviour: Behaviour = "ok";
const received: { authorization?: string; body: { model: string; messages: { content: string }[] } }[] = [];

let model: Server;
let key: string;

beforeAll(async () => {
  model = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        authorization: req.headers.authorization,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
      });
      if (req.url !== "/v1/chat/completions") return res.writeHead(404).end();
      if (behaviour === "fail") return res.writeHead(500).end("upstream exploded");
      const answer = (content: string) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content } }] }));
      };
      if (behaviour === "empty") return answer("   ");
      if (behaviour === "slow") return setTimeout(() => answer("Too late."), 5_000);
      answer("The relapse early-warning score is moderate. Sleep and symptom velocity drive it.");
    });
  });
  await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  model.closeAllConnections();
  await new Promise((resolve) => model.close(resolve));
});
const svc = useTestService(() => ({
  narrator: createLanguageModelNarrator({
    baseUrl: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`,
    apiKey: "sk-test",
    model: "scripted",
  }),
  reasoningTimeoutMs: 500,
}));
beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
});

const body: RelapsePredictRequest = {
  assessments: [
    { instrumentId: "phq9", instrumentName: "PHQ-9", score: 8, maxScore: 27, createdAt: "2026-06-01" },
    { instrumentId: "phq9", instrumentName: "PHQ-9", score: 15, maxScore: 27, createdAt: "2026-06-21" },
  ],
  avgSleepHours: 5,
  sessionRef: "SESSION-NEVER-SENT",
  explain: true,
};

describe("reasoning through an OpenAI-compatible model", () => {
  it("adds the model's narrative and says a model wrote it; sends no identifiers", async () => {
    behaviour = "ok";
    const res = await call<RelapsePredictionResponse, RelapsePredictRequest>(svc.url, "/v1/relapse/predict", {
      key,
      body,
    });
    expect(res.status).toBe(200);
    expect(res.json.data.intelligence.reasoning).toEqual({
      narrative: "The relapse early-warning score is moderate. Sleep and symptom velocity drive it.",
      generatedAt: expect.any(String),
      narrator: "model",
    });
    const last = received.at(-1);
    expect(last?.authorization).toBe("Bearer sk-test");
    expect(last?.body.model).toBe("scripted");
    expect(JSON.stringify(last?.body)).not.toContain("SESSION-NEVER-SENT");
  });

  it.each(["fail", "slow", "empty"] as const)(
    "a %s model gives reasoning null and the analysis intact",
    async (mode) => {
      behaviour = mode;
      const started = Date.now();
      const res = await call<RelapsePredictionResponse, RelapsePredictRequest>(
        svc.url,
        "/v1/relapse/predict",
        { key, body },
      );
      expect(res.status).toBe(200);
      expect(res.json.data.intelligence.reasoning).toBeNull();
      expect(typeof res.json.data.score).toBe("number");
      expect(res.json.data.intelligence.summary.headline.length).toBeGreaterThan(0);
      // Bounded by the time limit (500 ms here), not by the model.
      expect(Date.now() - started).toBeLessThan(4_000);
    },
  );

  it("without explain the model is never called", async () => {
    behaviour = "ok";
    const before = received.length;
    const res = await call<RelapsePredictionResponse, RelapsePredictRequest>(svc.url, "/v1/relapse/predict", {
      key,
      body: { ...body, explain: false },
    });
    expect(res.json.data.intelligence.reasoning).toBeNull();
    expect(received.length).toBe(before);
  });
});
