import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  analyzeMedication,
  MEDICATION_DEFAULT_PARAMS,
  MEDICATION_INTERPRETATION_SCALE,
  MEDICATION_MODEL_KEY,
  MEDICATION_STATUS_ORDER,
  type MedicationInput,
  medicationSlug,
  resolveMedicationParams,
} from "../src/medication.js";
import type { Assessment, ModuleSignal, Prescription } from "../src/types.js";

const NOW = new Date("2026-08-01T00:00:00Z");
const DAY = 86_400_000;

function weekly(
  scores: number[],
  start = "2026-06-01",
  instrument: { id: string; name: string; max: number } = { id: "phq9", name: "PHQ-9", max: 27 },
): Assessment[] {
  return scores.map((score, i) => ({
    instrumentId: instrument.id,
    instrumentName: instrument.name,
    score,
    maxScore: instrument.max,
    createdAt: new Date(Date.parse(`${start}T09:00:00Z`) + i * 7 * DAY).toISOString(),
  }));
}

const rx = (over: Partial<Prescription> = {}): Prescription => ({
  id: "rx_1",
  medicationName: "Sertraline 50 mg",
  status: "active",
  prescribedAt: "2026-06-20",
  ...over,
});

const run = (input: Partial<MedicationInput>, model?: { version: number; params: never }) =>
  analyzeMedication(
    { prescriptions: input.prescriptions ?? [], assessments: input.assessments ?? [], ...input },
    model ? { now: NOW, model } : { now: NOW },
  );

const only = (input: Partial<MedicationInput>): ModuleSignal => {
  const signals = run(input).data.signals;
  expect(signals).toHaveLength(1);
  return signals[0] as ModuleSignal;
};

/** Scale without published reliability, 0-100, so percent = raw score. */
const GENERIC = { id: "custom_scale", name: "Custom scale", max: 100 };

describe("worked example (docs/engines/medication.md)", () => {
  it("gives the hand-computed numbers", () => {
    const result = run({
      prescriptions: [rx()],
      assessments: weekly([20, 19, 19, 16, 14, 12, 10]),
    });
    const s = result.data.signals[0] as ModuleSignal;
    // Baseline: mean(20, 19, 19) = 19.333 = 71.6 % of 27; latest after: 10 = 37.0 %; change -34.6.
    expect(s).toMatchObject({
      module: "medication",
      signalKey: "med_response_sertraline_50_mg",
      label: "Response to Sertraline 50 mg",
      tone: "positive",
      metricValue: -34.6,
      metricUnit: "score",
      confidence: "high",
      sourceRef: "rx_1",
      observedAt: "2026-07-13T09:00:00.000Z",
    });
    // RCI = (10 - 19.333) / (sqrt(2) * 3.5 * sqrt(1 - 0.84)) = -9.333 / 1.980 = -4.71.
    expect(s.detail).toContain("Reliable improvement");
    expect(s.detail).toContain("RCI -4.71");
    expect(s.detail).toContain("more than 3.88 points");
    expect(s.detail).toContain("71.6%");
    expect(s.detail).toContain("37%");
    expect(result.facts.summary).toEqual({
      status: "responding",
      headline: "Symptom scores improved after the start of all 1 active prescription(s).",
      flagged: [],
      requiresClinicianReview: false,
    });
    expect(result.facts.confidence).toMatchObject({ level: "high", score: 0.9 });
    expect(result.data.generatedAt).toBe(NOW.toISOString());
    expect(result.data.signalsPresent).toBe(1);
  });
});

describe("prescriptions", () => {
  it("emits one signal per active prescription (case-insensitive, trimmed) and ignores others", () => {
    const result = run({
      prescriptions: [
        rx({ id: "a", medicationName: "A", status: "ACTIVE" }),
        rx({ id: "b", medicationName: "B", status: " Active " }),
        rx({ id: "c", medicationName: "C", status: "discontinued" }),
        rx({ id: "d", medicationName: "D", status: "inactive" }),
      ],
      assessments: weekly([20, 19, 19, 16]),
    });
    expect(result.data.signals.map((s) => s.sourceRef)).toEqual(["a", "b"]);
  });

  it("normalises names into signal keys and de-duplicates repeats", () => {
    expect(medicationSlug("Sertraline HCl 50mg")).toBe("sertraline_hcl_50mg");
    expect(medicationSlug("  Lithium carbonate (ER) 300 mg ")).toBe("lithium_carbonate_er_300_mg");
    expect(medicationSlug("Zolpidém")).toBe("zolpidem");
    expect(medicationSlug("!!!")).toBe("unnamed");
    const result = run({
      prescriptions: [
        rx({ id: "1", medicationName: "Lithium" }),
        rx({ id: "2", medicationName: "lithium" }),
        rx({ id: "3", medicationName: "LITHIUM!" }),
      ],
    });
    expect(result.data.signals.map((s) => s.signalKey)).toEqual([
      "med_response_lithium",
      "med_response_lithium_2",
      "med_response_lithium_3",
    ]);
  });

  it("without prescribedAt gives a low-confidence watch signal that says why", () => {
    const s = only({ prescriptions: [rx({ prescribedAt: undefined })], assessments: weekly([20, 10]) });
    expect(s).toMatchObject({
      tone: "watch",
      confidence: "low",
      metricValue: 0,
      observedAt: NOW.toISOString(),
    });
    expect(s.detail).toContain("No prescribedAt");
  });

  it("with an unreadable prescribedAt says so", () => {
    const s = only({ prescriptions: [rx({ prescribedAt: "soon" })], assessments: weekly([20, 10]) });
    expect(s.detail).toContain('"soon" is not a readable date');
  });

  it("without assessments says so", () => {
    const s = only({ prescriptions: [rx()] });
    expect(s).toMatchObject({ tone: "watch", confidence: "low", metricValue: 0 });
    expect(s.detail).toContain("No symptom-scale administrations");
  });

  it("with no administration before the start says so", () => {
    const s = only({ prescriptions: [rx({ prescribedAt: "2026-05-01" })], assessments: weekly([20, 10]) });
    expect(s).toMatchObject({ tone: "watch", confidence: "low", metricValue: 0 });
    expect(s.detail).toContain("no PHQ-9 administration on or before the start on 2026-05-01 (2 after)");
    expect(s.observedAt).toBe("2026-06-08T09:00:00.000Z");
  });

  it("with no administration after the start says so", () => {
    const s = only({ prescriptions: [rx({ prescribedAt: "2026-09-01" })], assessments: weekly([20, 10]) });
    expect(s.detail).toContain("no PHQ-9 administration after the start on 2026-09-01 (2 before)");
  });

  it("counts an administration on a date-only start day as baseline", () => {
    // Administrations on 06-01 and 06-08 (09:00); start 2026-06-08 (date only): both are baseline.
    const dateOnly = only({
      prescriptions: [rx({ prescribedAt: "2026-06-08" })],
      assessments: weekly([20, 10]),
    });
    expect(dateOnly.detail).toContain("no PHQ-9 administration after the start on 2026-06-08 (2 before)");
    // A timestamped start before 09:00 on the same day leaves the 09:00 administration after it.
    const timed = only({
      prescriptions: [rx({ prescribedAt: "2026-06-08T08:00:00Z" })],
      assessments: weekly([20, 10]),
    });
    expect(timed.detail).toContain("mean of 1 administration(s)");
    // Exactly at the timestamp counts as baseline.
    const exact = only({
      prescriptions: [rx({ prescribedAt: "2026-06-08T09:00:00.000Z" })],
      assessments: weekly([20, 10]),
    });
    expect(exact.detail).toContain("(2 before)");
  });
});

describe("thresholds on a scale without published reliability (15 points of 100)", () => {
  const generic = (before: number, after: number) =>
    only({
      prescriptions: [rx()],
      assessments: weekly([before, before, before, after], "2026-06-01", GENERIC),
    });

  it.each([
    [50, 35, "positive", -15],
    [50, 35.1, "watch", -14.9],
    [50, 64.9, "watch", 14.9],
    [50, 65, "elevated", 15],
    [50, 50, "watch", 0],
  ])("%d -> %d is %s", (before, after, tone, metric) => {
    const s = generic(before, after);
    expect(s.tone).toBe(tone);
    expect(s.metricValue).toBe(metric);
    expect(s.detail).toContain("no published reliability");
  });
});

describe("reliable change on the PHQ-9 and GAD-7", () => {
  it("uses the PHQ-9 threshold (3.88 points) for the tone", () => {
    const phq = (after: number) => only({ prescriptions: [rx()], assessments: weekly([10, 10, 10, after]) });
    expect(phq(13.88).tone).toBe("watch");
    expect(phq(13.88).detail).toContain("Not a reliable change");
    expect(phq(13.9).tone).toBe("elevated");
    expect(phq(13.9).detail).toContain("Reliable deterioration");
    expect(phq(6.12).tone).toBe("watch");
    expect(phq(6.1).tone).toBe("positive");
  });

  it("uses the GAD-7 threshold (4.00 points)", () => {
    const gad = (after: number) =>
      only({
        prescriptions: [rx()],
        assessments: weekly([12, 12, 12, after], "2026-06-01", { id: "gad7", name: "GAD-7", max: 21 }),
      });
    expect(gad(8.01).tone).toBe("watch");
    expect(gad(7.99).tone).toBe("positive");
    expect(gad(7.99).detail).toContain("SD 3.5, test-retest r 0.83");
  });

  it("recognises instrument name variants and pools them as one instrument", () => {
    const mixed: Assessment[] = [
      ...weekly([20], "2026-06-01", { id: "phq_9", name: "x", max: 27 }),
      ...weekly([19], "2026-06-08", { id: "q1", name: "Patient Health Questionnaire-9", max: 27 }),
      ...weekly([10], "2026-06-29", { id: "PHQ-9", name: "PHQ-9", max: 27 }),
    ];
    const s = only({ prescriptions: [rx()], assessments: mixed });
    expect(s.detail).toContain("PHQ-9 (the most administered scale): mean of 2");
  });

  it("falls back to percentage thresholds when a PHQ-9 administration has another maxScore", () => {
    const s = only({
      prescriptions: [rx()],
      assessments: weekly([20, 19, 19, 10], "2026-06-01", { id: "phq9", name: "PHQ-9", max: 30 }),
    });
    expect(s.detail).toContain(
      "Reliable change not assessed: 4 administration(s) have a maxScore other than",
    );
    expect(s.tone).toBe("positive");
  });
});

describe("instrument choice", () => {
  it("uses the instrument with the most administrations", () => {
    const s = only({
      prescriptions: [rx()],
      assessments: [
        ...weekly([10, 10, 10, 10, 10], "2026-06-01", { id: "gad7", name: "GAD-7", max: 21 }),
        ...weekly([20, 19, 19, 10], "2026-06-01"),
      ],
    });
    expect(s.detail.startsWith("GAD-7")).toBe(true);
  });

  it("breaks a tie by the newest latest administration, then alphabetically", () => {
    const newer = only({
      prescriptions: [rx()],
      assessments: [
        ...weekly([10, 10, 10], "2026-06-01", { id: "gad7", name: "GAD-7", max: 21 }),
        ...weekly([20, 19, 10], "2026-06-08"),
      ],
    });
    expect(newer.detail.startsWith("PHQ-9")).toBe(true);
    const same = only({
      prescriptions: [rx()],
      assessments: [
        ...weekly([10, 10, 10], "2026-06-01", { id: "zeta", name: "Zeta", max: 10 }),
        ...weekly([5, 5, 5], "2026-06-01", { id: "alpha", name: "Alpha", max: 10 }),
      ],
    });
    expect(same.detail).toContain("no Alpha administration after the start");
  });

  it("skips administrations with an unreadable createdAt", () => {
    const bad: Assessment = {
      instrumentId: "gad7",
      instrumentName: "GAD-7",
      score: 3,
      maxScore: 21,
      createdAt: "n/a",
    };
    const s = only({ prescriptions: [rx()], assessments: [bad, bad, bad, ...weekly([20, 10, 10, 10])] });
    expect(s.detail.startsWith("PHQ-9")).toBe(true);
  });
});

describe("confidence per signal", () => {
  const withCounts = (before: number, after: number) =>
    only({
      prescriptions: [rx({ prescribedAt: "2026-07-01" })],
      assessments: [
        ...Array.from({ length: before }, (_, i) => ({
          instrumentId: "phq9",
          instrumentName: "PHQ-9",
          score: 20,
          maxScore: 27,
          createdAt: new Date(Date.parse("2026-06-01T00:00:00Z") + i * DAY).toISOString(),
        })),
        ...Array.from({ length: after }, (_, i) => ({
          instrumentId: "phq9",
          instrumentName: "PHQ-9",
          score: 10,
          maxScore: 27,
          createdAt: new Date(Date.parse("2026-07-10T00:00:00Z") + i * DAY).toISOString(),
        })),
      ],
    }).confidence;

  it.each([
    [3, 3, "high"],
    [5, 3, "high"],
    [2, 2, "moderate"],
    [3, 2, "moderate"],
    [1, 5, "low"],
    [5, 1, "low"],
  ])("%d before and %d after -> %s", (before, after, level) => {
    expect(withCounts(before, after)).toBe(level);
  });
});

describe("latency corroboration", () => {
  it.each([
    [-10, "positive"],
    [-9.9, "watch"],
    [0, "watch"],
    [9.9, "watch"],
    [10, "elevated"],
    [-100, "positive"],
    [1000, "elevated"],
  ])("%d%% -> %s", (pct, tone) => {
    const s = only({ dmseLatencyPctChange: pct });
    expect(s).toMatchObject({
      signalKey: "med_dmse_latency_corroboration",
      sourceRef: "dmse",
      metricUnit: "%",
      metricValue: pct,
      tone,
      observedAt: NOW.toISOString(),
    });
  });

  it("is added after the response signals and feeds flagged and review", () => {
    const result = run({
      prescriptions: [rx()],
      assessments: weekly([20, 19, 19, 16, 14, 12, 10]),
      dmseLatencyPctChange: 25,
    });
    expect(result.data.signals.map((s) => s.signalKey)).toEqual([
      "med_response_sertraline_50_mg",
      "med_dmse_latency_corroboration",
    ]);
    expect(result.facts.summary.status).toBe("responding");
    expect(result.facts.summary.flagged).toEqual(["Response latency change (corroboration)"]);
    expect(result.facts.summary.requiresClinicianReview).toBe(true);
  });
});

describe("facts", () => {
  it("with no active prescriptions", () => {
    const result = run({ prescriptions: [rx({ status: "discontinued" })], assessments: weekly([1, 2]) });
    expect(result.data.signals).toEqual([]);
    expect(result.facts.summary).toMatchObject({
      status: "no_active_prescriptions",
      headline: "No active prescriptions to assess.",
      flagged: [],
      requiresClinicianReview: false,
    });
    expect(result.facts.confidence.level).toBe("low");
    expect(result.facts.inputs.map((i) => [i.name, i.supplied, i.contributed])).toEqual([
      ["prescriptions", true, false],
      ["assessments", true, false],
      ["dmseLatencyPctChange", false, false],
    ]);
  });

  it("orders status worst first and flags worst first", () => {
    const result = run({
      prescriptions: [
        rx({ id: "1", medicationName: "Better", prescribedAt: "2026-06-20" }),
        rx({ id: "2", medicationName: "Unknown start", prescribedAt: undefined }),
        rx({ id: "3", medicationName: "Flat", prescribedAt: "2026-07-03" }),
      ],
      // Start 06-20: mean(20, 20, 20) = 20 -> 16, a fall of 4 > 3.88 points (reliable).
      // Start 07-03: mean(20, 20, 20, 12, 11) = 16.6 -> 16, a fall of 0.6 (not reliable).
      assessments: weekly([20, 20, 20, 12, 11, 16, 16]),
    });
    const bySource = Object.fromEntries(result.data.signals.map((s) => [s.sourceRef, s.tone]));
    expect(bySource).toEqual({ "1": "positive", "2": "watch", "3": "watch" });
    expect(result.facts.summary.status).toBe("no_clear_change");
    const worse = run({
      prescriptions: [
        rx({ id: "2", medicationName: "Unknown start", prescribedAt: undefined }),
        rx({ id: "1", medicationName: "Worse", prescribedAt: "2026-06-20" }),
      ],
      assessments: weekly([5, 5, 5, 10, 15, 20, 25]),
      dmseLatencyPctChange: 0,
    });
    expect(worse.facts.summary.status).toBe("worsening");
    expect(worse.facts.summary.flagged).toEqual([
      "Response to Worse",
      "Response to Unknown start",
      "Response latency change (corroboration)",
    ]);
    expect(worse.facts.summary.requiresClinicianReview).toBe(true);
  });

  it("reports inputs with their newest dates", () => {
    const result = run({
      prescriptions: [rx({ prescribedAt: "2026-06-20" }), rx({ id: "rx_2", prescribedAt: "2026-07-01" })],
      assessments: weekly([20, 10]),
      dmseLatencyPctChange: -5,
    });
    expect(result.facts.inputs).toEqual([
      {
        name: "prescriptions",
        value: 2,
        observedAt: "2026-07-01T00:00:00.000Z",
        supplied: true,
        contributed: true,
      },
      {
        name: "assessments",
        value: 2,
        observedAt: "2026-06-08T09:00:00.000Z",
        supplied: true,
        contributed: true,
      },
      { name: "dmseLatencyPctChange", value: -5, observedAt: null, supplied: true, contributed: true },
    ]);
  });

  it("publishes a status polarity and a legend for every status", () => {
    const result = run({});
    expect(result.facts.polarity).toEqual({ kind: "status", order: MEDICATION_STATUS_ORDER });
    expect(Object.keys(result.facts.interpretationScale).sort()).toEqual([...MEDICATION_STATUS_ORDER].sort());
    expect(result.facts.interpretationScale).toEqual(MEDICATION_INTERPRETATION_SCALE);
    expect(result.facts.current).toEqual({ score: null, status: "no_active_prescriptions" });
  });
});

describe("model and parameters", () => {
  it("reports the default model", () => {
    expect(run({}).model).toEqual({ key: MEDICATION_MODEL_KEY, version: null, source: "default" });
    expect(MEDICATION_MODEL_KEY).toBe("medication_response");
  });

  it("calibrated parameters change the output and the model block", () => {
    const input = {
      prescriptions: [rx()],
      assessments: weekly([50, 50, 50, 30], "2026-06-01", GENERIC),
    };
    expect(run(input).data.signals[0]?.tone).toBe("positive");
    const params = resolveMedicationParams({ improvementPctPoints: 25 });
    const calibrated = analyzeMedication(input, { now: NOW, model: { version: 3, params } });
    expect(calibrated.data.signals[0]?.tone).toBe("watch");
    expect(calibrated.model).toEqual({ key: "medication_response", version: 3, source: "calibrated" });
  });

  it("resolveMedicationParams merges over defaults", () => {
    expect(resolveMedicationParams({})).toEqual(MEDICATION_DEFAULT_PARAMS);
    expect(resolveMedicationParams(null)).toEqual(MEDICATION_DEFAULT_PARAMS);
    expect(resolveMedicationParams({ phq9Sd: 5.5 }).phq9Sd).toBe(5.5);
    expect(resolveMedicationParams({ phq9Sd: 5.5 }).gad7Sd).toBe(3.5);
  });

  it.each([
    [{ nope: 1 }, /unknown medication parameter "nope"/],
    [{ phq9Sd: Number.NaN }, /finite number/],
    [{ phq9Sd: Number.POSITIVE_INFINITY }, /finite number/],
    [{ phq9Sd: "3" }, /finite number/],
    [{ phq9Sd: 0 }, /phq9Sd must be > 0/],
    [{ gad7Reliability: 1 }, /gad7Reliability must be in \[0, 1\)/],
    [{ improvementPctPoints: -1 }, /improvementPctPoints must be >= 0/],
    [{ highConfidenceMinPerSide: 1 }, /highConfidenceMinPerSide/],
    [[1, 2], /must be an object/],
    ["x", /must be an object/],
  ])("rejects %j", (overrides, message) => {
    expect(() => resolveMedicationParams(overrides)).toThrow(message);
  });
});

describe("properties", () => {
  const arbAssessment = fc.record({
    instrumentId: fc.constantFrom("phq9", "PHQ-9", "gad7", "custom", "x"),
    instrumentName: fc.constantFrom("PHQ-9", "GAD-7", "Custom"),
    score: fc.double({ min: 0, max: 1000, noNaN: true }),
    maxScore: fc.double({ min: 1, max: 1000, noNaN: true }),
    createdAt: fc
      .integer({ min: Date.parse("2025-01-01"), max: Date.parse("2026-12-31") })
      .map((t) => new Date(t).toISOString()),
  });
  const arbPrescription = fc.record({
    id: fc.string({ minLength: 1, maxLength: 8 }),
    medicationName: fc.string({ minLength: 1, maxLength: 30 }),
    status: fc.constantFrom("active", "Active", "discontinued", "paused"),
    prescribedAt: fc.option(
      fc
        .integer({ min: Date.parse("2025-01-01"), max: Date.parse("2026-12-31") })
        .map((t) => new Date(t).toISOString()),
      { nil: undefined },
    ),
  });
  const arbInput = fc.record({
    prescriptions: fc.array(arbPrescription, { maxLength: 8 }),
    assessments: fc.array(arbAssessment, { maxLength: 40 }),
    dmseLatencyPctChange: fc.option(fc.double({ min: -100, max: 1000, noNaN: true }), { nil: undefined }),
  });
  const RANK = { critical: 4, elevated: 3, watch: 2, neutral: 1, positive: 0 } as const;

  it("is deterministic, consistent and bounded", () => {
    fc.assert(
      fc.property(arbInput, (input) => {
        const a = analyzeMedication(input, { now: NOW });
        const b = analyzeMedication(structuredClone(input), { now: NOW });
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        expect(a.data.signalsPresent).toBe(a.data.signals.length);
        const active = input.prescriptions.filter((p) => p.status.toLowerCase() === "active").length;
        expect(a.data.signals.length).toBe(active + (input.dmseLatencyPctChange === undefined ? 0 : 1));
        expect(a.facts.confidence.score).toBeGreaterThanOrEqual(0);
        expect(a.facts.confidence.score).toBeLessThanOrEqual(1);
        expect(MEDICATION_STATUS_ORDER).toContain(a.facts.summary.status);
        for (const s of a.data.signals) {
          expect(Number.isFinite(s.metricValue)).toBe(true);
          expect(s.signalKey).toMatch(/^med_(response_[a-z0-9_]+|dmse_latency_corroboration)$/);
          expect(Number.isNaN(Date.parse(s.observedAt))).toBe(false);
        }
        // flagged is worst first: tones of the flagged labels never rise.
        const toneOf = new Map(a.data.signals.map((s) => [s.label, s.tone]));
        const ranks = a.facts.summary.flagged.map((label) => RANK[toneOf.get(label) ?? "positive"]);
        for (let i = 1; i < ranks.length; i++) expect(ranks[i]).toBeLessThanOrEqual(ranks[i - 1] as number);
        expect(JSON.parse(JSON.stringify(a.data))).toEqual(a.data);
      }),
      { numRuns: 300 },
    );
  });
});
