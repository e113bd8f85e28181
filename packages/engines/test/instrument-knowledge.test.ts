/**
 * The examples of the instrument classes (decisions 60-63) as unit tests: scale direction
 * (WHO-5 18 -> 5), trajectory from the best score (PHQ-9 23 -> 3 -> 6 -> 8 -> 9), staleness
 * (scores two years old), an instrument whose direction is not known, and fractional totals.
 */
import { describe, expect, it } from "vitest";
import {
  analyzeMedication,
  findInstrument,
  INSTRUMENT_IDS,
  INSTRUMENTS,
  isPublishedTotal,
  predictRelapse,
  recogniseInstrument,
  scoreInstruments,
  scoreOutcome,
  ToolInputError,
} from "../src/index.js";
import { assessmentSeries } from "./arbitraries.js";

const NOW = new Date("2026-07-01T00:00:00Z");

const series = assessmentSeries;

const rx = (prescribedAt: string) => [
  { id: "rx", medicationName: "Sertraline", status: "active", prescribedAt },
];

describe("the instrument table", () => {
  it("recognises every instrument by id or name, and nothing near them", () => {
    expect(INSTRUMENT_IDS).toEqual([
      "phq9",
      "gad7",
      "pcl5",
      "audit",
      "who5",
      "epds",
      "phq8",
      "phq2",
      "gad2",
      "madrs",
      "hamd17",
      "qidssr16",
      "bdi2",
      "ymrs",
      "asrm",
      "k10",
      "core10",
      "wemwbs",
      "swemwbs",
      "ybocs",
      "panss",
      "moca",
      "mmse",
    ]);
    expect(recogniseInstrument("x", "WHO-5 Well-Being Index")).toBe("who5");
    expect(recogniseInstrument("EPDS", "")).toBe("epds");
    expect(recogniseInstrument("pcl_5", "")).toBe("pcl5");
    expect(recogniseInstrument("", "AUDIT")).toBe("audit");
    for (const near of ["AUDIT-C", "PCL-C", "WHO-10", "BDI", "HAM-A", "MADRS-S", "K6", "CES-D"])
      expect(recogniseInstrument(near, near)).toBeNull();
  });

  it("knows each direction: the WHO-5, WEMWBS, SWEMWBS, MoCA and MMSE run higher-is-better", () => {
    const directions = Object.fromEntries(INSTRUMENT_IDS.map((id) => [id, INSTRUMENTS[id].direction]));
    expect(directions).toEqual({
      phq9: "higher_is_worse",
      gad7: "higher_is_worse",
      pcl5: "higher_is_worse",
      audit: "higher_is_worse",
      who5: "higher_is_better",
      epds: "higher_is_worse",
      phq8: "higher_is_worse",
      phq2: "higher_is_worse",
      gad2: "higher_is_worse",
      madrs: "higher_is_worse",
      hamd17: "higher_is_worse",
      qidssr16: "higher_is_worse",
      bdi2: "higher_is_worse",
      ymrs: "higher_is_worse",
      asrm: "higher_is_worse",
      k10: "higher_is_worse",
      core10: "higher_is_worse",
      wemwbs: "higher_is_better",
      swemwbs: "higher_is_better",
      ybocs: "higher_is_worse",
      panss: "higher_is_worse",
      moca: "higher_is_better",
      mmse: "higher_is_better",
    });
    expect(findInstrument("WHO-5")?.higherIsWorse).toBe(false);
  });

  it("a valid administration is a whole-number total within range on the published maximum (decision 63)", () => {
    expect(isPublishedTotal("phq9", 12, 27)).toBe(true);
    expect(isPublishedTotal("phq9", 12.5, 27)).toBe(false);
    expect(isPublishedTotal("phq9", 12, 30)).toBe(false);
    expect(isPublishedTotal("phq9", 28, 27)).toBe(false);
  });
});

describe("WHO-5 18 -> 5: well-being collapsing is a deterioration (decision 60)", () => {
  const who5 = series("who5", "WHO-5", 25, [18, 5], "2026-06-01");

  it("outcome: worsening with clinician review (was improving +45)", () => {
    const r = scoreOutcome({ assessments: who5 }, { now: NOW });
    expect(r.data.direction).toBe("worsening");
    expect(r.data.score).toBe(-45);
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
    expect(r.facts.summary.flagged[0]).toBe(
      "WHO-5 reliable deterioration: 18 -> 5 (-13 points; higher is better on this scale; 2.5 or more is reliable)",
    );
  });

  it("relapse: elevated, rising, review (was low, falling)", () => {
    const r = predictRelapse({ assessments: who5 }, { now: NOW });
    expect(r.data).toMatchObject({ level: "elevated", trend: "rising" });
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
  });

  it("medication: worsening (was responding)", () => {
    const r = analyzeMedication({ assessments: who5, prescriptions: rx("2026-06-05") }, { now: NOW });
    expect(r.facts.summary.status).toBe("worsening");
    expect(r.data.signals[0]?.tone).toBe("elevated");
    expect(r.data.signals[0]?.detail).toContain("higher is better on this scale");
  });
});

describe("PHQ-9 23 -> 3 -> 6 -> 8 -> 9: a rise of 6 from the best score (decision 61)", () => {
  const phq = series("phq9", "PHQ-9", 27, [23, 3, 6, 8, 9], "2026-04-20");
  const flag = "PHQ-9 reliable deterioration from the best score: 3 -> 9 (+6 points; 6 or more is reliable)";

  it("outcome: worsening, read from the best score (was improving +45)", () => {
    const r = scoreOutcome({ assessments: phq }, { now: NOW });
    expect(r.data.direction).toBe("worsening");
    // 3 -> 9 = 22.22 pp since the best -> -45 x 22.22 / 30 = -33.33.
    expect(r.data.score).toBe(-33.33);
    expect(r.facts.summary.flagged[0]).toBe(flag);
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
  });

  it("relapse: elevated with review (was low, no review)", () => {
    const r = predictRelapse({ assessments: phq }, { now: NOW });
    expect(r.data.level).toBe("elevated");
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
    expect(r.facts.summary.flagged[0]).toBe(flag);
  });

  it("medication started after 23: worsening from the best score since the start (was responding)", () => {
    const r = analyzeMedication({ assessments: phq, prescriptions: rx("2026-04-25") }, { now: NOW });
    expect(r.facts.summary.status).toBe("worsening");
    expect(r.data.signals[0]?.detail).toContain("Reliable deterioration from the best score since the start");
  });

  it("medication: a pre-start low is not averaged away (20, 20, 4 before; 10 after)", () => {
    const a = series("phq9", "PHQ-9", 27, [20, 20, 4, 10], "2026-05-01", 7);
    const r = analyzeMedication({ assessments: a, prescriptions: rx("2026-05-16") }, { now: NOW });
    // Mean before 14.67 -> 10 is -4.67 (no reliable change), but 4 -> 10 is +6 from the best before.
    expect(r.facts.summary.status).toBe("worsening");
    expect(r.data.signals[0]?.detail).toContain(
      "Reliable deterioration from the best score before the start",
    );
  });
});

describe("scores two years old are not a current picture (decision 62)", () => {
  const old = series("phq9", "PHQ-9", 27, [20, 8], "2024-06-01");

  it("outcome: not_current, low confidence, the headline says so (was improving)", () => {
    const r = scoreOutcome({ assessments: old }, { now: NOW });
    expect(r.data.direction).toBe("not_current");
    expect(r.data.confidence).toBe("low");
    expect(r.facts.confidence.score).toBeLessThanOrEqual(0.3);
    expect(r.facts.summary.headline).toContain(
      "Not current: the newest symptom score is 746 days old (older than 90 days).",
    );
    // An old improvement adds nothing to the composite.
    expect(r.data.components[0]?.contribution).toBe(0);
  });

  it("relapse: trend unknown (not falling), low confidence, the stale-data recommendation", () => {
    const r = predictRelapse({ assessments: old }, { now: NOW });
    expect(r.data).toMatchObject({ trend: "unknown", confidence: "low", level: "low" });
    expect(r.data.recommendation).toMatch(/^Not enough current data/);
    expect(r.data.summaryLine).toContain("Not current");
  });

  it("medication: an old improvement is not a current response (insufficient_data, low)", () => {
    const r = analyzeMedication({ assessments: old, prescriptions: rx("2024-06-05") }, { now: NOW });
    expect(r.facts.summary.status).toBe("insufficient_data");
    expect(r.facts.confidence.level).toBe("low");
    expect(r.data.signals[0]?.detail).toContain("an old improvement is not a current response");
  });
});

describe("an instrument whose direction is not known is not read for change (decision 60)", () => {
  const unknown = series("mood_index", "Mood index", 50, [10, 40], "2026-06-01");

  it("no improvement, no deterioration, low confidence, and it is named", () => {
    const o = scoreOutcome({ assessments: unknown, avgSleepHours: 8 }, { now: NOW });
    expect(o.data.direction).toBe("insufficient_data");
    expect(o.data.confidence).toBe("low");
    expect(o.facts.summary.headline).toContain("Mood index: change not evaluated: direction unknown");
    const r = predictRelapse({ assessments: unknown }, { now: NOW });
    expect(r.data.trend).toBe("unknown");
    expect(r.data.confidence).toBe("low");
    expect(r.data.recommendation).toMatch(/not low risk/);
    const m = analyzeMedication({ assessments: unknown, prescriptions: rx("2026-06-05") }, { now: NOW });
    expect(m.facts.summary.status).toBe("insufficient_data");
    expect(m.data.signals[0]?.detail).toContain("direction unknown");
  });

  it("beside a recognised scale it lowers confidence to at most moderate and is named", () => {
    const phq = series("phq9", "PHQ-9", 27, [12, 12, 11, 12, 12, 11], "2026-05-20", 7);
    const input = {
      avgSleepHours: 6,
      dmseLatencyPctChange: 20,
      daysSinceMedChange: 10,
      hasActiveMedication: true,
      daysSinceLastVisit: 40,
    };
    const alone = predictRelapse({ assessments: phq, ...input }, { now: NOW });
    expect(alone.data.confidence).toBe("high");
    const both = predictRelapse({ assessments: [...phq, ...unknown], ...input }, { now: NOW });
    expect(both.data.confidence).toBe("moderate");
    expect(both.facts.confidence.score).toBeLessThanOrEqual(0.6);
    expect(both.facts.confidence.reasons.at(-1)).toBe(
      "Confidence at most moderate: the change of Mood index could not be read (direction unknown).",
    );
  });

  it("a caller's 'severe' still flags", () => {
    const severe = unknown.map((a, i) => (i === 1 ? { ...a, severity: "severe" } : a));
    const o = scoreOutcome({ assessments: severe }, { now: NOW });
    expect(o.data.direction).toBe("severe_symptoms");
    expect(o.facts.summary.requiresClinicianReview).toBe(true);
  });
});

describe("fractional totals of a whole-number instrument (decision 63)", () => {
  it("scoreInstruments refuses a fractional total or prior total, naming the instrument", () => {
    const thrown = (() => {
      try {
        scoreInstruments([{ instrument: "PHQ-9", total: 12.5, priorTotal: 9.5 }]);
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(thrown).toBeInstanceOf(ToolInputError);
    expect((thrown as ToolInputError).issues).toEqual([
      {
        path: [0, "total"],
        message: "PHQ-9 total must be a whole number (PHQ-9 items are scored in whole numbers), got 12.5",
      },
      {
        path: [0, "priorTotal"],
        message:
          "PHQ-9 prior total must be a whole number (PHQ-9 items are scored in whole numbers), got 9.5",
      },
    ]);
    expect(scoreInstruments([{ instrument: "PHQ-9", total: 12 }]).results[0]?.total).toBe(12);
  });

  it("the engines do not evaluate a fractional PHQ-9 (decision 81), with a data-quality note", () => {
    const a = series("phq9", "PHQ-9", 27, [20, 20.5], "2026-06-01");
    const o = scoreOutcome({ assessments: a }, { now: NOW });
    expect(o.facts.confidence.reasons.join(" ")).toContain(
      "PHQ-9: 1 administration(s) not evaluated: total 20.5 is not a whole number (PHQ-9 items are scored in whole numbers)",
    );
    // 20.5 is not banded itself; the severe flag names the latest valid score, 20.
    expect(o.facts.summary.flagged).toContain(
      "PHQ-9 20 of 27: severe band (20-27) (the latest valid administration, 2026-06-01)",
    );
    expect(o.data.direction).toBe("severe_symptoms");
  });
});
