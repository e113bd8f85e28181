import {
  analyzeBiomarkers,
  evaluateAnalyteValue,
  findAnalyte,
  getPanels,
  PANEL_DEFINITIONS,
} from "@svc/engines";
import { describe, expect, it } from "vitest";
import { LAB_PANELS, PANEL_ANALYTES, sandboxResults } from "../src/index.js";

/**
 * The lab catalog and its sandbox results, without a server: every panel has analytes, the
 * results are deterministic per order, and they agree with the analyte table the engines read
 * (decisions 64-67).
 */
describe("lab catalog", () => {
  it("every panel has sandbox analytes that round-trip as Biomarker input", () => {
    for (const panel of LAB_PANELS) {
      expect(PANEL_ANALYTES[panel.panelId]?.length ?? 0).toBeGreaterThan(0);
      const results = sandboxResults("labord_x", panel.panelId, new Date("2026-01-01T00:00:00Z"));
      expect(results.biomarkers.length).toBe(PANEL_ANALYTES[panel.panelId]?.length);
      expect(sandboxResults("labord_x", panel.panelId, new Date("2026-01-01T00:00:00Z"))).toEqual(results);
    }
  });
});

describe("one panel vocabulary (decision 64)", () => {
  it("the lab catalog, the analyte table's panels and the panels tool use the same ids", () => {
    const catalog = LAB_PANELS.map((p) => p.panelId);
    expect(PANEL_DEFINITIONS.map((p) => p.id)).toEqual(catalog);
    for (const panel of getPanels()) expect(catalog).toContain(panel.id);
    expect(catalog).toContain("thyroid_panel");
    expect(catalog).not.toContain("thyroid");
  });
});

describe("sandbox lab results read the analyte table", () => {
  it("lithium's range is the table's 0.6-1.0 mmol/L, and every flag agrees with the table", () => {
    const lithium = sandboxResults("labord_li", "lithium_monitoring", new Date("2026-01-01T00:00:00Z"));
    expect(lithium.biomarkers.find((b) => b.name === "Lithium")?.referenceRange).toBe("0.6-1.0 mmol/L");
    for (const panel of LAB_PANELS)
      for (let i = 0; i < 12; i++) {
        const results = sandboxResults(
          `labord_${panel.panelId}_${i}`,
          panel.panelId,
          new Date("2026-01-01T00:00:00Z"),
        );
        for (const b of results.biomarkers) {
          const entry = findAnalyte(b.name);
          if (!entry?.measure || typeof b.value !== "number") continue;
          const evaluation = evaluateAnalyteValue(entry, b.value, b.unit);
          expect(evaluation?.evaluated, `${b.name} ${b.value} ${b.unit}`).toBe(true);
          if (!evaluation?.evaluated) continue;
          const expected =
            evaluation.flag === "critical_high" || evaluation.flag === "critical_low"
              ? "critical"
              : evaluation.flag;
          expect(b.flag, `${b.name} ${b.value} ${b.unit}`).toBe(expected);
        }
        // The engine reads them without a unit finding.
        const run = analyzeBiomarkers(
          { labs: [{ id: "o", labName: "Sandbox", observedAt: results.observedAt, results }] },
          { now: new Date("2026-01-02T00:00:00Z") },
        );
        expect(run.data.valueFindings.filter((f) => f.finding !== "critical")).toEqual([]);
      }
  });
});
