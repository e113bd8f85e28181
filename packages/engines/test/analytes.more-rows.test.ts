import { describe, expect, it } from "vitest";
import { analyzeBiomarkers } from "../src/biomarker.js";
import { type AnalyteEntry, evaluateAnalyteValue, findAnalyte } from "../src/knowledge/analytes.js";
import { evaluatePanel } from "../src/tools/panels.js";
import type { Biomarker, LabPanel } from "../src/types.js";

/**
 * Measurement rows added to the analyte table beyond the first sixteen (decision 64): platelets,
 * haemoglobin, CK, AST, GGT, bilirubin, albumin, ammonia, magnesium, phosphate, urea, urea
 * nitrogen (BUN), CRP and prolactin. Their values are now read against sourced limits and units,
 * so an unflagged value beyond a critical limit is never silent (decision 67).
 */

const NOW = new Date("2026-08-01T00:00:00Z");
const panel = (biomarkers: Biomarker[], observedAt = "2026-07-01"): LabPanel => ({
  id: "p1",
  labName: "Lab",
  observedAt,
  results: { biomarkers },
});
const run = (labs: LabPanel[]) => analyzeBiomarkers({ labs }, { now: NOW });
const entry = (name: string) => findAnalyte(name) as AnalyteEntry;

describe("unflagged values beyond a critical limit are named and reviewed", () => {
  it("CK 12000 U/L without a flag (neuroleptic malignant syndrome, rhabdomyolysis): flagged, review, critical", () => {
    const r = run([panel([{ name: "CK", value: 12000, unit: "U/L" }])]);
    expect(r.data.signals).toEqual([]); // the contract: a signal only for flagged readings
    expect(r.facts.summary.status).toBe("critical");
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
    expect(r.facts.summary.flagged).toEqual([
      "Creatine kinase 12000 U/L: at or above the 5000 U/L critical limit (not flagged by the laboratory)",
    ]);
    expect(r.data.valueFindings).toEqual([
      expect.objectContaining({ analyte: "ck", finding: "critical", current: true, labFlag: null }),
    ]);
  });

  it("CK in µkat/L is converted (1 µkat/L = 60 U/L): 100 µkat/L is 6000 U/L, beyond the limit", () => {
    const r = run([panel([{ name: "Creatine kinase", value: 100, unit: "µkat/L", flag: "normal" }])]);
    expect(r.facts.summary.flagged).toEqual([
      "Creatine kinase 6000 U/L: at or above the 5000 U/L critical limit (not flagged by the laboratory)",
    ]);
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
  });

  it("platelets 30 x10^9/L without a flag (valproate thrombocytopenia): flagged, review, critical", () => {
    const r = run([panel([{ name: "Platelets", value: 30, unit: "x10^9/L" }])]);
    expect(r.facts.summary.status).toBe("critical");
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
    expect(r.facts.summary.flagged).toEqual([
      "Platelets 30 x10^9/L: below the 50 x10^9/L critical limit (not flagged by the laboratory)",
    ]);
    // The same count in cells/µL reads the same.
    const perUl = run([panel([{ name: "PLT", value: 30000, unit: "/uL" }])]);
    expect(perUl.facts.summary.flagged).toEqual(r.facts.summary.flagged);
    const p = evaluatePanel([{ analyte: "platelets", value: 30, unit: "10^3/uL" }]);
    expect(p.results[0]).toMatchObject({ flag: "critical_low", critical: true });
    expect(p.risk.level).toBe("high");
  });

  it("magnesium, phosphate, ammonia, urea and CRP beyond their limits reach review", () => {
    const r = run([
      panel([
        { name: "Magnesium", value: 0.8, unit: "mg/dL" }, // 0.33 mmol/L
        { name: "Phosphate", value: 0.25, unit: "mmol/L" },
        { name: "Ammonia", value: 250, unit: "umol/L" },
        { name: "Urea", value: 32, unit: "mmol/L" },
        { name: "CRP", value: 320, unit: "mg/L" },
      ]),
    ]);
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
    expect(r.facts.summary.flagged).toEqual([
      "Magnesium 0.329 mmol/L: at or below the 0.4 mmol/L critical limit (not flagged by the laboratory)",
      "Phosphate 0.25 mmol/L: at or below the 0.3 mmol/L critical limit (not flagged by the laboratory)",
      "Ammonia 250 µmol/L: above the 200 µmol/L critical limit (not flagged by the laboratory)",
      "Urea 32 mmol/L: at or above the 30 mmol/L critical limit (not flagged by the laboratory)",
      "C-reactive protein 320 mg/L: at or above the 300 mg/L critical limit (not flagged by the laboratory)",
    ]);
  });

  it("a flagged AST beyond 15 x its upper limit is critical, not the watch tone of a mildly raised one", () => {
    const r = run([panel([{ name: "AST", value: 900, unit: "U/L", flag: "high" }])]);
    expect(r.data.signals[0]).toMatchObject({ tone: "critical", label: "AST high, beyond a critical limit" });
    const mild = run([panel([{ name: "AST", value: 60, unit: "U/L", flag: "high" }])]);
    expect(mild.data.signals[0]?.tone).toBe("watch");
  });
});

describe("units of the added rows", () => {
  it("a haemoglobin in g/dL reads the same as in g/L", () => {
    const hb = entry("Hb");
    for (const [gdl, flag] of [
      [8.5, "low"],
      [14, "normal"],
      [6.5, "critical_low"],
    ] as const) {
      const inGdl = evaluateAnalyteValue(hb, gdl, "g/dL");
      const inGl = evaluateAnalyteValue(hb, gdl * 10, "g/L");
      expect(inGdl).toEqual(inGl);
      expect(inGdl?.evaluated && inGdl.flag).toBe(flag);
    }
    const a = run([panel([{ name: "Haemoglobin", value: 6.5, unit: "g/dL" }])]);
    const b = run([panel([{ name: "Haemoglobin", value: 65, unit: "g/L" }])]);
    expect(a.facts.summary).toEqual(b.facts.summary);
    expect(a.facts.summary.flagged).toEqual([
      "Haemoglobin 65 g/L: below the 70 g/L critical limit (not flagged by the laboratory)",
    ]);
    // Without a unit, 8 could be g/dL (anaemia) or g/L (implausible): never read.
    expect(evaluateAnalyteValue(hb, 8, undefined, { unitlessMeansCanonical: true })).toMatchObject({
      evaluated: false,
      reason: "unit",
    });
  });

  it("a prolactin in mIU/L is 'not evaluated: unit' (the factor depends on the assay standard), never normal", () => {
    const p = evaluatePanel([{ analyte: "prolactin", value: 500, unit: "mIU/L" }]);
    expect(p.results).toEqual([]);
    expect(p.warnings[0]).toMatch(
      /not evaluated: unit \(unit "mIU\/L" is ambiguous for Prolactin:.*calibration standard/,
    );
    const r = run([panel([{ name: "Prolactin", value: 2500, unit: "mIU/L", flag: "high" }])]);
    expect(r.data.valueFindings.map((f) => f.finding)).toEqual(["not_evaluated_unit"]);
    expect(r.data.signals[0]?.detail).toContain("Not evaluated against the service's ranges: unit");
    // ng/mL and µg/L are one scale; a value without a unit is still not read (mIU/L is in use).
    expect(evaluateAnalyteValue(entry("prolactin"), 48, "µg/L")).toMatchObject({
      evaluated: true,
      flag: "high",
    });
    expect(
      evaluateAnalyteValue(entry("prolactin"), 48, undefined, { unitlessMeansCanonical: true }),
    ).toMatchObject({ evaluated: false, reason: "unit" });
  });

  it("urea in mg/dL is not evaluated (urea or BUN?); BUN is its own row in mg/dL", () => {
    const urea = evaluateAnalyteValue(entry("urea"), 20, "mg/dL");
    expect(urea).toMatchObject({ evaluated: false, reason: "unit" });
    expect(urea && !urea.evaluated && urea.detail).toMatch(/urea nitrogen, BUN/);
    const bun = entry("blood urea nitrogen");
    expect(bun.key).toBe("bun");
    expect(evaluateAnalyteValue(bun, 15, "mg/dL")).toMatchObject({ evaluated: true, flag: "normal" });
    // BUN 90 mg/dL is urea 32 mmol/L: beyond the urea critical limit on both scales.
    expect(evaluateAnalyteValue(bun, 90, "mg/dL")).toMatchObject({ flag: "critical_high" });
    expect(evaluateAnalyteValue(entry("urea"), 90 / 2.8014, "mmol/L")).toMatchObject({
      flag: "critical_high",
    });
  });

  it("magnesium in mEq/L is halved (Mg2+ is divalent), in mg/dL converted by its molar mass", () => {
    const mg = entry("magnesium");
    const meq = evaluateAnalyteValue(mg, 1.8, "mEq/L");
    expect(meq?.evaluated && meq.canonicalValue).toBeCloseTo(0.9, 9);
    const mgdl = evaluateAnalyteValue(mg, 2.2, "mg/dL");
    expect(mgdl?.evaluated && Number(mgdl.canonicalValue.toFixed(3))).toBe(0.905);
  });
});

describe("drug levels, lipids and blood-count indices added later", () => {
  it("lamotrigine in µmol/L is converted (256.09 g/mol): 70 µmol/L is 17.9 mg/L, above the 2.5-15 range", () => {
    const p = evaluatePanel([{ analyte: "Lamictal", value: 70, unit: "umol/L" }]);
    expect(p.results[0]).toMatchObject({ flag: "high", canonicalValue: 17.9, canonicalUnit: "mg/L" });
    expect(evaluatePanel([{ analyte: "lamotrigine", value: 8, unit: "mg/L" }]).results[0]?.flag).toBe(
      "normal",
    );
  });

  it("triglycerides above 20 mmol/L (pancreatitis risk with clozapine or olanzapine) are never silent", () => {
    const r = run([panel([{ name: "Triglycerides", value: 2000, unit: "mg/dL" }])]);
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
    expect(r.facts.summary.flagged).toEqual([
      "Triglycerides 22.6 mmol/L: above the 20 mmol/L critical limit (pancreatitis risk) (not flagged by the laboratory)",
    ]);
  });

  it("an eosinophil percentage is not a count: not evaluated; a count in cells/µL is converted", () => {
    expect(evaluatePanel([{ analyte: "eosinophils", value: 12, unit: "%" }]).warnings[0]).toMatch(
      /not evaluated: unit \(unit "%" is ambiguous for Eosinophils/,
    );
    expect(
      evaluatePanel([{ analyte: "eosinophils", value: 900, unit: "cells/uL" }]).results[0],
    ).toMatchObject({
      flag: "high",
      canonicalValue: 0.9,
    });
  });
});
