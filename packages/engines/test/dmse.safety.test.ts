import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  analyzeDmse,
  DMSE_DISCLAIMER,
  DMSE_INTERPRETATION_SCALE,
  DMSE_STATUS_ORDER,
  type DmseInput,
  dmseShownValue,
  resolveDmseParams,
} from "../src/dmse.js";
import { dmseInputArb, historyArb } from "./arbitraries.js";

/**
 * Clinical-safety wording of the dmse engine (docs/engines/dmse.md, Wording): every MSE line,
 * detail and headline states a device measurement against an operational threshold. None may read
 * as a clinician-observed finding, a causal reading or "normal", and an empty request is never
 * reported as within_normal.
 */

const NOW = new Date("2026-07-01T12:00:00Z");
const run = (input: DmseInput) => analyzeDmse(input, { now: NOW });
const line = (input: DmseInput) => {
  const s = run(input).data.signals[0];
  if (!s) throw new Error("no signal");
  return s.mseLine;
};

/** Words and phrases that make a device number read as an examination finding (case-insensitive). */
const FORBIDDEN = ["normal", "consistent with", "observed", "sustained", "accompany", "pressured"];
const forbiddenIn = (text: string) => FORBIDDEN.filter((w) => text.toLowerCase().includes(w));

describe("MSE lines: one per signal and interpretation", () => {
  it.each<[string, DmseInput, string]>([
    [
      "latency, clinical attention",
      { responseLatencySeconds: 2.6 },
      "Mean response latency 2.6 s, at or above the service's 2.5 s threshold; device measurement for clinician review.",
    ],
    [
      "latency, subclinical",
      { responseLatencySeconds: 2 },
      "Mean response latency 2 s, at or above the service's 1.8 s threshold and below its 2.5 s threshold.",
    ],
    [
      "latency, within",
      { responseLatencySeconds: 1.2 },
      "Mean response latency 1.2 s, below the service's 1.8 s threshold.",
    ],
    [
      "speech, within",
      { speechRateWpm: 150 },
      "Speech rate 150 words per minute, inside the 110-190 wpm range used here (an expert-set range, not a validated norm).",
    ],
    [
      "speech, subclinical slow",
      { speechRateWpm: 100 },
      "Speech rate 100 words per minute, below the 110-190 wpm range used here, at or above its 90 wpm lower threshold (expert-set thresholds, not validated norms).",
    ],
    [
      "speech, subclinical fast",
      { speechRateWpm: 200 },
      "Speech rate 200 words per minute, above the 110-190 wpm range used here, at or below its 220 wpm upper threshold (expert-set thresholds, not validated norms).",
    ],
    [
      "speech, clinical attention slow",
      { speechRateWpm: 80 },
      "Speech rate 80 words per minute, below the 90 wpm lower threshold used here (an expert-set threshold, not a validated norm); device measurement for clinician review.",
    ],
    [
      "speech, clinical attention fast",
      { speechRateWpm: 300 },
      "Speech rate 300 words per minute, above the 220 wpm upper threshold used here (an expert-set threshold, not a validated norm); device measurement for clinician review.",
    ],
    [
      "psychomotor, clinical attention",
      { psychomotorFidgetEpisodes: 12, sessionDurationSeconds: 600 },
      "12 fidget episodes per 10 minutes counted by the device, at or above the threshold of 12 per 10 minutes used here (an expert-set threshold; a device count, not an observation of restlessness); device measurement for clinician review.",
    ],
    [
      "psychomotor, subclinical",
      { psychomotorFidgetEpisodes: 4, sessionDurationSeconds: 300 },
      "8 fidget episodes per 10 minutes counted by the device, at or above the threshold of 6 and below the threshold of 12 per 10 minutes used here (expert-set thresholds; a device count, not an observation of restlessness).",
    ],
    [
      "psychomotor, within, no duration",
      { psychomotorFidgetEpisodes: 2 },
      "2 fidget episode(s) counted by the device, read as a count per 10 minutes (no session duration was sent), below the threshold of 6 per 10 minutes used here (an expert-set threshold; a device count, not an observation of restlessness).",
    ],
    [
      "psychomotor, within, short session",
      { psychomotorFidgetEpisodes: 3, sessionDurationSeconds: 30 },
      "3 fidget episode(s) counted by the device, read as a count per 10 minutes (the 30 s session is shorter than the 60 s needed for a rate), below the threshold of 6 per 10 minutes used here (an expert-set threshold; a device count, not an observation of restlessness).",
    ],
    [
      "gaze, within",
      { sustainedAttentionPct: 85 },
      "Gaze on screen for 85 % of the session, at or above the 80 % threshold used here (an expert-set threshold; gaze share is a device measure, not a test of attention).",
    ],
    [
      "gaze, subclinical",
      { sustainedAttentionPct: 70 },
      "Gaze on screen for 70 % of the session, below the 80 % threshold and at or above the 60 % threshold used here (expert-set thresholds; gaze share is a device measure, not a test of attention).",
    ],
    [
      "gaze, clinical attention",
      { sustainedAttentionPct: 55 },
      "Gaze on screen for 55 % of the session, below the 60 % threshold used here (an expert-set threshold; gaze share is a device measure, not a test of attention); device measurement for clinician review.",
    ],
  ])("%s", (_name, input, expected) => {
    expect(line(input)).toBe(expected);
  });

  it("none of the old finding-style sentences survive", () => {
    const lines = [
      line({ responseLatencySeconds: 3 }),
      line({ speechRateWpm: 150 }),
      line({ speechRateWpm: 300 }),
      line({ psychomotorFidgetEpisodes: 20 }),
      line({ psychomotorFidgetEpisodes: 0 }),
      line({ sustainedAttentionPct: 95 }),
      line({ sustainedAttentionPct: 10 }),
    ].join("\n");
    for (const old of [
      "consistent with slowed processing",
      "Speech was of normal rate",
      "Attention was sustained",
      "Marked motor restlessness was observed",
      "No excess motor restlessness was observed",
      "markedly delayed",
      "can accompany",
      "pressured",
    ])
      expect(lines).not.toContain(old);
  });

  it("a trend adds the baseline as a comparison, with its mean and size", () => {
    expect(line({ sustainedAttentionPct: 60, history: { sustained_attention: [90, 92, 88] } })).toBe(
      "Gaze on screen for 60 % of the session, below the 80 % threshold and at or above the 60 % threshold used here (expert-set thresholds; gaze share is a device measure, not a test of attention). This is lower than the patient's baseline (mean 90 % from 3 prior values).",
    );
    // A stable trend adds nothing.
    expect(line({ speechRateWpm: 150, history: { speech_rate: [150] } })).not.toContain("baseline");
  });

  it("a value that rounds onto a threshold it does not reach is printed with more decimals", () => {
    expect(line({ responseLatencySeconds: 1.7999 })).toBe(
      "Mean response latency 1.7999 s, below the service's 1.8 s threshold.",
    );
    expect(line({ speechRateWpm: 190.001 })).toContain("Speech rate 190.001 words per minute, above the");
    expect(line({ responseLatencySeconds: 1.8 })).toContain("Mean response latency 1.8 s, at or above");
    expect(dmseShownValue(2.123456789, [2.12])).toBe("2.123");
    expect(dmseShownValue(5, [5])).toBe("5");
  });
});

describe("detail, headline and legend", () => {
  it("detail states the comparison and the reading without the enum value", () => {
    const r = run({ responseLatencySeconds: 1.2, psychomotorFidgetEpisodes: 4, sessionDurationSeconds: 300 });
    expect(r.data.signals.map((s) => s.detail)).toEqual([
      "Mean response latency 1.2 s: below the service's 1.8 s threshold; read as inside the range used here.",
      "4 fidget episode(s) counted by the device in 300 s, 8 per 10 minutes: at or above the threshold of 6 and below the threshold of 12 per 10 minutes used here (expert-set thresholds; a device count, not an observation of restlessness); read as mildly outside the range used here (subclinical).",
    ]);
  });

  it("headline: outside signals worst first, and the signals that were not measured", () => {
    expect(run({ responseLatencySeconds: 2.6, speechRateWpm: 150 }).data.summary.headline).toBe(
      "1 of 2 measured signal(s) outside the range used here: Response latency (clinical attention). Not measured: Fidget episodes, Gaze on screen.",
    );
    expect(
      run({
        responseLatencySeconds: 1,
        speechRateWpm: 150,
        psychomotorFidgetEpisodes: 1,
        sustainedAttentionPct: 90,
      }).data.summary.headline,
    ).toBe(
      "All 4 measured signal(s) fall inside the ranges used here; device measurements, not a clinical examination.",
    );
  });

  it("legend keeps the contract's meanings without over-reassuring", () => {
    expect(DMSE_INTERPRETATION_SCALE).toEqual({
      within_normal:
        "Within the typical range used here for this device measurement; no action suggested by this measurement alone.",
      subclinical:
        "Mildly outside the range used here for this device measurement; worth noting, not urgent.",
      clinical_attention:
        "Clearly outside the range used here for this device measurement; flag for clinician review.",
    });
    expect(forbiddenIn(Object.values(DMSE_INTERPRETATION_SCALE).join(" "))).toEqual([]);
    expect(forbiddenIn(DMSE_DISCLAIMER)).toEqual([]);
    expect(DMSE_DISCLAIMER).toContain("device measurements, not a clinical examination");
  });

  it("no metric: insufficient_data, low confidence, its own legend entry, not in the polarity order", () => {
    const r = run({ sessionDurationSeconds: 600, history: { speech_rate: [150] } });
    expect(r.data.summary.status).toBe("insufficient_data");
    expect(r.data.summary.headline).toBe("No dmse metric was sent; nothing was measured.");
    expect(r.data.overallConfidence).toBe("low");
    expect(r.facts.confidence.level).toBe("low");
    expect(r.facts.summary.status).toBe("insufficient_data");
    expect(r.facts.interpretationScale.insufficient_data).toBeDefined();
    // The intelligence core reads a status outside the order as "unchanged" (never improved/worsened).
    expect(r.facts.polarity).toEqual({ kind: "status", order: DMSE_STATUS_ORDER });
    expect(DMSE_STATUS_ORDER).not.toContain("insufficient_data");
    // With a metric the legend is the contract's three values only.
    expect(Object.keys(run({ speechRateWpm: 150 }).data.interpretationScale)).toEqual([
      "within_normal",
      "subclinical",
      "clinical_attention",
    ]);
  });
});

/** Inputs with none of the four metrics (duration and history may still be sent). */
const noMetricArb = fc.record(
  {
    sessionDurationSeconds: fc.double({ min: 0, max: 14_400, noNaN: true }),
    history: fc.record(
      { response_latency: historyArb(120), speech_rate: historyArb(600) },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

/** Numbers printed in a text (e.g. "2.6", "1.7999", "150"). */
const numbersIn = (text: string) => (text.match(/\d+(?:\.\d+)?/g) ?? []).map(Number);

describe("properties over the whole input space", () => {
  it("no line, detail or headline reads as a finding; every line states its number and a threshold or range", () => {
    fc.assert(
      fc.property(dmseInputArb, (input) => {
        const d = analyzeDmse(input, { now: NOW }).data;
        expect(forbiddenIn(d.summary.headline)).toEqual([]);
        expect(forbiddenIn(Object.values(d.interpretationScale).join(" "))).toEqual([]);
        for (const s of d.signals) {
          expect(forbiddenIn(s.mseLine)).toEqual([]);
          expect(forbiddenIn(s.detail)).toEqual([]);
          expect(s.mseLine).toMatch(/threshold|range/);
          // The measured value is printed (2 decimals, or more near a threshold).
          expect(numbersIn(s.mseLine).some((x) => Math.abs(x - s.metricValue) <= 0.005 + 1e-9)).toBe(true);
        }
        const anyMetric = [
          input.responseLatencySeconds,
          input.psychomotorFidgetEpisodes,
          input.speechRateWpm,
          input.sustainedAttentionPct,
        ].some((v) => v !== undefined);
        if (!anyMetric) expect(d.summary.status).toBe("insufficient_data");
      }),
      { numRuns: 500 },
    );
  });

  it("with no metric, the status is never within_normal and confidence is low", () => {
    fc.assert(
      fc.property(noMetricArb, (input) => {
        const r = analyzeDmse(input, { now: NOW });
        expect(r.data.summary.status).not.toBe("within_normal");
        expect(r.data.summary.status).toBe("insufficient_data");
        expect(r.data.overallConfidence).toBe("low");
        expect(r.data.summary.requiresClinicianReview).toBe(false);
        expect(r.data.signals).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it("the wording rule also holds under any valid calibrated threshold set", () => {
    const sorted = (n: number, max: number) =>
      fc
        .array(fc.double({ min: 0.01, max, noNaN: true }), { minLength: n, maxLength: n })
        .map((xs) => [...xs].sort((a, b) => a - b));
    const paramsArb = fc
      .record({
        latency: sorted(2, 10),
        speech: sorted(4, 400),
        psychomotor: sorted(2, 50),
        attention: sorted(2, 100),
      })
      .map(({ latency, speech, psychomotor, attention }) =>
        resolveDmseParams({
          latencySubclinicalMinSeconds: latency[0],
          latencyClinicalMinSeconds: latency[1],
          speechClinicalBelowWpm: speech[0],
          speechNormalMinWpm: speech[1],
          speechNormalMaxWpm: speech[2],
          speechClinicalAboveWpm: speech[3],
          psychomotorSubclinicalMin: psychomotor[0],
          psychomotorClinicalMin: psychomotor[1],
          attentionClinicalBelowPct: attention[0],
          attentionNormalMinPct: attention[1],
        }),
      );
    fc.assert(
      fc.property(dmseInputArb, paramsArb, (input, params) => {
        const d = analyzeDmse(input, { now: NOW, model: { version: 1, params } }).data;
        expect(forbiddenIn(d.summary.headline)).toEqual([]);
        for (const s of d.signals) {
          expect(forbiddenIn(`${s.mseLine} ${s.detail}`)).toEqual([]);
          expect(s.mseLine).toMatch(/threshold|range/);
        }
      }),
      { numRuns: 200 },
    );
  });
});
