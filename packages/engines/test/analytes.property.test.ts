import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeBiomarkers, BIOMARKER_STATUS_ORDER } from "../src/biomarker.js";
import {
  ANALYTES,
  type AnalyteEntry,
  type AnalyteMeasure,
  evaluateAnalyteValue,
  findAnalyte,
  hasSingleScale,
  normaliseUnitSpelling,
  resolveUnit,
} from "../src/knowledge/analytes.js";
import { evaluatePanel } from "../src/tools/panels.js";
import type { Biomarker, LabPanel } from "../src/types.js";

/**
 * The analyte table's rules over the whole input space (decisions 64-67): the same value in
 * another accepted unit reads the same; a missing or unknown unit is never read as normal; a
 * value beyond a critical limit always reaches clinician review whatever its laboratory flag; a
 * worse newest reading never lowers the status.
 */

const NOW = new Date("2026-08-01T00:00:00Z");
const MEASURED = ANALYTES.filter(
  (e): e is AnalyteEntry & { measure: AnalyteMeasure } => e.measure !== undefined,
);
const FLAGS = [undefined, "normal", "high", "low", "critical"] as const;
const RANK = (status: string) =>
  BIOMARKER_STATUS_ORDER.indexOf(status as (typeof BIOMARKER_STATUS_ORDER)[number]);

const panel = (id: string, observedAt: string, biomarkers: Biomarker[]): LabPanel => ({
  id,
  labName: "Lab",
  observedAt,
  results: { biomarkers },
});
const run = (labs: LabPanel[]) => analyzeBiomarkers({ labs }, { now: NOW });

/** Every bound a flag can change at, in the canonical unit. */
function boundaries(m: AnalyteMeasure): number[] {
  const ranges = [...(m.reference ? [m.reference] : []), ...(m.therapeutic ?? [])];
  return [
    ...ranges.flatMap((r) => [r.low, r.high]),
    m.criticalLow?.value ?? null,
    m.criticalHigh?.value ?? null,
    m.plausible.low,
    m.plausible.high,
  ].filter((v): v is number => v !== null);
}

/** A canonical value inside the plausible range and not within rounding distance of any bound. */
const arbCanonical = (m: AnalyteMeasure) =>
  fc
    .double({ min: m.plausible.low, max: m.plausible.high, noNaN: true })
    .filter((v) => boundaries(m).every((b) => Math.abs(v - b) > 1e-6 * Math.max(1, Math.abs(b))));

const arbMeasuredAnalyte = fc.constantFrom(...MEASURED);

describe("analyte table: one row per fact", () => {
  it.each(MEASURED.map((e) => [e.key, e] as const))("%s: coherent ranges, canonical unit first", (_k, e) => {
    const m = e.measure;
    expect(m.units[0]?.ucum).toBe(m.canonicalUnit);
    expect(m.units[0]?.toCanonical).toBe(1);
    expect(m.plausible.low).toBeLessThan(m.plausible.high);
    for (const r of [...(m.reference ? [m.reference] : []), ...(m.therapeutic ?? [])]) {
      if (r.low !== null && r.high !== null) expect(r.low).toBeLessThan(r.high);
      expect(r.source.length).toBeGreaterThan(5);
    }
    if (m.criticalLow) expect(m.criticalLow.source.length).toBeGreaterThan(5);
    if (m.criticalHigh) expect(m.criticalHigh.source.length).toBeGreaterThan(5);
    for (const u of m.units) expect(u.basis.length).toBeGreaterThan(3);
    // A row without a range would read every value as normal: each row has one to read against,
    // or says why it has none (body weight, decision 196), and then has no range at all.
    const ranges = m.rangeKind === "therapeutic" ? (m.therapeutic ?? []) : m.reference ? [m.reference] : [];
    if (m.noRange === undefined) expect(ranges.length).toBeGreaterThan(0);
    else expect([ranges.length, m.noRange.length > 20]).toEqual([0, true]);
    // No spelling is both accepted and named ambiguous; a row with an ambiguous spelling has no
    // single scale, so a value without a unit is never read on it (decision 64).
    const accepted = m.units.flatMap((u) => [u.ucum, ...u.spellings].map(normaliseUnitSpelling));
    for (const a of m.ambiguousUnits ?? []) {
      expect(accepted).not.toContain(normaliseUnitSpelling(a.spelling));
      expect(resolveUnit(e, a.spelling).kind).toBe("ambiguous");
      expect(hasSingleScale(m)).toBe(false);
    }
  });

  it("states the issue's conversions exactly", () => {
    const valproate = findAnalyte("valproate") as AnalyteEntry;
    const vpa = evaluateAnalyteValue(valproate, 700, "umol/L");
    expect(vpa?.evaluated && Math.round(vpa.canonicalValue)).toBe(101);
    const cbz = evaluateAnalyteValue(findAnalyte("carbamazepine") as AnalyteEntry, 42.33, "µmol/L");
    expect(cbz?.evaluated && Number(cbz.canonicalValue.toFixed(2))).toBe(10);
    const anc = findAnalyte("ANC") as AnalyteEntry;
    for (const [value, unit] of [
      [1.5, "x10^9/L"],
      [1.5, "10*3/uL"],
      [1500, "cells/uL"],
      [1500, "/mm3"],
    ] as const) {
      const out = evaluateAnalyteValue(anc, value, unit);
      expect(out?.evaluated && out.canonicalValue, unit).toBeCloseTo(1.5, 9);
    }
  });
});

describe("property: the same value in another accepted unit gives the same evaluation", () => {
  it("evaluateAnalyteValue: same flag and canonical value in every accepted unit and spelling", () => {
    fc.assert(
      fc.property(
        arbMeasuredAnalyte.chain((e) =>
          fc.tuple(fc.constant(e), arbCanonical(e.measure), fc.constantFrom(...e.measure.units)),
        ),
        fc.nat(),
        ([entry, canonical, unit], pick) => {
          const spelling = [unit.ucum, ...unit.spellings][pick % (unit.spellings.length + 1)] as string;
          const value = (canonical - (unit.offset ?? 0)) / unit.toCanonical;
          const inCanonical = evaluateAnalyteValue(entry, canonical, entry.measure.canonicalUnit);
          const inOther = evaluateAnalyteValue(entry, value, spelling);
          expect(inOther?.evaluated).toBe(true);
          expect(inCanonical?.evaluated).toBe(true);
          if (inOther?.evaluated && inCanonical?.evaluated) {
            expect(inOther.flag).toBe(inCanonical.flag);
            expect(inOther.canonicalValue).toBeCloseTo(canonical, 6);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("biomarker engine and panels tool: same status, tones, review and panel flag in another unit", () => {
    fc.assert(
      fc.property(
        arbMeasuredAnalyte.chain((e) =>
          fc.tuple(fc.constant(e), arbCanonical(e.measure), fc.constantFrom(...e.measure.units)),
        ),
        fc.constantFrom(...FLAGS),
        ([entry, canonical, unit], flag) => {
          const value = (canonical - (unit.offset ?? 0)) / unit.toCanonical;
          const reading = (v: number, u: string): Biomarker => ({
            name: entry.display,
            value: v,
            unit: u,
            ...(flag ? { flag } : {}),
          });
          const a = run([panel("p", "2026-07-01", [reading(canonical, entry.measure.canonicalUnit)])]);
          const b = run([panel("p", "2026-07-01", [reading(value, unit.ucum)])]);
          expect(b.facts.summary.status).toBe(a.facts.summary.status);
          expect(b.facts.summary.requiresClinicianReview).toBe(a.facts.summary.requiresClinicianReview);
          expect(b.data.signals.map((s) => s.tone)).toEqual(a.data.signals.map((s) => s.tone));
          expect(b.data.valueFindings.map((f) => f.finding)).toEqual(
            a.data.valueFindings.map((f) => f.finding),
          );
          const pa = evaluatePanel([
            { analyte: entry.display, value: canonical, unit: entry.measure.canonicalUnit },
          ]);
          const pb = evaluatePanel([{ analyte: entry.display, value, unit: unit.ucum }]);
          expect(pb.results.map((r) => r.flag)).toEqual(pa.results.map((r) => r.flag));
          expect(pb.risk.level).toBe(pa.risk.level);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("property: an unknown or ambiguous unit is never evaluated as normal", () => {
  // Every spelling the row names ambiguous (prolactin mIU/L, urea mg/dL, ...) is tried as well.
  const arbBadUnit = (entry: AnalyteEntry) =>
    fc
      .oneof(
        fc.constantFrom("xyz", "mg", "g/L", "%", "mmol/kg", "IU", "cells"),
        fc.constantFrom("xyz", ...(entry.measure?.ambiguousUnits ?? []).map((a) => a.spelling.toUpperCase())),
        fc.string({ minLength: 1, maxLength: 8 }),
      )
      .filter((u) => resolveUnit(entry, u).kind !== "resolved");

  it("evaluateAnalyteValue, evaluatePanel and the engine say 'not evaluated: unit'", () => {
    fc.assert(
      fc.property(
        arbMeasuredAnalyte.chain((e) => fc.tuple(fc.constant(e), arbBadUnit(e))),
        fc.double({ min: -1e5, max: 1e5, noNaN: true }),
        fc.constantFrom(...FLAGS),
        ([entry, unit], value, flag) => {
          // A missing (or blank) unit is read by the unit-less rule (decision 180), whose
          // properties are in analytes.unitless.property.test.ts.
          if (unit.trim() === "") return;
          const out = evaluateAnalyteValue(entry, value, unit, { unitlessMeansCanonical: true });
          expect(out?.evaluated).toBe(false);
          if (out && !out.evaluated) expect(out.reason).toBe("unit");
          const p = evaluatePanel([{ analyte: entry.display, value, unit }]);
          expect(p.results).toEqual([]);
          expect(p.unrecognized).toEqual([entry.display]);
          expect(p.warnings[0]).toMatch(/not evaluated: unit/);
          const r = run([
            panel("p", "2026-07-01", [
              {
                name: entry.display,
                value,
                unit,
                ...(flag ? { flag } : {}),
              },
            ]),
          ]);
          expect(r.data.valueFindings.map((f) => f.finding)).toEqual(["not_evaluated_unit"]);
          const text = [r.facts.summary.headline, ...r.data.signals.map((s) => s.detail)].join(" ");
          expect(text).not.toMatch(/within range|within the service's range|flag is history/);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("property: a value beyond a critical limit always reaches clinician review", () => {
  const withCritical = MEASURED.filter((e) => e.measure.criticalLow || e.measure.criticalHigh);
  const arbBeyond = fc.constantFrom(...withCritical).chain((e) => {
    const m = e.measure;
    const sides: fc.Arbitrary<number>[] = [];
    if (m.criticalHigh)
      sides.push(fc.double({ min: m.criticalHigh.value + 1e-6, max: m.plausible.high, noNaN: true }));
    if (m.criticalLow)
      sides.push(fc.double({ min: m.plausible.low, max: m.criticalLow.value - 1e-6, noNaN: true }));
    return fc.tuple(fc.constant(e), fc.oneof(...sides), fc.constantFrom(...m.units));
  });

  it("whatever the laboratory flag: review, a flagged entry naming the analyte, status critical", () => {
    fc.assert(
      fc.property(arbBeyond, fc.constantFrom(...FLAGS), ([entry, canonical, unit], flag) => {
        const value = (canonical - (unit.offset ?? 0)) / unit.toCanonical;
        const r = run([
          panel("p", "2026-07-01", [
            { name: entry.display, value, unit: unit.ucum, ...(flag ? { flag } : {}) },
          ]),
        ]);
        expect(r.facts.summary.requiresClinicianReview).toBe(true);
        expect(r.facts.summary.status).toBe("critical");
        expect(r.facts.summary.flagged.some((f) => f.includes(entry.display))).toBe(true);
        for (const s of r.data.signals) expect(s.tone).toBe("critical");
        const p = evaluatePanel([{ analyte: entry.display, value, unit: unit.ucum }]);
        expect(p.risk.level).toBe("high");
        expect(p.results[0]?.critical).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});

describe("property: making the newest reading worse never lowers the status", () => {
  // Worse = further above the lower bound of the normal range for analytes whose high side
  // carries the risk its analyte is monitored for (lithium, valproate, carbamazepine, clozapine, potassium),
  // and of liver and muscle injury, hyperammonaemia, uraemia and inflammation.
  const HIGH_RISK = [
    "lithium",
    "valproate",
    "carbamazepine",
    "clozapine",
    "potassium",
    "creatinine",
    "alt",
    "ast",
    "ck",
    "ammonia",
    "urea",
    "bun",
    "crp",
    "lamotrigine",
    "triglycerides",
  ];
  const rows = MEASURED.filter((e) => HIGH_RISK.includes(e.key));
  it("every listed analyte has a measurement row", () => expect(rows.length).toBe(HIGH_RISK.length));
  const lowerNormal = (m: AnalyteMeasure) =>
    m.rangeKind === "therapeutic"
      ? (m.therapeutic?.[0]?.low ?? m.plausible.low)
      : (m.reference?.low ?? m.plausible.low);

  it("two readings, the newer one raised: status rank never falls", () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...rows)
          .chain((e) =>
            fc.tuple(
              fc.constant(e),
              fc.double({ min: e.measure.plausible.low, max: e.measure.plausible.high, noNaN: true }),
              fc.double({ min: lowerNormal(e.measure), max: e.measure.plausible.high, noNaN: true }),
              fc.double({ min: 0, max: 1, noNaN: true }),
            ),
          ),
        fc.constantFrom(...FLAGS),
        fc.constantFrom(...FLAGS),
        ([entry, older, newer, step], olderFlag, newerFlag) => {
          const worse = newer + step * (entry.measure.plausible.high - newer);
          const labs = (v: number) => [
            panel("old", "2026-06-01", [
              {
                name: entry.display,
                value: older,
                unit: entry.measure.canonicalUnit,
                ...(olderFlag ? { flag: olderFlag } : {}),
              },
            ]),
            panel("new", "2026-07-01", [
              {
                name: entry.display,
                value: v,
                unit: entry.measure.canonicalUnit,
                ...(newerFlag ? { flag: newerFlag } : {}),
              },
            ]),
          ];
          const base = run(labs(newer)).facts.summary;
          const raised = run(labs(worse)).facts.summary;
          expect(RANK(raised.status)).toBeGreaterThanOrEqual(RANK(base.status));
          if (base.requiresClinicianReview) expect(raised.requiresClinicianReview).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("property: making the newest reading worse never lowers the status (low side)", () => {
  // Worse = further below the upper bound of the normal range where the low side carries the
  // risk: hyponatraemia, neutropenia on clozapine, leucopenia, hypoglycaemia, hypokalaemia,
  // thrombocytopenia (valproate), anaemia, hypomagnesaemia and hypophosphataemia (refeeding).
  const LOW_RISK = [
    "sodium",
    "anc",
    "wbc",
    "glucose",
    "potassium",
    "calcium",
    "platelets",
    "hemoglobin",
    "magnesium",
    "phosphate",
  ];
  const rows = MEASURED.filter((e) => LOW_RISK.includes(e.key));
  it("every listed analyte has a measurement row", () => expect(rows.length).toBe(LOW_RISK.length));
  const upperNormal = (m: AnalyteMeasure) => m.reference?.high ?? m.plausible.high;

  it("two readings, the newer one lowered: status rank never falls", () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...rows)
          .chain((e) =>
            fc.tuple(
              fc.constant(e),
              fc.double({ min: e.measure.plausible.low, max: e.measure.plausible.high, noNaN: true }),
              fc.double({ min: e.measure.plausible.low, max: upperNormal(e.measure), noNaN: true }),
              fc.double({ min: 0, max: 1, noNaN: true }),
            ),
          ),
        fc.constantFrom(...FLAGS),
        fc.constantFrom(...FLAGS),
        ([entry, older, newer, step], olderFlag, newerFlag) => {
          const worse = newer - step * (newer - entry.measure.plausible.low);
          const labs = (v: number) => [
            panel("old", "2026-06-01", [
              {
                name: entry.display,
                value: older,
                unit: entry.measure.canonicalUnit,
                ...(olderFlag ? { flag: olderFlag } : {}),
              },
            ]),
            panel("new", "2026-07-01", [
              {
                name: entry.display,
                value: v,
                unit: entry.measure.canonicalUnit,
                ...(newerFlag ? { flag: newerFlag } : {}),
              },
            ]),
          ];
          const base = run(labs(newer)).facts.summary;
          const lowered = run(labs(worse)).facts.summary;
          expect(RANK(lowered.status)).toBeGreaterThanOrEqual(RANK(base.status));
          if (base.requiresClinicianReview) expect(lowered.requiresClinicianReview).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
