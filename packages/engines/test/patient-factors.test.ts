/**
 * Patient factors against the medicines taken (decision 190): the examples a prescriber relies
 * on, and the tables held to the medicine model.
 */
import { describe, expect, it } from "vitest";
import { MEDICINE_PROPERTIES, propertiesOf } from "../src/knowledge/medicine-properties.js";
import { INGREDIENTS } from "../src/knowledge/medicines.js";
import type { PatientContext } from "../src/patient/context.js";
import {
  BREASTFEEDING_RULES,
  CHILDBEARING_AGE_YEARS,
  HEPATIC_RULES,
  MALE_RULES,
  RENAL_RULES,
  TERATOGEN_RULES,
} from "../src/patient/factor-rules.js";
import { doseCheckOptions, FINDING_TITLE_MAX, patientFactorFindings } from "../src/patient/factors.js";
import { reviewPatient } from "../src/patient/review.js";
import type { PatientFinding } from "../src/patient/types.js";
import { checkInteractions } from "../src/tools/interactions.js";

const NOW = new Date("2026-12-01T09:00:00Z");

function findings(patient: PatientContext | undefined, ...names: string[]): PatientFinding[] {
  return patientFactorFindings({
    patient,
    medicines: names.map((name) => ({ name })),
    readings: [],
    now: NOW,
  });
}

function only(all: PatientFinding[], rule: string): PatientFinding {
  const found = all.filter((f) => f.rule === rule);
  expect(found, `one ${rule} finding in ${JSON.stringify(all.map((f) => f.rule))}`).toHaveLength(1);
  return found[0] as PatientFinding;
}

describe("pregnancy and teratogens", () => {
  it("valproate in pregnancy is high, assessed, named as the caller named it", () => {
    const f = only(findings({ pregnancy: "pregnant" }, "Depakote 500 mg bd"), "teratogen_pregnancy");
    expect(f).toMatchObject({
      kind: "patient_factor",
      level: "high",
      assessed: true,
      medicines: ["Depakote 500 mg bd"],
    });
    expect(f.detail).toContain("Pregnancy: pregnant");
    expect(f.source).toContain("MHRA");
    expect(
      reviewPatient({
        patient: { pregnancy: "pregnant" },
        medicines: [{ name: "valproate" }],
        readings: [],
        now: NOW,
      }).requiresClinicianReview,
    ).toBe(true);
  });

  it("valproate for a woman of 30 whose pregnancy status is unknown is a finding, not silence", () => {
    for (const pregnancy of [undefined, "unknown"] as const) {
      const f = only(
        findings({ sex: "female", ageYears: 30, pregnancy }, "sodium valproate"),
        "teratogen_pregnancy_unknown",
      );
      expect(f.level).toBe("high");
      expect(f.assessed).toBe(false);
      expect(f.title).toContain("pregnancy status unknown");
      expect(f.detail).toContain("pregnancy status not given; female, age 30");
    }
  });

  it("a possible pregnancy is the potential-pregnancy level of each teratogen", () => {
    expect(
      only(findings({ pregnancy: "possible" }, "valproate"), "teratogen_potential_pregnancy").level,
    ).toBe("high");
    expect(only(findings({ pregnancy: "possible" }, "Topamax"), "teratogen_potential_pregnancy").level).toBe(
      "moderate",
    );
    expect(only(findings({ pregnancy: "possible" }, "lithium"), "teratogen_potential_pregnancy").level).toBe(
      "low",
    );
    expect(only(findings({ pregnancy: "pregnant" }, "Tegretol"), "teratogen_pregnancy").level).toBe(
      "moderate",
    );
  });

  it("stated not pregnant at childbearing age: the prevention programme still applies to valproate and topiramate only", () => {
    const patient: PatientContext = { sex: "female", ageYears: 24, pregnancy: "not_pregnant" };
    expect(only(findings(patient, "valproate"), "teratogen_childbearing_potential").level).toBe("moderate");
    expect(only(findings(patient, "topiramate"), "teratogen_childbearing_potential").level).toBe("low");
    expect(findings(patient, "carbamazepine").filter((f) => f.rule.startsWith("teratogen"))).toEqual([]);
  });

  it("a male patient with nothing stated has no pregnancy finding; an unknown sex is said, at low", () => {
    expect(
      findings({ sex: "male", ageYears: 30 }, "valproate").filter((f) => f.rule.startsWith("teratogen")),
    ).toEqual([]);
    const f = only(findings({ ageYears: 30 }, "valproate"), "teratogen_pregnancy_unknown");
    expect(f).toMatchObject({ level: "low", assessed: false });
    expect(f.detail).toContain("sex not given");
  });

  it("a woman outside the childbearing age band with no status: low, saying the band", () => {
    const f = only(findings({ sex: "female", ageYears: 70 }, "valproate"), "teratogen_pregnancy_unknown");
    expect(f.level).toBe("low");
    expect(f.detail).toContain(
      `outside the childbearing age band ${CHILDBEARING_AGE_YEARS.min}-${CHILDBEARING_AGE_YEARS.max}`,
    );
  });

  it("an ingredient of unknown teratogenicity and an unread name are not evaluated in pregnancy", () => {
    const f = only(
      findings({ pregnancy: "pregnant" }, "sertraline 50 mg", "Zyxorin 5 mg"),
      "teratogenicity_unknown",
    );
    expect(f).toMatchObject({
      level: "low",
      assessed: false,
      medicines: ["sertraline 50 mg", "Zyxorin 5 mg"],
    });
    expect(f.title).toContain("sertraline");
    expect(f.detail).toContain('"Zyxorin 5 mg" could not be read');
  });

  it("says where the pregnancy status came from when it came from the EHR", () => {
    const patient: PatientContext = {
      pregnancy: "pregnant",
      sources: { pregnancy: { kind: "ehr", reference: "Observation/preg-1" } },
    };
    expect(only(findings(patient, "valproate"), "teratogen_pregnancy").detail).toContain(
      "(from Observation/preg-1)",
    );
  });
});

describe("male patients", () => {
  it("valproate in a man under 55 (or of unknown age) carries the MHRA 2024 measures, at low", () => {
    expect(only(findings({ sex: "male", ageYears: 30 }, "Epilim"), "male_under_age")).toMatchObject({
      level: "low",
      assessed: true,
    });
    expect(only(findings({ sex: "male" }, "valproate"), "male_under_age").assessed).toBe(false);
    expect(findings({ sex: "male", ageYears: 55 }, "valproate").map((f) => f.rule)).not.toContain(
      "male_under_age",
    );
    expect(findings({ sex: "female", ageYears: 30 }, "valproate").map((f) => f.rule)).not.toContain(
      "male_under_age",
    );
  });
});

describe("breastfeeding", () => {
  it("lithium while breastfeeding is high (a label contraindication); not breastfeeding or not stated is nothing", () => {
    expect(only(findings({ breastfeeding: true }, "Priadel 400mg"), "breastfeeding").level).toBe("high");
    expect(only(findings({ breastfeeding: true }, "clozapine"), "breastfeeding").level).toBe("moderate");
    for (const patient of [
      { sex: "female", ageYears: 30, breastfeeding: false },
      { sex: "female", ageYears: 30 },
    ] as const)
      expect(findings(patient, "lithium").map((f) => f.rule)).not.toContain("breastfeeding");
    expect(findings({ breastfeeding: true }, "sertraline").map((f) => f.rule)).not.toContain("breastfeeding");
  });
});

describe("renal function", () => {
  it("lithium at eGFR 25 is high, per the labels (severe renal impairment)", () => {
    const f = only(findings({ egfr: 25 }, "lithium carbonate 400 mg"), "renal_impairment");
    expect(f).toMatchObject({ level: "high", assessed: true, analyte: "egfr" });
    expect(f.detail).toContain("KDIGO G4");
    expect(f.detail).toContain("read in place of creatinine clearance");
    expect(f.source).toContain("Priadel");
  });

  it("lithium by band: CrCl 45 moderate; 75 and 95 nothing (mild impairment is a starting-dose rule)", () => {
    expect(only(findings({ creatinineClearance: 45 }, "lithium"), "renal_impairment").level).toBe("moderate");
    for (const creatinineClearance of [75, 95])
      expect(findings({ creatinineClearance }, "lithium").map((f) => f.rule)).not.toContain(
        "renal_impairment",
      );
  });

  it("lithium with no renal function given is not evaluated, saying so", () => {
    const f = only(findings({ sex: "male" }, "lithium"), "renal_function_unknown");
    expect(f).toMatchObject({ level: "low", assessed: false, medicines: ["lithium"] });
    expect(f.detail).toContain("renal function not given");
  });

  it("the worse of two disagreeing measures is kept", () => {
    expect(only(findings({ egfr: 100, creatinineClearance: 25 }, "lithium"), "renal_impairment").level).toBe(
      "high",
    );
    expect(only(findings({ egfr: 25, creatinineClearance: 100 }, "lithium"), "renal_impairment").level).toBe(
      "high",
    );
  });

  it("label cut-offs of other renally cleared psychotropics; the generic rule for the rest", () => {
    expect(only(findings({ creatinineClearance: 45 }, "Invega 6 mg"), "renal_impairment").level).toBe(
      "moderate",
    );
    expect(only(findings({ creatinineClearance: 8 }, "paliperidone"), "renal_impairment").level).toBe("high");
    expect(only(findings({ creatinineClearance: 50 }, "gabapentin"), "renal_impairment").level).toBe(
      "moderate",
    );
    expect(only(findings({ creatinineClearance: 40 }, "amisulpride"), "renal_impairment").level).toBe(
      "moderate",
    );
    expect(only(findings({ creatinineClearance: 40 }, "desvenlafaxine"), "renal_impairment").level).toBe(
      "low",
    );
    const generic = only(findings({ egfr: 50 }, "levetiracetam"), "renal_impairment");
    expect(generic.level).toBe("low");
    expect(generic.detail).toContain("Renally eliminated");
  });

  it("a medicine whose renal elimination is unknown is said where renal function is decreased", () => {
    const f = only(findings({ sex: "male", egfr: 40 }, "quetiapine"), "renal_elimination_unknown");
    expect(f).toMatchObject({ level: "low", assessed: false, medicines: ["quetiapine"] });
    expect(findings({ sex: "male", egfr: 90 }, "quetiapine")).toEqual([]);
  });
});

describe("hepatic impairment", () => {
  it("agomelatine in hepatic impairment is high; none or not given is nothing; stated unknown is said", () => {
    expect(only(findings({ hepaticImpairment: "mild" }, "Valdoxan"), "hepatic_impairment").level).toBe(
      "high",
    );
    expect(findings({ hepaticImpairment: "none" }, "agomelatine")).toEqual([]);
    expect(findings({}, "agomelatine").map((f) => f.rule)).not.toContain("hepatic_function_unknown");
    expect(
      only(findings({ hepaticImpairment: "unknown" }, "agomelatine"), "hepatic_function_unknown").level,
    ).toBe("low");
  });
});

describe("age: one age for the dose check", () => {
  it("doseCheckOptions reads the age from ageYears or the birth date, and nothing when unknown", () => {
    expect(doseCheckOptions({ ageYears: 70 }, NOW)).toEqual({ ageYears: 70 });
    expect(doseCheckOptions({ birthDate: "1956-12-01" }, NOW)).toEqual({ ageYears: 70 });
    expect(doseCheckOptions({ birthDate: "1956-12-02" }, NOW)).toEqual({ ageYears: 69 });
    expect(doseCheckOptions(undefined, NOW)).toEqual({});
  });

  it("the dose check given these options applies the older-adult limit", () => {
    const older = checkInteractions(["citalopram 40 mg"], doseCheckOptions({ birthDate: "1950-01-01" }, NOW));
    expect(older.doseAlerts.map((a) => a.maximumMg)).toEqual([20]);
    const unknown = checkInteractions(["citalopram 40 mg"], doseCheckOptions({}, NOW));
    expect(unknown.doseAlerts).toEqual([]);
  });
});

describe("the tables", () => {
  const readable = new Set(INGREDIENTS.map((item) => item.ingredient));

  it("every ingredient the model marks teratogenic has its own pregnancy row", () => {
    const teratogens = [...MEDICINE_PROPERTIES.values()]
      .filter((p) => p.teratogenic === true)
      .map((p) => p.ingredient);
    expect(TERATOGEN_RULES.map((r) => r.ingredient).sort()).toEqual(teratogens.sort());
  });

  it("every row names an ingredient the name reader knows, with the property its rule rests on", () => {
    for (const rule of [
      ...TERATOGEN_RULES,
      ...BREASTFEEDING_RULES,
      ...RENAL_RULES,
      ...HEPATIC_RULES,
      ...MALE_RULES,
    ])
      expect(readable.has(rule.ingredient), rule.ingredient).toBe(true);
    for (const rule of RENAL_RULES) expect(propertiesOf(rule.ingredient).renal, rule.ingredient).toBe(true);
  });

  it("renal bands are lowest cut-off first, and no band is milder than the one above it", () => {
    const rank = { low: 1, moderate: 2, high: 3 } as const;
    for (const rule of RENAL_RULES) {
      for (let i = 1; i < rule.bands.length; i++) {
        const lower = rule.bands[i - 1];
        const upper = rule.bands[i];
        if (!lower || !upper) continue;
        expect(lower.below, rule.ingredient).toBeLessThan(upper.below);
        expect(rank[lower.level], rule.ingredient).toBeGreaterThanOrEqual(rank[upper.level]);
      }
    }
  });

  it("keeps every title within the card limit", () => {
    const many = INGREDIENTS.map((item) => item.ingredient);
    for (const f of findings(
      { pregnancy: "pregnant", egfr: 20, hepaticImpairment: "severe", breastfeeding: true },
      ...many,
      "Unknownium",
      "Otherol",
    ))
      expect(f.title.length).toBeLessThanOrEqual(FINDING_TITLE_MAX);
  });
});
