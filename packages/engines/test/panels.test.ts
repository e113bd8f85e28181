import { describe, expect, it } from "vitest";
import { BIOMARKER_MAP, findAnalyte } from "../src/knowledge/analytes.js";
import {
  evaluatePanel,
  getPanels,
  PANEL_UNIT_OBSERVATION,
  type PanelAnalyte,
  panelFlagOf,
  panelRangeTextOf,
} from "../src/tools/panels.js";
import { ToolInputError } from "../src/tools/types.js";

/** The canonical unit of an analyte, as a caller following getPanels sends it. */
const canonicalUnit = (analyte: string): string | undefined => findAnalyte(analyte)?.measure?.displayUnit;
const one = (analyte: string, value: number, unit = canonicalUnit(analyte)) =>
  evaluatePanel([{ analyte, value, ...(unit === undefined ? {} : { unit }) }]);
const resultOf = (analyte: string, value: number, unit = canonicalUnit(analyte)) => {
  const result = one(analyte, value, unit).results[0];
  if (!result) throw new Error(`no result for ${analyte}`);
  return result;
};

const allAnalytes = (): PanelAnalyte[] => {
  const byKey = new Map<string, PanelAnalyte>();
  for (const panel of getPanels()) for (const a of panel.analytes) byKey.set(a.analyte, a);
  return [...byKey.values()];
};

describe("getPanels", () => {
  it("offers the monitoring panels the agent needs", () => {
    // One vocabulary: the lab catalog's panel ids (decision 64); panels without a sourced range are left out.
    expect(getPanels().map((p) => p.id)).toEqual([
      "lithium_monitoring",
      "clozapine_anc",
      "clozapine_level",
      "antipsychotic_metabolic",
      "thyroid_panel",
      "b12_folate",
      "vitamin_d",
      "cmp",
      "cbc_diff",
      "valproate_level",
      "carbamazepine_level",
      "lamotrigine_level",
      "hepatic_panel",
      "lipid_panel",
      "hba1c",
      "prolactin",
      "renal_function",
    ]);
  });

  it("defines each analyte once: the same key has the same row in every panel", () => {
    const seen = new Map<string, PanelAnalyte>();
    for (const panel of getPanels())
      for (const a of panel.analytes) {
        const first = seen.get(a.analyte);
        if (first) expect(a).toEqual(first);
        else seen.set(a.analyte, a);
      }
  });

  it.each(allAnalytes().map((a) => [a.analyte, a] as const))(
    "%s: a source, a key and display from the biomarker map, a coherent range",
    (_key, a) => {
      const entry = BIOMARKER_MAP.find((e) => e.key === a.analyte);
      expect(entry?.display).toBe(a.display);
      expect(a.source.length).toBeGreaterThan(10);
      expect(a.unit).not.toBe("");
      expect(a.low !== null || a.high !== null).toBe(true);
      if (a.low !== null && a.high !== null) expect(a.low).toBeLessThan(a.high);
      if (a.criticalLow !== null) expect(a.criticalLow).toBeLessThan(a.low ?? Number.POSITIVE_INFINITY);
      if (a.criticalHigh !== null) expect(a.criticalHigh).toBeGreaterThan(a.high ?? Number.NEGATIVE_INFINITY);
      // A LOINC code only when biomarker-map lists it as verified for the analyte.
      if (a.loinc !== null) expect(entry?.loinc?.map((r) => r.code)).toContain(a.loinc);
    },
  );

  it("chooses the verified LOINC code that fits the unit, and none where none fits", () => {
    const byKey = new Map(allAnalytes().map((a) => [a.analyte, a]));
    expect(byKey.get("lithium")?.loinc).toBe("14334-7");
    expect(byKey.get("sodium")?.loinc).toBe("2951-2");
    expect(byKey.get("creatinine")?.loinc).toBe("14682-9"); // µmol/L: the moles code
    expect(byKey.get("hba1c")?.loinc).toBe("4548-4");
    expect(byKey.get("calcium")?.loinc).toBeNull(); // only the mass code is verified; read in mmol/L
    expect(byKey.get("clozapine")?.loinc).toBe("6896-5"); // ng/mL: the mass code
  });

  it("returns copies: changing the result does not change the table", () => {
    const first = getPanels();
    (first[0]?.analytes[0] as PanelAnalyte).high = 99;
    expect(getPanels()[0]?.analytes[0]?.high).toBe(1.0);
  });
});

describe("evaluatePanel: critical boundaries", () => {
  it("lithium: 1.0 normal, 1.01 and 1.49 high, 1.5 critical (inclusive), 0.59 low", () => {
    expect(resultOf("lithium", 1.0).flag).toBe("normal");
    expect(resultOf("lithium", 1.01).flag).toBe("high");
    expect(resultOf("lithium", 1.49).flag).toBe("high");
    expect(resultOf("lithium", 1.5)).toMatchObject({ flag: "critical_high", critical: true });
    expect(resultOf("lithium", 0.59).flag).toBe("low");
  });

  it("sodium: 125 low not critical, 124.9 critical (below only); 159.9 high, 160 critical", () => {
    expect(resultOf("sodium", 125)).toMatchObject({ flag: "low", critical: false });
    expect(resultOf("sodium", 124.9)).toMatchObject({ flag: "critical_low", critical: true });
    expect(resultOf("sodium", 135).flag).toBe("normal");
    expect(resultOf("sodium", 145).flag).toBe("normal");
    expect(resultOf("sodium", 159.9).flag).toBe("high");
    expect(resultOf("sodium", 160).flag).toBe("critical_high");
  });

  it("potassium: 2.5 and 6.5 critical (at or beyond), 2.6 and 6.4 not", () => {
    expect(resultOf("potassium", 2.5).flag).toBe("critical_low");
    expect(resultOf("potassium", 2.6).flag).toBe("low");
    expect(resultOf("potassium", 6.4).flag).toBe("high");
    expect(resultOf("potassium", 6.5).flag).toBe("critical_high");
  });

  it("calcium: 1.8 and 3.5 critical, 1.81 and 3.49 not", () => {
    expect(resultOf("calcium", 1.8).flag).toBe("critical_low");
    expect(resultOf("calcium", 1.81).flag).toBe("low");
    expect(resultOf("calcium", 3.49).flag).toBe("high");
    expect(resultOf("calcium", 3.5).flag).toBe("critical_high");
  });

  it("clozapine monitoring: ANC 1.5 is amber (low), 1.49 red (critical); WBC 3.0 low, 2.99 critical", () => {
    expect(resultOf("ANC", 2.0).flag).toBe("normal");
    expect(resultOf("ANC", 1.5).flag).toBe("low");
    expect(resultOf("ANC", 1.49).flag).toBe("critical_low");
    expect(resultOf("WBC", 3.0).flag).toBe("low");
    expect(resultOf("WBC", 2.99).flag).toBe("critical_low");
  });

  it("glucose: 3.0 low, 2.99 critical; 24.9 high, 25 critical", () => {
    expect(resultOf("glucose", 3.0).flag).toBe("low");
    expect(resultOf("glucose", 2.99).flag).toBe("critical_low");
    expect(resultOf("glucose", 24.9).flag).toBe("high");
    expect(resultOf("glucose", 25).flag).toBe("critical_high");
  });

  it("drug levels and renal/liver limits: at the limit is critical, just below is high", () => {
    for (const [name, limit, below] of [
      ["valproate", 150, 149.9],
      ["carbamazepine", 15, 14.9],
      ["clozapine", 1000, 999],
      ["creatinine", 354, 353],
      ["ALT", 495, 494],
    ] as const) {
      expect(resultOf(name, limit).flag, name).toBe("critical_high");
      expect(resultOf(name, below).flag, name).toBe("high");
    }
  });

  it("one-sided ranges: eGFR 60 normal, 59.9 low; HbA1c 5.6 % normal, 5.7 % high", () => {
    expect(resultOf("eGFR", 60).flag).toBe("normal");
    expect(resultOf("eGFR", 59.9).flag).toBe("low");
    expect(resultOf("HbA1c", 5.6).flag).toBe("normal");
    expect(resultOf("HbA1c", 5.7).flag).toBe("high");
  });

  it("panelFlagOf checks critical limits before the range", () => {
    const [lithium] = allAnalytes().filter((a) => a.analyte === "lithium");
    expect(panelFlagOf(lithium as PanelAnalyte, 3)).toBe("critical_high");
  });
});

describe("evaluatePanel: results, observations, risk", () => {
  it("reports the contract fields with unit and range text", () => {
    expect(resultOf("Lithium", 0.8)).toEqual({
      analyte: "Lithium",
      analyteKey: "lithium",
      value: 0.8,
      unit: "mmol/L",
      flag: "normal",
      range: "0.6-1.0 mmol/L (therapeutic, maintenance); critical >= 1.5",
      critical: false,
      canonicalValue: 0.8,
      canonicalUnit: "mmol/L",
    });
    const sodium = allAnalytes().find((a) => a.analyte === "sodium") as PanelAnalyte;
    expect(panelRangeTextOf(sodium)).toBe("135-145 mmol/L (reference); critical < 125 or >= 160");
  });

  it("a critical lithium is a high risk with a label naming the threshold", () => {
    const out = one("Lithium", 1.6);
    expect(out.risk).toEqual({
      flag: true,
      level: "high",
      labels: ["Lithium 1.6 mmol/L: at or above the 1.5 mmol/L toxicity threshold"],
    });
    expect(out.observations[0]?.note).toMatch(/prompt clinician review/);
    expect(out.observations[1]?.note).toMatch(/lithium toxicity/);
  });

  it("a critical value is never outweighed by many normal readings", () => {
    const out = evaluatePanel([
      { analyte: "TSH", value: 2 },
      { analyte: "Potassium", value: 4.2 },
      { analyte: "eGFR", value: 95 },
      { analyte: "Na", value: 118 },
      { analyte: "Glucose", value: 5, unit: "mmol/L" },
    ]);
    expect(out.risk.level).toBe("high");
    expect(out.risk.labels).toEqual([
      "Sodium 118 mmol/L: below the 125 mmol/L profound hyponatraemia threshold",
    ]);
  });

  it("abnormal non-critical: the biomarker map's tone decides moderate (elevated) or low (watch)", () => {
    expect(one("lithium", 1.2).risk.level).toBe("moderate"); // toneHigh elevated
    expect(one("lithium", 0.4).risk.level).toBe("low"); // toneLow watch
    expect(one("TSH", 6.8).risk).toEqual({
      flag: true,
      level: "low",
      labels: ["TSH 6.8 mIU/L: above the reference range 0.45-4.50 mIU/L"],
    });
    expect(one("sodium", 130).risk.level).toBe("moderate");
    expect(one("ANC", 1.8).risk.level).toBe("moderate");
  });

  it("abnormal readings carry the map's relevance note; normal ones none", () => {
    const out = evaluatePanel([
      { analyte: "TSH", value: 8 },
      { analyte: "free T4", value: 14, unit: "pmol/L" },
    ]);
    expect(out.observations).toEqual([
      { analyte: "TSH", note: expect.stringMatching(/hypothyroidism/) },
      PANEL_UNIT_OBSERVATION,
    ]);
  });

  it("all normal: no risk, but the lab-variance observation is still there", () => {
    const out = evaluatePanel([
      { analyte: "lithium", value: 0.7 },
      { analyte: "creatinine", value: 80, unit: "µmol/L" },
    ]);
    expect(out.risk).toEqual({ flag: false, level: "none", labels: [] });
    expect(out.observations).toEqual([PANEL_UNIT_OBSERVATION]);
    expect(out.warnings).toEqual([]);
  });

  it("matches names through biomarker-map variants and filler words", () => {
    expect(resultOf("Li", 0.8).analyteKey).toBe("lithium");
    expect(resultOf("Na", 140).analyteKey).toBe("sodium");
    expect(resultOf("Serum lithium level", 0.8).analyteKey).toBe("lithium");
    expect(resultOf("absolute neutrophil count", 3).analyteKey).toBe("anc");
    expect(resultOf("Valproic acid", 70).analyteKey).toBe("valproate");
  });
});

describe("evaluatePanel: what is not evaluated never reads as normal", () => {
  it("an unknown analyte goes to unrecognized with a warning, and is not counted normal", () => {
    const out = evaluatePanel([
      { analyte: "Zinc protoporphyrin", value: 3 },
      { analyte: "lithium", value: 0.8 },
    ]);
    expect(out.unrecognized).toEqual(["Zinc protoporphyrin"]);
    expect(out.warnings).toEqual([
      expect.stringMatching(/"Zinc protoporphyrin" is not a recognised analyte; it was not evaluated/),
    ]);
    expect(out.results.map((r) => r.analyteKey)).toEqual(["lithium"]);
  });

  it("a mapped analyte without a sourced range is not evaluated either", () => {
    const out = one("Cortisol", 150);
    expect(out.results).toEqual([]);
    expect(out.unrecognized).toEqual(["Cortisol"]);
    expect(out.warnings[0]).toMatch(/no sourced range in this tool/);
  });

  it("nothing evaluated: risk at least low, each reading named (decision 80); no readings: not assessed", () => {
    const out = one("Mystery", 1);
    expect(out.risk).toEqual({
      flag: true,
      level: "low",
      labels: ['Not evaluated: "Mystery" 1 (not a recognised analyte)'],
    });
    expect(evaluatePanel([]).risk).toEqual({
      flag: false,
      level: "none",
      labels: ["Panel not assessed: no readings were sent"],
    });
  });

  it("a value implausible in its unit is a data-quality finding, not evaluated", () => {
    const creatinine = one("creatinine", 3.5, "µmol/L");
    expect(creatinine.results).toEqual([]);
    expect(creatinine.unrecognized).toEqual(["creatinine"]);
    expect(creatinine.warnings[0]).toMatch(/not evaluated: data quality.*outside the plausible range/);
    // A wrong unit can hide a critical value: never silent (decision 67).
    expect(one("ANC", 400, "x10^9/L").risk).toEqual({
      flag: true,
      level: "moderate",
      labels: [
        "Not evaluated: Neutrophils (absolute) 400 x10^9/L (implausible for its unit; check the unit and the result)",
      ],
    });
    expect(one("sodium", 0.14).results).toEqual([]);
    expect(one("lithium", -1).warnings[0]).toMatch(/not evaluated: data quality/);
  });

  it("a unitless value is read by the unit-less rule (decisions 65, 180)", () => {
    const unitless = (analyte: string, value: number) => evaluatePanel([{ analyte, value }]);
    expect(unitless("lithium", 0.8).results[0]?.flag).toBe("normal"); // mmol/L = mEq/L
    // Plausible in one accepted unit only: read in it, and the label says so.
    for (const [name, value, flag, read] of [
      ["creatinine", 3.5, "high", "3.5 mg/dL = 309 µmol/L"],
      ["HbA1c", 53, "high", "53 mmol/mol = 7 %"],
      ["ANC", 400, "critical_low", "400 /uL = 0.4 x10^9/L"],
    ] as const) {
      const out = unitless(name, value);
      expect(out.results[0]?.flag, name).toBe(flag);
      expect(out.risk.labels[0], name).toContain(`(no unit; read as ${read})`);
    }
    // Plausible in more than one with different readings: refused, moderate when one is critical.
    for (const [name, value, level] of [
      ["valproate", 700, "moderate"],
      ["glucose", 90, "moderate"],
      ["glucose", 10, "moderate"],
      ["valproate", 60, "low"],
    ] as const) {
      const out = unitless(name, value);
      expect(out.results, name).toEqual([]);
      expect(out.warnings[0], name).toMatch(/not evaluated: unit \(unit missing.*plausible in more than one/);
      expect(out.risk, name).toMatchObject({ flag: true, level });
    }
    // Beyond a critical limit in every plausible unit: critical (0.4 x10^9/L and 0.4 /uL).
    const anc = unitless("neutrophils", 0.4);
    expect(anc.results[0]).toMatchObject({ flag: "critical_low", critical: true });
    expect(anc.risk.level).toBe("high");
    expect(anc.risk.labels[0]).toMatch(/^Neutrophils \(absolute\) 0\.4 \(no unit; every plausible reading: /);
  });

  it("duplicate readings are each evaluated, with a warning", () => {
    const out = evaluatePanel([
      { analyte: "Lithium", value: 0.8 },
      { analyte: "Li", value: 1.6 },
    ]);
    expect(out.results.map((r) => r.flag)).toEqual(["normal", "critical_high"]);
    expect(out.risk.level).toBe("high");
    expect(out.warnings).toEqual(["Lithium was sent 2 times; each reading was evaluated separately."]);
  });

  it("a non-finite value or a non-string name is a ToolInputError naming the path", () => {
    let error: unknown;
    try {
      evaluatePanel([
        { analyte: "lithium", value: 0.8 },
        { analyte: "sodium", value: Number.NaN },
      ]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolInputError);
    expect((error as ToolInputError).issues).toEqual([
      { path: [1, "value"], message: expect.stringMatching(/sodium.*finite number/) },
    ]);
  });
});
