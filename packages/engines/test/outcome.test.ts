import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  OUTCOME_COMPONENT_ORDER,
  OUTCOME_DEFAULT_PARAMS,
  OUTCOME_INTERPRETATION_SCALE,
  OUTCOME_MODEL_KEY,
  type OutcomeInput,
  resolveOutcomeParams,
  scoreOutcome,
} from "../src/outcome.js";
import { round } from "../src/shared.js";
import type { Assessment } from "../src/types.js";

const DAY = 86_400_000;
const NOW = new Date("2026-07-01T00:00:00Z");

function series(scores: number[], start: string, stepDays: number, maxScore = 27, id = "phq9"): Assessment[] {
  return scores.map((score, i) => ({
    instrumentId: id,
    instrumentName: id === "phq9" ? "PHQ-9" : id,
    score,
    maxScore,
    createdAt: new Date(Date.parse(start) + i * stepDays * DAY).toISOString(),
  }));
}

const run = (input: Partial<OutcomeInput>) => scoreOutcome({ assessments: [], ...input }, { now: NOW });
const contribution = (input: Partial<OutcomeInput>, key: string) => {
  const c = run(input).data.components.find((x) => x.key === key);
  if (!c) throw new Error(`no component ${key}`);
  return c;
};

describe("worked example (docs/engines/outcome.md)", () => {
  const input: OutcomeInput = {
    assessments: [
      {
        instrumentId: "phq9",
        instrumentName: "PHQ-9",
        score: 18,
        maxScore: 27,
        createdAt: "2026-06-01T09:00:00Z",
      },
      {
        instrumentId: "phq9",
        instrumentName: "PHQ-9",
        score: 12,
        maxScore: 27,
        createdAt: "2026-06-29T09:00:00Z",
      },
    ],
    dmseLatencyPctChange: -15,
    activeMedications: 1,
    biomarkerWatchCount: 1,
    avgSleepHours: 6,
  };
  const result = scoreOutcome(input, { now: NOW });

  it("matches the hand computation", () => {
    const c = Object.fromEntries(result.data.components.map((x) => [x.key, x.contribution]));
    // PHQ-9 66.67 % -> 44.44 % = -22.22 pp -> -45 x (-22.22 / 30) = +33.33
    expect(c).toEqual({ symptoms: 33.33, dmse: 7.5, medication: 5, biomarker: -5, sleep: -10 });
    expect(result.data.score).toBe(30.83);
    expect(result.data.direction).toBe("improving");
    expect(result.data.confidence).toBe("high");
    expect(result.data.sourceCount).toBe(5);
    expect(result.facts.summary.flagged).toEqual(["Sleep", "Biomarker watch items"]);
    expect(result.facts.summary.requiresClinicianReview).toBe(false);
    // 0.5 x 3/3 + 0.3 x 5/5 + 0.2 x 2/6 = 0.867
    expect(result.facts.confidence.score).toBe(0.867);
    expect(result.facts.confidence.level).toBe("high");
    expect(result.data.summaryLine).toContain("largest contribution: Symptom trajectory (+33.33)");
  });

  it("reports every component in the fixed order, facts and model", () => {
    expect(result.data.components.map((x) => x.key)).toEqual([...OUTCOME_COMPONENT_ORDER]);
    expect(result.model).toEqual({ key: "outcome_score", version: null, source: "default" });
    expect(OUTCOME_MODEL_KEY).toBe("outcome_score");
    expect(result.facts.polarity).toEqual({ kind: "score", higherIs: "better" });
    expect(result.facts.current).toEqual({ score: 30.83, status: "improving" });
    expect(result.facts.interpretationScale).toEqual(OUTCOME_INTERPRETATION_SCALE);
    expect(result.facts.inputs.map((i) => i.name)).toEqual([
      "assessments",
      "dmseLatencyPctChange",
      "activeMedications",
      "biomarkerWatchCount",
      "avgSleepHours",
    ]);
    expect(result.facts.inputs[0]?.observedAt).toBe("2026-06-29T09:00:00.000Z");
    expect(Object.keys(result.data)).toEqual([
      "generatedAt",
      "score",
      "direction",
      "confidence",
      "components",
      "summaryLine",
      "sourceCount",
      "disclaimer",
    ]);
  });
});

describe("components", () => {
  it("symptoms: first vs last percent of maximum; a fall is improvement, capped at 30 points", () => {
    const pts = (a: number, b: number) =>
      contribution({ assessments: series([a, b], "2026-06-01T00:00:00Z", 14, 100, "x") }, "symptoms")
        .contribution;
    expect(pts(50, 50)).toBe(0);
    expect(pts(50, 35)).toBe(22.5);
    expect(pts(50, 20)).toBe(45);
    expect(pts(90, 0)).toBe(45);
    expect(pts(20, 35)).toBe(-22.5);
    expect(pts(0, 100)).toBe(-45);
  });

  it("symptoms: middle administrations do not matter, input order does not matter", () => {
    const a = series([20, 27, 3, 11], "2026-06-01T00:00:00Z", 7);
    const reversed = [...a].reverse();
    expect(run({ assessments: a }).data).toEqual(run({ assessments: reversed }).data);
    const b = series([20, 0, 0, 11], "2026-06-01T00:00:00Z", 7);
    expect(contribution({ assessments: a }, "symptoms").contribution).toBe(
      contribution({ assessments: b }, "symptoms").contribution,
    );
  });

  it("symptoms: a score above maxScore reads as 100 %; unreadable dates are skipped", () => {
    const a = [
      ...series([200, 10], "2026-06-01T00:00:00Z", 7, 100, "x"),
      { instrumentId: "x", instrumentName: "x", score: 0, maxScore: 100, createdAt: "yesterday-ish" },
    ];
    const c = contribution({ assessments: a }, "symptoms");
    expect(c.available).toBe(true);
    expect(c.contribution).toBe(45);
  });

  it("symptoms: unavailable with a single date", () => {
    expect(contribution({ assessments: series([10], "2026-06-01T00:00:00Z", 7) }, "symptoms").available).toBe(
      false,
    );
    expect(contribution({}, "symptoms").available).toBe(false);
  });

  it("dmse: negative latency change is improvement, capped at ±30 %", () => {
    const pts = (x: number) => contribution({ dmseLatencyPctChange: x }, "dmse").contribution;
    expect(pts(0)).toBe(0);
    expect(pts(-10)).toBe(5);
    expect(pts(-30)).toBe(15);
    expect(pts(-100)).toBe(15);
    expect(pts(15)).toBe(-7.5);
    expect(pts(1000)).toBe(-15);
  });

  it("medication: none is no source, 1-4 adds 5, 5 or more subtracts 5", () => {
    expect(contribution({ activeMedications: 0 }, "medication")).toMatchObject({
      available: false,
      contribution: 0,
    });
    expect(contribution({ activeMedications: 1 }, "medication").contribution).toBe(5);
    expect(contribution({ activeMedications: 4 }, "medication").contribution).toBe(5);
    expect(contribution({ activeMedications: 5 }, "medication").contribution).toBe(-5);
    expect(contribution({ activeMedications: 100 }, "medication").contribution).toBe(-5);
  });

  it("biomarker: each watch item -5, capped at -15", () => {
    const pts = (n: number) => contribution({ biomarkerWatchCount: n }, "biomarker");
    expect(pts(0)).toMatchObject({ available: false, contribution: 0 });
    expect(pts(1).contribution).toBe(-5);
    expect(pts(2).contribution).toBe(-10);
    expect(pts(3).contribution).toBe(-15);
    expect(pts(100).contribution).toBe(-15);
  });

  it("sleep: +10 within 7-9 h, 0 above 9 h, down to -20 at 5 h", () => {
    const pts = (h: number) => contribution({ avgSleepHours: h }, "sleep").contribution;
    expect(pts(7)).toBe(10);
    expect(pts(9)).toBe(10);
    expect(pts(9.01)).toBe(0);
    expect(pts(6.9)).toBe(-1);
    expect(pts(6)).toBe(-10);
    expect(pts(5)).toBe(-20);
    expect(pts(0)).toBe(-20);
    expect(pts(24)).toBe(0);
  });
});

describe("direction and confidence", () => {
  it("direction: improving at +10, worsening at -10, stable between, insufficient_data with no source", () => {
    // sleep +10 alone
    expect(run({ avgSleepHours: 8 }).data).toMatchObject({ score: 10, direction: "improving" });
    // dmse -9.99 % -> +4.995 -> 5 (rounded); dmse +19.98 % -> -9.99
    expect(run({ dmseLatencyPctChange: 19.98 }).data).toMatchObject({ score: -9.99, direction: "stable" });
    expect(run({ dmseLatencyPctChange: 20 }).data).toMatchObject({ score: -10, direction: "worsening" });
    expect(run({ dmseLatencyPctChange: -19.98 }).data).toMatchObject({ score: 9.99, direction: "stable" });
    const empty = run({});
    expect(empty.data).toMatchObject({
      score: 0,
      direction: "insufficient_data",
      sourceCount: 0,
      confidence: "low",
    });
    expect(empty.facts.summary.status).toBe("insufficient_data");
    expect(run({ dmseLatencyPctChange: 20 }).facts.summary.requiresClinicianReview).toBe(true);
  });

  it("confidence: 1 agreeing source low, 2 moderate, 3 high; disagreeing sources do not count", () => {
    expect(run({ avgSleepHours: 8 }).data.confidence).toBe("low");
    expect(run({ avgSleepHours: 8, dmseLatencyPctChange: -30 }).data.confidence).toBe("moderate");
    expect(run({ avgSleepHours: 8, dmseLatencyPctChange: -30, activeMedications: 2 }).data.confidence).toBe(
      "high",
    );
    // sleep +10, dmse +15, biomarker -5 -> score +20, two agree
    expect(run({ avgSleepHours: 8, dmseLatencyPctChange: -30, biomarkerWatchCount: 1 }).data.confidence).toBe(
      "moderate",
    );
  });
});

describe("parameters and calibrated models", () => {
  it("resolveOutcomeParams merges and validates", () => {
    expect(resolveOutcomeParams({})).toEqual(OUTCOME_DEFAULT_PARAMS);
    expect(resolveOutcomeParams(null)).toEqual(OUTCOME_DEFAULT_PARAMS);
    expect(() => resolveOutcomeParams({ bogus: 1 })).toThrow(/unknown outcome parameter "bogus"/);
    expect(() => resolveOutcomeParams({ sleepWeight: Number.NaN })).toThrow(/finite number/);
    expect(() => resolveOutcomeParams({ sleepWeight: null })).toThrow(/finite number/);
    expect(() => resolveOutcomeParams("x")).toThrow(/object/);
    expect(() => resolveOutcomeParams({ sleepWeight: 50 })).toThrow(/at most 100/);
    expect(() => resolveOutcomeParams({ sleepWeight: -1 })).toThrow(/sleepWeight must be >= 0/);
    expect(() => resolveOutcomeParams({ sleepShortFullHours: 8 })).toThrow(/sleep hours/);
  });

  it("a calibrated set changes the output, the legend and the model block", () => {
    const params = resolveOutcomeParams({ directionThreshold: 5, sleepAdequateShare: 0.3 });
    const r = scoreOutcome(
      { assessments: [], avgSleepHours: 8 },
      { now: NOW, model: { version: 2, params } },
    );
    expect(r.model).toEqual({ key: "outcome_score", version: 2, source: "calibrated" });
    expect(r.data.score).toBe(6);
    expect(r.data.direction).toBe("improving");
    expect(r.facts.interpretationScale.improving).toMatch(/^The composite is \+5 or more/);
    expect(run({ avgSleepHours: 8 }).data.score).toBe(10);
  });
});

const isoArb = fc.oneof(
  fc
    .integer({ min: Date.parse("2020-01-01T00:00:00Z"), max: Date.parse("2027-01-01T00:00:00Z") })
    .map((t) => new Date(t).toISOString()),
  fc.constantFrom("2026-06-01", "2026-06-01T09:00:00+02:00", "garbage", ""),
);
const assessmentArb = fc.record({
  instrumentId: fc.constantFrom("phq9", "PHQ-9", "gad7", "custom"),
  instrumentName: fc.constantFrom("PHQ-9", "GAD-7", "Custom"),
  score: fc.double({ min: 0, max: 1000, noNaN: true }),
  maxScore: fc.double({ min: 1, max: 1000, noNaN: true }),
  createdAt: isoArb,
});
const inputArb = fc.record(
  {
    assessments: fc.array(assessmentArb, { maxLength: 40 }),
    dmseLatencyPctChange: fc.double({ min: -100, max: 1000, noNaN: true }),
    activeMedications: fc.integer({ min: 0, max: 100 }),
    biomarkerWatchCount: fc.integer({ min: 0, max: 100 }),
    avgSleepHours: fc.double({ min: 0, max: 24, noNaN: true }),
  },
  { requiredKeys: ["assessments"] },
);

describe("properties", () => {
  it("score in [-100, 100] is the sum of the contributions; every component present; confidence in [0, 1]", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = scoreOutcome(input, { now: NOW });
        expect(r.data.components.map((c) => c.key)).toEqual([...OUTCOME_COMPONENT_ORDER]);
        const sum = r.data.components.reduce((s, c) => s + c.contribution, 0);
        expect(r.data.score).toBe(round(sum));
        expect(r.data.score).toBeGreaterThanOrEqual(-100);
        expect(r.data.score).toBeLessThanOrEqual(100);
        for (const c of r.data.components) if (!c.available) expect(c.contribution).toBe(0);
        expect(r.data.sourceCount).toBe(r.data.components.filter((c) => c.available).length);
        expect(r.facts.confidence.score).toBeGreaterThanOrEqual(0);
        expect(r.facts.confidence.score).toBeLessThanOrEqual(1);
        const flaggedValues = r.facts.summary.flagged.map(
          (l) => r.data.components.find((c) => c.label === l)?.contribution ?? 0,
        );
        for (let i = 1; i < flaggedValues.length; i++)
          expect(flaggedValues[i - 1]).toBeLessThanOrEqual(flaggedValues[i] as number);
      }),
      { numRuns: 300 },
    );
  });

  it("is deterministic", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        expect(scoreOutcome(input, { now: NOW })).toEqual(scoreOutcome(structuredClone(input), { now: NOW }));
      }),
      { numRuns: 150 },
    );
  });
});
