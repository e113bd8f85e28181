import { describe, expect, it } from "vitest";
import { analyzeBiomarkers } from "../src/biomarker.js";
import { analyzeDmse, type DmseInput } from "../src/dmse.js";
import { evaluatePanel } from "../src/tools/panels.js";

/**
 * Cases of the units and device-plausibility classes (decisions 180, 181) written from published
 * sources with the expected answer fixed before the run, not from the code's tables. Each runs
 * through the panels agent tool and the JSON biomarker engine, or the dmse engine.
 */

const NOW = new Date("2026-12-01T00:00:00Z");
const bio = (name: string, value: number, unit?: string) =>
  analyzeBiomarkers(
    {
      labs: [
        {
          id: "p",
          labName: "Lab",
          observedAt: "2026-11-30",
          results: { biomarkers: [{ name, value, ...(unit === undefined ? {} : { unit }) }] },
        },
      ],
    },
    { now: NOW },
  );
const panel = (analyte: string, value: number, unit?: string) =>
  evaluatePanel([{ analyte, value, ...(unit === undefined ? {} : { unit }) }]);

describe("units: blind cases", () => {
  it.each([
    // Lithium label: toxicity above 1.5 mEq/L (mEq/L = mmol/L for Li+).
    ["lithium", 1.6, "mEq/L", "critical_high", 1.6],
    // Maudsley/UK reports: clozapine 0.35-0.5 mg/L target; 0.45 mg/L = 450 ng/mL, in range.
    ["clozapine", 0.45, "mg/L", "normal", 450],
    // NICE NG28 / WHO: HbA1c 48 mmol/mol (6.5 %) is the diabetes threshold: above the normal range.
    ["HbA1c", 48, "mmol/mol", "high", 6.54],
    // US report, creatinine 1.5 mg/dL = 133 umol/L, above a 130 umol/L upper limit.
    ["creatinine", 1.5, "mg/dL", "high", 132.6],
    // Clozapine label: ANC 1200/uL is mild neutropenia; UK red below 1.5 x10^9/L.
    ["neutrophils", 1200, "cells/mm3", "critical_low", 1.2],
    // ADA level 2 hypoglycaemia below 54 mg/dL (3.0 mmol/L): 40 mg/dL = 2.2 mmol/L.
    ["glucose", 40, "mg/dL", "critical_low", 2.22],
    // Vitamin D 12 ng/mL = 30 nmol/L: below the IOM 50 nmol/L (20 ng/mL) sufficiency level.
    ["vitamin D", 12, "ng/mL", "low", 29.95],
    // Carbamazepine 50 umol/L = 11.8 mg/L, inside the 4-12 mg/L range.
    ["carbamazepine", 50, "umol/L", "normal", 11.8],
  ] as const)("%s %s %s reads %s", (name, value, unit, flag, canonical) => {
    const out = panel(name, value, unit);
    expect(out.results[0]?.flag).toBe(flag);
    // The panels tool shows the canonical value rounded for reading.
    expect(out.results[0]?.canonicalValue).toBeCloseTo(canonical, 0);
    if (flag.startsWith("critical")) {
      expect(out.risk.level).toBe("high");
      expect(bio(name, value, unit).facts.summary.status).toBe("critical");
    }
  });

  it("without a unit: neutrophils 0.4 is critical; valproate 600, clozapine 0.4 and glucose 90 are refused and flagged", () => {
    // 0.4 x10^9/L is severe neutropenia (< 0.5); 0.4 /uL is lower still.
    expect(panel("neutrophils", 0.4).risk.level).toBe("high");
    expect(bio("neutrophils", 0.4).facts.summary).toMatchObject({
      status: "critical",
      requiresClinicianReview: true,
    });
    // Valproate 600 mg/L is an overdose (Spiller 2000: > 450 mg/L moderate-major toxicity);
    // 600 umol/L is 86.5 mg/L, therapeutic. Glucose 90 mmol/L is hyperosmolar; 90 mg/dL normal.
    for (const [name, value] of [
      ["valproate", 600],
      ["glucose", 90],
    ] as const) {
      expect(panel(name, value).risk).toMatchObject({ flag: true, level: "moderate" });
      expect(panel(name, value).results).toEqual([]);
      expect(bio(name, value).facts.summary.requiresClinicianReview).toBe(true);
    }
    // Clozapine 0.4: mg/L (400 ng/mL, in range) or ng/mL (far below): refused, never normal.
    expect(panel("clozapine", 0.4).results).toEqual([]);
    expect(panel("clozapine", 0.4).risk.flag).toBe(true);
  });
});

describe("device plausibility: blind cases", () => {
  const one = (input: DmseInput) => analyzeDmse(input, { now: NOW }).data;
  it.each([
    // Sustained 600 wpm over ten minutes: beyond any sustained human speech (record bursts < 1 min).
    [{ speechRateWpm: 600, sessionDurationSeconds: 600 }],
    // A share above 100 % of the session.
    [{ sustainedAttentionPct: 150, sessionDurationSeconds: 600 }],
    // 50 ms mean latency: faster than simple reaction time (~160-190 ms).
    [{ responseLatencySeconds: 0.05, sessionDurationSeconds: 600 }],
    // 900 fidget episodes in 600 s: more than one a second.
    [{ psychomotorFidgetEpisodes: 900, sessionDurationSeconds: 600 }],
    // A latency longer than its 30 s session.
    [{ responseLatencySeconds: 45, sessionDurationSeconds: 30 }],
  ] as const)("%o is a capture finding: low confidence, never within_normal", (input) => {
    const d = one(input);
    expect(d.signals[0]?.confidence).toBe("low");
    expect(d.signals[0]?.interpretation).not.toBe("within_normal");
    expect(d.overallConfidence).toBe("low");
    expect(d.summary.headline).toContain("capture quality to be checked");
  });

  it("humanly possible values are read against the thresholds: 180 wpm, 90 % gaze, 0.8 s latency", () => {
    const d = one({
      speechRateWpm: 180,
      sustainedAttentionPct: 90,
      responseLatencySeconds: 0.8,
      sessionDurationSeconds: 600,
    });
    expect(d.signals.map((s) => s.interpretation)).toEqual([
      "within_normal",
      "within_normal",
      "within_normal",
    ]);
    expect(d.summary.headline).not.toContain("mplausible");
  });
});
