import type { ErrorEnvelope } from "@svc/http";
import { createLanguageModelNarrator, createOpenAiCompatibleChatModel } from "@svc/model";
import { call, startScriptedModelServer, textAnswer, waitFor } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BiomarkerAgentRequest, RelapsePredictRequest } from "../src/index.js";

/**
 * The request's time limit stops a model call (decision 126): when the limit answers 503, the
 * agents' and the narrator's connection to the model is closed at once. The model here answers
 * only after ten seconds and its own time limits are longer still, so without the request's
 * signal on the model's fetch the connection would stay open long after the caller was answered.
 */
const LIMIT_MS = 1_000;
const MODEL_REPLY_DELAY_MS = 10_000;
/** Past the 503: time for the abort to reach the model server, far below the reply delay. */
const PROMPTLY_MS = 2_000;

let model: Awaited<ReturnType<typeof startScriptedModelServer>>;
let chatModel: ReturnType<typeof createOpenAiCompatibleChatModel>;
let key: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  chatModel = createOpenAiCompatibleChatModel({ baseUrl: model.baseUrl, model: "scripted" });
  // The AI SDK loads on the first model call; load it here, so the agent's model call starts
  // well within the limit on a busy machine.
  model.script([textAnswer("warm")]);
  await chatModel.runToolLoop({
    system: "",
    prompt: "warm",
    tools: [],
    maxSteps: 1,
    callTimeoutMs: 10_000,
    totalTimeoutMs: 10_000,
  });
});
afterAll(async () => {
  await model?.close();
});
const svc = useTestService(() => ({
  requestTimeoutMs: LIMIT_MS,
  chatModel,
  agentLimits: { maxSteps: 3, callTimeoutMs: 20_000, totalTimeoutMs: 25_000 },
  narrator: createLanguageModelNarrator({ baseUrl: model.baseUrl, model: "scripted" }),
  reasoningTimeoutMs: 20_000,
}));
beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
});

/** Answers 503 at the limit, and the model's connection is closed soon after. */
async function modelCallStopsWith(request: () => Promise<{ status: number }>) {
  model.script([{ ...textAnswer("too late"), delayMs: MODEL_REPLY_DELAY_MS }]);
  const closedBefore = model.closedBeforeAnswer;
  const res = await request();
  expect(res.status).toBe(503);
  expect(model.received.length).toBe(1);
  const answered = Date.now();
  await waitFor(() => model.closedBeforeAnswer > closedBefore, PROMPTLY_MS, "the model connection closed");
  expect(Date.now() - answered).toBeLessThan(PROMPTLY_MS);
}

describe("a model call past the request's time limit", () => {
  it("an agent's model call is aborted with the 503", async () => {
    await modelCallStopsWith(() =>
      call<ErrorEnvelope, BiomarkerAgentRequest>(svc.url, "/v1/biomarker/pt_time_limit/agent", {
        key,
        body: { panel: [{ analyte: "lithium", value: 1.6 }] },
      }),
    );
  });

  it("the narrator's model call (explain: true) is aborted with the 503", async () => {
    await modelCallStopsWith(() =>
      call<ErrorEnvelope, RelapsePredictRequest>(svc.url, "/v1/relapse/predict", {
        key,
        body: {
          assessments: [
            {
              instrumentId: "phq9",
              instrumentName: "PHQ-9",
              score: 6,
              maxScore: 27,
              createdAt: "2026-10-01",
            },
            {
              instrumentId: "phq9",
              instrumentName: "PHQ-9",
              score: 23,
              maxScore: 27,
              createdAt: "2026-10-29",
            },
          ],
          explain: true,
        },
      }),
    );
  });

  it("the MSE agent's model call is aborted with the 503", async () => {
    const org = await svc.seed.org();
    await modelCallStopsWith(() =>
      call(svc.url, "/v1/mse/visit-time-limit/agent", {
        key: org.key,
        body: { patientId: "pt_time_limit", transcript: "I feel low most days." },
      }),
    );
  });
});
