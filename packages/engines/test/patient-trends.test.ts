import { describe, expect, it } from "vitest";
import {
  analyteByKey,
  chooseLoinc,
  evaluateAnalyteValue,
  findAnalyteByLoinc,
} from "../src/knowledge/analytes.js";
import { reviewPatient } from "../src/patient/review.js";
import { TREND_RULES, trendFindings } from "../src/patient/trends.js";
import type { DatedReading, PatientReviewInput, ReviewMedicine } from "../src/patient/types.js";

/**
 * The trends part of the patient review (decision 195): the three series of the issue, each
 * with every reading inside its range, are findings; the rules' edges; what cannot be placed in a
 * series is named, never read as steady.
 */

const NOW = new Date("2026-06-01T00:00:00Z");
const at = (day: string) => `${day}T09:00:00Z`;
const reading = (
  analyte: string,
  value: number | string | null,
  unit: string | undefined,
  day: string | null,
) =>
  ({
    analyte,
    value,
    ...(unit !== undefined ? { unit } : {}),
    observedAt: day === null ? null : at(day),
  }) as DatedReading;
const review = (
  readings: readonly DatedReading[],
  medicines: readonly ReviewMedicine[] = [],
): PatientReviewInput => ({
  medicines,
  readings,
  now: NOW,
});
const rulesOf = (input: PatientReviewInput) => trendFindings(input).map((f) => [f.rule, f.level, f.assessed]);

function withinRange(key: string, value: number, unit: string): boolean {
  const entry = analyteByKey(key);
  if (!entry) throw new Error(key);
  const e = evaluateAnalyteValue(entry, value, unit);
  return e?.evaluated === true && e.flag === "normal";
}

describe("the issue's three series, every reading within its range", () => {
  it("a creatinine that has doubled over a year on lithium is a finding naming lithium", () => {
    const values = [55, 68, 84, 98, 110];
    const days = ["2025-05-20", "2025-08-20", "2025-11-20", "2026-02-20", "2026-05-20"];
    for (const v of values) expect(withinRange("creatinine", v, "umol/L")).toBe(true);
    const input = review(
      values.map((v, i) => reading("Creatinine", v, "umol/L", days[i] as string)),
      [{ name: "Priadel 800 mg", startedAt: "2019-03-01" }],
    );
    const findings = trendFindings(input);
    expect(findings).toHaveLength(1);
    const [f] = findings;
    expect(f).toMatchObject({
      kind: "trend",
      rule: "creatinine_sustained_rise",
      level: "moderate",
      assessed: true,
      analyte: "creatinine",
      medicines: ["Priadel 800 mg"],
      since: new Date(at("2025-05-20")).toISOString(),
    });
    expect(f?.detail).toContain("2 times");
    expect(f?.detail).toContain("On Priadel 800 mg");
  });

  it("a neutrophil count falling week by week on clozapine is a finding at moderate", () => {
    const values = [6.4, 5.6, 4.8, 4.1, 3.4];
    for (const v of values) expect(withinRange("anc", v, "10*9/L")).toBe(true);
    const weekly = (i: number) => new Date(Date.UTC(2026, 3, 1 + 7 * i, 9)).toISOString();
    const input = review(
      values.map((v, i) => ({ analyte: "Neutrophils", value: v, unit: "x10^9/L", observedAt: weekly(i) })),
      [{ name: "clozapine 300 mg", startedAt: "2026-02-01" }],
    );
    expect(rulesOf(input)).toEqual([["neutrophils_falling", "moderate", true]]);
    expect(trendFindings(input)[0]?.detail).toContain("fell 4 times in a row");
  });

  it("the same fall without a medicine that lowers counts is still a finding, at low", () => {
    const input = review(
      [6.4, 5.6, 4.8, 4.1, 3.4].map((v, i) => ({
        analyte: "ANC",
        value: v,
        unit: "10^9/L",
        observedAt: new Date(Date.UTC(2026, 3, 1 + 7 * i)).toISOString(),
      })),
    );
    expect(rulesOf(input)).toEqual([["neutrophils_falling", "low", true]]);
  });

  it("weight up by a tenth since an antipsychotic started is a finding naming it", () => {
    const input = review(
      [
        reading("Weight", 70, "kg", "2025-09-01"),
        reading("Weight", 72, "kg", "2025-11-01"),
        reading("Weight", 77, "kg", "2026-04-01"),
      ],
      [{ name: "olanzapine 10 mg", startedAt: "2025-09-10" }],
    );
    const findings = trendFindings(input);
    expect(findings.map((f) => [f.rule, f.level, f.analyte])).toEqual([
      ["antipsychotic_weight_gain_7", "moderate", "weight"],
    ]);
    expect(findings[0]?.medicines).toEqual(["olanzapine 10 mg"]);
    expect(findings[0]?.detail).toContain("last reading before olanzapine 10 mg started");
  });
});

describe("through the patient review", () => {
  it("a trend finding reaches the review and sets its level", () => {
    const result = reviewPatient(
      review([
        reading("Creatinine", 70, "umol/L", "2026-05-01"),
        reading("Creatinine", 110, "umol/L", "2026-05-03"),
      ]),
    );
    expect(result.findings.filter((f) => f.kind === "trend").map((f) => f.rule)).toEqual([
      "creatinine_aki_ratio",
    ]);
    expect(result.level).toBe("high");
    expect(result.requiresClinicianReview).toBe(true);
  });
});

describe("renal rules", () => {
  it("a KDIGO acute rise (>= 26.5 µmol/L within 48 h) is high, in mg/dL as in µmol/L", () => {
    const umol = review([
      reading("Creatinine", 80, "umol/L", "2026-05-01"),
      reading("Creatinine", 107, "umol/L", "2026-05-02"),
    ]);
    expect(rulesOf(umol)).toEqual([["creatinine_aki_absolute", "high", true]]);
    const mg = review([
      reading("Creatinine", 80 / 88.4, "mg/dL", "2026-05-01"),
      reading("Creatinine", 107 / 88.4, "mg/dL", "2026-05-02"),
    ]);
    expect(rulesOf(mg)).toEqual(rulesOf(umol));
  });

  it("1.5 times within 7 days is acute kidney injury (high); the same over 30 days is a sustained rise (moderate)", () => {
    const quick = review([
      reading("Creatinine", 60, "umol/L", "2026-05-01"),
      reading("Creatinine", 90, "umol/L", "2026-05-06"),
    ]);
    expect(rulesOf(quick)).toEqual([["creatinine_aki_ratio", "high", true]]);
    const slow = review([
      reading("Creatinine", 60, "umol/L", "2026-04-01"),
      reading("Creatinine", 90, "umol/L", "2026-05-01"),
    ]);
    expect(rulesOf(slow)).toEqual([["creatinine_sustained_rise", "moderate", true]]);
  });

  it("a normal newest creatinine does not outweigh an earlier rise", () => {
    const input = review([
      reading("Creatinine", 60, "umol/L", "2026-04-01"),
      reading("Creatinine", 125, "umol/L", "2026-04-20"),
      reading("Creatinine", 62, "umol/L", "2026-05-20"),
    ]);
    expect(rulesOf(input)).toEqual([["creatinine_sustained_rise", "moderate", true]]);
  });

  it("an eGFR from G1 to G2 with a 25 % fall is a certain drop; a category change without it is not", () => {
    const drop = review([
      reading("eGFR", 95, "mL/min/1.73m2", "2025-01-01"),
      reading("eGFR", 70, "mL/min/1.73m2", "2025-06-01"),
    ]);
    expect(rulesOf(drop)).toEqual([["egfr_certain_drop", "moderate", true]]);
    const small = review([
      reading("eGFR", 92, "mL/min/1.73m2", "2025-01-01"),
      reading("eGFR", 88, "mL/min/1.73m2", "2025-06-01"),
    ]);
    expect(rulesOf(small)).toEqual([]);
  });

  it("an eGFR falling more than 5 a year over a year or more is rapid progression (low)", () => {
    const input = review([
      reading("eGFR", 88, "mL/min/1.73m2", "2024-01-01"),
      reading("eGFR", 75, "mL/min/1.73m2", "2026-01-01"),
    ]);
    expect(rulesOf(input)).toEqual([["egfr_rapid_decline", "low", true]]);
    const exactly5 = review([
      reading("eGFR", 80, "mL/min/1.73m2", "2024-01-01"),
      reading("eGFR", 75, "mL/min/1.73m2", "2025-01-01"),
    ]);
    expect(rulesOf(exactly5)).toEqual([]);
  });
});

describe("neutrophils and white cells", () => {
  it("a fall from the green into the amber band on clozapine is moderate", () => {
    const input = review(
      [reading("ANC", 2.4, "10^9/L", "2026-05-01"), reading("ANC", 1.8, "10^9/L", "2026-05-08")],
      [{ name: "Clozaril", startedAt: "2026-01-01" }],
    );
    expect(rulesOf(input)).toEqual([["neutrophil_band_fall", "moderate", true]]);
  });

  it("the band rule needs clozapine; /µL and x10^9/L counts read the same", () => {
    const perUl = review(
      [reading("ANC", 2400, "cells/uL", "2026-05-01"), reading("ANC", 1800, "cells/uL", "2026-05-08")],
      [{ name: "clozapine", startedAt: null }],
    );
    expect(rulesOf(perUl)).toEqual([["neutrophil_band_fall", "moderate", true]]);
    expect(rulesOf(review(perUl.readings))).toEqual([]);
  });

  it("a white-cell fall into the amber band on clozapine is moderate", () => {
    const input = review(
      [reading("WBC", 4.2, "10^9/L", "2026-05-01"), reading("WBC", 3.2, "10^9/L", "2026-05-08")],
      [{ name: "clozapine", startedAt: "2025-01-01" }],
    );
    expect(rulesOf(input)).toEqual([["white_cell_band_fall", "moderate", true]]);
  });

  it("falls with a gap of more than 28 days are not a run", () => {
    const input = review(
      [6, 5, 4, 3].map((v, i) => ({
        analyte: "ANC",
        value: v,
        unit: "10^9/L",
        observedAt: new Date(Date.UTC(2025, 0, 1 + 40 * i)).toISOString(),
      })),
    );
    expect(rulesOf(input)).toEqual([]);
  });
});

describe("weight and BMI on antipsychotics", () => {
  it("a 5-7 % gain is low (ADA/APA consensus); weight in lb reads as kg", () => {
    const input = review(
      [reading("Body weight", 176.4, "lb", "2025-09-01"), reading("Body weight", 187, "lb", "2026-03-01")],
      [{ name: "risperidone 2 mg", startedAt: "2025-09-02" }],
    );
    expect(rulesOf(input)).toEqual([["antipsychotic_weight_gain_5", "low", true]]);
  });

  it("without a reading before the start, or with the start unknown, the earliest reading is the baseline, said so", () => {
    const readings = [reading("BMI", 24, "kg/m2", "2025-10-01"), reading("BMI", 26, "kg/m2", "2026-04-01")];
    const unknown = trendFindings(review(readings, [{ name: "quetiapine", startedAt: null }]));
    expect(unknown.map((f) => f.rule)).toEqual(["antipsychotic_weight_gain_7"]);
    expect(unknown[0]?.detail).toContain("start of quetiapine is not known");
    const after = trendFindings(review(readings, [{ name: "quetiapine", startedAt: "2025-09-01" }]));
    expect(after[0]?.detail).toContain("no reading before quetiapine started");
  });

  it("gain before the antipsychotic started is not counted; no antipsychotic, no weight rule", () => {
    const readings = [
      reading("Weight", 60, "kg", "2025-01-01"),
      reading("Weight", 70, "kg", "2025-06-01"),
      reading("Weight", 71, "kg", "2026-01-01"),
    ];
    expect(rulesOf(review(readings, [{ name: "aripiprazole", startedAt: "2025-07-01" }]))).toEqual([]);
    expect(rulesOf(review(readings, [{ name: "sertraline", startedAt: "2025-07-01" }]))).toEqual([]);
  });
});

describe("prolactin", () => {
  it("a rise above the range names the antipsychotic", () => {
    const input = review(
      [reading("Prolactin", 18, "ng/mL", "2026-01-01"), reading("Prolactin", 60, "ng/mL", "2026-04-01")],
      [{ name: "amisulpride 400 mg", startedAt: "2026-01-05" }],
    );
    const findings = trendFindings(input);
    expect(findings.map((f) => [f.rule, f.level, f.medicines])).toEqual([
      ["prolactin_rising_above_range", "low", ["amisulpride 400 mg"]],
    ]);
  });

  it("prolactin in mIU/L is not converted: named as not read, never a steady series", () => {
    const input = review([
      reading("Prolactin", 300, "mIU/L", "2026-01-01"),
      reading("Prolactin", 900, "mIU/L", "2026-04-01"),
    ]);
    expect(rulesOf(input)).toEqual([["trend_reading_not_read", "low", false]]);
  });
});

describe("what cannot be placed in a series", () => {
  it("an unreadable unit is named and not part of the series", () => {
    const input = review([
      reading("Creatinine", 60, "umol/L", "2026-04-01"),
      reading("Creatinine", 1.4, "mmol/L", "2026-05-01"),
    ]);
    const findings = trendFindings(input);
    expect(findings.map((f) => [f.rule, f.level, f.assessed])).toEqual([
      ["trend_reading_not_read", "low", false],
    ]);
    expect(findings[0]?.detail).toContain("Creatinine 1.4 mmol/L");
  });

  it("an undated reading beside a series is named; alone it is not a series", () => {
    const input = review([
      reading("eGFR", 90, "mL/min/1.73m2", "2026-01-01"),
      reading("eGFR", 40, "mL/min/1.73m2", null),
    ]);
    expect(rulesOf(input)).toEqual([["trend_reading_undated", "low", false]]);
    expect(rulesOf(review([reading("eGFR", 40, "mL/min/1.73m2", null)]))).toEqual([]);
  });

  it("a reading dated after the review is left out and named", () => {
    const input = review([
      reading("Creatinine", 60, "umol/L", "2026-04-01"),
      reading("Creatinine", 200, "umol/L", "2026-09-01"),
    ]);
    expect(rulesOf(input)).toEqual([["trend_reading_undated", "low", false]]);
  });

  it("a censored value is named as not read", () => {
    const input = review([
      reading("ANC", 3, "10^9/L", "2026-04-01"),
      reading("ANC", "<0.5", "10^9/L", "2026-05-01"),
    ]);
    expect(rulesOf(input)).toEqual([["trend_reading_not_read", "low", false]]);
  });
});

describe("body weight and BMI rows", () => {
  it("read kg, g and lb as one scale, carry their FHIR vital-signs codes, and weight says it has no range", () => {
    const weight = analyteByKey("weight");
    const bmi = analyteByKey("bmi");
    if (!weight || !bmi) throw new Error("rows missing");
    const kg = evaluateAnalyteValue(weight, 80, "kg");
    const lb = evaluateAnalyteValue(weight, 80 / 0.45359237, "lbs");
    const g = evaluateAnalyteValue(weight, 80000, "g");
    for (const e of [kg, lb, g]) expect(e?.evaluated && e.canonicalValue).toBeCloseTo(80, 9);
    expect(kg?.evaluated && kg.notes.join(" ")).toContain("no range");
    expect(evaluateAnalyteValue(weight, 80, undefined, { unitlessMeansCanonical: true })?.evaluated).toBe(
      false,
    );
    expect(chooseLoinc(weight, "kg")?.code).toBe("29463-7");
    expect(chooseLoinc(bmi, "kg/m2")?.code).toBe("39156-5");
    expect(findAnalyteByLoinc("39156-5")?.key).toBe("bmi");
    const high = evaluateAnalyteValue(bmi, 31, "kg/m2");
    expect(high?.evaluated && high.flag).toBe("high");
  });
});

describe("the rules table", () => {
  it("has unique ids, a source, a title within the card limit and analytes the table measures", () => {
    const ids = TREND_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of TREND_RULES) {
      expect(rule.source.length).toBeGreaterThan(20);
      for (const key of rule.analytes) {
        expect(analyteByKey(key)?.measure, `${rule.id}: ${key}`).toBeDefined();
        expect(`${analyteByKey(key)?.display}: ${rule.title}`.length).toBeLessThanOrEqual(140);
      }
    }
  });
});
