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
  readSymptomFindings,
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

/**
 * A PHQ-9 sent on a 0-100 scale: a recognised higher-is-worse instrument read off its published
 * scale, so the percentage-point thresholds apply and percent = raw score. (A scale that is not
 * recognised has no known direction and is not compared at all: decision 60.)
 */
const GENERIC = { id: "phq9", name: "PHQ-9", max: 100 };

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
    // Was the Jacobson-Truax index ("RCI -4.71", "more than 3.88 points"). Now NHS Talking
    // Therapies points: 10 - 19.333 = -9.33 points, at least 6 -> reliable improvement (same tone).
    expect(s.detail).toContain(
      "Reliable improvement from the mean of 3 administration(s) on or before the start: 19.33 -> 10 points (-9.33)",
    );
    expect(s.detail).toContain(
      "a change of 6 points or more either way is reliable (NHS Talking Therapies definition)",
    );
    // 10 is in the moderate band (10-14) and still at caseness (>= 10): no recovery is claimed.
    expect(s.detail).toContain("The latest score is in the moderate band (10-14).");
    expect(s.detail).not.toContain("reliable recovery");
    expect(s.detail).not.toContain("RCI");
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

describe("thresholds on a recognised scale read off its published scale (15 points of 100)", () => {
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
    expect(s.detail).toContain("are not valid PHQ-9 administrations");
  });
});

describe("reliable change on the PHQ-9 and GAD-7", () => {
  it("uses the PHQ-9 reliable change of 6 points for the tone", () => {
    const phq = (after: number) => only({ prescriptions: [rx()], assessments: weekly([10, 10, 10, after]) });
    // Was "elevated" from 13.9 (Jacobson-Truax threshold 3.88); a 4- or 5-point rise is not reliable.
    expect(phq(14).tone).toBe("watch");
    expect(phq(15).tone).toBe("watch");
    expect(phq(15).detail).toContain("Not a reliable change");
    expect(phq(16).tone).toBe("elevated");
    expect(phq(16).detail).toContain("Reliable deterioration");
    expect(phq(16).detail).toContain("a change of 6 points or more either way is reliable");
    // Was "positive" from 6.1; a 4- or 5-point fall is not reliable.
    expect(phq(6).tone).toBe("watch");
    expect(phq(5).tone).toBe("watch");
    expect(phq(4).tone).toBe("positive");
    expect(phq(4).detail).toContain("Reliable improvement");
    // Decision 81: a fractional PHQ-9 total is invalid and never a response; a rise is still read,
    // at the nearest whole total toward the worse end (15.99 -> 16: +6 points, reliable).
    expect(phq(15.99).detail).toContain(
      "Not evaluated: 1 PHQ-9 administration(s) with an invalid total (total 15.99 is not a whole number",
    );
    expect(phq(15.99).tone).toBe("elevated");
    // A fall shown only by an invalid total is not a response: no valid score after the start.
    expect(phq(3.5).tone).toBe("watch");
    expect(phq(3.5).detail).toContain("the valid administrations do not fall on both sides of the start");
  });

  it("uses the GAD-7 reliable change of 4 points", () => {
    const gad = (after: number) =>
      only({
        prescriptions: [rx()],
        assessments: weekly([12, 12, 12, after], "2026-06-01", { id: "gad7", name: "GAD-7", max: 21 }),
      });
    // Was "watch" at 8 (Jacobson-Truax 4.00003 put a whole 4-point change just short): 4 is reliable.
    expect(gad(8).tone).toBe("positive");
    expect(gad(9).tone).toBe("watch");
    expect(gad(15).tone).toBe("watch");
    expect(gad(16).tone).toBe("elevated");
    expect(gad(8).detail).toContain(
      "a change of 4 points or more either way is reliable (NHS Talking Therapies definition)",
    );
    expect(gad(8).detail).not.toContain("SD 3.5");
  });

  it("says when the latest score is a reliable recovery (case -> non-case with a reliable improvement)", () => {
    // GAD-7 12 -> 7: -5 points (reliable), from caseness (>= 8) to below it.
    const recovered = only({
      prescriptions: [rx()],
      assessments: weekly([12, 12, 12, 7], "2026-06-01", { id: "gad7", name: "GAD-7", max: 21 }),
    });
    expect(recovered.tone).toBe("positive");
    expect(recovered.detail).toContain("(reliable recovery)");
    expect(recovered.detail).toContain("The latest score is in the mild band (5-9).");
    // PHQ-9 20 -> 12: reliable improvement, but 12 is still a case.
    const notRecovered = only({ prescriptions: [rx()], assessments: weekly([20, 20, 20, 12]) });
    expect(notRecovered.tone).toBe("positive");
    expect(notRecovered.detail).not.toContain("reliable recovery");
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
      "Reliable change not assessed: 4 administration(s) are not valid PHQ-9 administrations (a maxScore other than the published 27",
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

  it("reads as a device measurement, not as evidence of improvement or worsening", () => {
    // Was "faster responses, consistent with improvement" / "slower responses, consistent with
    // worsening" / "no change beyond the threshold".
    expect(only({ dmseLatencyPctChange: -20 }).detail).toContain(
      "faster responses than before (a device measurement)",
    );
    expect(only({ dmseLatencyPctChange: 20 }).detail).toContain(
      "slower responses than before (a device measurement)",
    );
    expect(only({ dmseLatencyPctChange: 0 }).detail).toContain(
      "no change beyond the expert-set thresholds (a fall of 10 % or a rise of 10 %)",
    );
    for (const pct of [-20, 0, 20]) {
      const s = only({ dmseLatencyPctChange: pct });
      expect(s.detail).not.toMatch(/consistent with/);
      expect(s.detail).toContain("Corroborates, never replaces, the symptom-scale comparison.");
    }
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
      // Was 20, 20, 20, 12, 11, 16, 16 (20 -> 16, a fall of 4, "reliable" above 3.88): 4 points is
      // not reliable now, so the last two scores are 14 to keep one responding prescription.
      // Start 06-20: mean(20, 20, 20) = 20 -> 14, a fall of 6 (reliable).
      // Start 07-03: mean(20, 20, 20, 12, 11) = 16.6 -> 14, a fall of 2.6 (not reliable).
      assessments: weekly([20, 20, 20, 12, 11, 14, 14]),
    });
    const bySource = Object.fromEntries(result.data.signals.map((s) => [s.sourceRef, s.tone]));
    expect(bySource).toEqual({ "1": "positive", "2": "watch", "3": "watch" });
    expect(result.facts.summary.status).toBe("no_clear_change");
    expect(result.facts.summary.flagged).toEqual(["Response to Unknown start", "Response to Flat"]);
    const worse = run({
      prescriptions: [
        rx({ id: "2", medicationName: "Unknown start", prescribedAt: undefined }),
        rx({ id: "1", medicationName: "Worse", prescribedAt: "2026-06-20" }),
      ],
      assessments: weekly([5, 5, 5, 10, 15, 20, 25]),
      dmseLatencyPctChange: 0,
    });
    expect(worse.facts.summary.status).toBe("worsening");
    // The symptom findings come first (5 -> 25 is +20 points; 25 is in the severe band), then the
    // signals worst first, as before.
    const findings = [
      "PHQ-9 reliable deterioration: 5 -> 25 (+20 points; 6 or more is reliable)",
      "PHQ-9 25 of 27: severe band (20-27)",
    ];
    expect(worse.facts.summary.flagged).toEqual([
      ...findings,
      "Response to Worse",
      "Response to Unknown start",
      "Response latency change (corroboration)",
    ]);
    expect(worse.facts.summary.requiresClinicianReview).toBe(true);
    expect(worse.facts.summary.headline).toBe(
      `Symptom scores worsened after the start of 1 of 2 active prescription(s). Needs clinician review: ${findings.join("; ")}.`,
    );
  });

  it("a severe score on any instrument sets review and leads flagged, even while the prescription responds", () => {
    // The worked example (PHQ-9 responding) plus one GAD-7 of 16 (severe band 15-21).
    const gad: Assessment = {
      instrumentId: "gad7",
      instrumentName: "GAD-7",
      score: 16,
      maxScore: 21,
      createdAt: "2026-07-10T09:00:00Z",
    };
    const result = run({
      prescriptions: [rx()],
      assessments: [...weekly([20, 19, 19, 16, 14, 12, 10]), gad],
    });
    expect(result.data.signals[0]?.tone).toBe("positive");
    expect(result.facts.summary).toEqual({
      status: "responding",
      headline:
        "Symptom scores improved after the start of all 1 active prescription(s). Needs clinician review: GAD-7 16 of 21: severe band (15-21).",
      flagged: ["GAD-7 16 of 21: severe band (15-21)"],
      requiresClinicianReview: true,
    });
    // Also with no active prescription at all.
    const none = run({ prescriptions: [], assessments: [gad] });
    expect(none.facts.summary).toMatchObject({
      status: "no_active_prescriptions",
      flagged: ["GAD-7 16 of 21: severe band (15-21)"],
      requiresClinicianReview: true,
    });
  });

  it("a caller's severity naming the top band counts on a scale without published bands", () => {
    const bdi = (severity: string): Assessment => ({
      instrumentId: "cesd",
      instrumentName: "CES-D",
      score: 31,
      maxScore: 60,
      createdAt: "2026-07-10T09:00:00Z",
      severity,
    });
    const severe = run({ prescriptions: [], assessments: [bdi("Severe")] });
    expect(severe.facts.summary.flagged).toEqual([
      'CES-D latest administration reported as "Severe" by the caller',
    ]);
    expect(severe.facts.summary.requiresClinicianReview).toBe(true);
    const moderatelySevere = run({ prescriptions: [], assessments: [bdi("moderately severe")] });
    expect(moderatelySevere.facts.summary.requiresClinicianReview).toBe(false);
  });

  it("an off-scale deterioration uses worseningPctPoints, as calibrated", () => {
    // A second scale (not the most administered), a GAD-7 sent on 0-100, rising 40 % -> 60 %: +20 pp.
    const other = weekly([40, 60], "2026-06-01", { id: "gad7", name: "GAD-7", max: 100 });
    const input = { prescriptions: [rx()], assessments: [...weekly([20, 19, 19, 16, 14, 12, 10]), ...other] };
    expect(run(input).facts.summary.flagged[0]).toMatch(/^GAD-7 rose 20 percentage points/);
    const params = resolveMedicationParams({ worseningPctPoints: 25 });
    const calibrated = analyzeMedication(input, { now: NOW, model: { version: 4, params } });
    expect(calibrated.facts.summary.flagged).toEqual([]);
    expect(calibrated.facts.summary.requiresClinicianReview).toBe(false);
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
        staleAfterDays: 90,
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
    // Was phq9Sd / gad7Sd (3.5): the reliable change is now in points (NHS Talking Therapies).
    expect(MEDICATION_DEFAULT_PARAMS).toMatchObject({
      phq9ReliableChangePoints: 6,
      gad7ReliableChangePoints: 4,
    });
    expect(resolveMedicationParams({ phq9ReliableChangePoints: 5 }).phq9ReliableChangePoints).toBe(5);
    expect(resolveMedicationParams({ phq9ReliableChangePoints: 5 }).gad7ReliableChangePoints).toBe(4);
  });

  it("a calibrated reliable-change threshold changes the tone", () => {
    // PHQ-9 10 -> 6: -4 points, not reliable at 6, reliable at a calibrated 4.
    const input = { prescriptions: [rx()], assessments: weekly([10, 10, 10, 6]) };
    expect(run(input).data.signals[0]?.tone).toBe("watch");
    const params = resolveMedicationParams({ phq9ReliableChangePoints: 4 });
    const calibrated = analyzeMedication(input, { now: NOW, model: { version: 5, params } });
    expect(calibrated.data.signals[0]?.tone).toBe("positive");
    expect(calibrated.data.signals[0]?.detail).toContain(
      "a change of 4 points or more either way is reliable",
    );
  });

  it.each([
    [{ nope: 1 }, /unknown medication parameter "nope"/],
    [{ phq9ReliableChangePoints: Number.NaN }, /finite number/],
    [{ phq9ReliableChangePoints: Number.POSITIVE_INFINITY }, /finite number/],
    [{ phq9ReliableChangePoints: "6" }, /finite number/],
    [{ phq9ReliableChangePoints: 0 }, /phq9ReliableChangePoints must be > 0/],
    [{ gad7ReliableChangePoints: -1 }, /gad7ReliableChangePoints must be > 0/],
    // The Jacobson-Truax keys are gone: a calibrated row that still has them is refused as unknown.
    [{ phq9Sd: 5.5 }, /unknown medication parameter "phq9Sd"/],
    [{ phq9Reliability: 0.84 }, /unknown medication parameter "phq9Reliability"/],
    [{ gad7Sd: 3.5 }, /unknown medication parameter "gad7Sd"/],
    [{ gad7Reliability: 0.83 }, /unknown medication parameter "gad7Reliability"/],
    [{ reliableChangeZ: 1.96 }, /unknown medication parameter "reliableChangeZ"/],
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
        // flagged: the symptom findings first (any instrument), then the signal labels worst first:
        // tones of the flagged labels never rise.
        const findings = readSymptomFindings(input.assessments, MEDICATION_DEFAULT_PARAMS.worseningPctPoints);
        const flagged = a.facts.summary.flagged;
        expect(flagged.slice(0, findings.flags.length)).toEqual(findings.flags);
        const toneOf = new Map(a.data.signals.map((s) => [s.label, s.tone]));
        const labels = flagged.slice(findings.flags.length);
        for (const label of labels) expect(toneOf.has(label)).toBe(true);
        const ranks = labels.map((label) => RANK[toneOf.get(label) ?? "positive"]);
        for (let i = 1; i < ranks.length; i++) expect(ranks[i]).toBeLessThanOrEqual(ranks[i - 1] as number);
        // Review: any finding, or any elevated signal; the headline names the findings.
        expect(a.facts.summary.requiresClinicianReview).toBe(
          findings.flags.length > 0 || a.data.signals.some((s) => RANK[s.tone] >= RANK.elevated),
        );
        expect(a.facts.summary.headline.includes("Needs clinician review:")).toBe(findings.flags.length > 0);
        expect(JSON.parse(JSON.stringify(a.data))).toEqual(a.data);
      }),
      { numRuns: 300 },
    );
  });
});

describe("review follow-ups", () => {
  it("the corroboration line names the calibrated latency thresholds", () => {
    const r = analyzeMedication(
      { prescriptions: [], assessments: [], dmseLatencyPctChange: 15 },
      {
        now: new Date("2026-07-01T00:00:00Z"),
        model: {
          version: 3,
          params: resolveMedicationParams({ latencyImprovementPct: 20, latencyWorseningPct: 20 }),
        },
      },
    );
    expect(r.data.signals[0]?.detail).toContain("a fall of 20 % or a rise of 20 %");
  });

  it("an exact 15-point rise on a scale of 20 is a deterioration despite floating-point rounding", () => {
    const item = (score: number, day: string) => ({
      instrumentId: "phq9",
      instrumentName: "PHQ-9",
      score,
      maxScore: 20,
      createdAt: `2026-06-${day}T09:00:00Z`,
    });
    const r = analyzeMedication(
      {
        prescriptions: [{ id: "rx", medicationName: "X", status: "active", prescribedAt: "2026-06-20" }],
        assessments: [item(11, "01"), item(11, "08"), item(11, "15"), item(14, "29")],
      },
      { now: new Date("2026-07-01T00:00:00Z") },
    );
    expect(r.data.signals[0]?.tone).toBe("elevated");
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
  });
});
