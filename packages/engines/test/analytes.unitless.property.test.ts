import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeBiomarkers } from "../src/biomarker.js";
import {
  ANALYTES,
  type AnalyteEntry,
  type AnalyteMeasure,
  evaluateAnalyteValue,
  flagCanonicalValue,
  toCanonicalValue,
  unconvertedUnits,
  unitScales,
} from "../src/knowledge/analytes.js";
import { evaluatePanel } from "../src/tools/panels.js";

/**
 * Units of every analyte and the unit-less rule (decision 180), over the whole input space: a
 * value converted to the canonical unit and back is the value; a value without a unit is read
 * only in the one accepted unit that makes it plausible, is critical when it is beyond a critical
 * limit in every unit that makes it plausible, and is otherwise refused, never read as normal,
 * by the table, the panels tool and the biomarker engine alike.
 */

const NOW = new Date("2026-08-01T00:00:00Z");
const MEASURED = ANALYTES.filter(
  (e): e is AnalyteEntry & { measure: AnalyteMeasure } => e.measure !== undefined,
);
const arbMeasured = fc.constantFrom(...MEASURED);
const isCritical = (flag: string) => flag === "critical_low" || flag === "critical_high";

function plausibleIn(m: AnalyteMeasure, canonical: number): boolean {
  const { low, high } = m.plausible;
  return canonical >= low - 1e-9 * Math.max(1, Math.abs(low)) && canonical <= high + 1e-9 * Math.max(1, high);
}

/** Each distinct scale's reading of a value, as the test computes it from the table alone. */
function readingsOf(m: AnalyteMeasure, value: number) {
  return unitScales(m).map((scale) => {
    const canonical = toCanonicalValue(scale.unit, value);
    return { scale, canonical, plausible: plausibleIn(m, canonical) };
  });
}

/**
 * Values near the bounds that matter for the rule: each scale's plausible bounds and critical
 * limits, converted back into the value as sent, and random values across the plausible range
 * of every scale.
 */
const arbUnitless = arbMeasured.chain((e) => {
  const m = e.measure;
  const limits = [m.plausible.low, m.plausible.high, m.criticalLow?.value, m.criticalHigh?.value].filter(
    (v): v is number => v !== undefined,
  );
  const back = unitScales(m).flatMap((s) =>
    limits.map((l) => (l - (s.unit.offset ?? 0)) / s.unit.toCanonical),
  );
  const near = fc
    .tuple(fc.constantFrom(...back), fc.double({ min: -0.2, max: 0.2, noNaN: true }))
    .map(([b, d]) => b * (1 + d) + d);
  const spread = fc
    .constantFrom(...unitScales(m))
    .chain((s) =>
      fc
        .double({ min: m.plausible.low, max: m.plausible.high, noNaN: true })
        .map((c) => (c - (s.unit.offset ?? 0)) / s.unit.toCanonical),
    );
  return fc.tuple(fc.constant(e), fc.oneof(near, spread, fc.double({ min: -10, max: 1e5, noNaN: true })));
});

describe("property: every accepted unit converts to the canonical unit and back", () => {
  it("canonical -> unit -> canonical is the identity within rounding, for every analyte and unit", () => {
    fc.assert(
      fc.property(
        arbMeasured.chain((e) =>
          fc.tuple(
            fc.constant(e),
            fc.constantFrom(...e.measure.units),
            fc.double({ min: e.measure.plausible.low, max: e.measure.plausible.high, noNaN: true }),
          ),
        ),
        ([entry, unit, canonical]) => {
          const sent = (canonical - (unit.offset ?? 0)) / unit.toCanonical;
          const out = evaluateAnalyteValue(entry, sent, unit.ucum);
          expect(out?.evaluated, `${entry.key} ${unit.ucum}`).toBe(true);
          if (out?.evaluated) expect(out.canonicalValue).toBeCloseTo(canonical, 6);
          expect(toCanonicalValue(unit, sent)).toBeCloseTo(canonical, 6);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("every unit has a positive finite factor and a basis; its spellings name no other unit of the row", () => {
    for (const e of MEASURED) {
      for (const u of e.measure.units) {
        expect(Number.isFinite(u.toCanonical) && u.toCanonical > 0, `${e.key} ${u.ucum}`).toBe(true);
        expect(u.basis.length, `${e.key} ${u.ucum}`).toBeGreaterThan(0);
        for (const s of u.spellings) {
          const owners = e.measure.units.filter((o) => o.spellings.includes(s));
          const sameScale = owners.every(
            (o) => o.toCanonical === u.toCanonical && (o.offset ?? 0) === (u.offset ?? 0),
          );
          expect(sameScale, `${e.key} "${s}"`).toBe(true);
        }
      }
    }
  });
});

describe("property: a value without a unit (decision 180)", () => {
  it("is read in the one plausible unit, critical when critical in every plausible unit, else refused; never normal in an overlap", () => {
    fc.assert(
      fc.property(arbUnitless, ([entry, value]) => {
        const m = entry.measure;
        const out = evaluateAnalyteValue(entry, value, undefined, { unitlessMeansCanonical: true });
        const readings = readingsOf(m, value).filter((r) => Number.isFinite(r.canonical));
        const plausible = readings.filter((r) => r.plausible);
        const flags = plausible.map((r) => flagCanonicalValue(m, r.canonical).flag);
        const unconverted = unconvertedUnits(m).length > 0;
        expect(out).not.toBeNull();
        if (!out) return;
        if (plausible.length === 0 && !unconverted) {
          expect(out).toMatchObject({ evaluated: false, reason: "implausible" });
        } else if (plausible.length === 1 && !unconverted) {
          expect(out.evaluated).toBe(true);
          if (out.evaluated) {
            expect(out.flag).toBe(flags[0]);
            expect(out.canonicalValue).toBeCloseTo(plausible[0]?.canonical as number, 9);
          }
        } else if (!unconverted && flags.length > 0 && flags.every(isCritical)) {
          expect(out.evaluated).toBe(true);
          if (out.evaluated) {
            expect(isCritical(out.flag)).toBe(true);
            expect(out.unitNotGiven?.rule).toBe("critical_every_reading");
          }
        } else {
          // An overlap (or an unconverted unit in use): refused, never normal.
          expect(out).toMatchObject({ evaluated: false, reason: "unit" });
          if (!out.evaluated) expect(out.criticalPossible === true).toBe(flags.some(isCritical));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("the panels tool and the biomarker engine read it the same way: critical is high risk and review; a refusal is flagged", () => {
    fc.assert(
      fc.property(arbUnitless, ([entry, value]) => {
        const out = evaluateAnalyteValue(entry, value, undefined, { unitlessMeansCanonical: true });
        if (!out) return;
        const panel = evaluatePanel([{ analyte: entry.display, value }]);
        const bio = analyzeBiomarkers(
          {
            labs: [
              {
                id: "p",
                labName: "Lab",
                observedAt: "2026-07-30",
                results: { biomarkers: [{ name: entry.display, value }] },
              },
            ],
          },
          { now: NOW },
        );
        if (out.evaluated && isCritical(out.flag)) {
          expect(panel.risk.level).toBe("high");
          expect(panel.results[0]?.critical).toBe(true);
          expect(bio.facts.summary.status).toBe("critical");
          expect(bio.facts.summary.requiresClinicianReview).toBe(true);
        } else if (!out.evaluated) {
          expect(panel.results).toEqual([]);
          expect(panel.risk.flag).toBe(true);
          expect(panel.risk.level).not.toBe("none");
          if (out.reason === "unit" && out.criticalPossible) {
            expect(panel.risk.level).toBe("moderate");
            // Named and reviewed in the biomarker answer too (decision 180).
            expect(bio.facts.summary.requiresClinicianReview).toBe(true);
            expect(bio.facts.summary.flagged.join(" ")).toContain(`${entry.display}: not evaluated`);
          }
          expect(bio.data.valueFindings.map((f) => f.finding)).toEqual([
            out.reason === "unit" ? "not_evaluated_unit" : "implausible",
          ]);
        } else {
          expect(panel.results[0]?.flag).toBe(out.flag);
        }
      }),
      { numRuns: 600 },
    );
  });

  it("the examples of the issue: neutrophils 0.4, valproate 600, clozapine 0.5", () => {
    const anc = ANALYTES.find((e) => e.key === "anc") as AnalyteEntry;
    expect(evaluateAnalyteValue(anc, 0.4, undefined, { unitlessMeansCanonical: true })).toMatchObject({
      evaluated: true,
      flag: "critical_low",
      unitNotGiven: { rule: "critical_every_reading", readings: ["0.4 x10^9/L", "0.4 /uL = 0.0004 x10^9/L"] },
    });
    const vpa = ANALYTES.find((e) => e.key === "valproate") as AnalyteEntry;
    // 600 mg/L (overdose, critical) or 600 µmol/L (86.5 mg/L, in range): the unit decides.
    expect(evaluateAnalyteValue(vpa, 600, undefined, { unitlessMeansCanonical: true })).toMatchObject({
      evaluated: false,
      reason: "unit",
      criticalPossible: true,
    });
    expect(evaluateAnalyteValue(vpa, 600, "umol/L")).toMatchObject({ evaluated: true, flag: "normal" });
    // UK laboratories report clozapine in mg/L: 0.5 mg/L is 500 ng/mL, not 0.5 ng/mL.
    const clz = ANALYTES.find((e) => e.key === "clozapine") as AnalyteEntry;
    expect(evaluateAnalyteValue(clz, 0.5, "mg/L")).toMatchObject({ evaluated: true, canonicalValue: 500 });
    expect(evaluateAnalyteValue(clz, 0.5, undefined, { unitlessMeansCanonical: true })).toMatchObject({
      evaluated: false,
      reason: "unit",
    });
    expect(evaluateAnalyteValue(clz, 1.53, "umol/L")).toMatchObject({ evaluated: true, flag: "normal" });
  });
});
