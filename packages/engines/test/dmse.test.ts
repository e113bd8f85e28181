import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  analyzeDmse,
  DMSE_DEFAULT_PARAMS,
  DMSE_INTERPRETATION_SCALE,
  DMSE_MODEL_KEY,
  DMSE_STATUS_ORDER,
  type DmseInput,
  dmseTrend,
  resolveDmseParams,
} from "../src/dmse.js";
import { dmseInputArb } from "./arbitraries.js";

const NOW = new Date("2026-07-01T12:00:00Z");
const run = (input: DmseInput) => analyzeDmse(input, { now: NOW });
const only = (input: DmseInput) => {
  const s = run(input).data.signals[0];
  if (!s) throw new Error("no signal");
  return s;
};

describe("worked example (docs/engines/dmse.md)", () => {
  const input: DmseInput = {
    responseLatencySeconds: 2.6,
    psychomotorFidgetEpisodes: 4,
    speechRateWpm: 100,
    sustainedAttentionPct: 85,
    sessionDurationSeconds: 300,
    history: { response_latency: [1.4, 1.6, 1.5, 1.5], speech_rate: [150] },
  };
  const result = run(input);

  it("matches the hand computation", () => {
    const s = Object.fromEntries(result.data.signals.map((x) => [x.signalKey, x]));
    expect(result.data.signals.map((x) => x.signalKey)).toEqual([
      "response_latency",
      "psychomotor",
      "speech_rate",
      "sustained_attention",
    ]);
    expect(s.response_latency).toMatchObject({
      metricValue: 2.6,
      metricUnit: "s",
      interpretation: "clinical_attention",
      // mean 1.5, SD 0.0816 -> threshold max(0.041, 0.075) = 0.075; 2.6 - 1.5 = 1.1 -> up
      baseline: { mean: 1.5, sd: 0.08, n: 4 },
      trendDir: "up",
      // 0.6 x 300/600 + 0.4 x 4/5 = 0.62 -> moderate
      confidence: "moderate",
    });
    // 4 episodes in 300 s = 8 per 10 minutes -> subclinical
    expect(s.psychomotor).toMatchObject({
      metricValue: 8,
      metricUnit: "episodes/10 min",
      interpretation: "subclinical",
    });
    expect(s.psychomotor?.confidence).toBe("low"); // 0.3
    expect(s.speech_rate).toMatchObject({
      metricValue: 100,
      interpretation: "subclinical",
      baseline: { mean: 150, sd: 0, n: 1 },
      trendDir: "down",
      confidence: "low", // 0.3 + 0.4 x 1/5 = 0.38
    });
    expect(s.sustained_attention).toMatchObject({
      metricValue: 85,
      metricUnit: "%",
      interpretation: "within_normal",
    });
    expect(s.sustained_attention?.trendDir).toBeUndefined();
    expect(s.sustained_attention?.baseline).toBeUndefined();
    expect(result.data.summary).toEqual({
      status: "clinical_attention",
      headline:
        "3 of 4 measured signal(s) outside the range used here: Response latency (clinical attention), Fidget episodes (subclinical), Speech rate (subclinical).",
      flagged: ["Response latency", "Fidget episodes", "Speech rate"],
      requiresClinicianReview: true,
    });
    // (0.62 + 0.3 + 0.38 + 0.3) / 4 = 0.4 -> low
    expect(result.facts.confidence.score).toBe(0.4);
    expect(result.data.overallConfidence).toBe("low");
    expect(result.data.signalsPresent).toBe(4);
    expect(result.data.mseNarrative).toEqual(result.data.signals.map((x) => x.mseLine));
    expect(result.data.mseNarrative).toEqual([
      "Mean response latency 2.6 s, at or above the service's 2.5 s threshold; device measurement for clinician review. This is higher than the patient's baseline (mean 1.5 s from 4 prior values).",
      "8 fidget episodes per 10 minutes counted by the device, at or above the threshold of 6 and below the threshold of 12 per 10 minutes used here (expert-set thresholds; a device count, not an observation of restlessness).",
      "Speech rate 100 words per minute, below the 110-190 wpm range used here, at or above its 90 wpm lower threshold (expert-set thresholds, not validated norms). This is lower than the patient's baseline (mean 150 wpm from 1 prior value).",
      "Gaze on screen for 85 % of the session, at or above the 80 % threshold used here (an expert-set threshold; gaze share is a device measure, not a test of attention).",
    ]);
  });

  it("reports facts, model and data fields", () => {
    expect(result.model).toEqual({ key: "dmse_signals", version: null, source: "default" });
    expect(DMSE_MODEL_KEY).toBe("dmse_signals");
    expect(result.facts.current).toEqual({ score: null, status: "clinical_attention" });
    expect(result.facts.polarity).toEqual({ kind: "status", order: DMSE_STATUS_ORDER });
    expect(result.facts.interpretationScale).toEqual(DMSE_INTERPRETATION_SCALE);
    expect(result.data.interpretationScale).toEqual(DMSE_INTERPRETATION_SCALE);
    expect(result.facts.inputs.map((i) => [i.name, i.supplied, i.contributed])).toEqual([
      ["psychomotorFidgetEpisodes", true, true],
      ["responseLatencySeconds", true, true],
      ["speechRateWpm", true, true],
      ["sustainedAttentionPct", true, true],
      ["sessionDurationSeconds", true, true],
      ["history", true, true],
    ]);
    expect(result.facts.inputs[5]?.value).toEqual({ response_latency: 4, speech_rate: 1 });
    expect(result.facts.inputs.every((i) => i.observedAt === null)).toBe(true);
    expect(Object.keys(result.data)).toEqual([
      "generatedAt",
      "summary",
      "signalsPresent",
      "overallConfidence",
      "signals",
      "mseNarrative",
      "interpretationScale",
      "disclaimer",
    ]);
    expect(result.data.generatedAt).toBe(NOW.toISOString());
  });
});

describe("thresholds", () => {
  it("response latency: 1.79 normal, 1.8 and 2.49 subclinical, 2.5 clinical attention", () => {
    const i = (v: number) => only({ responseLatencySeconds: v }).interpretation;
    // 0 s is faster than any human response: a capture-quality finding, never inside the range (decision 73).
    expect(i(0)).toBe("subclinical");
    expect(i(0.11)).toBe("within_normal");
    expect(i(1.79)).toBe("within_normal");
    expect(i(1.8)).toBe("subclinical");
    expect(i(2.49)).toBe("subclinical");
    expect(i(2.5)).toBe("clinical_attention");
    expect(i(120)).toBe("clinical_attention");
    expect(only({ responseLatencySeconds: 2 }).metricUnit).toBe("s");
  });

  it("speech rate: 110-190 normal, 90-<110 and >190-220 subclinical, <90 and >220 clinical", () => {
    const i = (v: number) => only({ speechRateWpm: v }).interpretation;
    expect(i(0)).toBe("clinical_attention");
    expect(i(89.99)).toBe("clinical_attention");
    expect(i(90)).toBe("subclinical");
    expect(i(109.99)).toBe("subclinical");
    expect(i(110)).toBe("within_normal");
    expect(i(150)).toBe("within_normal");
    expect(i(190)).toBe("within_normal");
    expect(i(190.01)).toBe("subclinical");
    expect(i(220)).toBe("subclinical");
    expect(i(220.01)).toBe("clinical_attention");
    expect(i(600)).toBe("clinical_attention");
    // The line names the direction against the threshold, not a clinical finding.
    expect(only({ speechRateWpm: 80 }).mseLine).toMatch(/below the 90 wpm lower threshold/);
    expect(only({ speechRateWpm: 300 }).mseLine).toMatch(/above the 220 wpm upper threshold/);
  });

  it("psychomotor: < 6 per 10 min normal, 6 subclinical, 12 clinical; normalised by duration", () => {
    const i = (episodes: number, duration?: number) =>
      only({ psychomotorFidgetEpisodes: episodes, sessionDurationSeconds: duration }).interpretation;
    expect(i(5.99)).toBe("within_normal");
    expect(i(6)).toBe("subclinical");
    expect(i(11.99)).toBe("subclinical");
    expect(i(12)).toBe("clinical_attention");
    // 6 episodes in 20 minutes = 3 per 10 minutes
    expect(i(6, 1200)).toBe("within_normal");
    // 6 episodes in 5 minutes = 12 per 10 minutes
    expect(i(6, 300)).toBe("clinical_attention");
    expect(only({ psychomotorFidgetEpisodes: 6, sessionDurationSeconds: 300 }).metricValue).toBe(12);
    expect(only({ psychomotorFidgetEpisodes: 6 }).metricUnit).toBe("episodes");
    // Duration 0 cannot normalise: read as the raw count.
    expect(only({ psychomotorFidgetEpisodes: 3, sessionDurationSeconds: 0 }).metricValue).toBe(3);
    // Under 60 s is too short for a rate: the raw count is read.
    expect(only({ psychomotorFidgetEpisodes: 3, sessionDurationSeconds: 59 })).toMatchObject({
      metricValue: 3,
      metricUnit: "episodes",
    });
    expect(only({ psychomotorFidgetEpisodes: 3, sessionDurationSeconds: 60 }).metricValue).toBe(30);
  });

  it("sustained attention: >= 80 % normal, 60 to < 80 subclinical, < 60 clinical", () => {
    const i = (v: number) => only({ sustainedAttentionPct: v }).interpretation;
    expect(i(100)).toBe("within_normal");
    expect(i(80)).toBe("within_normal");
    expect(i(79.99)).toBe("subclinical");
    expect(i(60)).toBe("subclinical");
    expect(i(59.99)).toBe("clinical_attention");
    expect(i(0)).toBe("clinical_attention");
  });
});

describe("baseline, trend and confidence", () => {
  it("trend: beyond max(0.5 SD, 5 % of the mean) is up or down, else stable", () => {
    const p = DMSE_DEFAULT_PARAMS;
    // mean 100, sd 20 -> threshold 10
    expect(dmseTrend(110, 100, 20, p)).toBe("stable");
    expect(dmseTrend(110.01, 100, 20, p)).toBe("up");
    expect(dmseTrend(89.99, 100, 20, p)).toBe("down");
    // sd 0 -> 5 % of the mean
    expect(dmseTrend(105, 100, 0, p)).toBe("stable");
    expect(dmseTrend(105.01, 100, 0, p)).toBe("up");
    // mean 0 and sd 0 -> any change
    expect(dmseTrend(0, 0, 0, p)).toBe("stable");
    expect(dmseTrend(0.01, 0, 0, p)).toBe("up");
  });

  it("baseline only for present signals with a non-empty history", () => {
    const r = run({ speechRateWpm: 150, history: { response_latency: [1, 2], speech_rate: [] } });
    expect(r.data.signals).toHaveLength(1);
    expect(r.data.signals[0]?.baseline).toBeUndefined();
    expect(r.facts.inputs[5]).toMatchObject({ supplied: true, contributed: false });
    const s = only({ speechRateWpm: 150, history: { speech_rate: [140, 160, 150] } });
    expect(s.baseline).toEqual({ mean: 150, sd: 10, n: 3 });
    expect(s.trendDir).toBe("stable");
  });

  it("confidence rises with session length and history depth", () => {
    const c = (duration?: number, history?: number[]) =>
      only({
        responseLatencySeconds: 1,
        sessionDurationSeconds: duration,
        history: { response_latency: history },
      }).confidence;
    expect(c()).toBe("low");
    expect(c(300)).toBe("low");
    expect(c(600)).toBe("moderate");
    expect(c(14_400)).toBe("moderate");
    expect(c(600, [1, 1, 1, 1])).toBe("high"); // 0.6 + 0.32
    expect(c(undefined, [1, 1, 1, 1, 1])).toBe("low"); // 0.4
    expect(c(450, [1, 1, 1, 1, 1])).toBe("high"); // 0.45 + 0.4 = 0.85
  });
});

describe("summary", () => {
  it("all inside the ranges: within_normal, nothing flagged, no review, missing signals named", () => {
    const r = run({ responseLatencySeconds: 1, speechRateWpm: 150 });
    expect(r.data.summary).toEqual({
      status: "within_normal",
      headline:
        "All 2 measured signal(s) fall inside the ranges used here; device measurements, not a clinical examination. Not measured: Fidget episodes, Gaze on screen.",
      flagged: [],
      requiresClinicianReview: false,
    });
  });

  it("subclinical only: no clinician review", () => {
    const r = run({ responseLatencySeconds: 2, sustainedAttentionPct: 50 });
    expect(r.data.summary.flagged).toEqual(["Gaze on screen", "Response latency"]);
    expect(r.data.summary.status).toBe("clinical_attention");
    const s = run({ responseLatencySeconds: 2 });
    expect(s.data.summary.requiresClinicianReview).toBe(false);
    expect(s.data.summary.status).toBe("subclinical");
  });

  it("no metric at all (the HTTP layer forbids it) answers insufficient_data, never within_normal", () => {
    const r = run({});
    expect(r.data.signalsPresent).toBe(0);
    expect(r.data.summary).toEqual({
      status: "insufficient_data",
      headline: "No dmse metric was sent; nothing was measured.",
      flagged: [],
      requiresClinicianReview: false,
    });
    expect(r.data.overallConfidence).toBe("low");
    expect(r.facts.current.status).toBe("insufficient_data");
    expect(r.data.interpretationScale.insufficient_data).toMatch(/nothing was measured/);
  });
});

describe("parameters and calibrated models", () => {
  it("resolveDmseParams merges and validates", () => {
    expect(resolveDmseParams({})).toEqual(DMSE_DEFAULT_PARAMS);
    expect(() => resolveDmseParams({ latencyCutoff: 2 })).toThrow(/unknown dmse parameter "latencyCutoff"/);
    expect(() => resolveDmseParams({ latencyClinicalMinSeconds: Number.NaN })).toThrow(/finite number/);
    expect(() => resolveDmseParams({ latencyClinicalMinSeconds: "2.5" })).toThrow(/finite number/);
    expect(() => resolveDmseParams([])).toThrow(/object/);
    expect(() => resolveDmseParams({ latencyClinicalMinSeconds: 1 })).toThrow(/latency cut-offs/);
    expect(() => resolveDmseParams({ speechNormalMinWpm: 300 })).toThrow(/speech cut-offs/);
  });

  it("a calibrated set changes the output and the model block", () => {
    const params = resolveDmseParams({ latencyClinicalMinSeconds: 3 });
    const r = analyzeDmse({ responseLatencySeconds: 2.6 }, { now: NOW, model: { version: 7, params } });
    expect(r.model).toEqual({ key: "dmse_signals", version: 7, source: "calibrated" });
    expect(r.data.signals[0]?.interpretation).toBe("subclinical");
    expect(run({ responseLatencySeconds: 2.6 }).data.signals[0]?.interpretation).toBe("clinical_attention");
  });
});

describe("properties", () => {
  it("flagged is worst first, status is the worst, counts and confidence are consistent", () => {
    const rank = (i: string) => DMSE_STATUS_ORDER.indexOf(i as (typeof DMSE_STATUS_ORDER)[number]);
    fc.assert(
      fc.property(dmseInputArb, (input) => {
        const r = analyzeDmse(input, { now: NOW });
        const d = r.data;
        expect(d.signalsPresent).toBe(d.signals.length);
        expect(d.signals.length).toBeLessThanOrEqual(4);
        expect(d.mseNarrative).toHaveLength(d.signals.length);
        const flaggedRanks = d.summary.flagged.map((l) =>
          rank(d.signals.find((s) => s.label === l)?.interpretation ?? ""),
        );
        for (let i = 1; i < flaggedRanks.length; i++)
          expect(flaggedRanks[i - 1]).toBeGreaterThanOrEqual(flaggedRanks[i] as number);
        // No signal: insufficient_data, outside the polarity order (never within_normal).
        if (d.signals.length === 0) expect(d.summary.status).toBe("insufficient_data");
        else expect(rank(d.summary.status)).toBe(Math.max(...d.signals.map((s) => rank(s.interpretation))));
        expect(d.summary.requiresClinicianReview).toBe(d.summary.status === "clinical_attention");
        expect(r.facts.confidence.score).toBeGreaterThanOrEqual(0);
        expect(r.facts.confidence.score).toBeLessThanOrEqual(1);
        for (const s of d.signals) {
          expect(Number.isFinite(s.metricValue)).toBe(true);
          if (s.baseline) expect(["up", "down", "stable"]).toContain(s.trendDir);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("is deterministic", () => {
    fc.assert(
      fc.property(dmseInputArb, (input) => {
        expect(analyzeDmse(input, { now: NOW })).toEqual(analyzeDmse(structuredClone(input), { now: NOW }));
      }),
      { numRuns: 150 },
    );
  });
});
