/**
 * The lab catalog: panels a psychiatric practice orders (pure data, no I/O). Prices are list
 * prices in US cents for the sandbox and for display; turnaround is the usual time from
 * collection to result.
 */
import { PANEL_IDS, type PanelId } from "@svc/engines";

export const LAB_CATEGORIES = [
  "therapeutic_drug_monitoring",
  "hematology",
  "metabolic",
  "endocrine",
  "nutritional",
  "chemistry",
  "toxicology",
  "reproductive",
] as const;
export type LabCategory = (typeof LAB_CATEGORIES)[number];

export interface LabPanel {
  panelId: PanelId;
  name: string;
  category: LabCategory;
  description: string;
  priceCents: number;
  turnaround: string;
  useCases: string[];
}

/**
 * What the catalog offers for each panel of the engines' panel vocabulary (`PANEL_IDS`, decision
 * 221): keyed by the same ids, so a panel without its offer, or an offer for no panel, fails the
 * typecheck. The analytes a panel reports are the engines' (`PANEL_DEFINITIONS`).
 */
const PANEL_OFFERS: { readonly [K in PanelId]: Omit<LabPanel, "panelId"> } = {
  lithium_monitoring: {
    name: "Lithium Monitoring Panel",
    category: "therapeutic_drug_monitoring",
    description:
      "Trough serum lithium with renal function (creatinine, eGFR), sodium, calcium and TSH, drawn 12 hours after the last dose.",
    priceCents: 8900,
    turnaround: "1-2 business days",
    useCases: ["Lithium dose titration", "Routine lithium maintenance monitoring", "Suspected toxicity"],
  },
  clozapine_anc: {
    name: "Clozapine ANC Monitoring",
    category: "hematology",
    description: "White cell count and absolute neutrophil count for clozapine neutropenia monitoring.",
    priceCents: 3900,
    turnaround: "Same day",
    useCases: [
      "Clozapine initiation (weekly ANC)",
      "Clozapine maintenance",
      "Fever or infection on clozapine",
    ],
  },
  clozapine_level: {
    name: "Clozapine and Norclozapine Level",
    category: "therapeutic_drug_monitoring",
    description: "Trough plasma clozapine and norclozapine concentrations.",
    priceCents: 9900,
    turnaround: "3-5 business days",
    useCases: ["Non-response at adequate dose", "Suspected non-adherence", "Smoking status change"],
  },
  antipsychotic_metabolic: {
    name: "Antipsychotic Metabolic Monitoring",
    category: "metabolic",
    description: "Fasting glucose, HbA1c and lipid profile for second-generation antipsychotic monitoring.",
    priceCents: 7400,
    turnaround: "1-2 business days",
    useCases: ["Baseline before an antipsychotic", "12-week and annual metabolic follow-up"],
  },
  thyroid_panel: {
    name: "Thyroid Panel",
    category: "endocrine",
    description: "TSH with free T4 and free T3.",
    priceCents: 5900,
    turnaround: "1-2 business days",
    useCases: ["Depression or anxiety work-up", "Lithium-associated hypothyroidism", "Rapid cycling"],
  },
  b12_folate: {
    name: "Vitamin B12 and Folate",
    category: "nutritional",
    description: "Serum cobalamin and folate.",
    priceCents: 4900,
    turnaround: "1-3 business days",
    useCases: ["Cognitive complaints", "Depression work-up", "Macrocytosis"],
  },
  vitamin_d: {
    name: "Vitamin D, 25-Hydroxy",
    category: "nutritional",
    description: "Total 25-hydroxyvitamin D.",
    priceCents: 4500,
    turnaround: "1-3 business days",
    useCases: ["Depression work-up", "Seasonal mood symptoms", "Low sunlight exposure"],
  },
  cmp: {
    name: "Comprehensive Metabolic Panel",
    category: "chemistry",
    description: "Glucose, electrolytes, calcium, renal function, albumin and liver enzymes.",
    priceCents: 3500,
    turnaround: "Same day",
    useCases: ["Baseline before psychotropics", "Delirium work-up", "Eating disorder monitoring"],
  },
  cbc_diff: {
    name: "CBC with Differential",
    category: "hematology",
    description: "Complete blood count with white cell differential, haemoglobin, platelets and MCV.",
    priceCents: 2900,
    turnaround: "Same day",
    useCases: ["Baseline before carbamazepine or clozapine", "Fatigue work-up", "Alcohol use (MCV)"],
  },
  valproate_level: {
    name: "Valproate Level",
    category: "therapeutic_drug_monitoring",
    description: "Trough total valproate with ALT, AST and platelets.",
    priceCents: 6900,
    turnaround: "1-2 business days",
    useCases: ["Valproate dose titration", "Suspected toxicity", "Hepatic or platelet monitoring"],
  },
  carbamazepine_level: {
    name: "Carbamazepine Level",
    category: "therapeutic_drug_monitoring",
    description: "Trough carbamazepine with sodium and white cell count.",
    priceCents: 6900,
    turnaround: "1-2 business days",
    useCases: ["Dose titration and autoinduction", "Hyponatraemia screen", "Suspected toxicity"],
  },
  lamotrigine_level: {
    name: "Lamotrigine Level",
    category: "therapeutic_drug_monitoring",
    description: "Trough serum lamotrigine.",
    priceCents: 7900,
    turnaround: "3-5 business days",
    useCases: ["Interaction with valproate or oral contraceptives", "Pregnancy", "Adherence check"],
  },
  hepatic_panel: {
    name: "Hepatic Function Panel",
    category: "chemistry",
    description: "ALT, AST, GGT, alkaline phosphatase, total bilirubin and albumin.",
    priceCents: 3200,
    turnaround: "Same day",
    useCases: ["Valproate or naltrexone monitoring", "Alcohol use disorder", "Unexplained fatigue"],
  },
  urine_drug_screen: {
    name: "Urine Drug Screen",
    category: "toxicology",
    description: "Immunoassay screen for common substances; presumptive, confirm positives by LC-MS/MS.",
    priceCents: 4200,
    turnaround: "Same day",
    useCases: ["Substance use assessment", "Buprenorphine or methadone programme", "Acute psychosis"],
  },
  lipid_panel: {
    name: "Lipid Panel",
    category: "metabolic",
    description: "Total cholesterol, LDL, HDL and triglycerides.",
    priceCents: 2900,
    turnaround: "1-2 business days",
    useCases: ["Antipsychotic metabolic monitoring", "Cardiovascular risk review"],
  },
  hba1c: {
    name: "Hemoglobin A1c",
    category: "metabolic",
    description: "Glycated haemoglobin (3-month glycaemic average).",
    priceCents: 2500,
    turnaround: "1-2 business days",
    useCases: ["Antipsychotic metabolic monitoring", "Diabetes screening"],
  },
  prolactin: {
    name: "Prolactin",
    category: "endocrine",
    description: "Serum prolactin.",
    priceCents: 3900,
    turnaround: "1-2 business days",
    useCases: ["Risperidone, paliperidone or first-generation antipsychotic", "Galactorrhoea or amenorrhoea"],
  },
  renal_function: {
    name: "Renal Function Panel",
    category: "chemistry",
    description: "Creatinine, eGFR, urea, sodium and potassium.",
    priceCents: 2900,
    turnaround: "Same day",
    useCases: ["Lithium monitoring between levels", "Baseline before psychotropics"],
  },
  pregnancy_test: {
    name: "Pregnancy Test (Serum hCG, Qualitative)",
    category: "reproductive",
    description: "Qualitative serum hCG.",
    priceCents: 2200,
    turnaround: "Same day",
    useCases: ["Before valproate, lithium or carbamazepine", "Before ECT"],
  },
};

/** Every panel in catalog order (the order of `PANEL_IDS`). */
export const LAB_PANELS: readonly LabPanel[] = PANEL_IDS.map((panelId) => ({
  panelId,
  ...PANEL_OFFERS[panelId],
}));

const BY_ID = new Map<string, LabPanel>(LAB_PANELS.map((panel) => [panel.panelId, panel]));

export function findPanel(panelId: string): LabPanel | undefined {
  return BY_ID.get(panelId);
}

/** Panels in catalog order, optionally of one category. */
export function listPanels(category?: string): LabPanel[] {
  return LAB_PANELS.filter((panel) => category === undefined || panel.category === category);
}
