import { foldForMatching } from "@svc/intelligence";
import { createLanguageModelNarrator } from "@svc/model";
import { call, type ScriptedModelServer, startScriptedModelServer, textAnswer } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disguised, REASSURING } from "../../../packages/intelligence/test/reassurance-arbitraries.js";
import type { RelapsePredictionResponse, RelapsePredictRequest } from "../src/index.js";

/**
 * `explain: true` through the model port's real adapter against the scripted OpenAI-compatible
 * server: a language model's reassurance about risk never reaches `intelligence.reasoning`
 * (decision 74), whatever letters spell it; the model's other sentences stay, and a narrative
 * with nothing left becomes the template narrator's.
 */
let model: ScriptedModelServer;
let key: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
});
afterAll(async () => {
  await model?.close();
});
const svc = useTestService(() => ({
  narrator: createLanguageModelNarrator({ baseUrl: model.baseUrl, apiKey: "sk-test", model: "scripted" }),
  reasoningTimeoutMs: 2_000,
}));
beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
});

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/** A PHQ-9 rising from 6 to 23 in four weeks with short sleep: relapse `high`. */
const body: RelapsePredictRequest = {
  assessments: [
    { instrumentId: "phq9", instrumentName: "PHQ-9", score: 6, maxScore: 27, createdAt: daysAgo(28) },
    { instrumentId: "phq9", instrumentName: "PHQ-9", score: 14, maxScore: 27, createdAt: daysAgo(14) },
    { instrumentId: "phq9", instrumentName: "PHQ-9", score: 23, maxScore: 27, createdAt: daysAgo(1) },
  ],
  avgSleepHours: 4,
  daysSinceLastVisit: 90,
  explain: true,
};

async function predictWithModelSaying(narrative: string) {
  model.script([textAnswer(narrative)]);
  const res = await call<RelapsePredictionResponse, RelapsePredictRequest>(svc.url, "/v1/relapse/predict", {
    key,
    body,
  });
  expect(res.status).toBe(200);
  expect(model.received.length).toBe(1);
  return res.json.data;
}

describe("POST /v1/relapse/predict with explain: true and a model that reassures", () => {
  it("drops the disguised reassurance beside a high relapse and keeps the rest (narrator model)", async () => {
    // Cyrillic о, і, а, a zero-width space and a soft hyphen.
    const data = await predictWithModelSaying(
      "Relapse risk is high. Nо rіsk of relapse, s\u200Bаfe to dis\u00ADcharge.",
    );
    expect(data.level).toBe("high");
    expect(data.intelligence.summary.requiresClinicianReview).toBe(true);
    expect(data.intelligence.reasoning).toEqual({
      narrative: "Relapse risk is high.",
      generatedAt: expect.any(String),
      narrator: "model",
    });
  });

  it("a narrative that only reassures gives the template narrator's text, never null", async () => {
    const data = await predictWithModelSaying("Nо rіsk; safe to discharge.");
    expect(data.intelligence.reasoning?.narrator).toBe("template");
    expect(data.intelligence.reasoning?.narrative).toMatch(/^Relapse early-warning score \d/);
    expect(data.intelligence.reasoning?.narrative).toContain("a clinician should review this result");
  });

  it("a clean narrative comes back exactly as the model wrote it", async () => {
    const narrative = "The relapse early-warning score is high. PHQ-9 rose to 23 and sleep is short.";
    const data = await predictWithModelSaying(narrative);
    expect(data.intelligence.reasoning).toMatchObject({ narrative, narrator: "model" });
  });

  it("property: a disguised reassurance phrase never comes back in reasoning.narrative", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...REASSURING).chain((phrase) => fc.tuple(fc.constant(phrase), disguised(phrase))),
        async ([phrase, disguise]) => {
          const data = await predictWithModelSaying(`Sleep is short. ${disguise}. PHQ-9 rose to 23.`);
          expect(data.intelligence.reasoning).toMatchObject({
            narrative: "Sleep is short. PHQ-9 rose to 23.",
            narrator: "model",
          });
          const folded = ` ${foldForMatching(data.intelligence.reasoning?.narrative ?? "")} `;
          expect(folded, JSON.stringify(disguise)).not.toContain(` ${foldForMatching(phrase)} `);
        },
      ),
      { numRuns: 60 },
    );
  });
});
