import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type { DmseAnalysisResponse, RelapsePredictionResponse } from "../src/index.js";

/**
 * What `explain: true` and `intelligence.codes` say over real HTTP: the narrative is 2 to 4
 * sentences without a repeated finding or broken punctuation (the contract), and a dmse response
 * with flagged signals states that they have no verified code rather than leaving `codes` empty
 * without a word, inventing none (decision 91).
 */
const svc = useTestService();
let key: string;

beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
});

const FOUR_FLAGGED = {
  responseLatencySeconds: 3,
  psychomotorFidgetEpisodes: 20,
  speechRateWpm: 80,
  sustainedAttentionPct: 40,
  sessionDurationSeconds: 600,
};

function sentencesOf(text: string): number {
  return (text.match(/[.!?]["')\]]*\s+(?=[A-Z0-9("'])/g)?.length ?? 0) + 1;
}

describe("dmse codes", () => {
  it("four flagged signals: codes stay empty (no verified SNOMED CT concept) and each is stated as unmapped", async () => {
    const res = await call<DmseAnalysisResponse>(svc.url, "/v1/dmse/analyze", { key, body: FOUR_FLAGGED });
    expect(res.status).toBe(200);
    const { signals, intelligence } = res.json.data;
    expect(intelligence.summary.flagged).toHaveLength(4);
    expect(intelligence.codes).toEqual([]);
    expect(intelligence.unmapped).toHaveLength(4);
    for (const entry of intelligence.unmapped ?? []) {
      const index = Number(entry.mapsTo.replace(/^signals\./, ""));
      const signal = signals[index];
      expect(signal?.label).toBe(entry.concept);
      expect(signal?.interpretation).not.toBe("within_normal");
      expect(entry.reason).toMatch(/^SNOMED CT: no concept .* verified/);
    }
    expect(Object.keys(intelligence).indexOf("unmapped")).toBe(
      Object.keys(intelligence).indexOf("codes") + 1,
    );
  });

  it("no flagged signal: no unmapped entry", async () => {
    const res = await call<DmseAnalysisResponse>(svc.url, "/v1/dmse/analyze", {
      key,
      body: { responseLatencySeconds: 1, speechRateWpm: 140, sessionDurationSeconds: 600 },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.intelligence.summary.flagged).toEqual([]);
    expect(res.json.data.intelligence.unmapped).toBeUndefined();
  });
});

describe("explain", () => {
  it("relapse with a reliable deterioration: 2-4 sentences, the deterioration once, no broken punctuation", async () => {
    const day = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
    const res = await call<RelapsePredictionResponse>(svc.url, "/v1/relapse/predict", {
      key,
      body: {
        explain: true,
        assessments: [
          { instrumentId: "phq9", instrumentName: "PHQ-9", score: 8, maxScore: 27, createdAt: day(60) },
          { instrumentId: "phq9", instrumentName: "PHQ-9", score: 19, maxScore: 27, createdAt: day(10) },
        ],
        avgSleepHours: 4,
        dmseLatencyPctChange: 40,
        daysSinceLastVisit: 100,
        hasActiveMedication: true,
        daysSinceMedChange: 10,
      },
    });
    expect(res.status).toBe(200);
    const narrative = res.json.data.intelligence.reasoning?.narrative ?? "";
    expect(sentencesOf(narrative)).toBeGreaterThanOrEqual(2);
    expect(sentencesOf(narrative)).toBeLessThanOrEqual(4);
    expect(narrative).not.toMatch(/[.!?][;,:]|[;,:]\s*[.;]|\.\./);
    expect(narrative.match(/reliable deterioration/g)).toHaveLength(1);
  });

  it("dmse with four flagged signals: 2-4 sentences", async () => {
    const res = await call<DmseAnalysisResponse>(svc.url, "/v1/dmse/analyze", {
      key,
      body: { ...FOUR_FLAGGED, explain: true },
    });
    const narrative = res.json.data.intelligence.reasoning?.narrative ?? "";
    expect(sentencesOf(narrative)).toBeGreaterThanOrEqual(2);
    expect(sentencesOf(narrative)).toBeLessThanOrEqual(4);
    expect(narrative).not.toMatch(/[.!?][;,:]|[;,:]\s*[.;]|\.\./);
  });
});
