/**
 * Safety rules of the engines, checked over the whole input space with fast-check (decision 25):
 * absence of data never reassures; a reliable deterioration or a severe latest score on any
 * scale is never hidden; non-symptom sources never produce "improving" and never lift a
 * direction above what the symptom scales show. The oracle below reads the scales on its own
 * (published bands and NHS Talking Therapies reliable change), independently of the engines.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Assessment,
  analyzeMedication,
  type OutcomeDirection,
  predictRelapse,
  RELAPSE_LEVELS,
  scoreOutcome,
} from "../src/index.js";

const NOW = new Date("2026-06-30T00:00:00Z");
const DAY = 86_400_000;
const BASE = Date.parse("2026-01-01T09:00:00Z");

const SCALES = [
  { id: "phq9", name: "PHQ-9", max: 27, severeMin: 20, reliable: 6 },
  { id: "gad7", name: "GAD-7", max: 21, severeMin: 15, reliable: 4 },
  { id: "cesd", name: "CES-D", max: 60, severeMin: null, reliable: null },
] as const;

/** One scale's administrations on distinct days (so "latest" and "previous" are unambiguous). */
const scaleSeries = (scale: (typeof SCALES)[number]) =>
  fc
    .uniqueArray(
      fc.record({
        day: fc.integer({ min: 0, max: 179 }),
        score: fc.integer({ min: 0, max: scale.max }),
        severity: fc.option(fc.constantFrom("severe", "Severe", "moderately severe", "mild"), {
          nil: undefined,
        }),
      }),
      { selector: (a) => a.day, maxLength: 5 },
    )
    .map((items) =>
      items.map(
        (a): Assessment => ({
          instrumentId: scale.id,
          instrumentName: scale.name,
          score: a.score,
          maxScore: scale.max,
          createdAt: new Date(BASE + a.day * DAY).toISOString(),
          ...(a.severity === undefined ? {} : { severity: a.severity }),
        }),
      ),
    );

const assessmentsArb = fc
  .tuple(scaleSeries(SCALES[0]), scaleSeries(SCALES[1]), scaleSeries(SCALES[2]))
  .chain(([a, b, c]) =>
    fc.shuffledSubarray([...a, ...b, ...c], { minLength: a.length + b.length + c.length }),
  );

const nonSymptomArb = fc.record(
  {
    dmseLatencyPctChange: fc.double({ min: -100, max: 1000, noNaN: true }),
    activeMedications: fc.integer({ min: 0, max: 100 }),
    biomarkerWatchCount: fc.integer({ min: 0, max: 100 }),
    avgSleepHours: fc.double({ min: 0, max: 24, noNaN: true }),
  },
  { requiredKeys: [] },
);

interface Oracle {
  severe: boolean;
  deteriorated: boolean;
  /** A scale given on two or more dates, or a severe score: something anchors a direction. */
  anchored: boolean;
}

/** Reads the scales by the published definitions, without the engines' code. */
function oracle(assessments: readonly Assessment[]): Oracle {
  let severe = false;
  let deteriorated = false;
  let anchored = false;
  for (const scale of SCALES) {
    const items = assessments
      .filter((a) => a.instrumentId === scale.id)
      .sort((x, y) => Date.parse(x.createdAt) - Date.parse(y.createdAt));
    if (items.length === 0) continue;
    const latest = items[items.length - 1] as Assessment;
    const first = items[0] as Assessment;
    const previous = items.length > 1 ? (items[items.length - 2] as Assessment) : null;
    // A scale whose direction is not known (CES-D is not in the table) anchors nothing and is not
    // read for change (decision 60).
    if (items.length > 1 && scale.reliable !== null) anchored = true;
    const callerSevere = ["severe"].includes((latest.severity ?? "").toLowerCase());
    if (callerSevere || (scale.severeMin !== null && latest.score >= scale.severeMin)) severe = true;
    if (previous === null) continue;
    if (scale.reliable !== null) {
      // From the first, the previous or the best (lowest) earlier score (decision 61).
      const best = Math.min(...items.slice(0, -1).map((x) => x.score));
      if (
        latest.score - first.score >= scale.reliable ||
        latest.score - previous.score >= scale.reliable ||
        latest.score - best >= scale.reliable
      )
        deteriorated = true;
    }
  }
  return { severe, deteriorated, anchored: anchored || severe };
}

const RANK: Record<Exclude<OutcomeDirection, "insufficient_data" | "not_current">, number> = {
  improving: 0,
  stable: 1,
  severe_symptoms: 2,
  worsening: 3,
};

describe("outcome safety rules (fast-check)", () => {
  it("a severe latest score or a reliable deterioration sets review and is flagged; deterioration is worsening", () => {
    fc.assert(
      fc.property(assessmentsArb, nonSymptomArb, (assessments, rest) => {
        const seen = oracle(assessments);
        const r = scoreOutcome({ assessments, ...rest }, { now: NOW });
        if (seen.severe || seen.deteriorated) {
          expect(r.facts.summary.requiresClinicianReview).toBe(true);
          expect(r.facts.summary.flagged.some((f) => /severe|deteriorat|rose/i.test(f))).toBe(true);
        }
        if (seen.deteriorated) expect(r.data.direction).toBe("worsening");
        if (seen.severe) expect(r.data.direction).not.toBe("stable");
      }),
      { numRuns: 400 },
    );
  });

  it("non-symptom sources never lift the direction above the symptom scales' own", () => {
    fc.assert(
      fc.property(assessmentsArb, nonSymptomArb, (assessments, rest) => {
        const alone = scoreOutcome({ assessments }, { now: NOW }).data.direction;
        const withRest = scoreOutcome({ assessments, ...rest }, { now: NOW }).data.direction;
        if (withRest === "improving") expect(alone).toBe("improving");
        const ranked = (d: OutcomeDirection) => d !== "insufficient_data" && d !== "not_current";
        if (ranked(alone) && ranked(withRest))
          expect(RANK[withRest as keyof typeof RANK]).toBeGreaterThanOrEqual(
            RANK[alone as keyof typeof RANK],
          );
      }),
      { numRuns: 400 },
    );
  });

  it("without a symptom anchor the direction is never improving or stable and confidence is low", () => {
    fc.assert(
      fc.property(assessmentsArb, nonSymptomArb, (assessments, rest) => {
        if (oracle(assessments).anchored) return;
        const r = scoreOutcome({ assessments, ...rest }, { now: NOW });
        expect(["insufficient_data", "worsening"]).toContain(r.data.direction);
        expect(r.data.confidence).toBe("low");
        expect(`${r.facts.summary.headline} ${r.data.summaryLine}`).not.toMatch(
          /no change needed|within normal/i,
        );
      }),
      { numRuns: 400 },
    );
  });
});

const relapseRestArb = fc.record(
  {
    dmseLatencyPctChange: fc.double({ min: -100, max: 1000, noNaN: true }),
    avgSleepHours: fc.double({ min: 0, max: 24, noNaN: true }),
    daysSinceMedChange: fc.integer({ min: 0, max: 3650 }),
    hasActiveMedication: fc.boolean(),
    daysSinceLastVisit: fc.integer({ min: 0, max: 3650 }),
  },
  { requiredKeys: [] },
);

describe("relapse safety rules (fast-check)", () => {
  it("a severe latest score or a reliable deterioration is at least elevated, flagged and reviewed", () => {
    fc.assert(
      fc.property(assessmentsArb, relapseRestArb, (assessments, rest) => {
        const seen = oracle(assessments);
        const r = predictRelapse({ assessments, ...rest }, { now: NOW });
        if (!(seen.severe || seen.deteriorated)) return;
        expect(RELAPSE_LEVELS.indexOf(r.data.level)).toBeGreaterThanOrEqual(
          RELAPSE_LEVELS.indexOf("elevated"),
        );
        expect(r.facts.summary.requiresClinicianReview).toBe(true);
        expect(r.facts.summary.flagged.some((f) => /severe|deteriorat|rose/i.test(f))).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("without a symptom trajectory a low score never reads as low risk, and confidence is low", () => {
    fc.assert(
      fc.property(assessmentsArb, relapseRestArb, (assessments, rest) => {
        const r = predictRelapse({ assessments, ...rest }, { now: NOW });
        const text = `${r.data.recommendation} ${r.facts.summary.headline} ${r.data.summaryLine}`;
        expect(text).not.toMatch(/do not suggest a change|no change needed|within normal/i);
        if (r.data.factors[0]?.available) return;
        expect(r.data.confidence).toBe("low");
        if (r.data.level === "low") expect(r.data.recommendation).toMatch(/not low risk/);
      }),
      { numRuns: 400 },
    );
  });
});

describe("medication safety rules (fast-check)", () => {
  it("a severe latest score or a reliable deterioration on any scale sets review and is flagged", () => {
    const rxArb = fc.array(
      fc.record({
        id: fc.constantFrom("rx1", "rx2"),
        medicationName: fc.constantFrom("Sertraline", "Lithium"),
        status: fc.constantFrom("active", "discontinued"),
        prescribedAt: fc.option(
          fc.integer({ min: 0, max: 179 }).map((d) => new Date(BASE + d * DAY).toISOString().slice(0, 10)),
          { nil: undefined },
        ),
      }),
      { maxLength: 3 },
    );
    fc.assert(
      fc.property(assessmentsArb, rxArb, (assessments, prescriptions) => {
        const seen = oracle(assessments);
        const r = analyzeMedication({ prescriptions, assessments }, { now: NOW });
        if (!(seen.severe || seen.deteriorated)) return;
        expect(r.facts.summary.requiresClinicianReview).toBe(true);
        expect(r.facts.summary.flagged.some((f) => /severe|deteriorat|rose/i.test(f))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
