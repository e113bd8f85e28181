import { describe, expect, it } from "vitest";
import { analyzeBiomarkers } from "../src/biomarker.js";
import { clozapineAncCategories } from "../src/knowledge/analytes.js";
import { evaluatePanel } from "../src/tools/panels.js";
import type { Biomarker, LabPanel } from "../src/types.js";

/** The examples for lab values, units and the newest reading (decisions 64-67). */

const NOW = new Date("2026-08-01T00:00:00Z");
const panel = (id: string, observedAt: string, biomarkers: Biomarker[]): LabPanel => ({
  id,
  labName: "Lab",
  observedAt,
  results: { biomarkers },
});
const run = (labs: LabPanel[]) => analyzeBiomarkers({ labs }, { now: NOW });

describe("lab values beyond known limits", () => {
  it("an unflagged lithium of 2.6 mmol/L is not silent: flagged, review, critical, no signal", () => {
    const r = run([panel("p1", "2026-07-01", [{ name: "Lithium", value: 2.6, unit: "mmol/L" }])]);
    expect(r.data.signals).toEqual([]); // the contract: a signal only for flagged readings
    expect(r.facts.summary.status).toBe("critical");
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
    expect(r.facts.summary.flagged).toEqual([
      "Lithium 2.6 mmol/L: at or above the 1.5 mmol/L toxicity threshold (not flagged by the laboratory)",
    ]);
    expect(r.facts.summary.headline).toMatch(/not flagged by the laboratory.*prompt clinician review/);
    expect(r.data.valueFindings).toEqual([
      expect.objectContaining({ analyte: "lithium", finding: "critical", current: true, labFlag: null }),
    ]);
  });

  it("a unit written in the value string is used: unflagged '2.6 mmol/L' is not silent either", () => {
    const r = run([panel("p1", "2026-07-01", [{ name: "Serum lithium level", value: "2.6 mmol/L" }])]);
    expect(r.facts.summary.status).toBe("critical");
    expect(r.facts.summary.flagged[0]).toContain("at or above the 1.5 mmol/L toxicity threshold");
  });

  it("a flagged lithium of 2.0 reads critical, not the elevated tone of a mildly high value", () => {
    const r = run([
      panel("p1", "2026-07-01", [{ name: "Lithium", value: 2.0, unit: "mmol/L", flag: "high" }]),
    ]);
    expect(r.data.signals[0]).toMatchObject({
      tone: "critical",
      label: "Lithium high, beyond a critical limit",
    });
    expect(r.data.signals[0]?.detail).toContain("at or above the 1.5 mmol/L toxicity threshold");
    const mild = run([
      panel("p1", "2026-07-01", [{ name: "Lithium", value: 1.2, unit: "mmol/L", flag: "high" }]),
    ]);
    expect(mild.data.signals[0]?.tone).toBe("elevated");
  });

  it("a newer, higher, unflagged value does not hide behind an older flagged one", () => {
    const r = run([
      panel("old", "2026-06-01", [{ name: "Lithium", value: 1.2, unit: "mmol/L", flag: "high" }]),
      panel("new", "2026-07-01", [{ name: "Lithium", value: 1.4, unit: "mmol/L" }]),
    ]);
    const detail = r.data.signals[0]?.detail ?? "";
    expect(detail).toContain("is the current value and is still above the service's range");
    expect(detail).toContain("higher than this one");
    expect(detail).not.toMatch(/history|returned to normal|was not flagged\./);
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
    const toxic = run([
      panel("old", "2026-06-01", [{ name: "Lithium", value: 1.2, unit: "mmol/L", flag: "high" }]),
      panel("new", "2026-07-01", [{ name: "Lithium", value: 2.2, unit: "mmol/L" }]),
    ]);
    expect(toxic.facts.summary.status).toBe("critical");
    expect(toxic.data.signals[0]?.tone).toBe("critical");
    expect(toxic.facts.summary.flagged).toContain(
      "Lithium 2.2 mmol/L: at or above the 1.5 mmol/L toxicity threshold (not flagged by the laboratory)",
    );
  });

  it("a newer unflagged value the table cannot check is never read as a return to normal", () => {
    const r = run([
      panel("old", "2026-06-01", [{ name: "Sodium", value: 118, unit: "mmol/L", flag: "critical" }]),
      panel("new", "2026-07-01", [{ name: "Sodium", value: 139, unit: "furlongs", flag: "normal" }]),
    ]);
    expect(r.facts.summary.status).toBe("critical");
    expect(r.data.signals[0]?.detail).toContain("it is not evidence that the level returned to normal");
  });

  it("an old critical sodium with a newer normal one is no longer the current status; history is noted", () => {
    const r = run([
      panel("old", "2026-06-01", [{ name: "Sodium", value: 118, unit: "mmol/L", flag: "critical" }]),
      panel("new", "2026-07-01", [{ name: "Sodium", value: 139, unit: "mmol/L", flag: "normal" }]),
    ]);
    expect(r.facts.summary.status).toBe("watch");
    expect(r.facts.summary.requiresClinicianReview).toBe(false);
    expect(r.facts.summary.flagged).toEqual(["Sodium critical (earlier; newest reading within range)"]);
    expect(r.data.signals[0]?.detail).toContain("is within the service's range");
    expect(r.data.signals[0]?.detail).toContain("this flag is history");
    expect(r.facts.confidence.reasons.join(" ")).toContain(
      "Earlier reading(s) beyond a critical limit, no longer the current value: Sodium 118 mmol/L",
    );
  });

  it("valproate 101-125 mg/L is above the epilepsy range but within mania targets: not high, not toxic", () => {
    const p = evaluatePanel([{ analyte: "valproate", value: 110, unit: "mg/L" }]);
    expect(p.results[0]).toMatchObject({ flag: "normal", critical: false });
    expect(p.risk.level).toBe("none");
    expect(p.observations[0]?.note).toBe(
      "Above the epilepsy range (50-100 mg/L) but within the acute mania target (50-125 mg/L); read it against the indication.",
    );
    const r = run([
      panel("p1", "2026-07-01", [{ name: "Valproate", value: 110, unit: "mg/L", flag: "high" }]),
    ]);
    expect(r.data.signals[0]?.tone).toBe("watch");
    expect(r.data.signals[0]?.detail).toContain("within the acute mania target");
    expect(evaluatePanel([{ analyte: "valproate", value: 126, unit: "mg/L" }]).results[0]?.flag).toBe("high");
    expect(evaluatePanel([{ analyte: "valproate", value: 150, unit: "mg/L" }]).results[0]?.flag).toBe(
      "critical_high",
    );
  });
});

describe("units", () => {
  it("a neutrophil count of 400 cells/uL on clozapine is severe neutropenia, not high; risk high", () => {
    const p = evaluatePanel([{ analyte: "ANC", value: 400, unit: "cells/uL" }]);
    expect(p.results[0]).toMatchObject({
      flag: "critical_low",
      canonicalValue: 0.4,
      canonicalUnit: "x10^9/L",
    });
    expect(p.risk.level).toBe("high");
    expect(p.observations.map((o) => o.note).join(" ")).toContain("US label severe neutropenia (< 500/µL)");
    const r = run([panel("p1", "2026-07-01", [{ name: "Neutrophils", value: 400, unit: "cells/uL" }])]);
    expect(r.facts.summary.status).toBe("critical");
    expect(r.facts.summary.flagged[0]).toContain(
      "0.4 x10^9/L: below the 1.5 x10^9/L clozapine red-range threshold",
    );
  });

  it("valproate and carbamazepine in umol/L are converted, not read as mg/L", () => {
    const p = evaluatePanel([
      { analyte: "valproate", value: 700, unit: "umol/L" },
      { analyte: "carbamazepine", value: 30, unit: "µmol/L" },
    ]);
    expect(p.results.map((r) => [r.canonicalValue, r.flag])).toEqual([
      [101, "normal"], // 700 / 6.934 = 101 mg/L: within the mania target, not critical_high
      [7.09, "normal"], // 30 / 4.233 = 7.09 mg/L: within 4-12, not critical_high
    ]);
    const r = run([panel("p1", "2026-07-01", [{ name: "Carbamazepine", value: 80, unit: "umol/L" }])]);
    expect(r.facts.summary.flagged).toEqual([
      "Carbamazepine 18.9 mg/L: at or above the 15 mg/L critical limit (not flagged by the laboratory)",
    ]);
  });

  it("a unit that is missing, unknown or ambiguous is 'not evaluated: unit' with the reason", () => {
    const p = evaluatePanel([
      { analyte: "ANC", value: 3 },
      { analyte: "valproate", value: 80, unit: "mg/furlong" },
      { analyte: "neutrophils", value: 40, unit: "%" },
    ]);
    expect(p.results).toEqual([]);
    expect(p.warnings).toEqual([
      expect.stringMatching(/not evaluated: unit \(unit missing.*plausible in more than one accepted unit/),
      expect.stringMatching(/not evaluated: unit \(unit "mg\/furlong" is not known for Valproate/),
      expect.stringMatching(/not evaluated: unit \(unit "%" is ambiguous.*not an absolute count/),
    ]);
    const r = run([panel("p1", "2026-07-01", [{ name: "ANC", value: 0.4, unit: "%", flag: "low" }])]);
    expect(r.data.signals[0]?.detail).toContain("Not evaluated against the service's ranges: unit");
    expect(r.data.valueFindings[0]?.finding).toBe("not_evaluated_unit");
  });

  it("a value outside the plausible range for its unit is a data-quality finding that a clinician reviews", () => {
    const r = run([panel("p1", "2026-07-01", [{ name: "Sodium", value: 14, unit: "mmol/L" }])]);
    expect(r.data.valueFindings).toEqual([expect.objectContaining({ finding: "implausible" })]);
    expect(r.facts.summary.headline).toContain("not evaluated against the service's ranges");
    // 400 neutrophils labelled x10^9/L may be 400 cells/uL: never read, never silent.
    const anc = run([panel("p1", "2026-07-01", [{ name: "ANC", value: 400, unit: "x10^9/L" }])]);
    expect(anc.facts.summary.status).toBe("no_flags");
    expect(anc.facts.summary.requiresClinicianReview).toBe(true);
    expect(anc.facts.summary.flagged).toEqual([
      expect.stringMatching(
        /^Neutrophils \(absolute\): data quality, not evaluated \(.*outside the plausible range/,
      ),
    ]);
  });
});

describe("clozapine neutrophil categories (decision 66)", () => {
  it("US label general and BEN tables; UK bands; BEN never loosens the flag", () => {
    expect(clozapineAncCategories(1.2).usLabel.category).toMatch(/^mild neutropenia/);
    expect(clozapineAncCategories(0.7).usLabel.category).toMatch(/^moderate neutropenia/);
    expect(clozapineAncCategories(0.4).usLabel.category).toMatch(/^severe neutropenia/);
    expect(clozapineAncCategories(1.2, true).usLabel.category).toMatch(/^normal BEN range/);
    expect(clozapineAncCategories(0.7, true).usLabel.category).toMatch(/^BEN neutropenia/);
    expect(clozapineAncCategories(2.0).ukMonitoring.band).toBe("green");
    expect(clozapineAncCategories(1.7).ukMonitoring.band).toBe("amber");
    expect(clozapineAncCategories(1.4).ukMonitoring.band).toBe("red");
    const ben = evaluatePanel([{ analyte: "ANC", value: 1200, unit: "cells/uL" }], {
      benignEthnicNeutropenia: true,
    });
    expect(ben.results[0]?.flag).toBe("critical_low"); // the UK red limit still applies
    expect(ben.observations.map((o) => o.note).join(" ")).toContain("normal BEN range");
  });
});
