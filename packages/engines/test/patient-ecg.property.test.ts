import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CLINICAL_LEVELS, type ClinicalLevel } from "../src/judgement.js";
import { ecgFindings, patientWithReadings, QTC_RULES } from "../src/patient/ecg.js";
import type {
  DatedReading,
  PatientFinding,
  PatientReviewInput,
  ReviewMedicine,
} from "../src/patient/types.js";

/**
 * The ECG part over the whole input space (decision 191): shifting every date (readings, starts
 * and the clock) by the same amount changes nothing; adding a worse QTc as the newest reading
 * never lowers the level; a QTc in ms, in seconds or without a unit reads the same; a newest
 * normal QTc never removes a QTc above 500 ms observed within the recent window.
 */

const DAY = 86_400_000;
const NOW = Date.parse("2026-08-01T00:00:00Z");
const rank = (level: ClinicalLevel) => CLINICAL_LEVELS.indexOf(level);
const levelOf = (findings: PatientFinding[]) =>
  findings.reduce<ClinicalLevel>((l, f) => (rank(f.level) > rank(l) ? f.level : l), "none");
const signature = (findings: PatientFinding[]) =>
  findings.map((f) => `${f.rule}:${f.level}:${f.assessed}:${(f.medicines ?? []).join("+")}`).sort();
const iso = (t: number) => new Date(t).toISOString();

interface Scenario {
  /** QTc values (ms) with their age in days before the clock (null: undated). */
  qtcs: { ms: number; daysAgo: number | null }[];
  medicines: { name: string; startedDaysAgo: number | null }[];
  sex: "male" | "female" | "unknown" | undefined;
}

const arbScenario: fc.Arbitrary<Scenario> = fc.record({
  qtcs: fc.array(
    fc.record({
      ms: fc.integer({ min: 330, max: 650 }),
      daysAgo: fc.option(fc.integer({ min: 0, max: 900 }), { freq: 6 }),
    }),
    { minLength: 1, maxLength: 6 },
  ),
  medicines: fc.array(
    fc.record({
      name: fc.constantFrom(
        "citalopram 20 mg",
        "quetiapine",
        "sertraline",
        "lithium",
        "methadone",
        "paracetamol",
      ),
      startedDaysAgo: fc.option(fc.integer({ min: 0, max: 900 }), { freq: 3 }),
    }),
    { maxLength: 3 },
  ),
  sex: fc.constantFrom("male", "female", "unknown", undefined),
});

function toInput(
  s: Scenario,
  shiftDays = 0,
  unit: (ms: number) => Pick<DatedReading, "value" | "unit"> = (ms) => ({ value: ms, unit: "ms" }),
): PatientReviewInput {
  const now = NOW + shiftDays * DAY;
  const readings: DatedReading[] = s.qtcs.map((q) => ({
    analyte: "QTc",
    ...unit(q.ms),
    observedAt: q.daysAgo === null ? null : iso(now - q.daysAgo * DAY),
  }));
  const medicines: ReviewMedicine[] = s.medicines.map((m) => ({
    name: m.name,
    startedAt: m.startedDaysAgo === null ? null : iso(now - m.startedDaysAgo * DAY),
  }));
  return { patient: s.sex === undefined ? {} : { sex: s.sex }, medicines, readings, now: new Date(now) };
}

describe("property: the ECG findings", () => {
  it("shifting every date by the same amount changes nothing", () => {
    fc.assert(
      fc.property(arbScenario, fc.integer({ min: -4000, max: 4000 }), (s, shift) => {
        expect(signature(ecgFindings(toInput(s, shift)))).toEqual(signature(ecgFindings(toInput(s))));
      }),
      { numRuns: 400 },
    );
  });

  it("adding a worse QTc as the newest reading never lowers the level", () => {
    fc.assert(
      fc.property(arbScenario, fc.integer({ min: 0, max: 150 }), (s, extra) => {
        const before = levelOf(ecgFindings(toInput(s)));
        const worst = Math.max(...s.qtcs.map((q) => q.ms));
        const newestAgo = Math.min(...s.qtcs.map((q) => q.daysAgo ?? Number.POSITIVE_INFINITY));
        const daysAgo = Number.isFinite(newestAgo) ? Math.max(0, newestAgo - 1) : 0;
        const worse: Scenario = { ...s, qtcs: [...s.qtcs, { ms: worst + extra, daysAgo }] };
        expect(rank(levelOf(ecgFindings(toInput(worse))))).toBeGreaterThanOrEqual(rank(before));
      }),
      { numRuns: 400 },
    );
  });

  it("a QTc in ms, in seconds or without a unit gives the same findings", () => {
    fc.assert(
      fc.property(arbScenario, (s) => {
        const inMs = signature(ecgFindings(toInput(s)));
        expect(signature(ecgFindings(toInput(s, 0, (ms) => ({ value: ms / 1000, unit: "s" }))))).toEqual(
          inMs,
        );
        expect(signature(ecgFindings(toInput(s, 0, (ms) => ({ value: ms }))))).toEqual(inMs);
        expect(signature(ecgFindings(toInput(s, 0, (ms) => ({ value: String(ms), unit: "msec" }))))).toEqual(
          inMs,
        );
      }),
      { numRuns: 300 },
    );
  });

  it("a newest normal QTc never removes a QTc above 500 ms within the recent window", () => {
    fc.assert(
      fc.property(
        arbScenario,
        fc.integer({ min: 501, max: 650 }),
        fc.integer({ min: 1, max: QTC_RULES.recentWindowDays }),
        fc.integer({ min: 330, max: 450 }),
        (s, high, highAgo, normal) => {
          const dated = s.qtcs.filter((q) => q.daysAgo !== null && q.daysAgo >= highAgo);
          const series: Scenario = {
            ...s,
            qtcs: [...dated, { ms: high, daysAgo: highAgo }, { ms: normal, daysAgo: highAgo - 1 }],
          };
          const findings = ecgFindings(toInput(series));
          expect(levelOf(findings)).toBe("high");
          expect(findings.some((f) => f.rule === "qtc_above_500_recent" || f.rule === "qtc_above_500")).toBe(
            true,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("patientWithReadings never overwrites a fact the caller gave", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("pregnant", "possible", "not_pregnant"),
        fc.integer({ min: 0, max: 250 }),
        fc.double({ min: 5, max: 150, noNaN: true }),
        (pregnancy, daysAgo, egfr) => {
          const readings: DatedReading[] = [
            { analyte: "pregnancy test", value: "positive", observedAt: iso(NOW - daysAgo * DAY) },
            { analyte: "eGFR", value: 30, unit: "mL/min/1.73m2", observedAt: iso(NOW - daysAgo * DAY) },
          ];
          const patient = patientWithReadings({ pregnancy, egfr }, readings, new Date(NOW));
          expect(patient.pregnancy).toBe(pregnancy);
          expect(patient.egfr).toBe(egfr);
        },
      ),
      { numRuns: 200 },
    );
  });
});
