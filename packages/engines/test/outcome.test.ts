import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recogniseInstrument } from "../src/instruments.js";
import {
  OUTCOME_COMPONENT_ORDER,
  OUTCOME_DEFAULT_PARAMS,
  OUTCOME_INTERPRETATION_SCALE,
  OUTCOME_MODEL_KEY,
  type OutcomeDirection,
  type OutcomeInput,
  resolveOutcomeParams,
  scoreOutcome,
} from "../src/outcome.js";
import { readTrajectory, round } from "../src/shared.js";
import { readSymptomFindings } from "../src/symptom-findings.js";
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

/** PHQ-9 18 -> 12 two weeks apart: -6 points, a reliable improvement (NHS Talking Therapies). */
const IMPROVING = series([18, 12], "2026-06-01T00:00:00Z", 14);
/** PHQ-9 18 -> 14: -4 points, below the reliable change of 6 (no symptom anchor for improvement). */
const NOT_RELIABLE = series([18, 14], "2026-06-01T00:00:00Z", 14);
/** A PHQ-9 sent on a 0-100 scale (read off its published scale, in percentage points), 50 -> 50: a symptom anchor of `stable`. */
const FLAT = series([50, 50], "2026-06-01T00:00:00Z", 14, 100, "phq9");
/** The same falling 60 -> 40: -20 pp, beyond the 15 pp an off-scale reading needs; symptoms +30. */
const X_IMPROVING = series([60, 40], "2026-06-01T00:00:00Z", 14, 100, "phq9");

const run = (input: Partial<OutcomeInput>) => scoreOutcome({ assessments: [], ...input }, { now: NOW });
const contribution = (input: Partial<OutcomeInput>, key: string) => {
  const c = run(input).data.components.find((x) => x.key === key);
  if (!c) throw new Error(`no component ${key}`);
  return c;
};

const WORKED: OutcomeInput = {
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

describe("worked example (docs/engines/outcome.md)", () => {
  const result = scoreOutcome(WORKED, { now: NOW });

  it("matches the hand computation", () => {
    const c = Object.fromEntries(result.data.components.map((x) => [x.key, x.contribution]));
    // PHQ-9 66.67 % -> 44.44 % = -22.22 pp -> -45 x (-22.22 / 30) = +33.33. 18 -> 12 is -6 points,
    // a reliable improvement, so the symptom anchor is `improving` and the faster latency counts:
    // -15 x (-15 / 30) = +7.5. Medication was +5 for "on treatment" (the defect: being on treatment
    // is not evidence of response); one medication below polypharmacy is now context only, 0.
    expect(c).toEqual({ symptoms: 33.33, dmse: 7.5, medication: 0, biomarker: -5, sleep: -10 });
    // Was 30.83 (with the +5): 33.33 + 7.5 + 0 - 5 - 10 = 25.83.
    expect(result.data.score).toBe(25.83);
    expect(result.data.direction).toBe("improving");
    // Was high (symptoms, dmse and medication agreed); medication's 0 no longer agrees in sign, so
    // two sources agree: moderate.
    expect(result.data.confidence).toBe("moderate");
    expect(result.data.sourceCount).toBe(5);
    expect(result.facts.summary.flagged).toEqual(["Sleep", "Biomarker watch items"]);
    expect(result.facts.summary.requiresClinicianReview).toBe(false);
    // Was 0.867 (3/3 agreeing): 0.5 x 2/3 + 0.3 x 5/5 + 0.2 x 2/6 = 0.333 + 0.3 + 0.067 = 0.7.
    expect(result.facts.confidence.score).toBe(0.7);
    expect(result.facts.confidence.level).toBe("moderate");
    expect(result.data.summaryLine).toContain("largest contribution: Symptom trajectory (+33.33)");
    const medication = result.data.components.find((x) => x.key === "medication");
    expect(medication).toMatchObject({ available: true, contribution: 0 });
    expect(medication?.detail).toContain("context only");
  });

  it("reports every component in the fixed order, facts and model", () => {
    expect(result.data.components.map((x) => x.key)).toEqual([...OUTCOME_COMPONENT_ORDER]);
    expect(result.model).toEqual({ key: "outcome_score", version: null, source: "default" });
    expect(OUTCOME_MODEL_KEY).toBe("outcome_score");
    expect(result.facts.polarity).toEqual({ kind: "score", higherIs: "better" });
    expect(result.facts.current).toEqual({ score: 25.83, status: "improving" });
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

describe("worked example without a reliable improvement (docs/engines/outcome.md)", () => {
  // The same request with PHQ-9 18 -> 14: the same non-symptom sources, but the fall of 4 points is
  // below the reliable change of 6, so nothing may corroborate an improvement.
  const [first, last] = WORKED.assessments as [Assessment, Assessment];
  const result = scoreOutcome({ ...WORKED, assessments: [first, { ...last, score: 14 }] }, { now: NOW });

  it("matches the hand computation", () => {
    const c = Object.fromEntries(result.data.components.map((x) => [x.key, x.contribution]));
    // 66.67 % -> 51.85 % = -14.81 pp -> -45 x (-14.81 / 30) = +22.22. The faster latency is not
    // counted (0): the symptom anchor is `stable`, not `improving`.
    expect(c).toEqual({ symptoms: 22.22, dmse: 0, medication: 0, biomarker: -5, sleep: -10 });
    // 22.22 + 0 + 0 - 5 - 10 = 7.22. The old rules gave 22.22 + 7.5 + 5 - 5 - 10 = +19.72, improving.
    expect(result.data.score).toBe(7.22);
    expect(result.data.direction).toBe("stable");
    // Only symptoms agree in sign: low. 0.5 x 1/3 + 0.3 x 5/5 + 0.2 x 2/6 = 0.533.
    expect(result.data.confidence).toBe("low");
    expect(result.facts.confidence.score).toBe(0.533);
    expect(result.data.components.find((x) => x.key === "dmse")?.detail).toContain("not counted");
    expect(result.facts.summary.flagged).toEqual(["Sleep", "Biomarker watch items"]);
    expect(result.facts.summary.requiresClinicianReview).toBe(false);
  });
});

describe("components", () => {
  it("symptoms: first vs last percent of maximum; a fall is improvement, capped at 30 points", () => {
    const pts = (a: number, b: number) =>
      contribution({ assessments: series([a, b], "2026-06-01T00:00:00Z", 14, 100, "phq9") }, "symptoms")
        .contribution;
    expect(pts(50, 50)).toBe(0);
    expect(pts(50, 35)).toBe(22.5);
    expect(pts(50, 20)).toBe(45);
    expect(pts(90, 0)).toBe(45);
    expect(pts(20, 35)).toBe(-22.5);
    expect(pts(0, 100)).toBe(-45);
  });

  it("symptoms: middle administrations matter only through the best score; input order does not matter", () => {
    const a = series([20, 27, 3, 11], "2026-06-01T00:00:00Z", 7);
    const reversed = [...a].reverse();
    expect(run({ assessments: a }).data).toEqual(run({ assessments: reversed }).data);
    // No reliable rise since the best score: first vs last alone (20 -> 11).
    const b = series([20, 27, 9, 11], "2026-06-01T00:00:00Z", 7);
    const c = series([20, 12, 10, 11], "2026-06-01T00:00:00Z", 7);
    expect(contribution({ assessments: b }, "symptoms").contribution).toBe(
      contribution({ assessments: c }, "symptoms").contribution,
    );
    // Decision 61: 3 -> 11 is +8 points since the best score, a reliable deterioration, read from
    // the best: 8/27 = 29.63 pp -> -45 x 29.63 / 30 = -44.44, though 20 -> 11 fell.
    expect(contribution({ assessments: a }, "symptoms").contribution).toBe(-44.44);
    expect(contribution({ assessments: a }, "symptoms").detail).toContain("Read from the best score");
  });

  it("symptoms: a score above maxScore is invalid (decision 81): its fall is never credited, its rise reads as 100 %; unreadable dates are skipped", () => {
    const unreadable = {
      instrumentId: "phq9",
      instrumentName: "PHQ-9",
      score: 0,
      maxScore: 100,
      createdAt: "yesterday-ish",
    };
    const fall = contribution(
      { assessments: [...series([200, 10], "2026-06-01T00:00:00Z", 7, 100, "phq9"), unreadable] },
      "symptoms",
    );
    expect(fall.available).toBe(false);
    expect(fall.contribution).toBe(0);
    expect(fall.detail).toContain("change not evaluated: 1 administration(s) have invalid totals");
    const rise = contribution(
      { assessments: [...series([10, 200], "2026-06-01T00:00:00Z", 7, 100, "phq9"), unreadable] },
      "symptoms",
    );
    expect(rise.available).toBe(true);
    expect(rise.contribution).toBe(-45);
  });

  it("symptoms: unavailable with a single date", () => {
    expect(contribution({ assessments: series([10], "2026-06-01T00:00:00Z", 7) }, "symptoms").available).toBe(
      false,
    );
    expect(contribution({}, "symptoms").available).toBe(false);
  });

  it("dmse: slower always counts against, capped at -15 at +30 %", () => {
    const pts = (x: number) => contribution({ dmseLatencyPctChange: x }, "dmse").contribution;
    expect(pts(0)).toBe(0);
    expect(pts(15)).toBe(-7.5);
    expect(pts(30)).toBe(-15);
    expect(pts(1000)).toBe(-15);
    // The same with a reliable symptom improvement: negatives never depend on the anchor.
    const withImprovement = (x: number) =>
      contribution({ assessments: IMPROVING, dmseLatencyPctChange: x }, "dmse").contribution;
    expect(withImprovement(15)).toBe(-7.5);
    expect(withImprovement(1000)).toBe(-15);
  });

  it("dmse: faster counts (+5 at -10 %, +15 from -30 %) only with a reliable symptom improvement", () => {
    // Was +5 / +15 / +15 on its own (the defect: a device measure alone showed improvement).
    const alone = (x: number) => contribution({ dmseLatencyPctChange: x }, "dmse");
    for (const x of [-10, -30, -100]) {
      expect(alone(x)).toMatchObject({ available: true, contribution: 0 });
      expect(alone(x).detail).toContain("not counted");
    }
    // Symptom fall below the reliable change (PHQ-9 -4 points): still not counted.
    expect(contribution({ assessments: NOT_RELIABLE, dmseLatencyPctChange: -30 }, "dmse").contribution).toBe(
      0,
    );
    // With PHQ-9 18 -> 12 (reliable improvement) the old ramp applies: -15 x (x / 30).
    const corroborating = (x: number) =>
      contribution({ assessments: IMPROVING, dmseLatencyPctChange: x }, "dmse").contribution;
    expect(corroborating(-10)).toBe(5);
    expect(corroborating(-30)).toBe(15);
    expect(corroborating(-100)).toBe(15);
    expect(contribution({ assessments: IMPROVING, dmseLatencyPctChange: -10 }, "dmse").detail).not.toContain(
      "not counted",
    );
  });

  it("medication: none is no source, 1-4 is context only (0), 5 or more subtracts 5", () => {
    expect(contribution({ activeMedications: 0 }, "medication")).toMatchObject({
      available: false,
      contribution: 0,
    });
    // Was +5 for 1-4 medications: being on treatment is not evidence of response. Still a source
    // (available), contributing 0, with or without a symptom improvement.
    expect(contribution({ activeMedications: 1 }, "medication")).toMatchObject({
      available: true,
      contribution: 0,
    });
    expect(contribution({ activeMedications: 4 }, "medication").contribution).toBe(0);
    expect(contribution({ assessments: IMPROVING, activeMedications: 4 }, "medication").contribution).toBe(0);
    expect(contribution({ activeMedications: 1 }, "medication").detail).toContain("context only");
    expect(contribution({ activeMedications: 5 }, "medication").contribution).toBe(-5);
    expect(contribution({ activeMedications: 100 }, "medication").contribution).toBe(-5);
    expect(contribution({ assessments: IMPROVING, activeMedications: 5 }, "medication").contribution).toBe(
      -5,
    );
  });

  it("biomarker: each watch item -5, capped at -15", () => {
    const pts = (n: number) => contribution({ biomarkerWatchCount: n }, "biomarker");
    expect(pts(0)).toMatchObject({ available: false, contribution: 0 });
    expect(pts(1).contribution).toBe(-5);
    expect(pts(2).contribution).toBe(-10);
    expect(pts(3).contribution).toBe(-15);
    expect(pts(100).contribution).toBe(-15);
  });

  it("sleep: 0 above 9 h, down to -20 at 5 h, whatever the symptoms", () => {
    const pts = (h: number) => contribution({ avgSleepHours: h }, "sleep").contribution;
    const withImprovement = (h: number) =>
      contribution({ assessments: IMPROVING, avgSleepHours: h }, "sleep").contribution;
    for (const f of [pts, withImprovement]) {
      expect(f(9.01)).toBe(0);
      expect(f(6.9)).toBe(-1);
      expect(f(6)).toBe(-10);
      expect(f(5)).toBe(-20);
      expect(f(0)).toBe(-20);
      expect(f(24)).toBe(0);
    }
  });

  it("sleep: 7-9 h adds +10 only with a reliable symptom improvement, else 0 (not counted)", () => {
    // Was +10 on its own (the defect: adequate sleep alone read as improvement).
    const alone = (h: number) => contribution({ avgSleepHours: h }, "sleep");
    expect(alone(7)).toMatchObject({ available: true, contribution: 0 });
    expect(alone(9).contribution).toBe(0);
    expect(alone(8).detail).toContain("not counted");
    expect(contribution({ assessments: NOT_RELIABLE, avgSleepHours: 8 }, "sleep").contribution).toBe(0);
    expect(contribution({ assessments: FLAT, avgSleepHours: 8 }, "sleep").contribution).toBe(0);
    // With a reliable improvement: half the cap, 20 x 0.5 = +10, from 7 h to 9 h inclusive.
    const corroborating = (h: number) =>
      contribution({ assessments: IMPROVING, avgSleepHours: h }, "sleep").contribution;
    expect(corroborating(7)).toBe(10);
    expect(corroborating(9)).toBe(10);
    // The deliberate step at 7 h stays: +10 at 7 h, -0.1 at 6.99 h.
    expect(corroborating(6.99)).toBe(-0.1);
  });
});

describe("direction and confidence", () => {
  it("without a symptom anchor: insufficient_data unless the composite is -10 or less; never improving", () => {
    // Was { score: 10, direction: "improving" }: adequate sleep alone now adds 0.
    expect(run({ avgSleepHours: 8 }).data).toMatchObject({
      score: 0,
      direction: "insufficient_data",
      confidence: "low",
    });
    // Was { score: 9.99, direction: "stable" }: a faster latency alone adds 0.
    expect(run({ dmseLatencyPctChange: -19.98 }).data).toMatchObject({
      score: 0,
      direction: "insufficient_data",
    });
    // Was 25 and improving with high confidence (sleep +10, dmse +15, medication +5).
    expect(run({ avgSleepHours: 8, dmseLatencyPctChange: -30, activeMedications: 2 }).data).toMatchObject({
      score: 0,
      direction: "insufficient_data",
      confidence: "low",
    });
    // Negatives always count; -9.99 was "stable", with no anchor it is insufficient_data...
    expect(run({ dmseLatencyPctChange: 19.98 }).data).toMatchObject({
      score: -9.99,
      direction: "insufficient_data",
    });
    // ...and -10 or less is still worsening (flagged for review) without an anchor.
    const slower = run({ dmseLatencyPctChange: 20 });
    expect(slower.data).toMatchObject({ score: -10, direction: "worsening", confidence: "low" });
    expect(slower.facts.summary.requiresClinicianReview).toBe(true);
    // One administration of a non-severe scale is no anchor either.
    expect(run({ assessments: series([12], "2026-06-01T00:00:00Z", 7) }).data.direction).toBe(
      "insufficient_data",
    );
    const empty = run({});
    expect(empty.data).toMatchObject({
      score: 0,
      direction: "insufficient_data",
      sourceCount: 0,
      confidence: "low",
    });
    expect(empty.facts.summary.status).toBe("insufficient_data");
    expect(empty.facts.summary.requiresClinicianReview).toBe(false);
    expect(run({ avgSleepHours: 8 }).facts.summary.headline).toMatch(
      /^Insufficient data for a treatment-response direction/,
    );
  });

  it("with an improving anchor: improving at +10, stable below, worsening at -10", () => {
    // x 60 -> 40: +30; biomarker 1: -5; sleep 5.5 h: -20 x 1.5 / 2 = -15 -> score 10.
    expect(run({ assessments: X_IMPROVING, biomarkerWatchCount: 1, avgSleepHours: 5.5 }).data).toMatchObject({
      score: 10,
      direction: "improving",
    });
    // sleep 5.499 h: -20 x 1.501 / 2 = -15.01 -> 9.99: the composite is stable, so is the direction.
    expect(
      run({ assessments: X_IMPROVING, biomarkerWatchCount: 1, avgSleepHours: 5.499 }).data,
    ).toMatchObject({
      score: 9.99,
      direction: "stable",
    });
    // +30 - 15 (biomarker 3) - 20 (sleep 5 h) - 5 (polypharmacy) = -10: the composite lowers it.
    const tempered = run({
      assessments: X_IMPROVING,
      biomarkerWatchCount: 3,
      avgSleepHours: 5,
      activeMedications: 5,
    });
    expect(tempered.data).toMatchObject({ score: -10, direction: "worsening" });
    expect(tempered.facts.summary.requiresClinicianReview).toBe(true);
  });

  it("with a stable anchor: never better than stable, worsening at -10", () => {
    // PHQ-9 18 -> 14 (-4, not reliable) gives +22.22 on its own: a composite of +22.22 is not
    // improvement, and the faster latency and adequate sleep are not counted.
    const r = run({
      assessments: NOT_RELIABLE,
      avgSleepHours: 8,
      dmseLatencyPctChange: -30,
      activeMedications: 2,
    });
    expect(r.data).toMatchObject({ score: 22.22, direction: "stable" });
    expect(r.facts.summary.requiresClinicianReview).toBe(false);
    // Flat scale (0) plus slower latency: -9.99 stable, -10 worsening.
    expect(run({ assessments: FLAT, dmseLatencyPctChange: 19.98 }).data).toMatchObject({
      score: -9.99,
      direction: "stable",
    });
    expect(run({ assessments: FLAT, dmseLatencyPctChange: 20 }).data).toMatchObject({
      score: -10,
      direction: "worsening",
    });
  });

  it("severe_symptoms: a severe latest score without a reliable improvement, whatever the other sources", () => {
    // PHQ-9 21 -> 22: +1 point (not reliable), latest in the severe band (20-27). Symptoms:
    // 77.78 % -> 81.48 % = +3.70 pp -> -45 x 3.70 / 30 = -5.56. Sleep, latency and medication
    // would have added +10 +15 +5 before; they are not counted now.
    const r = run({
      assessments: series([21, 22], "2026-06-01T00:00:00Z", 14),
      avgSleepHours: 8,
      dmseLatencyPctChange: -30,
      activeMedications: 2,
    });
    expect(r.data).toMatchObject({ score: -5.56, direction: "severe_symptoms" });
    expect(r.facts.summary.status).toBe("severe_symptoms");
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
    expect(r.facts.summary.flagged).toEqual(["PHQ-9 22 of 27: severe band (20-27)", "Symptom trajectory"]);
    expect(r.facts.summary.headline).toContain(
      "severe symptoms without reliable improvement; clinician review",
    );
    // One severe administration is enough (no change is needed).
    const once = run({ assessments: series([20], "2026-06-01T00:00:00Z", 7) });
    expect(once.data).toMatchObject({ direction: "severe_symptoms", confidence: "low" });
    expect(once.data.components[0]?.available).toBe(false);
    // A caller's "severe" on a scale without published bands counts as well.
    const bdi: Assessment = {
      instrumentId: "cesd",
      instrumentName: "CES-D",
      score: 30,
      maxScore: 60,
      createdAt: "2026-06-20T09:00:00Z",
      severity: "severe",
    };
    expect(run({ assessments: [bdi] }).data.direction).toBe("severe_symptoms");
    // A worse composite still lowers it: severe + biomarker 3 (-15) -> worsening.
    expect(
      run({ assessments: series([20], "2026-06-01T00:00:00Z", 7), biomarkerWatchCount: 3 }).data.direction,
    ).toBe("worsening");
  });

  it("a severe score that improved reliably can be improving, but is still flagged for review", () => {
    // PHQ-9 27 -> 20: -7 points (reliable improvement); 20 is still in the severe band.
    // 100 % -> 74.07 % = -25.93 pp -> -45 x (-25.93 / 30) = +38.89.
    const r = run({ assessments: series([27, 20], "2026-06-01T00:00:00Z", 14) });
    expect(r.data).toMatchObject({ score: 38.89, direction: "improving" });
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
    expect(r.facts.summary.flagged).toEqual(["PHQ-9 20 of 27: severe band (20-27)"]);
    // Tempered by the other sources to a composite below +10, it is severe_symptoms, never stable:
    // 38.89 - 15 (biomarker 3) - 20 (sleep 5 h) = 3.89.
    const tempered = run({
      assessments: series([27, 20], "2026-06-01T00:00:00Z", 14),
      biomarkerWatchCount: 3,
      avgSleepHours: 5,
    });
    expect(tempered.data).toMatchObject({ score: 3.89, direction: "severe_symptoms" });
  });

  it("worsening: a reliable deterioration on any scale, even when the most administered one improved", () => {
    // PHQ-9 18 -> 15 -> 12 (the most administered, -6: reliable improvement) gives symptoms +33.33;
    // GAD-7 5 -> 9 (+4: reliable deterioration) makes the anchor worsening.
    const r = run({
      assessments: [
        ...series([18, 15, 12], "2026-06-01T00:00:00Z", 7),
        ...series([5, 9], "2026-06-01T00:00:00Z", 14, 21, "gad7"),
      ],
      avgSleepHours: 8,
    });
    expect(r.data.components.find((c) => c.key === "sleep")?.contribution).toBe(0);
    expect(r.data).toMatchObject({ score: 33.33, direction: "worsening" });
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
    expect(r.facts.summary.flagged).toEqual([
      "GAD-7 reliable deterioration: 5 -> 9 (+4 points; 4 or more is reliable)",
    ]);
    expect(r.facts.summary.headline).toContain("worsening; clinician review");
    // PHQ-9 8 -> 14 (+6) alone: the anchor and the composite (-33.33) agree.
    expect(run({ assessments: series([8, 14], "2026-06-01T00:00:00Z", 14) }).data).toMatchObject({
      score: -33.33,
      direction: "worsening",
    });
  });

  it("confidence: 1 agreeing source low, 2 moderate, 3 high; disagreeing and zero sources do not count", () => {
    // Symptoms +33.33 alone.
    expect(run({ assessments: IMPROVING }).data.confidence).toBe("low");
    // + sleep +10 (counted: the anchor is improving).
    expect(run({ assessments: IMPROVING, avgSleepHours: 8 }).data.confidence).toBe("moderate");
    // + dmse +15.
    expect(run({ assessments: IMPROVING, avgSleepHours: 8, dmseLatencyPctChange: -30 }).data.confidence).toBe(
      "high",
    );
    // A disagreeing biomarker item (-5) does not count against.
    expect(
      run({ assessments: IMPROVING, avgSleepHours: 8, dmseLatencyPctChange: -30, biomarkerWatchCount: 1 })
        .data.confidence,
    ).toBe("high");
    // Was the third agreeing source (+5); medication now contributes 0 and agrees with nothing.
    expect(run({ assessments: IMPROVING, avgSleepHours: 8, activeMedications: 2 }).data.confidence).toBe(
      "moderate",
    );
  });

  it("confidence: low without a symptom anchor, however many sources agree", () => {
    // dmse -15, biomarker -15, sleep -20: three agree on -50. The blend would be
    // 0.5 x 1 + 0.3 x 3/5 + 0.2 x 0 = 0.68; without an anchor it is capped at 0.3.
    const r = run({ dmseLatencyPctChange: 50, biomarkerWatchCount: 3, avgSleepHours: 5 });
    expect(r.data).toMatchObject({ score: -50, direction: "worsening", confidence: "low" });
    expect(r.facts.confidence.score).toBe(0.3);
    expect(r.facts.confidence.reasons[0]).toMatch(/^No symptom scale was given on two dates/);
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
    const calibrated = (input: Partial<OutcomeInput>) =>
      scoreOutcome({ assessments: [], ...input }, { now: NOW, model: { version: 2, params } });
    // Was { assessments: [], avgSleepHours: 8 } -> 6, improving: sleep alone no longer counts, so
    // the calibrated share is shown with a reliable symptom improvement (PHQ-9 18 -> 12).
    const sleepy = calibrated({ assessments: IMPROVING, avgSleepHours: 8 });
    expect(sleepy.model).toEqual({ key: "outcome_score", version: 2, source: "calibrated" });
    // 20 x 0.3 = 6 (default 20 x 0.5 = 10).
    expect(sleepy.data.components.find((c) => c.key === "sleep")?.contribution).toBe(6);
    expect(sleepy.data.score).toBe(39.33);
    expect(run({ assessments: IMPROVING, avgSleepHours: 8 }).data.score).toBe(43.33);
    // x 60 -> 40 (+30) with biomarker 3 (-15) and sleep 6 h (-10): +5 is improving at the calibrated
    // threshold of 5 and stable at the default 10.
    const five: Partial<OutcomeInput> = {
      assessments: X_IMPROVING,
      biomarkerWatchCount: 3,
      avgSleepHours: 6,
    };
    expect(calibrated(five).data).toMatchObject({ score: 5, direction: "improving" });
    expect(run(five).data).toMatchObject({ score: 5, direction: "stable" });
    expect(sleepy.facts.interpretationScale.improving).toMatch(/the composite is \+5 or more/);
    expect(sleepy.facts.interpretationScale.worsening).toMatch(/composite of -5 or less/);
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
/** PHQ-9 and GAD-7 on their published maxima (so bands and reliable change apply), some with a caller severity. */
const knownArb = fc
  .record({
    phq: fc.boolean(),
    score: fc.integer({ min: 0, max: 27 }),
    createdAt: isoArb,
    severity: fc.option(fc.constantFrom("severe", "moderately severe", "mild"), { nil: undefined }),
  })
  .map(
    ({ phq, score, createdAt, severity }): Assessment => ({
      instrumentId: phq ? "phq9" : "gad7",
      instrumentName: phq ? "PHQ-9" : "GAD-7",
      score: phq ? score : Math.min(score, 21),
      maxScore: phq ? 27 : 21,
      createdAt,
      ...(severity === undefined ? {} : { severity }),
    }),
  );
const inputArb = fc.record(
  {
    assessments: fc.array(fc.oneof(assessmentArb, knownArb), { maxLength: 40 }),
    dmseLatencyPctChange: fc.double({ min: -100, max: 1000, noNaN: true }),
    activeMedications: fc.integer({ min: 0, max: 100 }),
    biomarkerWatchCount: fc.integer({ min: 0, max: 100 }),
    avgSleepHours: fc.double({ min: 0, max: 24, noNaN: true }),
  },
  { requiredKeys: ["assessments"] },
);

type Anchored = Exclude<OutcomeDirection, "insufficient_data" | "not_current">;
const RANK: Readonly<Record<Anchored, number>> = {
  improving: 0,
  stable: 1,
  severe_symptoms: 2,
  worsening: 3,
};

/**
 * The symptom anchor as docs/engines/outcome.md states it, from the shared findings reader: any
 * reliable deterioration -> worsening; a severe latest score without a reliable improvement ->
 * severe_symptoms; else the scale the symptom component describes (readTrajectory's most
 * administered scale, read as the findings reader pools it) decides: improving on a reliable
 * improvement, else stable; that scale on one date only, or its change not read because only
 * invalid totals show it -> no anchor.
 */
function anchorOf(assessments: readonly Assessment[]): Anchored | null {
  const f = readSymptomFindings(assessments);
  if (f.deteriorated.length > 0) return "worsening";
  if (f.severe.some((i) => !i.improved)) return "severe_symptoms";
  const tr = readTrajectory(assessments)?.trajectory;
  // A scale whose direction is not known anchors nothing (decision 60).
  if (!tr || tr.lastAt === tr.firstAt || tr.direction === null) return null;
  const key = recogniseInstrument(tr.instrumentKey, tr.instrumentName) ?? tr.instrumentKey;
  const main = f.instruments.find((i) => i.key === key);
  // A change shown only with invalid totals anchors nothing (decision 81): valid administrations
  // on two dates are needed (fast-check found a PHQ-9 of 1.0000000000000002 out of 1 beside a 0).
  if (main !== undefined && !main.changeRead) return null;
  return main?.improved ? "improving" : "stable";
}

describe("invalid totals", () => {
  it("a change shown only by an invalid total is insufficient data, never stable (decision 81)", () => {
    // Found by the direction property: a PHQ-9 total a rounding error above its maximum, then a 0.
    const assessments: Assessment[] = [
      {
        instrumentId: "phq9",
        instrumentName: "PHQ-9",
        score: 1.0000000000000002,
        maxScore: 1,
        createdAt: "2020-01-01T00:00:00.000Z",
      },
      {
        instrumentId: "phq9",
        instrumentName: "PHQ-9",
        score: 0,
        maxScore: 1,
        createdAt: "2020-01-01T00:00:00.001Z",
      },
    ];
    const r = scoreOutcome({ assessments }, { now: NOW });
    expect(r.data.direction).toBe("insufficient_data");
    expect(r.data.components.find((c) => c.key === "symptoms")?.detail).toContain("change not evaluated");
  });
});

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
        // flagged: the symptom findings first (they are never outweighed), then the components with
        // a negative contribution, most negative first.
        const findings = readSymptomFindings(input.assessments);
        const flagged = r.facts.summary.flagged;
        expect(flagged.slice(0, findings.flags.length)).toEqual(findings.flags);
        const flaggedValues = flagged
          .slice(findings.flags.length)
          .map((l) => r.data.components.find((c) => c.label === l)?.contribution);
        expect(flaggedValues.length).toBe(r.data.components.filter((c) => c.contribution < 0).length);
        for (const v of flaggedValues) expect(v).toBeLessThan(0);
        for (let i = 1; i < flaggedValues.length; i++)
          expect(flaggedValues[i - 1]).toBeLessThanOrEqual(flaggedValues[i] as number);
      }),
      { numRuns: 300 },
    );
  });

  it("direction is never better than the symptom anchor nor the composite; no anchor is never improving", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = scoreOutcome(input, { now: NOW });
        const { score, direction } = r.data;
        const anchor = anchorOf(input.assessments);
        const composite: Anchored = score >= 10 ? "improving" : score <= -10 ? "worsening" : "stable";
        if (anchor === null) {
          // Without a symptom anchor only a worsening composite gives a direction; confidence is low.
          expect(direction).toBe(score <= -10 ? "worsening" : "insufficient_data");
          expect(r.data.confidence).toBe("low");
          expect(r.facts.confidence.score).toBeLessThanOrEqual(0.3);
        } else {
          expect(direction).not.toBe("insufficient_data");
          const d = direction as Anchored;
          // Never better than either; the worse of the two, except that a severe score is never
          // read as stable (an improvement tempered to stable becomes severe_symptoms).
          if (direction !== "not_current") {
            expect(RANK[d]).toBeGreaterThanOrEqual(RANK[anchor]);
            expect(RANK[d]).toBeGreaterThanOrEqual(RANK[composite]);
          }
          const worse = RANK[composite] > RANK[anchor] ? composite : anchor;
          const anySevere = readSymptomFindings(input.assessments).severe.length > 0;
          const expected = worse === "stable" && anySevere ? "severe_symptoms" : worse;
          // Decision 62: with the newest score older than 90 days, improving and stable are not_current.
          const newest = readTrajectory(input.assessments)?.trajectory.newestAt ?? Number.NaN;
          const stale = NOW.getTime() - newest > 90 * DAY;
          if (direction === "not_current") {
            expect(stale).toBe(true);
            expect(["improving", "stable"]).toContain(expected);
          } else {
            expect(d).toBe(expected);
            if (stale) expect(["severe_symptoms", "worsening"]).toContain(d);
          }
        }
        const findings = readSymptomFindings(input.assessments);
        if (findings.severe.length > 0) expect(direction).not.toBe("stable");
        if (findings.deteriorated.length > 0) expect(direction).toBe("worsening");
        if (score <= -10) expect(direction).toBe("worsening");
        if (direction === "improving") {
          expect(score).toBeGreaterThanOrEqual(10);
          expect(findings.instruments.some((f) => f.improved)).toBe(true);
        }
        expect(r.facts.summary.requiresClinicianReview).toBe(
          direction === "worsening" ||
            direction === "severe_symptoms" ||
            findings.severe.length > 0 ||
            findings.deteriorated.length > 0,
        );
        expect(r.facts.summary.status).toBe(direction);
      }),
      { numRuns: 400 },
    );
  });

  it("non-symptom sources add to the score only to corroborate a reliable symptom improvement", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = scoreOutcome(input, { now: NOW });
        const by = Object.fromEntries(r.data.components.map((c) => [c.key, c.contribution]));
        expect(by.medication).toBeLessThanOrEqual(0);
        expect(by.biomarker).toBeLessThanOrEqual(0);
        if (anchorOf(input.assessments) !== "improving" || r.data.direction === "not_current") {
          expect(by.dmse).toBeLessThanOrEqual(0);
          expect(by.sleep).toBeLessThanOrEqual(0);
        }
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
