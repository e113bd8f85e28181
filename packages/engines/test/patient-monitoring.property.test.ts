/**
 * Properties of the monitoring schedules over the whole input space (decisions 192-194): dates
 * shifted together change nothing, a later or an extra test never makes monitoring more overdue,
 * and a later start never puts a clozapine count overdue before one interval of the schedule.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CLINICAL_LEVELS } from "../src/judgement.js";
import { monitoringFindings } from "../src/patient/monitoring.js";
import type { DatedReading, PatientFinding, PatientReviewInput } from "../src/patient/types.js";

const DAY = 86_400_000;
const BASE = Date.parse("2026-06-01T08:00:00Z");

/** A medicine of the table with the analyte its main test reads. */
const CASES = [
  { name: "clozapine 200 mg", analyte: "anc", unit: "10*9/L", value: 4 },
  { name: "lithium carbonate 800 mg", analyte: "lithium", unit: "mmol/L", value: 0.6 },
  { name: "olanzapine 10 mg", analyte: "hba1c", unit: "mmol/mol", value: 38 },
  { name: "sodium valproate 1 g", analyte: "alt", unit: "U/L", value: 20 },
  { name: "carbamazepine 400 mg", analyte: "sodium", unit: "mmol/L", value: 139 },
] as const;

const arbitraryCase = fc.constantFrom(...CASES);
const coMedicine = fc.constantFrom(undefined, "ramipril 5 mg", "furosemide 40 mg", "sertraline 50 mg");
/** Day offsets relative to the review's `now` (negative: before it). */
const startDay = fc.integer({ min: -1500, max: 20 });
const readingDays = fc.array(fc.integer({ min: -1600, max: 0 }), { maxLength: 6 });

function at(day: number, shift = 0): string {
  return new Date(BASE + (day + shift) * DAY).toISOString();
}

function inputOf(
  c: (typeof CASES)[number],
  start: number | null,
  days: readonly number[],
  other: string | undefined,
  age: number | undefined,
  shift = 0,
  doseDay: number | null = null,
): PatientReviewInput {
  const readings: DatedReading[] = days.map((d) => ({
    analyte: c.analyte,
    value: c.value,
    unit: c.unit,
    observedAt: at(d, shift),
  }));
  // A normal TSH keeps the lithium thyroid risk known (and absent) in every case.
  readings.push({ analyte: "tsh", value: 2, unit: "mU/L", observedAt: at(-10, shift) });
  return {
    medicines: [
      {
        name: c.name,
        startedAt: start === null ? null : at(start, shift),
        doseChangedAt: doseDay === null ? null : at(doseDay, shift),
      },
      ...(other ? [{ name: other, startedAt: at(-2000, shift) }] : []),
    ],
    readings,
    now: new Date(BASE + shift * DAY),
    patient: age === undefined ? { egfr: 80 } : { ageYears: age, egfr: 80 },
  };
}

/** The finding of the main test, reduced to what must not change. */
function mainFinding(findings: PatientFinding[], analyte: string): PatientFinding | undefined {
  return findings.find((f) => f.analyte === analyte || (analyte === "hba1c" && f.analyte === "glucose"));
}

function rank(finding: PatientFinding | undefined): number {
  return finding ? CLINICAL_LEVELS.indexOf(finding.level) : 0;
}

/** Days overdue at `now` (negative when not overdue, -Infinity without a finding or date). */
function overdueDays(finding: PatientFinding | undefined, now: number): number {
  if (finding?.rule !== "monitoring_overdue") return Number.NEGATIVE_INFINITY;
  if (!finding.since) return Number.POSITIVE_INFINITY;
  return (now - Date.parse(finding.since)) / DAY;
}

const age = fc.constantFrom(undefined, 40, 70);

describe("monitoring properties", () => {
  it("shifting every date (start, dose change, readings, now) by the same amount changes nothing", () => {
    fc.assert(
      fc.property(
        arbitraryCase,
        fc.option(startDay, { nil: null }),
        readingDays,
        coMedicine,
        age,
        fc.integer({ min: -4000, max: 4000 }),
        fc.option(fc.integer({ min: -400, max: 0 }), { nil: null }),
        (c, start, days, other, years, shift, dose) => {
          const before = monitoringFindings(inputOf(c, start, days, other, years, 0, dose));
          const after = monitoringFindings(inputOf(c, start, days, other, years, shift, dose));
          const strip = (f: PatientFinding) => ({ ...f, since: null, detail: "" });
          expect(after.map(strip)).toEqual(before.map(strip));
          expect(after.map((f) => (f.since ? Date.parse(f.since) - shift * DAY : null))).toEqual(
            before.map((f) => (f.since ? Date.parse(f.since) : null)),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it("a later last test never makes monitoring more overdue (level and days)", () => {
    fc.assert(
      fc.property(
        arbitraryCase,
        fc.option(startDay, { nil: null }),
        fc.integer({ min: -1600, max: 0 }),
        fc.integer({ min: 0, max: 800 }),
        coMedicine,
        age,
        (c, start, lastDay, later, other, years) => {
          const laterDay = Math.min(0, lastDay + later);
          const earlier = mainFinding(
            monitoringFindings(inputOf(c, start, [lastDay], other, years)),
            c.analyte,
          );
          const then = mainFinding(
            monitoringFindings(inputOf(c, start, [laterDay], other, years)),
            c.analyte,
          );
          expect(rank(then)).toBeLessThanOrEqual(rank(earlier));
          expect(overdueDays(then, BASE)).toBeLessThanOrEqual(overdueDays(earlier, BASE));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("an extra dated reading of the test never raises the level", () => {
    fc.assert(
      fc.property(
        arbitraryCase,
        fc.option(startDay, { nil: null }),
        readingDays,
        fc.integer({ min: -1600, max: 30 }),
        coMedicine,
        age,
        (c, start, days, extra, other, years) => {
          const without = monitoringFindings(inputOf(c, start, days, other, years));
          const withExtra = monitoringFindings(inputOf(c, start, [...days, extra], other, years));
          const level = (fs: PatientFinding[]) =>
            Math.max(0, ...fs.map((f) => CLINICAL_LEVELS.indexOf(f.level)));
          expect(level(withExtra)).toBeLessThanOrEqual(level(without));
          expect(rank(mainFinding(withExtra, c.analyte))).toBeLessThanOrEqual(
            rank(mainFinding(without, c.analyte)),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a later start with the same counts never puts a clozapine count overdue before one interval after the last count", () => {
    const clozapine = CASES[0];
    fc.assert(
      fc.property(
        fc.integer({ min: -1500, max: 0 }),
        fc.integer({ min: 0, max: 1500 }),
        fc.array(fc.integer({ min: -1600, max: 0 }), { minLength: 1, maxLength: 6 }),
        (start, later, days) => {
          const laterStart = Math.min(0, start + later);
          const last = Math.max(...days);
          for (const s of [start, laterStart]) {
            const anc = mainFinding(monitoringFindings(inputOf(clozapine, s, days, undefined, 40)), "anc");
            if (anc?.rule !== "monitoring_overdue" || last < s) continue;
            // A count on or after the start: overdue only once the shortest interval (a week) has passed.
            expect(Date.parse(anc.since ?? "")).toBeGreaterThanOrEqual(BASE + (last + 7) * DAY - DAY);
            expect(-last).toBeGreaterThan(7);
          }
          // A later start is an earlier phase: never a longer interval, so never less overdue.
          const early = mainFinding(
            monitoringFindings(inputOf(clozapine, start, days, undefined, 40)),
            "anc",
          );
          const late = mainFinding(
            monitoringFindings(inputOf(clozapine, laterStart, days, undefined, 40)),
            "anc",
          );
          if (days.every((d) => d >= start) && days.every((d) => d >= laterStart))
            expect(overdueDays(late, BASE)).toBeGreaterThanOrEqual(overdueDays(early, BASE));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("an older age or a lower eGFR never makes the lithium schedule looser (every age and eGFR around the cut-offs)", () => {
    const lithium = CASES[1];
    fc.assert(
      fc.property(
        fc.option(startDay, { nil: null }),
        readingDays,
        fc.integer({ min: 18, max: 100 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 10, max: 120 }),
        fc.integer({ min: 0, max: 5 }),
        (start, days, years, older, egfr, lower) => {
          const run = (a: number, e: number) => {
            const input = inputOf(lithium, start, days, undefined, a);
            return mainFinding(
              monitoringFindings({ ...input, patient: { ageYears: a, egfr: e } }),
              "lithium",
            );
          };
          const base = run(years, egfr);
          const stricter = run(years + older, egfr - lower);
          expect(rank(stricter)).toBeGreaterThanOrEqual(rank(base));
          expect(overdueDays(stricter, BASE)).toBeGreaterThanOrEqual(overdueDays(base, BASE));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("every finding is a monitoring finding with a title within 140 characters and a source", () => {
    fc.assert(
      fc.property(
        arbitraryCase,
        fc.option(startDay, { nil: null }),
        readingDays,
        coMedicine,
        age,
        (c, s, d, o, a) => {
          for (const finding of monitoringFindings(inputOf(c, s, d, o, a))) {
            expect(finding.kind).toBe("monitoring");
            expect(finding.title.length).toBeLessThanOrEqual(140);
            expect(finding.source.length).toBeGreaterThan(10);
            if (!finding.assessed) expect(CLINICAL_LEVELS.indexOf(finding.level)).toBeGreaterThanOrEqual(1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
