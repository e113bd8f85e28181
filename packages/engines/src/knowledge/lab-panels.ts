/**
 * The lab panels (decision 64): one vocabulary of panel ids, the lab catalog's, and for each the
 * analytes it reports, keyed by the id. The panels tool, the sandbox lab results and the CDS
 * patient view read it; the commercial side of a panel (name, price, turnaround) is the lab
 * catalog's in packages/records, keyed by the same ids and complete by its type (decision 218).
 */

/** Every panel id, in catalog order. */
export const PANEL_IDS = [
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
  "urine_drug_screen",
  "lipid_panel",
  "hba1c",
  "prolactin",
  "renal_function",
  "pregnancy_test",
] as const;

export type PanelId = (typeof PANEL_IDS)[number];

export interface PanelDefinition {
  /** The lab catalog's panelId, the one id every module uses. */
  id: PanelId;
  display: string;
  /** Analyte keys of the analyte table, in report order. */
  analytes: readonly string[];
  /** Ids the panels tool used before one vocabulary; accepted by `findPanelDefinition`. */
  formerIds?: readonly string[];
}

/** The clinical part of each panel, by id: a panel id without an entry fails the typecheck. */
const PANELS: { readonly [K in PanelId]: Omit<PanelDefinition, "id"> } = {
  // NICE CG185: lithium level, renal and thyroid function, calcium.
  lithium_monitoring: {
    display: "Lithium monitoring",
    analytes: ["lithium", "creatinine", "egfr", "sodium", "calcium", "tsh"],
  },
  clozapine_anc: {
    display: "Clozapine ANC monitoring",
    analytes: ["wbc", "anc"],
    formerIds: ["full_blood_count"],
  },
  clozapine_level: { display: "Clozapine and norclozapine level", analytes: ["clozapine", "norclozapine"] },
  antipsychotic_metabolic: {
    display: "Antipsychotic metabolic monitoring",
    analytes: ["glucose", "hba1c", "total_cholesterol", "ldl", "hdl", "triglycerides"],
    formerIds: ["metabolic"],
  },
  thyroid_panel: {
    display: "Thyroid panel",
    analytes: ["tsh", "free_t4", "free_t3"],
    formerIds: ["thyroid"],
  },
  b12_folate: { display: "Vitamin B12 and folate", analytes: ["vitamin_b12", "folate"] },
  vitamin_d: { display: "Vitamin D, 25-hydroxy", analytes: ["vitamin_d"] },
  cmp: {
    display: "Comprehensive metabolic panel",
    analytes: [
      "glucose",
      "sodium",
      "potassium",
      "calcium",
      "creatinine",
      "urea",
      "albumin",
      "alt",
      "ast",
      "alp",
      "bilirubin",
    ],
    formerIds: ["electrolytes"],
  },
  cbc_diff: {
    display: "CBC with differential",
    analytes: ["wbc", "anc", "hemoglobin", "platelets", "mcv", "eosinophils"],
  },
  valproate_level: { display: "Valproate level", analytes: ["valproate", "alt", "ast", "platelets"] },
  carbamazepine_level: { display: "Carbamazepine level", analytes: ["carbamazepine", "sodium", "wbc"] },
  lamotrigine_level: { display: "Lamotrigine level", analytes: ["lamotrigine"] },
  hepatic_panel: {
    display: "Hepatic function panel",
    analytes: ["alt", "ast", "ggt", "alp", "bilirubin", "albumin"],
    formerIds: ["liver"],
  },
  urine_drug_screen: {
    display: "Urine drug screen",
    analytes: ["uds_amphetamines", "uds_benzodiazepines", "uds_cannabinoids", "uds_cocaine", "uds_opiates"],
  },
  lipid_panel: { display: "Lipid panel", analytes: ["total_cholesterol", "ldl", "hdl", "triglycerides"] },
  hba1c: { display: "Hemoglobin A1c", analytes: ["hba1c"] },
  prolactin: { display: "Prolactin", analytes: ["prolactin"] },
  renal_function: {
    display: "Renal function panel",
    analytes: ["creatinine", "egfr", "urea", "sodium", "potassium"],
    formerIds: ["renal"],
  },
  pregnancy_test: { display: "Pregnancy test (serum hCG, qualitative)", analytes: [] },
};

/** Every panel in catalog order. */
export const PANEL_DEFINITIONS: readonly PanelDefinition[] = PANEL_IDS.map((id) => ({ id, ...PANELS[id] }));

/**
 * Medicines whose monitoring analyte must be current while they are active: the first analyte of
 * its monitoring panel (PANEL_DEFINITIONS) for each (lithium_monitoring, valproate_level,
 * clozapine_anc). Read by the CDS patient view.
 */
export const MONITORED_MEDICINES: Readonly<Record<string, { analyte: string; panel: PanelId }>> = {
  lithium: { analyte: "lithium", panel: "lithium_monitoring" },
  valproate: { analyte: "valproate", panel: "valproate_level" },
  clozapine: { analyte: "anc", panel: "clozapine_anc" },
};

/** A panel by its id or a former id. */
export function findPanelDefinition(id: string): PanelDefinition | undefined {
  return PANEL_DEFINITIONS.find((p) => p.id === id || (p.formerIds ?? []).includes(id));
}
