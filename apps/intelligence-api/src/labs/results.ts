import { seededRandom } from "../seeded-random.js";

/**
 * Sandbox lab results: deterministic, plausible readings per panel, seeded by the order id, in
 * the Biomarker input shape of POST /v1/biomarker/analyze (decision 35). Live orders never get
 * generated results: an operator attaches the laboratory's own.
 */

export interface Biomarker {
  name: string;
  value: number | string | null;
  unit?: string;
  flag?: "high" | "low" | "critical" | "normal";
  referenceRange?: string;
  note?: string;
  loinc?: string;
}

export interface LabResults {
  observedAt: string;
  biomarkers: Biomarker[];
}

interface NumericAnalyte {
  name: string;
  unit: string;
  /** Flag thresholds (null: none on that side). */
  low: number | null;
  high: number | null;
  /** Range sandbox values are drawn from when in range. */
  typical: [number, number];
  /** Value used when the sandbox picks this analyte to be out of range. */
  outOfRange: number;
  decimals: number;
  loinc?: string;
}

interface QualitativeAnalyte {
  name: string;
  qualitative: true;
  loinc?: string;
}

type Analyte = NumericAnalyte | QualitativeAnalyte;

const A = {
  lithium: {
    name: "Lithium",
    unit: "mmol/L",
    low: 0.6,
    high: 1.2,
    typical: [0.6, 1.0],
    outOfRange: 1.4,
    decimals: 2,
    loinc: "14334-7",
  },
  creatinine: {
    name: "Creatinine",
    unit: "mg/dL",
    low: 0.6,
    high: 1.2,
    typical: [0.7, 1.1],
    outOfRange: 1.5,
    decimals: 2,
    loinc: "2160-0",
  },
  egfr: {
    name: "eGFR",
    unit: "mL/min/1.73m2",
    low: 60,
    high: null,
    typical: [75, 115],
    outOfRange: 52,
    decimals: 0,
  },
  tsh: {
    name: "TSH",
    unit: "mIU/L",
    low: 0.4,
    high: 4.0,
    typical: [0.8, 3.2],
    outOfRange: 6.8,
    decimals: 2,
    loinc: "3016-3",
  },
  freeT4: {
    name: "Free T4",
    unit: "ng/dL",
    low: 0.8,
    high: 1.8,
    typical: [0.9, 1.6],
    outOfRange: 0.6,
    decimals: 2,
    loinc: "3024-7",
  },
  freeT3: {
    name: "Free T3",
    unit: "pg/mL",
    low: 2.3,
    high: 4.2,
    typical: [2.6, 3.9],
    outOfRange: 2.0,
    decimals: 1,
  },
  calcium: {
    name: "Calcium",
    unit: "mg/dL",
    low: 8.6,
    high: 10.3,
    typical: [8.9, 10.0],
    outOfRange: 10.8,
    decimals: 1,
    loinc: "17861-6",
  },
  sodium: {
    name: "Sodium",
    unit: "mmol/L",
    low: 135,
    high: 145,
    typical: [137, 143],
    outOfRange: 131,
    decimals: 0,
    loinc: "2951-2",
  },
  potassium: {
    name: "Potassium",
    unit: "mmol/L",
    low: 3.5,
    high: 5.1,
    typical: [3.8, 4.8],
    outOfRange: 3.2,
    decimals: 1,
    loinc: "2823-3",
  },
  wbc: {
    name: "White cell count",
    unit: "10^3/uL",
    low: 4.0,
    high: 11.0,
    typical: [4.8, 9.5],
    outOfRange: 3.4,
    decimals: 1,
    loinc: "6690-2",
  },
  anc: {
    name: "Neutrophils (absolute)",
    unit: "10^3/uL",
    low: 1.5,
    high: 7.5,
    typical: [2.2, 6.0],
    outOfRange: 1.3,
    decimals: 2,
    loinc: "751-8",
  },
  hemoglobin: {
    name: "Haemoglobin",
    unit: "g/dL",
    low: 12.0,
    high: 17.5,
    typical: [12.8, 16.2],
    outOfRange: 11.2,
    decimals: 1,
    loinc: "718-7",
  },
  platelets: {
    name: "Platelets",
    unit: "10^3/uL",
    low: 150,
    high: 400,
    typical: [180, 360],
    outOfRange: 132,
    decimals: 0,
    loinc: "777-3",
  },
  mcv: {
    name: "MCV",
    unit: "fL",
    low: 80,
    high: 100,
    typical: [84, 96],
    outOfRange: 104,
    decimals: 0,
    loinc: "787-2",
  },
  eosinophils: {
    name: "Eosinophils",
    unit: "10^3/uL",
    low: null,
    high: 0.5,
    typical: [0.05, 0.35],
    outOfRange: 0.9,
    decimals: 2,
  },
  glucose: {
    name: "Glucose",
    unit: "mg/dL",
    low: 70,
    high: 99,
    typical: [76, 95],
    outOfRange: 112,
    decimals: 0,
    loinc: "2345-7",
  },
  hba1c: {
    name: "HbA1c",
    unit: "%",
    low: null,
    high: 5.6,
    typical: [4.8, 5.5],
    outOfRange: 6.1,
    decimals: 1,
    loinc: "4548-4",
  },
  totalCholesterol: {
    name: "Total cholesterol",
    unit: "mg/dL",
    low: null,
    high: 199,
    typical: [150, 195],
    outOfRange: 232,
    decimals: 0,
    loinc: "2093-3",
  },
  ldl: {
    name: "LDL cholesterol",
    unit: "mg/dL",
    low: null,
    high: 129,
    typical: [70, 120],
    outOfRange: 158,
    decimals: 0,
  },
  hdl: {
    name: "HDL cholesterol",
    unit: "mg/dL",
    low: 40,
    high: null,
    typical: [45, 70],
    outOfRange: 34,
    decimals: 0,
    loinc: "2085-9",
  },
  triglycerides: {
    name: "Triglycerides",
    unit: "mg/dL",
    low: null,
    high: 149,
    typical: [70, 140],
    outOfRange: 210,
    decimals: 0,
  },
  b12: {
    name: "Vitamin B12",
    unit: "pg/mL",
    low: 200,
    high: 900,
    typical: [300, 750],
    outOfRange: 170,
    decimals: 0,
  },
  folate: {
    name: "Folate",
    unit: "ng/mL",
    low: 3.0,
    high: null,
    typical: [5, 16],
    outOfRange: 2.4,
    decimals: 1,
    loinc: "2284-8",
  },
  vitaminD: {
    name: "Vitamin D (25-OH)",
    unit: "ng/mL",
    low: 30,
    high: 100,
    typical: [32, 60],
    outOfRange: 18,
    decimals: 0,
  },
  urea: {
    name: "Urea / BUN",
    unit: "mg/dL",
    low: 7,
    high: 20,
    typical: [9, 18],
    outOfRange: 26,
    decimals: 0,
  },
  albumin: {
    name: "Albumin",
    unit: "g/dL",
    low: 3.5,
    high: 5.0,
    typical: [3.8, 4.8],
    outOfRange: 3.2,
    decimals: 1,
    loinc: "1751-7",
  },
  alt: { name: "ALT", unit: "U/L", low: null, high: 40, typical: [12, 35], outOfRange: 78, decimals: 0 },
  ast: { name: "AST", unit: "U/L", low: null, high: 40, typical: [14, 34], outOfRange: 66, decimals: 0 },
  ggt: { name: "GGT", unit: "U/L", low: null, high: 48, typical: [12, 40], outOfRange: 96, decimals: 0 },
  alp: {
    name: "Alkaline phosphatase",
    unit: "U/L",
    low: 44,
    high: 147,
    typical: [55, 120],
    outOfRange: 168,
    decimals: 0,
  },
  bilirubin: {
    name: "Bilirubin (total)",
    unit: "mg/dL",
    low: null,
    high: 1.2,
    typical: [0.3, 1.0],
    outOfRange: 1.7,
    decimals: 1,
    loinc: "1975-2",
  },
  valproate: {
    name: "Valproate",
    unit: "ug/mL",
    low: 50,
    high: 100,
    typical: [55, 95],
    outOfRange: 118,
    decimals: 0,
    loinc: "4086-5",
  },
  carbamazepine: {
    name: "Carbamazepine",
    unit: "ug/mL",
    low: 4,
    high: 12,
    typical: [5, 10],
    outOfRange: 13.5,
    decimals: 1,
  },
  lamotrigine: {
    name: "Lamotrigine",
    unit: "ug/mL",
    low: 3,
    high: 14,
    typical: [4, 11],
    outOfRange: 2.1,
    decimals: 1,
    loinc: "6948-4",
  },
  clozapine: {
    name: "Clozapine",
    unit: "ng/mL",
    low: 350,
    high: 600,
    typical: [360, 560],
    outOfRange: 290,
    decimals: 0,
  },
  norclozapine: {
    name: "Norclozapine",
    unit: "ng/mL",
    low: null,
    high: null,
    typical: [180, 320],
    outOfRange: 300,
    decimals: 0,
  },
  prolactin: {
    name: "Prolactin",
    unit: "ng/mL",
    low: 4,
    high: 23,
    typical: [6, 20],
    outOfRange: 48,
    decimals: 1,
  },
} satisfies Record<string, NumericAnalyte>;

const q = (name: string): QualitativeAnalyte => ({ name, qualitative: true });

/** Analytes each panel reports (every catalog panel has an entry; a test checks this). */
export const PANEL_ANALYTES: Record<string, readonly Analyte[]> = {
  lithium_monitoring: [A.lithium, A.creatinine, A.egfr, A.sodium, A.calcium, A.tsh],
  clozapine_anc: [A.wbc, A.anc],
  clozapine_level: [A.clozapine, A.norclozapine],
  antipsychotic_metabolic: [A.glucose, A.hba1c, A.totalCholesterol, A.ldl, A.hdl, A.triglycerides],
  thyroid_panel: [A.tsh, A.freeT4, A.freeT3],
  b12_folate: [A.b12, A.folate],
  vitamin_d: [A.vitaminD],
  cmp: [
    A.glucose,
    A.sodium,
    A.potassium,
    A.calcium,
    A.creatinine,
    A.urea,
    A.albumin,
    A.alt,
    A.ast,
    A.alp,
    A.bilirubin,
  ],
  cbc_diff: [A.wbc, A.anc, A.hemoglobin, A.platelets, A.mcv, A.eosinophils],
  valproate_level: [A.valproate, A.alt, A.ast, A.platelets],
  carbamazepine_level: [A.carbamazepine, A.sodium, A.wbc],
  lamotrigine_level: [A.lamotrigine],
  hepatic_panel: [A.alt, A.ast, A.ggt, A.alp, A.bilirubin, A.albumin],
  urine_drug_screen: [
    q("Amphetamines (urine)"),
    q("Benzodiazepines (urine)"),
    q("Cannabinoids (urine)"),
    q("Cocaine metabolite (urine)"),
    q("Opiates (urine)"),
    q("Methadone (urine)"),
    q("Fentanyl (urine)"),
  ],
  lipid_panel: [A.totalCholesterol, A.ldl, A.hdl, A.triglycerides],
  hba1c: [A.hba1c],
  prolactin: [A.prolactin],
  renal_function: [A.creatinine, A.egfr, A.urea, A.sodium, A.potassium],
  pregnancy_test: [q("hCG (serum, qualitative)")],
};

function rangeText(a: NumericAnalyte): string | undefined {
  if (a.low !== null && a.high !== null) return `${a.low}-${a.high} ${a.unit}`;
  if (a.low !== null) return `>= ${a.low} ${a.unit}`;
  if (a.high !== null) return `<= ${a.high} ${a.unit}`;
  return undefined;
}

function flagFor(a: NumericAnalyte, value: number): "high" | "low" | "normal" {
  if (a.high !== null && value > a.high) return "high";
  if (a.low !== null && value < a.low) return "low";
  return "normal";
}

/**
 * Sandbox results for an order: every analyte of the panel; about one order in three has one
 * analyte out of range, so the biomarker engine has something to flag. Same order id, same
 * results.
 */
export function sandboxResults(orderId: string, panelId: string, observedAt: Date): LabResults {
  const random = seededRandom(orderId);
  const analytes = PANEL_ANALYTES[panelId] ?? [];
  const outlierIndex = random() < 0.35 ? Math.floor(random() * analytes.length) : -1;
  const biomarkers = analytes.map((analyte, index): Biomarker => {
    if ("qualitative" in analyte) {
      return {
        name: analyte.name,
        value: "negative",
        flag: "normal",
        referenceRange: "negative",
        ...(analyte.loinc ? { loinc: analyte.loinc } : {}),
      };
    }
    const [lo, hi] = analyte.typical;
    const raw = index === outlierIndex ? analyte.outOfRange : lo + random() * (hi - lo);
    const value = Number(raw.toFixed(analyte.decimals));
    const range = rangeText(analyte);
    return {
      name: analyte.name,
      value,
      unit: analyte.unit,
      flag: flagFor(analyte, value),
      ...(range ? { referenceRange: range } : {}),
      ...(analyte.loinc ? { loinc: analyte.loinc } : {}),
    };
  });
  return { observedAt: observedAt.toISOString(), biomarkers };
}
