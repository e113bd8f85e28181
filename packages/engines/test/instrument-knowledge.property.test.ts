/**
 * The instrument model under every engine, checked over the whole input space as metamorphic
 * properties (decisions 60-63): a worse symptom score never reads better; a higher-is-better scale
 * mirrored onto a higher-is-worse one reads the same; ageing never raises confidence; an old
 * improvement is never a current one; a later reliable deterioration is never improvement.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Assessment,
  analyzeMedication,
  classifyScaleChange,
  INSTRUMENT_IDS,
  INSTRUMENTS,
  type InstrumentId,
  type OutcomeDirection,
  predictRelapse,
  RELAPSE_LEVELS,
  recogniseInstrument,
  SYMPTOM_SCORE_STALE_AFTER_DAYS,
  scoreOutcome,
} from "../src/index.js";
import { recentPublishedSeriesArb } from "./arbitraries.js";

const DAY = 86_400_000;
const NOW = new Date("2026-07-01T00:00:00Z");

const DIRECTION_RANK: Partial<Record<OutcomeDirection, number>> = {
  improving: 0,
  stable: 1,
  severe_symptoms: 2,
  worsening: 3,
};
const CONFIDENCE_RANK = { low: 0, moderate: 1, high: 2 } as const;

const iso = (daysAgo: number, now = NOW) => new Date(now.getTime() - daysAgo * DAY).toISOString();

/** A recognised instrument given on distinct days within the last 60 days, on its published scale. */
const recentSeriesArb = (minLength = 2) => recentPublishedSeriesArb(INSTRUMENT_IDS, NOW, minLength);

const restArb = fc.record(
  {
    dmseLatencyPctChange: fc.double({ min: -100, max: 1000, noNaN: true }),
    activeMedications: fc.integer({ min: 0, max: 100 }),
    biomarkerWatchCount: fc.integer({ min: 0, max: 100 }),
    avgSleepHours: fc.double({ min: 0, max: 24, noNaN: true }),
  },
  { requiredKeys: [] },
);

const newestIndex = (items: readonly Assessment[]): number => {
  let best = 0;
  items.forEach((a, i) => {
    if (Date.parse(a.createdAt) > Date.parse((items[best] as Assessment).createdAt)) best = i;
  });
  return best;
};

/** `steps` points worse on the instrument's own direction, kept in range. */
function worse(id: InstrumentId, score: number, steps: number): number {
  const k = INSTRUMENTS[id];
  return k.direction === "higher_is_worse"
    ? Math.min(k.totalMax, score + steps)
    : Math.max(k.totalMin, score - steps);
}

const rx = (startDaysAgo: number) => [
  { id: "rx", medicationName: "Sertraline", status: "active", prescribedAt: iso(startDaysAgo).slice(0, 10) },
];

describe("a worse symptom score never reads better (every recognised instrument, its own direction)", () => {
  it("outcome: direction never better, score never higher; relapse: score and level never lower", () => {
    fc.assert(
      fc.property(
        recentSeriesArb(),
        fc.integer({ min: 1, max: 40 }),
        restArb,
        ({ id, items }, steps, rest) => {
          const i = newestIndex(items);
          const worsened = items.map((a, j) => (j === i ? { ...a, score: worse(id, a.score, steps) } : a));
          const o1 = scoreOutcome({ assessments: items, ...rest }, { now: NOW }).data;
          const o2 = scoreOutcome({ assessments: worsened, ...rest }, { now: NOW }).data;
          expect(o2.score).toBeLessThanOrEqual(o1.score);
          expect(DIRECTION_RANK[o2.direction]).toBeGreaterThanOrEqual(DIRECTION_RANK[o1.direction] as number);
          const r1 = predictRelapse({ assessments: items }, { now: NOW }).data;
          const r2 = predictRelapse({ assessments: worsened }, { now: NOW }).data;
          expect(r2.score).toBeGreaterThanOrEqual(r1.score);
          expect(RELAPSE_LEVELS.indexOf(r2.level)).toBeGreaterThanOrEqual(RELAPSE_LEVELS.indexOf(r1.level));
        },
      ),
      { numRuns: 400 },
    );
  });
});

/** Other scales beside the one made worse: recognised ones on or off their scale, and unknown ones. */
const backgroundArb = fc.array(
  fc.record({
    instrumentId: fc.constantFrom("phq9", "gad7", "who5", "epds", "custom", "bdi2"),
    instrumentName: fc.constantFrom("PHQ-9", "WHO-5", "Custom"),
    score: fc.integer({ min: 0, max: 30 }),
    maxScore: fc.constantFrom(21, 25, 27, 30, 100),
    createdAt: fc.integer({ min: 1, max: 60 }).map((d) => iso(d)),
    severity: fc.option(fc.constantFrom("severe", "mild"), { nil: undefined }),
  }),
  { maxLength: 8 },
);

describe("a worse score never reads better, whatever else the request holds", () => {
  it("with other scales beside it (known, off-scale, unknown): outcome and relapse never read better", () => {
    fc.assert(
      fc.property(
        recentSeriesArb(),
        backgroundArb,
        fc.integer({ min: 1, max: 40 }),
        restArb,
        ({ id, items }, background, steps, rest) => {
          const i = newestIndex(items);
          const worsened = items.map((a, j) => (j === i ? { ...a, score: worse(id, a.score, steps) } : a));
          // The worse score is the newest of its instrument: other scales only (a worse *earlier*
          // score of the same scale may lower its velocity, which is not what this checks).
          const clean = background
            .filter((a) => recogniseInstrument(a.instrumentId, a.instrumentName) !== id)
            .map(({ severity, ...a }) => (severity === undefined ? a : { ...a, severity }));
          const o1 = scoreOutcome({ assessments: [...items, ...clean], ...rest }, { now: NOW }).data;
          const o2 = scoreOutcome({ assessments: [...worsened, ...clean], ...rest }, { now: NOW }).data;
          expect(o2.score).toBeLessThanOrEqual(o1.score);
          if (o1.direction !== "insufficient_data" && o2.direction !== "insufficient_data")
            expect(DIRECTION_RANK[o2.direction]).toBeGreaterThanOrEqual(
              DIRECTION_RANK[o1.direction] as number,
            );
          if (o1.direction !== "improving") expect(o2.direction).not.toBe("improving");
          const r1 = predictRelapse({ assessments: [...items, ...clean] }, { now: NOW }).data;
          const r2 = predictRelapse({ assessments: [...worsened, ...clean] }, { now: NOW }).data;
          expect(r2.score).toBeGreaterThanOrEqual(r1.score);
          expect(RELAPSE_LEVELS.indexOf(r2.level)).toBeGreaterThanOrEqual(RELAPSE_LEVELS.indexOf(r1.level));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("mirroring a higher-is-better scale mirrors its reading", () => {
  it("WHO-5 a -> b is the mirror of a higher-is-worse change (25 - a) -> (25 - b)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 25 }), (a, b) => {
        const c = classifyScaleChange("who5", a, b);
        expect(c.worsening).toBe(25 - b - (25 - a));
        const fell = a - b >= 2.5;
        const rose = b - a >= 2.5;
        expect(c.category).toBe(
          fell ? "reliable_deterioration" : rose ? "reliable_improvement" : "no_reliable_change",
        );
      }),
    );
  });

  it("a WHO-5 on a 0-100 form reads as a PHQ-9 on a 0-100 form at 100 - score (both off their published scales)", () => {
    const pointsArb = fc.uniqueArray(
      fc.record({ day: fc.integer({ min: 1, max: 60 }), score: fc.integer({ min: 0, max: 100 }) }),
      { selector: (a) => a.day, minLength: 1, maxLength: 6 },
    );
    fc.assert(
      fc.property(pointsArb, restArb, fc.integer({ min: 0, max: 61 }), (points, rest, start) => {
        const as = (id: string, name: string, mirror: boolean): Assessment[] =>
          points.map((p) => ({
            instrumentId: id,
            instrumentName: name,
            score: mirror ? 100 - p.score : p.score,
            maxScore: 100,
            createdAt: iso(p.day),
          }));
        const who5 = as("who5", "WHO-5", false);
        const phq9 = as("phq9", "PHQ-9", true);
        const o1 = scoreOutcome({ assessments: who5, ...rest }, { now: NOW });
        const o2 = scoreOutcome({ assessments: phq9, ...rest }, { now: NOW });
        // 100 - x and x differ in the last floating-point bit, so rounded numbers may differ by
        // one unit of their last decimal; everything read from them must agree.
        expect([o1.data.direction, o1.data.confidence]).toEqual([o2.data.direction, o2.data.confidence]);
        expect(Math.abs(o1.data.score - o2.data.score)).toBeLessThanOrEqual(0.01 + 1e-9);
        expect(o1.facts.summary.requiresClinicianReview).toBe(o2.facts.summary.requiresClinicianReview);
        const r1 = predictRelapse({ assessments: who5 }, { now: NOW }).data;
        const r2 = predictRelapse({ assessments: phq9 }, { now: NOW }).data;
        expect([r1.level, r1.trend]).toEqual([r2.level, r2.trend]);
        expect(Math.abs(r1.score - r2.score)).toBeLessThanOrEqual(0.01 + 1e-9);
        const m1 = analyzeMedication({ assessments: who5, prescriptions: rx(start) }, { now: NOW });
        const m2 = analyzeMedication({ assessments: phq9, prescriptions: rx(start) }, { now: NOW });
        expect(m1.facts.summary.status).toBe(m2.facts.summary.status);
        const metric = (m: typeof m1) => m.data.signals[0]?.metricValue ?? 0;
        expect(Math.abs(metric(m1) - metric(m2))).toBeLessThanOrEqual(0.1 + 1e-9);
      }),
      // A slope of exactly the trend cut-off (72 -> 67 over 30 days) once read "falling" on the
      // PHQ-9 and "stable" on its WHO-5 mirror (fast-check found it after about 22,000 runs); it is
      // an explicit example on every run.
      {
        numRuns: 300,
        examples: [
          [
            [
              { day: 4, score: 72 },
              { day: 34, score: 67 },
            ],
            {},
            0,
          ],
        ],
      },
    );
  });
});

/** Any assessments (recognised or not, any dates in the past three years). */
const anyAssessmentsArb = fc.array(
  fc.record({
    instrumentId: fc.constantFrom("phq9", "gad7", "who5", "epds", "audit", "pcl5", "custom"),
    instrumentName: fc.constantFrom("PHQ-9", "WHO-5", "Custom"),
    score: fc.integer({ min: 0, max: 80 }),
    maxScore: fc.constantFrom(21, 25, 27, 30, 40, 80, 100),
    createdAt: fc.integer({ min: 0, max: 1100 }).map((d) => iso(d)),
  }),
  { maxLength: 12 },
);

describe("ageing every input never raises confidence (decision 62)", () => {
  it("outcome, relapse and medication: confidence level and score never rise as the clock moves on", () => {
    fc.assert(
      fc.property(
        anyAssessmentsArb,
        restArb,
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 1000 }),
        (assessments, rest, extra, start) => {
          const later = new Date(NOW.getTime() + extra * DAY);
          const pairs = [
            [
              scoreOutcome({ assessments, ...rest }, { now: NOW }),
              scoreOutcome({ assessments, ...rest }, { now: later }),
            ],
            [predictRelapse({ assessments }, { now: NOW }), predictRelapse({ assessments }, { now: later })],
            [
              analyzeMedication({ assessments, prescriptions: rx(start) }, { now: NOW }),
              analyzeMedication({ assessments, prescriptions: rx(start) }, { now: later }),
            ],
          ] as const;
          for (const [now, aged] of pairs) {
            expect(CONFIDENCE_RANK[aged.facts.confidence.level]).toBeLessThanOrEqual(
              CONFIDENCE_RANK[now.facts.confidence.level],
            );
            expect(aged.facts.confidence.score).toBeLessThanOrEqual(now.facts.confidence.score);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("a stale improvement is never a current improvement (decision 62)", () => {
  it(`newest score older than ${SYMPTOM_SCORE_STALE_AFTER_DAYS} days: not improving, not responding, not falling, confidence low`, () => {
    fc.assert(
      fc.property(recentSeriesArb(), restArb, fc.integer({ min: 1, max: 800 }), ({ items }, rest, extra) => {
        // Every administration is at most 60 days old at NOW; move the clock past the limit.
        const later = new Date(NOW.getTime() + (SYMPTOM_SCORE_STALE_AFTER_DAYS + extra) * DAY);
        const o = scoreOutcome({ assessments: items, ...rest }, { now: later });
        expect(o.data.direction).not.toBe("improving");
        expect(o.data.confidence).toBe("low");
        expect(o.facts.summary.headline).toMatch(/Not current/);
        const r = predictRelapse({ assessments: items }, { now: later });
        expect(r.data.trend).not.toBe("falling");
        expect(r.data.confidence).toBe("low");
        expect(r.data.summaryLine).toMatch(/Not current/);
        if (r.data.level === "low") expect(r.data.recommendation).toMatch(/not low risk/);
        const m = analyzeMedication({ assessments: items, prescriptions: rx(30) }, { now: later });
        expect(m.facts.summary.status).not.toBe("responding");
        expect(m.facts.confidence.level).toBe("low");
        expect(m.facts.summary.headline).toMatch(/Not current/);
      }),
      { numRuns: 300 },
    );
  });
});

describe("a later reliable deterioration from the best score is never improvement (decision 61)", () => {
  it("adding it: outcome worsening, medication not responding, relapse at least elevated with review", () => {
    fc.assert(
      fc.property(
        recentSeriesArb(1),
        restArb,
        fc.integer({ min: 0, max: 70 }),
        ({ id, items }, rest, start) => {
          const k = INSTRUMENTS[id];
          // The instrument's reliable change, or the off-scale 15 % of the maximum (AUDIT: 6 of 40).
          const threshold = Math.ceil(k.reliableChangePoints ?? (15 / 100) * k.totalMax);
          const burden = (s: number) => (k.direction === "higher_is_worse" ? s : k.totalMax - s);
          const best = items.reduce((b, a) => (burden(a.score) < burden(b.score) ? a : b));
          const score = worse(id, best.score, threshold);
          fc.pre(burden(score) - burden(best.score) >= threshold);
          const added = [...items, { ...best, score, createdAt: iso(0.5) }];
          const o = scoreOutcome({ assessments: added, ...rest }, { now: NOW });
          expect(o.data.direction).toBe("worsening");
          expect(o.facts.summary.requiresClinicianReview).toBe(true);
          const m = analyzeMedication({ assessments: added, prescriptions: rx(start) }, { now: NOW });
          expect(m.facts.summary.status).not.toBe("responding");
          expect(m.facts.summary.requiresClinicianReview).toBe(true);
          const r = predictRelapse({ assessments: added }, { now: NOW });
          expect(RELAPSE_LEVELS.indexOf(r.data.level)).toBeGreaterThanOrEqual(
            RELAPSE_LEVELS.indexOf("elevated"),
          );
          expect(r.facts.summary.requiresClinicianReview).toBe(true);
          expect(r.facts.summary.flagged.some((f) => /deteriorat|rose|fell/.test(f))).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});
