/**
 * Invalid totals (decision 81): a total the instrument's form cannot produce (a fraction of a
 * whole-number instrument at its published maximum, a total outside the published range) is not
 * evaluated. It never supports an improvement or reassurance; a rise or a severe score it shows is
 * still read, at the nearest total the form can produce toward the worse end. The example
 * as unit tests, and the rule over the whole input space as metamorphic properties.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Assessment,
  analyzeMedication,
  INSTRUMENT_IDS,
  INSTRUMENTS,
  type InstrumentId,
  invalidTotalReason,
  nearestFormTotals,
  type OutcomeDirection,
  predictRelapse,
  RELAPSE_INSUFFICIENT_DATA_RECOMMENDATION,
  RELAPSE_LEVELS,
  scoreOutcome,
  totalValidity,
} from "../src/index.js";
import { recentPublishedSeriesArb } from "./arbitraries.js";

const DAY = 86_400_000;
const NOW = new Date("2026-07-01T00:00:00Z");
const iso = (daysAgo: number) => new Date(NOW.getTime() - daysAgo * DAY).toISOString();

const phq9 = (score: number, daysAgo: number): Assessment => ({
  instrumentId: "phq9",
  instrumentName: "PHQ-9",
  score,
  maxScore: 27,
  createdAt: iso(daysAgo),
});
const rx = (startDaysAgo: number) => [
  { id: "rx", medicationName: "Sertraline", status: "active", prescribedAt: iso(startDaysAgo).slice(0, 10) },
];

describe("which totals are invalid (knowledge/instruments.ts)", () => {
  it("a fraction or an out-of-range total on the published maximum; another maximum is another form", () => {
    expect(totalValidity("phq9", 12, 27)).toBe("published");
    expect(totalValidity("phq9", 12.5, 27)).toBe("invalid");
    expect(totalValidity("phq9", 28, 27)).toBe("invalid");
    expect(totalValidity("phq9", -1, 27)).toBe("invalid");
    expect(totalValidity("phq9", 44.5, 100)).toBe("other_form");
    expect(totalValidity("phq9", 120, 100)).toBe("invalid");
    expect(invalidTotalReason("phq9", 12.5, 27)).toBe(
      "total 12.5 is not a whole number (PHQ-9 items are scored in whole numbers)",
    );
    expect(invalidTotalReason("phq9", 28, 27)).toBe("total 28 is outside the published PHQ-9 range 0-27");
    expect(invalidTotalReason("phq9", 12, 27)).toBeNull();
  });

  it("the nearest totals the form can produce, toward each end of the scale's own direction", () => {
    expect(nearestFormTotals("phq9", 12.5, 27)).toEqual({ worse: 13, better: 12 });
    expect(nearestFormTotals("who5", 12.5, 25)).toEqual({ worse: 12, better: 13 });
    expect(nearestFormTotals("phq9", 30, 27)).toEqual({ worse: 27, better: 27 });
    expect(nearestFormTotals("phq9", 12, 27)).toEqual({ worse: 12, better: 12 });
  });
});

describe("PHQ-9 20 -> 12.5 -> 12.5 of 27, 30 days apart (was outcome improving +41.67)", () => {
  const assessments = [phq9(20, 60), phq9(12.5, 30), phq9(12.5, 1)];

  it("outcome: not improving, no positive points, the invalid totals named, the latest valid severe score flagged", () => {
    const o = scoreOutcome({ assessments }, { now: NOW });
    expect(o.data.direction).toBe("severe_symptoms");
    expect(o.data.score).toBe(0);
    expect(o.data.components.find((c) => c.key === "symptoms")?.available).toBe(false);
    expect(o.facts.summary.requiresClinicianReview).toBe(true);
    expect(o.facts.summary.flagged).toContain(
      `PHQ-9 20 of 27: severe band (20-27) (the latest valid administration, ${iso(60).slice(0, 10)})`,
    );
    expect(o.facts.confidence.reasons.join(" ")).toContain(
      "PHQ-9: 2 administration(s) not evaluated: total 12.5 is not a whole number (PHQ-9 items are scored in whole numbers)",
    );
    expect(o.facts.confidence.level).toBe("low");
  });

  it("relapse: the trend is not falling and the level is not low", () => {
    const r = predictRelapse({ assessments }, { now: NOW });
    expect(r.data.trend).toBe("unknown");
    expect(r.data.level).toBe("elevated");
    expect(r.facts.confidence.reasons.join(" ")).toContain("2 administration(s) not evaluated");
  });

  it("medication: not responding (no valid score after the start)", () => {
    const m = analyzeMedication({ assessments, prescriptions: rx(45) }, { now: NOW });
    expect(m.facts.summary.status).toBe("insufficient_data");
    expect(m.data.signals[0]?.tone).toBe("watch");
    expect(m.data.signals[0]?.detail).toContain(
      "Not evaluated: 2 PHQ-9 administration(s) with an invalid total (total 12.5 is not a whole number",
    );
  });
});

describe("every administration invalid: insufficient data, never low risk or improving", () => {
  const assessments = [phq9(18.5, 60), phq9(12.5, 30), phq9(6.5, 1)];

  it("outcome insufficient_data, relapse low only with the insufficient-data recommendation, medication insufficient_data", () => {
    const o = scoreOutcome({ assessments, avgSleepHours: 8 }, { now: NOW });
    expect(o.data.direction).toBe("insufficient_data");
    expect(o.data.score).toBe(0);
    const r = predictRelapse({ assessments }, { now: NOW });
    expect(r.data.trend).toBe("unknown");
    expect(r.data.confidence).toBe("low");
    expect(r.data.recommendation).toBe(RELAPSE_INSUFFICIENT_DATA_RECOMMENDATION);
    const m = analyzeMedication({ assessments, prescriptions: rx(45) }, { now: NOW });
    expect(m.facts.summary.status).toBe("insufficient_data");
  });

  it("a rise shown only by invalid totals still flags for review (5.5 -> 14.5 read as 5 -> 15)", () => {
    const rising = [phq9(5.5, 30), phq9(14.5, 1)];
    const o = scoreOutcome({ assessments: rising }, { now: NOW });
    expect(o.data.direction).toBe("worsening");
    expect(o.facts.summary.requiresClinicianReview).toBe(true);
    expect(o.facts.summary.flagged[0]).toBe(
      "PHQ-9 reliable deterioration: 5 -> 15 (+10 points; 6 or more is reliable) (reading the invalid total(s) at the nearest total the form can produce toward the worse end)",
    );
    expect(o.data.score).toBeLessThan(0);
    const r = predictRelapse({ assessments: rising }, { now: NOW });
    expect(RELAPSE_LEVELS.indexOf(r.data.level)).toBeGreaterThanOrEqual(RELAPSE_LEVELS.indexOf("elevated"));
    const m = analyzeMedication({ assessments: rising, prescriptions: rx(15) }, { now: NOW });
    expect(m.facts.summary.status).toBe("worsening");
  });
});

describe("another form is not invalid (decision 63 kept)", () => {
  it("PHQ-9 sent as 0-100, 60 -> 40: read off-scale in percentage points, still improving", () => {
    const assessments = [60, 40].map((score, i) => ({
      instrumentId: "phq9",
      instrumentName: "PHQ-9",
      score,
      maxScore: 100,
      createdAt: iso(40 - i * 30),
    }));
    expect(scoreOutcome({ assessments }, { now: NOW }).data.direction).toBe("improving");
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const DIRECTION_RANK: Partial<Record<OutcomeDirection, number>> = {
  improving: 0,
  stable: 1,
  severe_symptoms: 2,
  worsening: 3,
};
const level = (l: (typeof RELAPSE_LEVELS)[number]) => RELAPSE_LEVELS.indexOf(l);

/**
 * Instruments whose totals must be whole numbers, so a fractional total is invalid (the SWEMWBS
 * also takes its Rasch metric score, which has decimals: decision 60).
 */
const WHOLE_NUMBER_IDS = INSTRUMENT_IDS.filter((id) => INSTRUMENTS[id].wholeNumberTotals);

/** A recognised instrument on distinct days within the last 60 days, valid totals only. */
const validSeriesArb = recentPublishedSeriesArb(WHOLE_NUMBER_IDS, NOW);

/** A fractional total within 1 of `score`, inside the published range (a corrupted copy of it). */
function fractionNear(id: InstrumentId, score: number, offset: number): number {
  const k = INSTRUMENTS[id];
  const up = score + offset;
  const down = score - offset;
  return up < k.totalMax ? up : down;
}

const restArb = fc.record(
  {
    dmseLatencyPctChange: fc.double({ min: -100, max: 1000, noNaN: true }),
    activeMedications: fc.integer({ min: 0, max: 100 }),
    biomarkerWatchCount: fc.integer({ min: 0, max: 100 }),
    avgSleepHours: fc.double({ min: 0, max: 24, noNaN: true }),
  },
  { requiredKeys: [] },
);
const offsetArb = fc.double({ min: 0.01, max: 0.99, noNaN: true });

describe("replacing a valid administration by an invalid (fractional) one never reads better (decision 81)", () => {
  it("outcome: direction never better, score never higher; relapse: level and score never lower; medication: never newly responding", () => {
    fc.assert(
      fc.property(
        validSeriesArb,
        fc.nat(),
        offsetArb,
        restArb,
        fc.integer({ min: 0, max: 61 }),
        ({ id, items }, pick, offset, rest, start) => {
          const j = pick % items.length;
          const replaced = items.map((a, i) =>
            i === j ? { ...a, score: fractionNear(id, a.score, offset) } : a,
          );
          expect(totalValidity(id, (replaced[j] as Assessment).score, INSTRUMENTS[id].totalMax)).toBe(
            "invalid",
          );
          const o1 = scoreOutcome({ assessments: items, ...rest }, { now: NOW }).data;
          const o2 = scoreOutcome({ assessments: replaced, ...rest }, { now: NOW }).data;
          expect(o2.score).toBeLessThanOrEqual(o1.score);
          if (o2.direction === "improving") expect(o1.direction).toBe("improving");
          if (o1.direction === "severe_symptoms" || o1.direction === "worsening")
            expect(DIRECTION_RANK[o2.direction]).toBeGreaterThanOrEqual(
              DIRECTION_RANK[o1.direction] as number,
            );
          const r1 = predictRelapse({ assessments: items }, { now: NOW }).data;
          const r2 = predictRelapse({ assessments: replaced }, { now: NOW }).data;
          expect(level(r2.level)).toBeGreaterThanOrEqual(level(r1.level));
          expect(r2.score).toBeGreaterThanOrEqual(r1.score);
          if (r2.trend === "falling") expect(r1.trend).toBe("falling");
          const m1 = analyzeMedication({ assessments: items, prescriptions: rx(start) }, { now: NOW });
          const m2 = analyzeMedication({ assessments: replaced, prescriptions: rx(start) }, { now: NOW });
          if (m2.facts.summary.status === "responding") expect(m1.facts.summary.status).toBe("responding");
          if (m1.facts.summary.requiresClinicianReview)
            expect(m2.facts.summary.requiresClinicianReview).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("an improvement that only invalid totals show is never read (decision 81)", () => {
  it("adding later invalid totals anywhere in range: outcome never newly improving, relapse never newly falling, medication never newly responding", () => {
    fc.assert(
      fc.property(
        validSeriesArb,
        fc.array(fc.record({ at: fc.double({ min: 0.1, max: 0.9, noNaN: true }), frac: offsetArb }), {
          minLength: 1,
          maxLength: 3,
        }),
        restArb,
        fc.integer({ min: 0, max: 61 }),
        ({ id, items }, added, rest, start) => {
          const k = INSTRUMENTS[id];
          // Any fractional total in the published range, on a day after every valid one.
          const invalid = added.map(
            ({ at, frac }, i): Assessment => ({
              instrumentId: id,
              instrumentName: k.display,
              score: Math.min(k.totalMax - 1, Math.floor(at * k.totalMax)) + frac,
              maxScore: k.totalMax,
              createdAt: iso(0.9 - i * 0.2),
            }),
          );
          const all = [...items, ...invalid];
          const o1 = scoreOutcome({ assessments: items, ...rest }, { now: NOW }).data;
          const o2 = scoreOutcome({ assessments: all, ...rest }, { now: NOW }).data;
          if (o1.direction !== "improving") expect(o2.direction).not.toBe("improving");
          expect(o2.score).toBeLessThanOrEqual(o1.score);
          const r1 = predictRelapse({ assessments: items }, { now: NOW }).data;
          const r2 = predictRelapse({ assessments: all }, { now: NOW }).data;
          if (r1.trend !== "falling") expect(r2.trend).not.toBe("falling");
          const m1 = analyzeMedication({ assessments: items, prescriptions: rx(start) }, { now: NOW });
          const m2 = analyzeMedication({ assessments: all, prescriptions: rx(start) }, { now: NOW });
          if (m1.facts.summary.status !== "responding")
            expect(m2.facts.summary.status).not.toBe("responding");
        },
      ),
      { numRuns: 400 },
    );
  });

  it("every administration invalid: outcome never improving or stable, relapse never falling (a low level says insufficient data), medication never responding", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...WHOLE_NUMBER_IDS),
        fc.uniqueArray(
          fc.record({
            day: fc.integer({ min: 1, max: 60 }),
            at: fc.double({ min: 0, max: 0.99, noNaN: true }),
          }),
          { selector: (a) => a.day, minLength: 1, maxLength: 5 },
        ),
        offsetArb,
        restArb,
        fc.integer({ min: 0, max: 61 }),
        (id, points, frac, rest, start) => {
          const k = INSTRUMENTS[id];
          const assessments = points.map(
            (p): Assessment => ({
              instrumentId: id,
              instrumentName: k.display,
              score: Math.floor(p.at * k.totalMax) + frac,
              maxScore: k.totalMax,
              createdAt: iso(p.day),
            }),
          );
          const o = scoreOutcome({ assessments, ...rest }, { now: NOW });
          expect(["improving", "stable"]).not.toContain(o.data.direction);
          expect(o.data.score).toBeLessThanOrEqual(0);
          const r = predictRelapse({ assessments }, { now: NOW }).data;
          expect(r.trend).not.toBe("falling");
          if (r.level === "low") expect(r.recommendation).toBe(RELAPSE_INSUFFICIENT_DATA_RECOMMENDATION);
          const m = analyzeMedication({ assessments, prescriptions: rx(start) }, { now: NOW });
          expect(["responding", "no_clear_change"]).not.toContain(m.facts.summary.status);
        },
      ),
      { numRuns: 400 },
    );
  });
});
