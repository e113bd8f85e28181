/**
 * The analyte table: every lab analyte the service knows, written once. Each row has a canonical
 * key (signal key `bio_<key>`), display name and aliases, what a high or low result can mean in
 * psychiatric care and the tone of a high or low flag, LOINC codes ONLY where the code was seen
 * paired with the analyte in a public source (listed per code in docs/engines/biomarker.md), and,
 * where sourced, its measurement row: canonical UCUM unit, accepted units with conversion
 * factors, plausible, reference, therapeutic and critical ranges (decision 64). The biomarker
 * engine, the panels tool, the sandbox lab results and the terminology codes read this table.
 * Unverified codes are left out on purpose: no code is better than a wrong one.
 */

export type FlagTone = "watch" | "elevated";

/** What a LOINC code measures; decides which code fits a reading's unit. */
export type LoincProperty =
  | "mass"
  | "moles"
  | "units"
  | "count"
  | "activity"
  | "fraction"
  | "volume"
  /** Volume rate per area (LOINC ArVRat): an eGFR in mL/min/1.73 m2. */
  | "volume_rate"
  /** A duration (LOINC Time): an ECG interval such as the QTc in ms. */
  | "time"
  /** A number rate (LOINC NRat): a heart rate per minute. */
  | "rate"
  /** Presence or threshold (LOINC PrThr): a qualitative result (a pregnancy test); never chosen for a number. */
  | "presence"
  /** The mass of the patient (LOINC property M, system ^Patient): body weight, not a concentration. */
  | "patient_mass"
  /** A ratio (LOINC property Ratio): body mass index in kg/m2. */
  | "ratio";

export interface LoincRef {
  code: string;
  display: string;
  property: LoincProperty;
  /** false: recognised when the caller sends it, never chosen from the unit alone. */
  byDefault?: boolean;
}

export interface AnalyteEntry {
  key: string;
  display: string;
  /** Names that match after normalisation (lower case, letters and digits only). */
  variants: string[];
  high: string;
  low: string;
  toneHigh: FlagTone;
  toneLow: FlagTone;
  loinc?: LoincRef[];
  /** Units and ranges; absent when no range is sourced (the reading is then read by its flag only). */
  measure?: AnalyteMeasure;
}

const W: FlagTone = "watch";
const E: FlagTone = "elevated";

const RELEVANCE: readonly Omit<AnalyteEntry, "measure">[] = [
  // Thyroid
  {
    key: "tsh",
    display: "TSH",
    variants: ["tsh", "thyrotropin", "thyroid stimulating hormone", "thyroid-stimulating hormone", "s-tsh"],
    high: "A raised TSH points to hypothyroidism, which can cause or deepen low mood, fatigue and slowed thinking; lithium is a known cause.",
    low: "A low TSH points to hyperthyroidism, which can mimic anxiety, agitation or hypomania and disturb sleep.",
    toneHigh: W,
    toneLow: W,
    loinc: [{ code: "3016-3", display: "Thyrotropin [Units/volume] in Serum or Plasma", property: "units" }],
  },
  {
    key: "free_t4",
    display: "Free T4",
    variants: ["free t4", "ft4", "t4 free", "free thyroxine", "thyroxine free", "thyroxine (t4) free"],
    high: "A high free T4 fits hyperthyroidism: anxiety, irritability, insomnia or manic-like symptoms may be thyroid-driven.",
    low: "A low free T4 fits hypothyroidism: depressive symptoms and cognitive slowing may be thyroid-driven.",
    toneHigh: W,
    toneLow: W,
    loinc: [
      { code: "3024-7", display: "Thyroxine (T4) free [Mass/volume] in Serum or Plasma", property: "mass" },
    ],
  },
  {
    key: "free_t3",
    display: "Free T3",
    variants: ["free t3", "ft3", "t3 free", "free triiodothyronine", "triiodothyronine free"],
    high: "A high free T3 fits a hyperthyroid state, which can present as anxiety or agitation.",
    low: "A low free T3 can accompany hypothyroidism or significant physical illness and low intake.",
    toneHigh: W,
    toneLow: W,
    loinc: [
      {
        code: "3051-0",
        display: "Triiodothyronine (T3) Free [Mass/volume] in Serum or Plasma",
        property: "mass",
      },
    ],
  },
  // Psychotropic drug levels
  {
    key: "lithium",
    display: "Lithium",
    variants: ["lithium", "li", "lithium level", "serum lithium", "lithium serum"],
    high: "Above range: risk of lithium toxicity (coarse tremor, ataxia, confusion, vomiting). Check sample timing, renal function, hydration and interacting drugs such as NSAIDs, ACE inhibitors and thiazides.",
    low: "Below range: possibly subtherapeutic or missed doses; lower protection against relapse.",
    toneHigh: E,
    toneLow: W,
    loinc: [{ code: "14334-7", display: "Lithium [Moles/volume] in Serum or Plasma", property: "moles" }],
  },
  {
    key: "valproate",
    display: "Valproate",
    variants: ["valproate", "valproic acid", "divalproex", "depakote", "vpa", "sodium valproate"],
    high: "Above range: sedation, confusion and tremor; consider valproate-related hyperammonaemia and liver effects.",
    low: "Below range: possibly subtherapeutic or missed doses.",
    toneHigh: E,
    toneLow: W,
    loinc: [{ code: "4086-5", display: "Valproate [Mass/volume] in Serum or Plasma", property: "mass" }],
  },
  {
    key: "carbamazepine",
    display: "Carbamazepine",
    variants: ["carbamazepine", "tegretol", "cbz"],
    high: "Above range: dizziness, ataxia, double vision and sedation; carbamazepine also lowers sodium.",
    low: "Below range: possibly subtherapeutic, missed doses or auto-induction of its own metabolism.",
    toneHigh: E,
    toneLow: W,
  },
  {
    key: "lamotrigine",
    display: "Lamotrigine",
    variants: ["lamotrigine", "lamictal", "ltg"],
    high: "Above range: dizziness, ataxia and blurred vision; check interacting drugs such as valproate.",
    low: "Below range: possibly subtherapeutic or missed doses; estrogen-containing contraceptives lower levels.",
    toneHigh: W,
    toneLow: W,
    loinc: [{ code: "6948-4", display: "Lamotrigine [Mass/volume] in Serum or Plasma", property: "mass" }],
  },
  {
    key: "clozapine",
    display: "Clozapine",
    variants: ["clozapine", "clozaril", "clozapine level", "clz"],
    high: "Above range: higher risk of seizures, sedation, hypotension and hypersalivation; smoking cessation and infection can raise levels.",
    low: "Below range: possibly subtherapeutic or missed doses; smoking induces clozapine metabolism.",
    toneHigh: E,
    toneLow: W,
    loinc: [{ code: "6896-5", display: "Clozapine [Mass/volume] in Serum or Plasma", property: "mass" }],
  },
  {
    key: "norclozapine",
    display: "Norclozapine",
    variants: ["norclozapine", "n-desmethylclozapine", "desmethylclozapine", "norclz"],
    high: "A high norclozapine level, read with the clozapine level (ratio), can suggest metabolic induction or timing issues.",
    low: "A low norclozapine level, read with the clozapine level, can suggest missed doses or inhibited metabolism.",
    toneHigh: W,
    toneLow: W,
  },
  // Vitamins
  {
    key: "vitamin_b12",
    display: "Vitamin B12",
    variants: ["vitamin b12", "b12", "cobalamin", "cyanocobalamin", "vit b12"],
    high: "A high B12 usually reflects supplementation; rarely liver or myeloproliferative disease.",
    low: "B12 deficiency can cause depression, cognitive impairment, irritability and, rarely, psychosis, with neuropathy.",
    toneHigh: W,
    toneLow: W,
    loinc: [
      {
        code: "2132-9",
        display: "Cobalamin (Vitamin B12) [Mass/volume] in Serum or Plasma",
        property: "mass",
      },
    ],
  },
  {
    key: "folate",
    display: "Folate",
    variants: ["folate", "folic acid", "serum folate", "vitamin b9", "folate serum"],
    high: "A high folate usually reflects supplementation; it can mask B12 deficiency.",
    low: "Folate deficiency is linked with depressive symptoms and poorer antidepressant response; check alcohol use and diet.",
    toneHigh: W,
    toneLow: W,
    loinc: [{ code: "2284-8", display: "Folate [Mass/volume] in Serum or Plasma", property: "mass" }],
  },
  {
    key: "vitamin_d",
    display: "Vitamin D (25-OH)",
    variants: [
      "vitamin d",
      "25 oh vitamin d",
      "25-hydroxyvitamin d",
      "25(oh)d",
      "25-oh-d",
      "vitamin d 25 hydroxy",
      "25 hydroxy vitamin d",
      "calcidiol",
      "vit d",
    ],
    high: "Very high vitamin D can raise calcium and cause confusion or low mood.",
    low: "Vitamin D deficiency is common in severe mental illness and associated with low mood and fatigue.",
    toneHigh: W,
    toneLow: W,
    // Only the D3 code was verified; a total 25-OH D result is not D3, so it is never chosen by unit.
    loinc: [
      {
        code: "14635-7",
        display: "25-hydroxyvitamin D3 [Moles/volume] in Serum or Plasma",
        property: "moles",
        byDefault: false,
      },
    ],
  },
  {
    key: "thiamine",
    display: "Thiamine (vitamin B1)",
    variants: ["thiamine", "thiamin", "vitamin b1", "b1", "thiamine pyrophosphate"],
    high: "A high thiamine level usually reflects supplementation.",
    low: "Thiamine deficiency risks Wernicke encephalopathy (confusion, ataxia, eye signs), especially with alcohol use or malnutrition.",
    toneHigh: W,
    toneLow: E,
  },
  // Electrolytes and minerals
  {
    key: "sodium",
    display: "Sodium",
    variants: ["sodium", "na", "serum sodium", "na+"],
    high: "High sodium suggests dehydration or lithium-related nephrogenic diabetes insipidus; can cause confusion.",
    low: "Low sodium (SSRIs, carbamazepine/oxcarbazepine, psychogenic polydipsia) can cause confusion, falls and seizures.",
    toneHigh: W,
    toneLow: E,
    loinc: [{ code: "2951-2", display: "Sodium [Moles/volume] in Serum or Plasma", property: "moles" }],
  },
  {
    key: "potassium",
    display: "Potassium",
    variants: ["potassium", "k", "serum potassium", "k+"],
    high: "High potassium raises arrhythmia risk; review renal function and medicines.",
    low: "Low potassium (vomiting, purging, diuretics) raises arrhythmia and QT-prolongation risk with QT-prolonging psychotropics.",
    toneHigh: E,
    toneLow: E,
    loinc: [{ code: "2823-3", display: "Potassium [Moles/volume] in Serum or Plasma", property: "moles" }],
  },
  {
    key: "calcium",
    display: "Calcium",
    variants: ["calcium", "ca", "serum calcium", "total calcium"],
    high: "High calcium (including lithium-associated hyperparathyroidism) can cause low mood, fatigue and confusion.",
    low: "Low calcium can cause anxiety, irritability and, when marked, tetany or seizures.",
    toneHigh: W,
    toneLow: W,
    loinc: [{ code: "17861-6", display: "Calcium [Mass/volume] in Serum or Plasma", property: "mass" }],
  },
  {
    key: "magnesium",
    display: "Magnesium",
    variants: ["magnesium", "mg", "serum magnesium"],
    high: "High magnesium is uncommon outside renal impairment or supplements; can cause drowsiness.",
    low: "Low magnesium (alcohol use, malnutrition, PPIs) adds to QT-prolongation risk and can cause irritability.",
    toneHigh: W,
    toneLow: W,
    loinc: [
      { code: "19123-9", display: "Magnesium [Mass/volume] in Serum or Plasma", property: "mass" },
      { code: "2601-3", display: "Magnesium [Moles/volume] in Serum or Plasma", property: "moles" },
    ],
  },
  {
    key: "phosphate",
    display: "Phosphate",
    variants: ["phosphate", "phosphorus", "inorganic phosphate", "po4"],
    high: "High phosphate mostly reflects renal impairment.",
    low: "Low phosphate in a malnourished patient (for example an eating disorder) warns of refeeding syndrome.",
    toneHigh: W,
    toneLow: E,
  },
  // Renal
  {
    key: "creatinine",
    display: "Creatinine",
    variants: ["creatinine", "creat", "serum creatinine", "cr"],
    high: "Raised creatinine means reduced renal clearance: lithium and other renally cleared drugs may accumulate.",
    low: "Low creatinine can reflect low muscle mass, as in malnutrition or eating disorders.",
    toneHigh: E,
    toneLow: W,
    loinc: [
      { code: "2160-0", display: "Creatinine [Mass/volume] in Serum or Plasma", property: "mass" },
      { code: "14682-9", display: "Creatinine [Moles/volume] in Serum or Plasma", property: "moles" },
    ],
  },
  {
    key: "egfr",
    display: "eGFR",
    variants: ["egfr", "estimated gfr", "gfr estimated", "estimated glomerular filtration rate", "gfr"],
    high: "A high eGFR has no particular psychiatric meaning; estimates are unreliable at extremes of muscle mass.",
    low: "Reduced eGFR affects lithium dosing and monitoring and the clearance of other renally cleared drugs.",
    toneHigh: W,
    toneLow: E,
    // The 2021 CKD-EPI creatinine equation (no race term). Recognised when sent; never emitted
    // from the unit alone (the unit does not say which equation a laboratory used).
    loinc: [
      {
        code: "98979-8",
        display:
          "Glomerular filtration rate/1.73 sq M.predicted [Volume Rate/Area] in Serum, Plasma or Blood by Creatinine-based formula (CKD-EPI 2021)",
        property: "volume_rate",
        byDefault: false,
      },
    ],
  },
  {
    key: "urea",
    display: "Urea",
    variants: ["urea", "serum urea", "plasma urea"],
    high: "High urea suggests dehydration or renal impairment, relevant to lithium levels.",
    low: "Low urea can reflect low protein intake or overhydration (for example polydipsia).",
    toneHigh: W,
    toneLow: W,
  },
  {
    // Urea nitrogen (BUN) is not urea: 1 mg/dL of urea nitrogen is 0.357 mmol/L of urea, 1 mg/dL
    // of urea 0.1665 mmol/L. Its own row, so a BUN value is never read on the urea scale.
    key: "bun",
    display: "Urea nitrogen (BUN)",
    variants: ["bun", "blood urea nitrogen", "urea nitrogen", "serum urea nitrogen", "urea n"],
    high: "High urea nitrogen suggests dehydration or renal impairment, relevant to lithium levels.",
    low: "Low urea nitrogen can reflect low protein intake or overhydration (for example polydipsia).",
    toneHigh: W,
    toneLow: W,
    loinc: [{ code: "3094-0", display: "Urea nitrogen [Mass/volume] in Serum or Plasma", property: "mass" }],
  },
  // Liver
  {
    key: "alt",
    display: "ALT",
    variants: ["alt", "alanine aminotransferase", "alanine transaminase", "sgpt", "alt (sgpt)"],
    high: "Raised ALT: hepatocellular injury from alcohol, valproate, some antipsychotics or other causes; review hepatically cleared drugs.",
    low: "A low ALT has no specific psychiatric meaning.",
    toneHigh: W,
    toneLow: W,
    loinc: [
      {
        code: "1742-6",
        display: "Alanine aminotransferase [Enzymatic activity/volume] in Serum or Plasma",
        property: "activity",
      },
    ],
  },
  {
    key: "ast",
    display: "AST",
    variants: ["ast", "aspartate aminotransferase", "aspartate transaminase", "sgot", "ast (sgot)"],
    high: "Raised AST: liver injury (an AST/ALT ratio above 2 suggests alcohol) or muscle injury.",
    low: "A low AST has no specific psychiatric meaning.",
    toneHigh: W,
    toneLow: W,
    loinc: [
      {
        code: "1920-8",
        display: "Aspartate aminotransferase [Enzymatic activity/volume] in Serum or Plasma",
        property: "activity",
      },
    ],
  },
  {
    key: "ggt",
    display: "GGT",
    variants: [
      "ggt",
      "gamma gt",
      "gamma glutamyl transferase",
      "gamma-glutamyltransferase",
      "ggtp",
      "gamma gt (ggt)",
    ],
    high: "Raised GGT is a marker of heavy alcohol use and of enzyme induction (for example carbamazepine).",
    low: "A low GGT has no specific psychiatric meaning.",
    toneHigh: W,
    toneLow: W,
    loinc: [
      {
        code: "2324-2",
        display: "Gamma glutamyl transferase [Enzymatic activity/volume] in Serum or Plasma",
        property: "activity",
      },
    ],
  },
  {
    key: "alp",
    display: "Alkaline phosphatase",
    variants: ["alp", "alkaline phosphatase", "alk phos", "alkp"],
    high: "Raised ALP suggests cholestasis (including drug-induced, for example chlorpromazine) or bone disease.",
    low: "Low ALP can accompany malnutrition or zinc or magnesium deficiency.",
    toneHigh: W,
    toneLow: W,
    loinc: [
      {
        code: "6768-6",
        display: "Alkaline phosphatase [Enzymatic activity/volume] in Serum or Plasma",
        property: "activity",
      },
    ],
  },
  {
    key: "bilirubin",
    display: "Bilirubin (total)",
    variants: ["bilirubin", "total bilirubin", "bilirubin total", "tbil", "t bili", "bili"],
    high: "Raised bilirubin suggests liver or biliary disease or haemolysis; consider drug-induced cholestasis.",
    low: "A low bilirubin has no specific psychiatric meaning.",
    toneHigh: W,
    toneLow: W,
    loinc: [
      { code: "1975-2", display: "Bilirubin.total [Mass/volume] in Serum or Plasma", property: "mass" },
    ],
  },
  {
    key: "albumin",
    display: "Albumin",
    variants: ["albumin", "serum albumin", "alb"],
    high: "High albumin usually reflects dehydration.",
    low: "Low albumin suggests malnutrition, liver disease or inflammation and raises the free fraction of highly protein-bound drugs such as valproate.",
    toneHigh: W,
    toneLow: W,
    loinc: [{ code: "1751-7", display: "Albumin [Mass/volume] in Serum or Plasma", property: "mass" }],
  },
  {
    key: "ammonia",
    display: "Ammonia",
    variants: ["ammonia", "nh3", "plasma ammonia", "blood ammonia"],
    high: "Raised ammonia can cause encephalopathy (confusion, drowsiness); valproate is a recognised cause even with normal liver tests.",
    low: "A low ammonia has no specific psychiatric meaning.",
    toneHigh: E,
    toneLow: W,
  },
  // Haematology
  {
    key: "wbc",
    display: "White cell count",
    variants: [
      "wbc",
      "white blood cells",
      "white blood cell count",
      "white cell count",
      "leukocytes",
      "leucocytes",
      "wcc",
    ],
    high: "A high white count suggests infection or inflammation; lithium can cause a benign leukocytosis.",
    low: "A low white count needs urgent review on clozapine (and with carbamazepine or mirtazapine): risk of neutropenia or agranulocytosis.",
    toneHigh: W,
    toneLow: E,
    loinc: [
      { code: "6690-2", display: "Leukocytes [#/volume] in Blood by Automated count", property: "count" },
    ],
  },
  {
    key: "anc",
    display: "Neutrophils (absolute)",
    variants: [
      "anc",
      "absolute neutrophil count",
      "neutrophils",
      "neutrophil count",
      "neutrophils absolute",
      "neut",
      "neutrophils #",
    ],
    high: "High neutrophils suggest infection, inflammation or stress; lithium can raise them.",
    low: "Low neutrophils on clozapine need review against the monitoring thresholds at once (agranulocytosis risk); also consider benign ethnic neutropenia.",
    toneHigh: W,
    toneLow: E,
    loinc: [
      { code: "751-8", display: "Neutrophils [#/volume] in Blood by Automated count", property: "count" },
    ],
  },
  {
    key: "hemoglobin",
    display: "Haemoglobin",
    variants: ["hemoglobin", "haemoglobin", "hb", "hgb"],
    high: "High haemoglobin can reflect dehydration or smoking.",
    low: "Anaemia causes fatigue, poor concentration and low energy that can mimic or worsen depression.",
    toneHigh: W,
    toneLow: W,
    loinc: [{ code: "718-7", display: "Hemoglobin [Mass/volume] in Blood", property: "mass" }],
  },
  {
    key: "platelets",
    display: "Platelets",
    variants: ["platelets", "platelet count", "plt", "thrombocytes"],
    high: "High platelets suggest inflammation or iron deficiency.",
    low: "Low platelets: consider valproate-related thrombocytopenia and bleeding risk with SSRIs.",
    toneHigh: W,
    toneLow: E,
    loinc: [
      { code: "777-3", display: "Platelets [#/volume] in Blood by Automated count", property: "count" },
    ],
  },
  {
    key: "mcv",
    display: "MCV",
    variants: ["mcv", "mean corpuscular volume", "mean cell volume"],
    high: "A high MCV (macrocytosis) suggests heavy alcohol use or B12/folate deficiency.",
    low: "A low MCV suggests iron deficiency.",
    toneHigh: W,
    toneLow: W,
    loinc: [{ code: "787-2", display: "MCV [Entitic volume] by Automated count", property: "volume" }],
  },
  {
    key: "eosinophils",
    display: "Eosinophils",
    variants: ["eosinophils", "eosinophil count", "eos", "eosinophils absolute"],
    high: "Eosinophilia early in clozapine treatment can precede myocarditis; also drug hypersensitivity (DRESS).",
    low: "Low eosinophils have no specific psychiatric meaning (they fall with high cortisol).",
    toneHigh: W,
    toneLow: W,
  },
  // Endocrine and metabolic
  {
    key: "prolactin",
    display: "Prolactin",
    variants: ["prolactin", "prl", "serum prolactin"],
    high: "Raised prolactin is common with dopamine-blocking antipsychotics (risperidone, amisulpride, haloperidol): sexual dysfunction, galactorrhoea, amenorrhoea, bone loss.",
    low: "Low prolactin can occur with aripiprazole (a partial agonist).",
    toneHigh: W,
    toneLow: W,
  },
  {
    key: "total_cholesterol",
    display: "Total cholesterol",
    variants: ["total cholesterol", "cholesterol", "cholesterol total", "tc", "chol"],
    high: "Raised cholesterol: part of antipsychotic-related metabolic risk (olanzapine, clozapine, quetiapine).",
    low: "Low cholesterol can accompany malnutrition or hyperthyroidism.",
    toneHigh: W,
    toneLow: W,
    loinc: [
      { code: "2093-3", display: "Cholesterol [Mass/volume] in Serum or Plasma", property: "mass" },
      { code: "14647-2", display: "Cholesterol [Moles/volume] in Serum or Plasma", property: "moles" },
    ],
  },
  {
    key: "ldl",
    display: "LDL cholesterol",
    variants: [
      "ldl",
      "ldl cholesterol",
      "ldl-c",
      "ldl c",
      "cholesterol ldl",
      "low density lipoprotein",
      "ldl calculated",
    ],
    high: "Raised LDL: cardiovascular risk, higher in people with severe mental illness and on some antipsychotics.",
    low: "A low LDL has no specific psychiatric meaning.",
    toneHigh: W,
    toneLow: W,
    // LDL may be direct or calculated; only the calculated code was verified, so it is never assumed.
    loinc: [
      {
        code: "13457-7",
        display: "Cholesterol in LDL [Mass/volume] in Serum or Plasma by calculation",
        property: "mass",
        byDefault: false,
      },
    ],
  },
  {
    key: "hdl",
    display: "HDL cholesterol",
    variants: ["hdl", "hdl cholesterol", "hdl-c", "hdl c", "cholesterol hdl", "high density lipoprotein"],
    high: "A high HDL has no specific psychiatric meaning; very high values can accompany heavy alcohol use.",
    low: "Low HDL is a component of the metabolic syndrome seen with some antipsychotics.",
    toneHigh: W,
    toneLow: W,
    loinc: [
      { code: "2085-9", display: "Cholesterol in HDL [Mass/volume] in Serum or Plasma", property: "mass" },
    ],
  },
  {
    key: "triglycerides",
    display: "Triglycerides",
    variants: ["triglycerides", "triglyceride", "tg", "trig", "trigs"],
    high: "Raised triglycerides: antipsychotic-related metabolic risk (notably olanzapine and clozapine) or alcohol use.",
    low: "Low triglycerides can accompany malnutrition.",
    toneHigh: W,
    toneLow: W,
  },
  {
    key: "glucose",
    display: "Glucose",
    variants: [
      "glucose",
      "fasting glucose",
      "glucose fasting",
      "fasting plasma glucose",
      "fasting blood glucose",
      "fbg",
      "fpg",
      "blood glucose",
      "plasma glucose",
    ],
    high: "High glucose: screen for antipsychotic-associated diabetes and metabolic syndrome.",
    low: "Low glucose causes anxiety, sweating, confusion and behaviour change that can be mistaken for a psychiatric presentation.",
    toneHigh: W,
    toneLow: E,
    loinc: [
      { code: "2345-7", display: "Glucose [Mass/volume] in Serum or Plasma", property: "mass" },
      { code: "14749-6", display: "Glucose [Moles/volume] in Serum or Plasma", property: "moles" },
    ],
  },
  {
    key: "hba1c",
    display: "HbA1c",
    variants: [
      "hba1c",
      "a1c",
      "hemoglobin a1c",
      "haemoglobin a1c",
      "glycated hemoglobin",
      "glycated haemoglobin",
      "glycohemoglobin",
    ],
    high: "Raised HbA1c indicates sustained hyperglycaemia: review antipsychotic metabolic monitoring.",
    low: "A low HbA1c can reflect anaemia or increased red-cell turnover rather than low glucose.",
    toneHigh: W,
    toneLow: W,
    loinc: [
      { code: "4548-4", display: "Hemoglobin A1c/Hemoglobin.total in Blood", property: "fraction" },
      // IFCC-standardised HbA1c (LOINC property SFr), reported in mmol/mol; read by the row's
      // mmol/mol unit. Recognised when sent, never emitted from the unit alone.
      {
        code: "59261-8",
        display: "Hemoglobin A1c/Hemoglobin.total in Blood by IFCC protocol",
        property: "fraction",
        byDefault: false,
      },
    ],
  },
  {
    key: "cortisol",
    display: "Cortisol",
    variants: ["cortisol", "serum cortisol", "morning cortisol", "am cortisol"],
    high: "High cortisol (stress, Cushing syndrome, steroid use) can cause depression, anxiety, insomnia or psychosis; interpret with time of sampling.",
    low: "Low cortisol (adrenal insufficiency) causes fatigue, low mood and apathy; interpret with time of sampling.",
    toneHigh: W,
    toneLow: W,
  },
  {
    key: "testosterone",
    display: "Testosterone",
    variants: ["testosterone", "total testosterone", "testosterone total", "serum testosterone"],
    high: "High testosterone in men can reflect anabolic steroid use (irritability, aggression, mood swings).",
    low: "Low testosterone is associated with low mood, fatigue and reduced libido; opioids and hyperprolactinaemia lower it.",
    toneHigh: W,
    toneLow: W,
  },
  // Other
  {
    key: "ck",
    display: "Creatine kinase",
    variants: ["ck", "creatine kinase", "cpk", "creatine phosphokinase", "ck total"],
    high: "Raised CK: consider neuroleptic malignant syndrome (with fever, rigidity, confusion), rhabdomyolysis, restraint or intramuscular injection.",
    low: "A low CK has no specific psychiatric meaning.",
    toneHigh: E,
    toneLow: W,
  },
  {
    key: "ferritin",
    display: "Ferritin",
    variants: ["ferritin", "serum ferritin"],
    high: "High ferritin suggests inflammation, liver disease or heavy alcohol use.",
    low: "Low ferritin (iron deficiency) is linked to fatigue, restless legs and akathisia-like restlessness.",
    toneHigh: W,
    toneLow: W,
    loinc: [{ code: "2276-4", display: "Ferritin [Mass/volume] in Serum or Plasma", property: "mass" }],
  },
  {
    key: "iron",
    display: "Iron",
    variants: ["iron", "serum iron", "fe"],
    high: "High iron suggests overload or supplementation; consider liver involvement.",
    low: "Low iron contributes to fatigue and poor concentration.",
    toneHigh: W,
    toneLow: W,
  },
  {
    key: "crp",
    display: "C-reactive protein",
    variants: ["crp", "c reactive protein", "c-reactive protein", "hs crp", "hscrp", "high sensitivity crp"],
    high: "Raised CRP indicates inflammation or infection; early in clozapine treatment it can accompany myocarditis; low-grade inflammation is linked with depression.",
    low: "A low CRP has no specific psychiatric meaning.",
    toneHigh: W,
    toneLow: W,
    loinc: [
      { code: "1988-5", display: "C reactive protein [Mass/volume] in Serum or Plasma", property: "mass" },
    ],
  },
  {
    key: "troponin",
    display: "Troponin",
    variants: [
      "troponin",
      "troponin i",
      "troponin t",
      "hs troponin",
      "hs-troponin",
      "tni",
      "tnt",
      "ctni",
      "ctnt",
    ],
    high: "Raised troponin indicates myocardial injury; in the first weeks of clozapine consider myocarditis urgently.",
    low: "A low troponin is expected.",
    toneHigh: E,
    toneLow: W,
  },
  {
    key: "ethanol",
    display: "Blood alcohol",
    variants: ["ethanol", "alcohol", "blood alcohol", "etoh", "serum ethanol", "blood ethanol"],
    high: "Alcohol present: intoxication affects mental-state assessment and risk; consider withdrawal planning.",
    low: "No alcohol detected.",
    toneHigh: E,
    toneLow: W,
  },
  {
    key: "cdt",
    display: "Carbohydrate-deficient transferrin",
    variants: ["cdt", "carbohydrate deficient transferrin", "carbohydrate-deficient transferrin", "%cdt"],
    high: "Raised CDT indicates sustained heavy drinking over recent weeks.",
    low: "A low CDT has no specific psychiatric meaning.",
    toneHigh: W,
    toneLow: W,
  },
  {
    key: "homocysteine",
    display: "Homocysteine",
    variants: ["homocysteine", "total homocysteine", "hcy"],
    high: "Raised homocysteine suggests functional B12 or folate deficiency and is associated with depression and cognitive decline.",
    low: "A low homocysteine has no specific psychiatric meaning.",
    toneHigh: W,
    toneLow: W,
  },
  // ECG (decision 191): read by the patient review's ECG part (patient/ecg.ts) with the QT risk of
  // the medicines taken; the table alone knows no sex, so its QTc range is the stricter one.
  {
    key: "qtc",
    display: "QTc interval",
    variants: [
      "qtc",
      "qtc interval",
      "corrected qt",
      "corrected qt interval",
      "qt corrected",
      "qt interval corrected",
      "q-t interval corrected",
      "qtcb",
      "qtcf",
      "qtc bazett",
      "qtc fridericia",
      "qt corrected bazett",
      "qt corrected fridericia",
    ],
    high: "A prolonged QTc raises the risk of torsade de pointes; review QT-prolonging medicines (citalopram, escitalopram, many antipsychotics, methadone), potassium, magnesium and calcium.",
    low: "A short QTc is rare; read it with the ECG report.",
    toneHigh: W,
    toneLow: W,
    loinc: [
      { code: "8636-3", display: "Q-T interval corrected", property: "time" },
      {
        code: "76634-5",
        display: "Q-T interval corrected based on Fridericia formula",
        property: "time",
        byDefault: false,
      },
      {
        code: "76635-2",
        display: "Q-T interval corrected based on Bazett formula",
        property: "time",
        byDefault: false,
      },
    ],
  },
  {
    key: "qt",
    display: "QT interval",
    variants: ["qt", "qt interval", "q-t interval", "uncorrected qt", "qt uncorrected", "measured qt"],
    high: "A long QT interval needs correcting for heart rate (QTc) before it can be read.",
    low: "A short QT interval needs correcting for heart rate (QTc) before it can be read.",
    toneHigh: W,
    toneLow: W,
    loinc: [{ code: "8634-8", display: "Q-T interval", property: "time" }],
  },
  {
    key: "heart_rate",
    display: "Heart rate",
    variants: ["heart rate", "hr", "pulse", "pulse rate", "ventricular rate", "vent rate", "ecg rate"],
    high: "A fast heart rate can reflect anxiety, agitation, withdrawal, infection or medicines (clozapine, stimulants, anticholinergics); with clozapine early in treatment consider myocarditis.",
    low: "A slow heart rate adds to the risk of torsade de pointes with QT-prolonging medicines; lithium, beta blockers and donepezil can slow it.",
    toneHigh: W,
    toneLow: W,
    loinc: [{ code: "8867-4", display: "Heart rate", property: "rate" }],
  },
  // Pregnancy test (decision 191): positive or negative as text, or serum hCG in IU/L
  {
    key: "hcg",
    display: "hCG (pregnancy test)",
    variants: [
      "hcg",
      "beta hcg",
      "b hcg",
      "bhcg",
      "beta-hcg",
      "b-hcg",
      "total hcg",
      "hcg qualitative",
      "hcg quantitative",
      "qualitative hcg",
      "quantitative hcg",
      "hcg urine",
      "urine hcg",
      "hcg serum",
      "serum hcg",
      "human chorionic gonadotropin",
      "chorionic gonadotropin",
      "choriogonadotropin",
      "pregnancy test",
      "urine pregnancy test",
      "serum pregnancy test",
      "upt",
    ],
    high: "A positive pregnancy test (or serum hCG at or above the pregnancy cut-off) means the patient is to be treated as pregnant until shown otherwise: review teratogenic medicines (valproate, carbamazepine, topiramate, lithium) now. Rarely, hCG comes from a tumour.",
    low: "A negative pregnancy test does not exclude a very early pregnancy; repeat if a period is missed.",
    toneHigh: W,
    toneLow: W,
    // Presence codes only: never chosen for a number (a quantitative hCG has its own codes, not verified).
    loinc: [
      {
        code: "2106-3",
        display: "Choriogonadotropin (pregnancy test) [Presence] in Urine",
        property: "presence",
        byDefault: false,
      },
      {
        code: "2118-8",
        display: "Choriogonadotropin [Presence] in Serum or Plasma",
        property: "presence",
        byDefault: false,
      },
      {
        code: "80385-8",
        display: "Choriogonadotropin (pregnancy test) [Presence] in Serum by Rapid immunoassay",
        property: "presence",
        byDefault: false,
      },
    ],
  },
  // Urine drug screen components (a "high" flag is read as a positive screen)
  {
    key: "uds_amphetamines",
    display: "Urine amphetamines",
    variants: [
      "amphetamines",
      "amphetamine",
      "urine amphetamines",
      "amphetamine screen",
      "amp",
      "methamphetamine",
    ],
    high: "Positive amphetamine screen: stimulant use can cause anxiety, insomnia, paranoia or psychosis; prescribed stimulants also test positive.",
    low: "Negative screen.",
    toneHigh: W,
    toneLow: W,
  },
  {
    key: "uds_cannabinoids",
    display: "Urine cannabinoids",
    variants: ["cannabinoids", "thc", "cannabis", "urine cannabinoids", "marijuana", "thc screen"],
    high: "Positive cannabinoid screen: cannabis use is associated with psychosis risk and poorer outcomes; it can stay positive for weeks with heavy use.",
    low: "Negative screen.",
    toneHigh: W,
    toneLow: W,
  },
  {
    key: "uds_cocaine",
    display: "Urine cocaine metabolite",
    variants: ["cocaine", "benzoylecgonine", "urine cocaine", "cocaine metabolite", "coc"],
    high: "Positive cocaine screen: recent use can cause agitation, paranoia and cardiovascular risk.",
    low: "Negative screen.",
    toneHigh: W,
    toneLow: W,
  },
  {
    key: "uds_opiates",
    display: "Urine opiates",
    variants: ["opiates", "opiate", "urine opiates", "morphine", "opioids", "opi"],
    high: "Positive opiate screen: consider opioid use, overdose risk and interactions with sedating psychotropics; prescribed opioids also test positive.",
    low: "Negative screen.",
    toneHigh: W,
    toneLow: W,
  },
  // Body measures (decision 196): read as series by the trends part of the patient review
  {
    key: "weight",
    display: "Body weight",
    variants: ["weight", "body weight", "bodyweight", "wt", "weight measured"],
    high: "Weight gain on an antipsychotic (or lithium, valproate, mirtazapine) raises metabolic and cardiovascular risk; read it against the weight before the medicine started.",
    low: "Weight loss can reflect poor intake, an eating disorder, depression, physical illness or a stimulant.",
    toneHigh: W,
    toneLow: W,
    // FHIR vital-signs Body Weight profile: code 29463-7, units kg, g, [lb_av], [oz_av].
    loinc: [{ code: "29463-7", display: "Body weight", property: "patient_mass" }],
  },
  {
    key: "bmi",
    display: "Body mass index",
    variants: ["bmi", "body mass index", "body mass index bmi", "quetelet index"],
    high: "A BMI above the healthy range raises metabolic and cardiovascular risk, which antipsychotics and some mood stabilisers add to.",
    low: "A low BMI can reflect an eating disorder, poor intake, depression or physical illness.",
    toneHigh: W,
    toneLow: W,
    // FHIR vital-signs BMI profile: code 39156-5, unit kg/m2.
    loinc: [{ code: "39156-5", display: "Body mass index (BMI) [Ratio]", property: "ratio" }],
  },
  {
    key: "uds_benzodiazepines",
    display: "Urine benzodiazepines",
    variants: ["benzodiazepines", "benzodiazepine", "urine benzodiazepines", "benzos", "bzd", "bzo"],
    high: "Positive benzodiazepine screen: prescribed or non-prescribed use; sedation and dependence risk.",
    low: "Negative screen.",
    toneHigh: W,
    toneLow: W,
  },
];

// ---------------------------------------------------------------------------------------------
// Measurement: units, plausible, reference, therapeutic and critical ranges (one row per analyte)

/** One unit an analyte is accepted in: canonical value = value x toCanonical + offset. */
export interface AnalyteUnit {
  /** UCUM code of the unit. */
  ucum: string;
  /** Spellings labs use, compared after `normaliseUnitSpelling`. */
  spellings: readonly string[];
  toCanonical: number;
  /** Added after the factor (only HbA1c mmol/mol -> %, the NGSP/IFCC master equation). */
  offset?: number;
  /** Where the factor comes from (molar mass, identity of units, master equation). */
  basis: string;
}

/** A range with where it comes from; null: no bound on that side. */
export interface SourcedRange {
  low: number | null;
  high: number | null;
  source: string;
}

export interface TherapeuticRange extends SourcedRange {
  /** What the range is for, e.g. "epilepsy" or "acute mania". */
  indication: string;
}

/** A limit beyond which a value needs prompt clinician review whatever the laboratory flag says. */
export interface CriticalLimit {
  value: number;
  /** true: a value equal to the limit is critical ("at or below" / "at or above"). */
  inclusive: boolean;
  /** What crossing it means ("toxicity threshold"). */
  name: string;
  source: string;
}

export interface AnalyteMeasure {
  /** UCUM code of the unit every evaluation is made in. */
  canonicalUnit: string;
  /** How the canonical unit is written for people (µmol/L, x10^9/L). */
  displayUnit: string;
  /** Every accepted unit, the canonical one first (factor 1). */
  units: readonly AnalyteUnit[];
  /**
   * Spellings that name no single unit for this analyte, with why (never evaluated).
   * `otherQuantity`: the spelling measures another quantity (a percentage of a count), so it is
   * not a unit a unit-less value could be in (decision 180).
   */
  ambiguousUnits?: readonly { spelling: string; reason: string; otherQuantity?: boolean }[];
  /** Values outside this range (canonical unit) are a data-quality finding, not a result. */
  plausible: { low: number; high: number; source: string };
  /** Which range decides low/high: the reference range or the (first) therapeutic range. */
  rangeKind: "reference" | "therapeutic";
  reference?: SourcedRange;
  /** The first is the one most results are read against; a value inside any of them is not high or low. */
  therapeutic?: readonly TherapeuticRange[];
  criticalLow?: CriticalLimit;
  criticalHigh?: CriticalLimit;
  /**
   * A sourced diagnostic threshold above the range (canonical unit, inclusive): a value at or above
   * it reads with the `elevated` tone whatever the row's `toneHigh` (decision 188), for example
   * HbA1c in the diabetes range.
   */
  elevatedFrom?: { value: number; name: string; source: string };
  /**
   * Why the row has no range on purpose (body weight: a value alone is neither high nor low;
   * decision 196). Such a row is read for its unit and plausibility and as a series; its
   * evaluation carries this sentence as a note, so "no flag" is never mistaken for "in range".
   */
  noRange?: string;
}

/**
 * The tone of an evaluated value outside its range (decision 188): the row's tone for the side
 * crossed, raised to `elevated` at or above the row's sourced diagnostic threshold. Null within
 * the range or beyond a critical limit (those have their own readings).
 */
export function toneOfOutOfRange(entry: AnalyteEntry, evaluation: AnalyteEvaluation): FlagTone | null {
  if (evaluation.flag === "low") return entry.toneLow;
  if (evaluation.flag !== "high") return null;
  const from = entry.measure?.elevatedFrom;
  if (from && evaluation.canonicalValue >= from.value - slack(from.value)) return "elevated";
  return entry.toneHigh;
}

const same = (ucum: string, spellings: readonly string[], basis: string): AnalyteUnit => ({
  ucum,
  spellings,
  toCanonical: 1,
  basis,
});

/** RCPath 2017, "The communication of critical and unexpected pathology results", as tabulated by UK labs. */
const RCPATH_2017 =
  "RCPath 2017 critical-result alert thresholds (as tabulated by SWL Pathology and PCH Pathology)";
const OXFORD_ACUTE =
  "Ramrakha, Moore & Sam 2020, Oxford Handbook of Acute Medicine 4th ed., reference intervals";
const CELLS_PER_UL = ["/ul", "cells/ul", "/mm3", "cells/mm3", "{cells}/ul"];
const GIGA_PER_L = ["10*9/l", "10^9/l", "x10*9/l", "x10^9/l", "10e9/l", "g/l (cells)", "giga/l"];
const KILO_PER_UL = ["10*3/ul", "10^3/ul", "x10*3/ul", "x10^3/ul", "k/ul", "thou/ul", "10e3/ul"];
/** Table 2.1 "Everyday tests" of an Oxford Handbook, as shown on the Oxford Index (secondary copy; edition not shown). */
const OXFORD_EVERYDAY =
  "Oxford Handbook reference ranges, table 2.1 'Everyday tests' (oxfordindex.oup.com authority.20110803095506792; secondary copy, edition not shown)";
/** Reference intervals of an earlier edition of the handbook cited as OXFORD_ACUTE, as read in an online copy. */
const OXFORD_ACUTE_2004 =
  "Ramrakha & Moore 2004, Oxford Handbook of Acute Medicine 2nd ed., reference intervals (online copy read)";
/** NHS haematology telephone (critical) limits; the RCPath 2017 haematology table itself was not read. */
const NHS_HAEMATOLOGY_PHONE =
  "NHS laboratory haematology telephone limits: Barnsley Hospital, North Bristol (Severn Pathology), South Tees, Royal Melbourne Hospital pages (RCPath 2017 haematology table not read)";
/** Enzyme activity: U/L and IU/L are one unit; 1 µkat/L = 60 U/L (1 U = 1 µmol/min, 1 kat = 1 mol/s). */
const ENZYME_UNITS: readonly AnalyteUnit[] = [
  {
    ucum: "U/L",
    spellings: ["u/l", "iu/l", "[iu]/l"],
    toCanonical: 1,
    basis: "canonical; 1 IU/L = 1 U/L",
  },
  {
    ucum: "ukat/L",
    spellings: ["ukat/l", "microkat/l"],
    toCanonical: 60,
    basis: "1 U = 1 µmol/min = 1/60 µkat, so 1 µkat/L = 60 U/L",
  },
];

/**
 * Units and ranges of the analytes the engines evaluate against the table. Factors between mass
 * and moles come from molar masses (PubChem), mEq/L equals mmol/L for a monovalent ion, and
 * x10^9/L equals x10^3/µL equals 1000 cells/µL. Sources per row; docs/engines/biomarker.md and
 * the evidence table list them with their level.
 */
const MEASURES: Readonly<Record<string, AnalyteMeasure>> = {
  lithium: {
    canonicalUnit: "mmol/L",
    displayUnit: "mmol/L",
    units: [
      same("mmol/L", ["mmol/l"], "canonical"),
      same("meq/L", ["meq/l"], "Li+ is monovalent: 1 mEq/L = 1 mmol/L"),
    ],
    plausible: { low: 0, high: 10, source: "house rule: above any reported survivable level" },
    rangeKind: "therapeutic",
    therapeutic: [
      {
        indication: "maintenance",
        low: 0.6,
        high: 1.0,
        source:
          "NICE QS95 (0.6-0.8 mmol/L) and CG185 (up to 1.0 after relapse); the US label's 0.8-1.2 mEq/L is not used, so 1.1 reads high",
      },
    ],
    criticalHigh: {
      value: 1.5,
      inclusive: true,
      name: "toxicity threshold",
      source:
        "lithium US label, Overdosage (levels above 1.5 mEq/L carry a greater risk; above 3 a complex multi-organ picture; quoted in a secondary source); SWL Pathology phone limit 1.5",
    },
  },
  sodium: {
    canonicalUnit: "mmol/L",
    displayUnit: "mmol/L",
    units: [
      same("mmol/L", ["mmol/l"], "canonical"),
      same("meq/L", ["meq/l"], "Na+ is monovalent: 1 mEq/L = 1 mmol/L"),
    ],
    plausible: { low: 80, high: 200, source: "house rule" },
    rangeKind: "reference",
    reference: { low: 135, high: 145, source: OXFORD_ACUTE },
    criticalLow: {
      value: 125,
      inclusive: false,
      name: "profound hyponatraemia threshold",
      source: "Spasovski et al. 2014, Eur J Endocrinol 170:G1 ('profound' below 125; not re-read)",
    },
    criticalHigh: { value: 160, inclusive: true, name: "critical limit", source: RCPATH_2017 },
  },
  potassium: {
    canonicalUnit: "mmol/L",
    displayUnit: "mmol/L",
    units: [
      same("mmol/L", ["mmol/l"], "canonical"),
      same("meq/L", ["meq/l"], "K+ is monovalent: 1 mEq/L = 1 mmol/L"),
    ],
    plausible: { low: 1, high: 12, source: "house rule" },
    rangeKind: "reference",
    reference: { low: 3.5, high: 5.0, source: OXFORD_ACUTE },
    criticalLow: { value: 2.5, inclusive: true, name: "critical limit", source: RCPATH_2017 },
    criticalHigh: { value: 6.5, inclusive: true, name: "critical limit", source: RCPATH_2017 },
  },
  calcium: {
    canonicalUnit: "mmol/L",
    displayUnit: "mmol/L",
    units: [
      same("mmol/L", ["mmol/l"], "canonical"),
      { ucum: "mg/dL", spellings: ["mg/dl"], toCanonical: 0.2495, basis: "Ca 40.08 g/mol: 10/40.08" },
      // Decision 180: converted as magnesium's is (before, refused as rarely used; a refused unit
      // of the same quantity would also block every unit-less calcium value).
      {
        ucum: "meq/L",
        spellings: ["meq/l"],
        toCanonical: 0.5,
        basis: "Ca2+ is divalent: 1 mEq/L = 0.5 mmol/L",
      },
    ],
    plausible: { low: 0.5, high: 5, source: "house rule" },
    rangeKind: "reference",
    reference: { low: 2.12, high: 2.65, source: `total calcium, ${OXFORD_ACUTE}` },
    criticalLow: { value: 1.8, inclusive: true, name: "critical limit", source: RCPATH_2017 },
    criticalHigh: { value: 3.5, inclusive: true, name: "critical limit", source: RCPATH_2017 },
  },
  creatinine: {
    canonicalUnit: "umol/L",
    displayUnit: "µmol/L",
    units: [
      same("umol/L", ["umol/l"], "canonical"),
      {
        ucum: "mg/dL",
        spellings: ["mg/dl"],
        toCanonical: 88.4,
        basis: "creatinine 113.12 g/mol: 10000/113.12",
      },
    ],
    plausible: { low: 10, high: 3000, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: null,
      high: 130,
      source: `upper limit 130 (${OXFORD_ACUTE}, 70-130); lower bound not used (sex- and muscle-dependent)`,
    },
    criticalHigh: { value: 354, inclusive: true, name: "critical limit", source: RCPATH_2017 },
  },
  egfr: {
    canonicalUnit: "mL/min/{1.73_m2}",
    displayUnit: "mL/min/1.73m2",
    units: [
      same(
        "mL/min/{1.73_m2}",
        ["ml/min/1.73m2", "ml/min/1.73m^2", "ml/min/{1.73_m2}", "ml/min/1.73_m2", "ml/min"],
        "canonical",
      ),
      {
        ucum: "mL/s/{1.73_m2}",
        spellings: ["ml/s/1.73m2", "ml/s/1.73m^2", "ml/s/{1.73_m2}", "ml/s/1.73_m2", "ml/s"],
        toCanonical: 60,
        basis: "1 mL/s = 60 mL/min (SI reporting, as in Swedish laboratories)",
      },
    ],
    plausible: { low: 0, high: 200, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: 60,
      high: null,
      source: "KDIGO 2012 CKD guideline GFR categories (G3a starts below 60)",
    },
  },
  tsh: {
    canonicalUnit: "m[IU]/L",
    displayUnit: "mIU/L",
    units: [
      same("m[IU]/L", ["miu/l", "mu/l", "m[iu]/l"], "canonical"),
      same("u[IU]/mL", ["uiu/ml", "u[iu]/ml", "uu/ml"], "1 µIU/mL = 1 mIU/L"),
    ],
    plausible: { low: 0, high: 1000, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: 0.45,
      high: 4.5,
      source:
        "2.5th-97.5th percentile of disease-free US adults as quoted in secondary summaries; not checked in a primary source",
    },
  },
  free_t4: {
    canonicalUnit: "pmol/L",
    displayUnit: "pmol/L",
    units: [
      same("pmol/L", ["pmol/l"], "canonical"),
      {
        ucum: "ng/dL",
        spellings: ["ng/dl"],
        toCanonical: 12.87,
        basis: "thyroxine 776.87 g/mol: 10000/776.87",
      },
    ],
    plausible: { low: 1, high: 150, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: 9,
      high: 19,
      source: "typical, assay-specific (secondary summary, not checked in a primary source)",
    },
  },
  alt: {
    canonicalUnit: "U/L",
    displayUnit: "U/L",
    units: [same("U/L", ["u/l", "iu/l", "[iu]/l"], "canonical; 1 IU/L = 1 U/L")],
    plausible: { low: 0, high: 20000, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: null,
      high: 33,
      source: "Kwo et al. 2017, Am J Gastroenterol 112:18-35 (healthy men; 25 in women)",
    },
    criticalHigh: {
      value: 495,
      inclusive: true,
      name: "15 x upper-limit critical limit",
      source: "RCPath 2017 (15 x ULN), derived from the 33 U/L upper limit",
    },
  },
  wbc: {
    canonicalUnit: "10*9/L",
    displayUnit: "x10^9/L",
    units: [
      same("10*9/L", GIGA_PER_L, "canonical"),
      same("10*3/uL", KILO_PER_UL, "1 x10^3/µL = 1 x10^9/L"),
      { ucum: "/uL", spellings: CELLS_PER_UL, toCanonical: 0.001, basis: "1000 cells/µL = 1 x10^9/L" },
    ],
    ambiguousUnits: [{ spelling: "%", reason: "a percentage is not a count", otherQuantity: true }],
    plausible: { low: 0, high: 500, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: 4.0,
      high: 11.0,
      source: "most UK NHS labs (tabulated in PMC7082321 table 6; Cancer Research UK)",
    },
    criticalLow: {
      value: 3.0,
      inclusive: false,
      name: "clozapine red-range threshold",
      source:
        "UK clozapine monitoring red result, WBC < 3.0 x10^9/L (NHS Borders and NHS GGC clozapine guidance, citing the monitoring services)",
    },
  },
  anc: {
    canonicalUnit: "10*9/L",
    displayUnit: "x10^9/L",
    units: [
      same("10*9/L", GIGA_PER_L, "canonical"),
      same("10*3/uL", KILO_PER_UL, "1 x10^3/µL = 1 x10^9/L"),
      { ucum: "/uL", spellings: CELLS_PER_UL, toCanonical: 0.001, basis: "1000 cells/µL = 1 x10^9/L" },
    ],
    ambiguousUnits: [
      { spelling: "%", reason: "a neutrophil percentage is not an absolute count", otherQuantity: true },
    ],
    plausible: { low: 0, high: 100, source: "house rule" },
    rangeKind: "reference",
    reference: { low: 2.0, high: 7.5, source: "most UK NHS labs (PMC7082321 table 6)" },
    criticalLow: {
      value: 1.5,
      inclusive: false,
      name: "clozapine red-range threshold",
      source:
        "UK clozapine monitoring red result, neutrophils < 1.5 x10^9/L (NHS Borders and NHS GGC clozapine guidance); US Clozaril label: below 1500/µL is neutropenia",
    },
  },
  glucose: {
    canonicalUnit: "mmol/L",
    displayUnit: "mmol/L",
    units: [
      same("mmol/L", ["mmol/l"], "canonical"),
      { ucum: "mg/dL", spellings: ["mg/dl"], toCanonical: 0.0555, basis: "glucose 180.16 g/mol: 10/180.16" },
    ],
    // Decision 180: up to the highest survived glucose reported (2,656 mg/dL = 147.6 mmol/L,
    // Guinness World Records 2008, secondary source), so a hyperosmolar 70 mmol/L sent without a
    // unit is never read as 70 mg/dL (60 mmol/L before).
    plausible: {
      low: 0.5,
      high: 150,
      source:
        "above the highest survived blood glucose reported, 147.6 mmol/L (Guinness World Records 2008; secondary source)",
    },
    rangeKind: "reference",
    reference: {
      low: 3.9,
      high: 5.5,
      source:
        "fasting: ADA Standards of Care (impaired fasting glucose from 5.6 mmol/L; level 1 hypoglycaemia below 3.9)",
    },
    criticalLow: {
      value: 3.0,
      inclusive: false,
      name: "level 2 hypoglycaemia threshold",
      source: "ADA Standards of Care (level 2 hypoglycaemia below 3.0 mmol/L; not re-read this pass)",
    },
    criticalHigh: { value: 25, inclusive: true, name: "critical limit", source: RCPATH_2017 },
  },
  hba1c: {
    canonicalUnit: "%",
    displayUnit: "%",
    units: [
      same("%", ["%", "% hb", "%{hb}", "% (ngsp)"], "canonical (NGSP/DCCT %)"),
      {
        ucum: "mmol/mol",
        spellings: ["mmol/mol", "mmol/mol hb", "mmol/mol{hb}"],
        toCanonical: 0.09148,
        offset: 2.152,
        basis: "IFCC-NGSP master equation: NGSP % = 0.09148 x IFCC mmol/mol + 2.152",
      },
    ],
    plausible: { low: 3, high: 20, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: null,
      high: 5.6,
      source: "ADA Standards of Care: 5.7-6.4 % prediabetes, >= 6.5 % diabetes (NGSP %)",
    },
    elevatedFrom: {
      value: 6.5,
      name: "diabetes range (48 mmol/mol, 6.5 %)",
      source:
        "WHO 2011, Use of glycated haemoglobin (HbA1c) in the diagnosis of diabetes mellitus (HbA1c 48 mmol/mol, 6.5 %, as the cut point); ADA Standards of Care (>= 6.5 % diabetes); NICE CG178 1.3.6 (HbA1c monitoring on antipsychotics)",
    },
  },
  valproate: {
    canonicalUnit: "mg/L",
    displayUnit: "mg/L",
    units: [
      same("mg/L", ["mg/l"], "canonical"),
      same("ug/mL", ["ug/ml"], "1 µg/mL = 1 mg/L"),
      {
        ucum: "umol/L",
        spellings: ["umol/l"],
        toCanonical: 1 / 6.934,
        basis: "valproic acid 144.21 g/mol: 1 mg/L = 6.934 µmol/L",
      },
    ],
    // Decision 180: the bound decides which unit a value without a unit can be in, so it covers
    // overdose (400 mg/L before: a 600 µmol/L-looking value could not be 600 mg/L).
    plausible: {
      low: 0,
      high: 3000,
      source:
        "above the highest peak in Spiller et al. 2000, J Toxicol Clin Toxicol 38:755-760 (133 sole valproate ingestions, peaks 110-1840 µg/mL; abstract read), with margin",
    },
    rangeKind: "therapeutic",
    therapeutic: [
      {
        indication: "epilepsy",
        low: 50,
        high: 100,
        source: "Depakote (divalproex) US label: epilepsy trough 50-100 µg/mL",
      },
      {
        indication: "acute mania",
        low: 50,
        high: 125,
        source:
          "Depakote US label, mania trials dosed to trough 50-125 µg/mL (label not re-read this pass); Bowden et al. 1996, Am J Psychiatry (abstract read: 45 to 100-125 µg/mL efficacious and tolerated, adverse effects disproportionately from 125); Allen et al. 2006, Am J Psychiatry 163:272-275 (abstract read)",
      },
    ],
    criticalHigh: {
      value: 150,
      inclusive: true,
      name: "critical limit",
      source: "Quest/Nichols Institute adult critical value",
    },
  },
  carbamazepine: {
    canonicalUnit: "mg/L",
    displayUnit: "mg/L",
    units: [
      same("mg/L", ["mg/l"], "canonical"),
      same("ug/mL", ["ug/ml"], "1 µg/mL = 1 mg/L"),
      {
        ucum: "umol/L",
        spellings: ["umol/l"],
        toCanonical: 1 / 4.233,
        basis: "carbamazepine 236.27 g/mol: 1 mg/L = 4.233 µmol/L",
      },
    ],
    plausible: { low: 0, high: 80, source: "house rule" },
    rangeKind: "therapeutic",
    therapeutic: [
      {
        indication: "epilepsy",
        low: 4,
        high: 12,
        source: "CMMC and St Luke's Cedar Rapids lab pages",
      },
    ],
    criticalHigh: {
      value: 15,
      inclusive: true,
      name: "critical limit",
      source: "St Luke's lab (CMMC uses > 20, HEFT > 25)",
    },
  },
  clozapine: {
    canonicalUnit: "ng/mL",
    displayUnit: "ng/mL",
    // UK laboratories report clozapine in mg/L (0.35-0.6), US ones in ng/mL (350-600), some in
    // µmol/L; a value without a unit is read by the unit-less rule (decision 180).
    units: [
      same("ng/mL", ["ng/ml"], "canonical"),
      same("ug/L", ["ug/l"], "1 µg/L = 1 ng/mL"),
      { ucum: "mg/L", spellings: ["mg/l", "ug/ml"], toCanonical: 1000, basis: "1 mg/L = 1000 ng/mL" },
      {
        ucum: "umol/L",
        spellings: ["umol/l"],
        toCanonical: 326.8,
        basis: "clozapine C18H19ClN4 326.8 g/mol (PubChem CID 135398737): 1 µmol/L = 326.8 ng/mL",
      },
    ],
    plausible: { low: 0, high: 10000, source: "house rule" },
    rangeKind: "therapeutic",
    therapeutic: [
      {
        indication: "treatment-resistant schizophrenia",
        low: 350,
        high: 600,
        source: "ARUP clozapine test; University of Iowa pathology handbook",
      },
    ],
    criticalHigh: {
      value: 1000,
      inclusive: true,
      name: "toxicity threshold",
      source: "ARUP clozapine test, University of Iowa pathology handbook (toxic >= 1000 ng/mL)",
    },
  },
  // Haematology (decision 64: rows added for platelets and haemoglobin)
  platelets: {
    canonicalUnit: "10*9/L",
    displayUnit: "x10^9/L",
    units: [
      same("10*9/L", GIGA_PER_L, "canonical"),
      same("10*3/uL", KILO_PER_UL, "1 x10^3/µL = 1 x10^9/L"),
      { ucum: "/uL", spellings: CELLS_PER_UL, toCanonical: 0.001, basis: "1000 /µL = 1 x10^9/L" },
    ],
    ambiguousUnits: [{ spelling: "%", reason: "a percentage is not a platelet count", otherQuantity: true }],
    plausible: { low: 0, high: 5000, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: 150,
      high: 400,
      source:
        "Hoffbrand, Essential Haematology, appendix 1 normal values (150-400 x10^9/L; online copy read); University Hospitals Dorset 150-410, Royal Liverpool 140-450",
    },
    criticalLow: {
      value: 50,
      inclusive: false,
      name: "critical limit",
      source: `${NHS_HAEMATOLOGY_PHONE}: platelets < 50 x10^9/L (Barnsley, South Tees, Royal Melbourne; North Bristol < 30)`,
    },
    criticalHigh: {
      value: 1000,
      inclusive: false,
      name: "critical limit",
      source: `${NHS_HAEMATOLOGY_PHONE}: platelets > 1000 x10^9/L (Barnsley, North Bristol, Royal Melbourne)`,
    },
  },
  hemoglobin: {
    canonicalUnit: "g/L",
    displayUnit: "g/L",
    units: [
      same("g/L", ["g/l"], "canonical"),
      { ucum: "g/dL", spellings: ["g/dl", "g%", "gm/dl"], toCanonical: 10, basis: "1 g/dL = 10 g/L" },
    ],
    // Haemoglobin in mmol/L (Netherlands) is counted per haem monomer by convention; not converted.
    ambiguousUnits: [
      {
        spelling: "mmol/l",
        reason: "haemoglobin in mmol/L depends on the monomer or tetramer convention; not converted",
      },
    ],
    plausible: { low: 10, high: 260, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: 120,
      high: 180,
      source:
        "adults: women's lower limit 120 g/L (University Hospitals Dorset 120-150, Royal Liverpool 120-160; WHO 2011 anaemia threshold for non-pregnant women, not re-read), men's upper limit 180 g/L (Royal Liverpool 130-180; Dorset 130-170; Hoffbrand 135-175); sex is not modelled, so a man at 120-129 g/L is anaemic but reads within range",
    },
    criticalLow: {
      value: 70,
      inclusive: false,
      name: "critical limit",
      source: `${NHS_HAEMATOLOGY_PHONE}: Hb < 70 g/L (Barnsley in-patients, North Bristol, Royal Melbourne; South Tees < 75)`,
    },
    criticalHigh: {
      value: 200,
      inclusive: false,
      name: "critical limit",
      source: `${NHS_HAEMATOLOGY_PHONE}: Hb > 200 g/L (Barnsley, Royal Melbourne; North Bristol > 190)`,
    },
  },
  // Muscle and heart
  ck: {
    canonicalUnit: "U/L",
    displayUnit: "U/L",
    units: ENZYME_UNITS,
    plausible: { low: 0, high: 1000000, source: "house rule (rhabdomyolysis can exceed 100000 U/L)" },
    rangeKind: "reference",
    reference: {
      low: null,
      high: 395,
      source: `Lilleng et al. 2012, Clin Chem Lab Med 50(5) (Tromsø Study upper reference limits: men under 50 y 395, men 50 y and over 340, women 207 U/L; abstract read); sex is not modelled, so the highest bound is used (the older interval of ${OXFORD_ACUTE_2004} is men 25-195, women 25-170 U/L; a CK raised after restraint or an injection is common, so the population-based limit is preferred)`,
    },
    criticalHigh: { value: 5000, inclusive: true, name: "critical limit", source: RCPATH_2017 },
  },
  // Liver
  ast: {
    canonicalUnit: "U/L",
    displayUnit: "U/L",
    units: ENZYME_UNITS,
    plausible: { low: 0, high: 20000, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: null,
      high: 36,
      source:
        "Leino et al. 1995, Scand J Clin Lab Invest 55:243-250 (men 15-36, women 13-33 U/L; abstract read); the men's upper bound",
    },
    criticalHigh: {
      value: 540,
      inclusive: true,
      name: "15 x upper-limit critical limit",
      source:
        "RCPath 2017 15 x ULN transaminase limit (listed for ALT; applied to AST by Homerton Pathology, AST > 600 = 15 x its ULN), derived from the 36 U/L upper limit",
    },
  },
  ggt: {
    canonicalUnit: "U/L",
    displayUnit: "U/L",
    units: ENZYME_UNITS,
    plausible: { low: 0, high: 20000, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: null,
      high: 58,
      source:
        "Leino et al. 1995, Scand J Clin Lab Invest 55:243-250 (men 11-58, women 8-42 U/L; abstract read); the men's upper bound",
    },
  },
  bilirubin: {
    canonicalUnit: "umol/L",
    displayUnit: "µmol/L",
    units: [
      same("umol/L", ["umol/l"], "canonical"),
      {
        ucum: "mg/dL",
        spellings: ["mg/dl"],
        toCanonical: 17.1,
        basis: "bilirubin 584.66 g/mol: 10000/584.66 = 17.10",
      },
    ],
    plausible: { low: 0, high: 1000, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: null,
      high: 17,
      source: `${OXFORD_EVERYDAY} and ${OXFORD_ACUTE_2004}: 3-17 µmol/L; lower bound not used (no clinical meaning)`,
    },
  },
  albumin: {
    canonicalUnit: "g/L",
    displayUnit: "g/L",
    units: [
      same("g/L", ["g/l"], "canonical"),
      { ucum: "g/dL", spellings: ["g/dl"], toCanonical: 10, basis: "1 g/dL = 10 g/L" },
    ],
    plausible: { low: 5, high: 80, source: "house rule" },
    rangeKind: "reference",
    reference: { low: 35, high: 50, source: `${OXFORD_EVERYDAY}; the same in ${OXFORD_ACUTE_2004}` },
  },
  ammonia: {
    canonicalUnit: "umol/L",
    displayUnit: "µmol/L",
    units: [same("umol/L", ["umol/l"], "canonical")],
    // µg/dL is reported as NH3 (x 0.587) by some laboratories and as ammonia nitrogen (x 0.714) by others.
    ambiguousUnits: [
      { spelling: "ug/dl", reason: "µg/dL may be ammonia (NH3) or ammonia nitrogen; the factor differs" },
    ],
    plausible: { low: 0, high: 2000, source: "house rule" },
    rangeKind: "reference",
    reference: { low: null, high: 40, source: `${OXFORD_EVERYDAY}: < 40 µmol/L (blood)` },
    criticalHigh: {
      value: 200,
      inclusive: false,
      name: "critical limit",
      source:
        "Calgary Laboratory Services critical values, adults 17-150 y: > 200 µmol/L (HEFT Pathology phones every ammonia)",
    },
  },
  // Electrolytes and renal
  magnesium: {
    canonicalUnit: "mmol/L",
    displayUnit: "mmol/L",
    units: [
      same("mmol/L", ["mmol/l"], "canonical"),
      { ucum: "mg/dL", spellings: ["mg/dl"], toCanonical: 0.4114, basis: "Mg 24.305 g/mol: 10/24.305" },
      {
        ucum: "meq/L",
        spellings: ["meq/l"],
        toCanonical: 0.5,
        basis: "Mg2+ is divalent: 1 mEq/L = 0.5 mmol/L",
      },
    ],
    plausible: { low: 0.1, high: 10, source: "house rule" },
    rangeKind: "reference",
    reference: { low: 0.75, high: 1.05, source: `${OXFORD_EVERYDAY}; the same in ${OXFORD_ACUTE_2004}` },
    criticalLow: { value: 0.4, inclusive: true, name: "critical limit", source: RCPATH_2017 },
  },
  phosphate: {
    canonicalUnit: "mmol/L",
    displayUnit: "mmol/L",
    units: [
      same("mmol/L", ["mmol/l"], "canonical"),
      {
        ucum: "mg/dL",
        spellings: ["mg/dl"],
        toCanonical: 0.3229,
        basis: "reported as phosphorus, P 30.974 g/mol: 10/30.974",
      },
    ],
    plausible: { low: 0.05, high: 10, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: 0.8,
      high: 1.45,
      source: `inorganic phosphate, ${OXFORD_EVERYDAY}; the same in ${OXFORD_ACUTE_2004}`,
    },
    criticalLow: { value: 0.3, inclusive: true, name: "critical limit", source: RCPATH_2017 },
  },
  urea: {
    canonicalUnit: "mmol/L",
    displayUnit: "mmol/L",
    units: [same("mmol/L", ["mmol/l"], "canonical")],
    ambiguousUnits: [
      {
        spelling: "mg/dl",
        reason:
          "mg/dL may be urea (x 0.1665 mmol/L) or urea nitrogen, BUN (x 0.357 mmol/L of urea); send BUN as urea nitrogen",
      },
    ],
    plausible: { low: 0.3, high: 150, source: "house rule" },
    rangeKind: "reference",
    reference: { low: 2.5, high: 6.7, source: OXFORD_EVERYDAY },
    criticalHigh: {
      value: 30,
      inclusive: true,
      name: "critical limit",
      source: `${RCPATH_2017}, adults over 16 y`,
    },
  },
  bun: {
    canonicalUnit: "mg/dL",
    displayUnit: "mg/dL",
    units: [same("mg/dL", ["mg/dl"], "canonical (mass of urea nitrogen)")],
    ambiguousUnits: [
      {
        spelling: "mmol/l",
        reason: "urea nitrogen in mmol/L may count urea molecules or nitrogen atoms; send it as urea",
      },
    ],
    plausible: { low: 1, high: 420, source: "house rule (the urea bounds x 2.8)" },
    rangeKind: "reference",
    reference: {
      low: 7.0,
      high: 18.8,
      source: `derived from urea 2.5-6.7 mmol/L (${OXFORD_EVERYDAY}) x 2.8014 (two N of 14.007 g/mol per urea)`,
    },
    criticalHigh: {
      value: 84,
      inclusive: true,
      name: "critical limit",
      source: `derived from urea 30 mmol/L (${RCPATH_2017}) x 2.8014 = 84.0 mg/dL`,
    },
  },
  // Inflammation and endocrine
  crp: {
    canonicalUnit: "mg/L",
    displayUnit: "mg/L",
    units: [
      same("mg/L", ["mg/l"], "canonical"),
      same("ug/mL", ["ug/ml"], "1 µg/mL = 1 mg/L"),
      { ucum: "mg/dL", spellings: ["mg/dl"], toCanonical: 10, basis: "1 mg/dL = 10 mg/L" },
    ],
    plausible: { low: 0, high: 1000, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: null,
      high: 10,
      source: `${OXFORD_ACUTE_2004}: CRP 0-10 mg/L (many UK laboratories print < 5)`,
    },
    criticalHigh: {
      value: 300,
      inclusive: true,
      name: "critical limit",
      source: `${RCPATH_2017} (GP and out-patient samples)`,
    },
  },
  lamotrigine: {
    canonicalUnit: "mg/L",
    displayUnit: "mg/L",
    units: [
      same("mg/L", ["mg/l"], "canonical"),
      same("ug/mL", ["ug/ml"], "1 µg/mL = 1 mg/L"),
      {
        ucum: "umol/L",
        spellings: ["umol/l"],
        toCanonical: 0.2561,
        basis: "lamotrigine 256.09 g/mol: 1 µmol/L = 0.2561 mg/L",
      },
    ],
    plausible: { low: 0, high: 200, source: "house rule" },
    rangeKind: "therapeutic",
    therapeutic: [
      {
        indication: "trough",
        low: 2.5,
        high: 15,
        source:
          "Newcastle Laboratories and Synnovis (King's College Hospital) lamotrigine test pages: 2.5-15 mg/L, pre-dose; HEFT Pathology gives 3-14 mg/L for bipolar disorder",
      },
    ],
  },
  triglycerides: {
    canonicalUnit: "mmol/L",
    displayUnit: "mmol/L",
    units: [
      same("mmol/L", ["mmol/l"], "canonical"),
      {
        ucum: "mg/dL",
        spellings: ["mg/dl"],
        toCanonical: 0.01129,
        basis: "as triolein, 885.4 g/mol: 10/885.4 (the laboratory convention)",
      },
    ],
    plausible: { low: 0.05, high: 120, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: null,
      high: 2.1,
      source:
        "Simon, Everitt & Kendrick 2005, Oxford Handbook of General Practice 2nd ed., reference intervals (< 2.1 mmol/L; online copy read)",
    },
    criticalHigh: {
      value: 20,
      inclusive: false,
      name: "critical limit (pancreatitis risk)",
      source:
        "Homerton Hospital chemical pathology critical result limits, triglycerides > 20.0 mmol/L (Royal Melbourne Hospital phones > 12.0)",
    },
  },
  ferritin: {
    canonicalUnit: "ug/L",
    displayUnit: "µg/L",
    units: [same("ug/L", ["ug/l"], "canonical"), same("ng/mL", ["ng/ml"], "1 ng/mL = 1 µg/L")],
    plausible: { low: 0, high: 100000, source: "house rule" },
    rangeKind: "reference",
    reference: { low: 12, high: 200, source: OXFORD_ACUTE_2004 },
  },
  eosinophils: {
    canonicalUnit: "10*9/L",
    displayUnit: "x10^9/L",
    units: [
      same("10*9/L", GIGA_PER_L, "canonical"),
      same("10*3/uL", KILO_PER_UL, "1 x10^3/µL = 1 x10^9/L"),
      { ucum: "/uL", spellings: CELLS_PER_UL, toCanonical: 0.001, basis: "1000 cells/µL = 1 x10^9/L" },
    ],
    ambiguousUnits: [
      { spelling: "%", reason: "an eosinophil percentage is not an absolute count", otherQuantity: true },
    ],
    plausible: { low: 0, high: 100, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: null,
      high: 0.44,
      source:
        "Hoffbrand, Essential Haematology, appendix 1 normal values (0.04-0.44 x10^9/L; online copy read); lower bound not used",
    },
  },
  mcv: {
    canonicalUnit: "fL",
    displayUnit: "fL",
    units: [same("fL", ["fl"], "canonical"), same("um3", ["um3", "um*3"], "1 µm3 = 1 fL")],
    plausible: { low: 40, high: 160, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: 80,
      high: 100,
      source:
        "Royal Liverpool University Hospital FBC ranges (80-100 fL, from Bain, A Practical Guide; Pathology Harmonisation); Hoffbrand 80-95",
    },
  },
  prolactin: {
    canonicalUnit: "ng/mL",
    displayUnit: "ng/mL",
    units: [same("ng/mL", ["ng/ml"], "canonical"), same("ug/L", ["ug/l"], "1 µg/L = 1 ng/mL")],
    // mIU/L depends on the calibration standard (21.2 mIU/L per ng/mL is quoted for WHO IS 84/500,
    // other factors for other standards): never converted.
    ambiguousUnits: [
      {
        spelling: "miu/l",
        reason: "mIU/L to ng/mL depends on the assay's calibration standard; not converted",
      },
      {
        spelling: "mu/l",
        reason: "mU/L to ng/mL depends on the assay's calibration standard; not converted",
      },
      {
        spelling: "uiu/ml",
        reason: "µIU/mL to ng/mL depends on the assay's calibration standard; not converted",
      },
    ],
    plausible: { low: 0, high: 20000, source: "house rule (macroprolactinomas can exceed 10000)" },
    rangeKind: "reference",
    reference: {
      low: null,
      high: 25,
      source:
        "upper limit 25 µg/L in women, 20 in men, as general guideline thresholds (secondary summary of the Wikipedia 'Prolactin' article; not checked in a primary source); the women's bound, as sex is not modelled. UK laboratories report mU/L (men < 450, women < 600 in the Oxford Handbook of Acute Medicine 2nd ed.), which is not converted",
    },
  },
};

/** NCEP ATP III (2001) lipid categories in mg/dL, converted with cholesterol's 386.65 g/mol. */
const ATP_III =
  "NCEP Adult Treatment Panel III 2001 (JAMA 285:2486), categories in mg/dL as quoted in secondary summaries, converted at 386.65 g/mol (not re-read this pass)";
const CHOLESTEROL_UNITS: readonly AnalyteUnit[] = [
  same("mmol/L", ["mmol/l"], "canonical"),
  {
    ucum: "mg/dL",
    spellings: ["mg/dl"],
    toCanonical: 0.02586,
    basis: "cholesterol C27H46O 386.65 g/mol (PubChem CID 5997): 10/386.65",
  },
];

/** Drew et al. 2010, the AHA/ACCF scientific statement on torsade de pointes in hospital settings. */
const DREW_2010 =
  "Drew et al. 2010, Prevention of Torsade de Pointes in Hospital Settings, AHA/ACCF scientific statement, Circulation 121:1047-1060 (QTc above 500 ms, or a rise of more than 60 ms from the pre-drug baseline: high risk of torsade de pointes; as summarised in secondary sources, the statement itself not re-read this pass)";
const MILLISECONDS: readonly AnalyteUnit[] = [
  same("ms", ["ms", "msec", "millisecond", "milliseconds"], "canonical"),
  {
    ucum: "s",
    spellings: ["s", "sec", "second", "seconds"],
    toCanonical: 1000,
    basis: "1 s = 1000 ms (an ECG interval reported in seconds, as in the US Core QT example)",
  },
];

/** ECG and pregnancy-test rows (decision 191). */
const ECG_AND_PREGNANCY_MEASURES: Readonly<Record<string, AnalyteMeasure>> = {
  qtc: {
    canonicalUnit: "ms",
    displayUnit: "ms",
    units: MILLISECONDS,
    plausible: {
      low: 250,
      high: 800,
      source: "house rule (QTc values beyond 700 ms are reported only exceptionally)",
    },
    rangeKind: "reference",
    reference: {
      low: null,
      high: 450,
      source:
        "normal QTc typically below 450 ms in men and below 460 ms in women (Khatib et al. 2021, Postgrad Med J 97:452-458, abstract read); sex is not modelled in the table, so the men's (stricter) limit: above 450 ms reads high. The patient review applies the sex-specific limits",
    },
    criticalHigh: {
      value: 500,
      inclusive: false,
      name: "torsade de pointes high-risk threshold",
      source: DREW_2010,
    },
  },
  heart_rate: {
    canonicalUnit: "/min",
    displayUnit: "/min",
    units: [
      same("/min", ["/min", "bpm", "beats/min", "{beats}/min", "1/min", "min-1", "per min"], "canonical"),
    ],
    plausible: { low: 15, high: 350, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: 60,
      high: 100,
      source:
        "conventional adult resting range 60-100 /min (secondary summaries; not checked in a primary source); athletes and people on rate-slowing medicines often sit below 60",
    },
  },
  hcg: {
    canonicalUnit: "[IU]/L",
    displayUnit: "IU/L",
    units: [
      same("[IU]/L", ["iu/l", "[iu]/l", "u/l"], "canonical"),
      same("m[IU]/mL", ["miu/ml", "m[iu]/ml", "mu/ml"], "1 mIU/mL = 1 IU/L"),
    ],
    plausible: {
      low: 0,
      high: 1000000,
      source:
        "house rule (hCG peaks at about 100,000-200,000 mIU/mL near 10-12 weeks, per pregnancy-test package inserts)",
    },
    rangeKind: "reference",
    reference: {
      low: null,
      high: 5,
      source:
        "OhioHealth laboratory test catalogue, serum hCG qualitative: negative below 5 mIU/mL, indeterminate 5-24, positive at 25 mIU/mL and above (the pregnancy diagnostic cut-off); 1 mIU/mL = 1 IU/L",
    },
    elevatedFrom: {
      value: 25,
      name: "pregnancy cut-off",
      source: "OhioHealth laboratory test catalogue, serum hCG: positive at 25 mIU/mL and above",
    },
  },
};

/**
 * Decision 180: rows for the lipids and vitamins the table named but did not measure, so a UK
 * (mmol/L, pmol/L, nmol/L) and a US (mg/dL, pg/mL, ng/mL) report of the same result read the same.
 */
const MORE_MEASURES: Readonly<Record<string, AnalyteMeasure>> = {
  total_cholesterol: {
    canonicalUnit: "mmol/L",
    displayUnit: "mmol/L",
    units: CHOLESTEROL_UNITS,
    plausible: {
      low: 0.5,
      high: 50,
      source: "house rule (homozygous familial hypercholesterolaemia reaches about 25-30 mmol/L)",
    },
    rangeKind: "reference",
    reference: { low: null, high: 5.17, source: `desirable below 200 mg/dL: ${ATP_III}` },
  },
  ldl: {
    canonicalUnit: "mmol/L",
    displayUnit: "mmol/L",
    units: CHOLESTEROL_UNITS,
    plausible: { low: 0.05, high: 40, source: "house rule" },
    rangeKind: "reference",
    reference: { low: null, high: 3.36, source: `borderline high from 130 mg/dL: ${ATP_III}` },
  },
  hdl: {
    canonicalUnit: "mmol/L",
    displayUnit: "mmol/L",
    units: CHOLESTEROL_UNITS,
    plausible: { low: 0.05, high: 10, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: 1.03,
      high: null,
      source: `low below 40 mg/dL: ${ATP_III}; sex is not modelled (UK guidance uses 1.0 mmol/L in men, 1.2 in women)`,
    },
  },
  vitamin_b12: {
    canonicalUnit: "pmol/L",
    displayUnit: "pmol/L",
    units: [
      same("pmol/L", ["pmol/l"], "canonical"),
      {
        ucum: "ng/L",
        spellings: ["ng/l", "pg/ml"],
        toCanonical: 0.7378,
        basis:
          "cyanocobalamin C63H88CoN14O14P 1355.4 g/mol (PubChem CID 5311498): 1000/1355.4; 1 pg/mL = 1 ng/L",
      },
    ],
    plausible: {
      low: 0,
      high: 30000,
      source: "house rule (injected or myeloproliferative levels run to several thousand)",
    },
    rangeKind: "reference",
    reference: {
      low: 148,
      high: null,
      source:
        "Devalia et al. 2014, BSH guideline, Br J Haematol 166:496-513: cut-off 148 pmol/L (200 ng/L), 97% sensitivity (secondary summary read); upper bound not used",
    },
  },
  folate: {
    canonicalUnit: "nmol/L",
    displayUnit: "nmol/L",
    units: [
      same("nmol/L", ["nmol/l"], "canonical"),
      {
        ucum: "ug/L",
        spellings: ["ug/l", "ng/ml"],
        toCanonical: 2.266,
        basis: "folic acid C19H19N7O6 441.4 g/mol (PubChem CID 135398658): 1000/441.4; 1 ng/mL = 1 µg/L",
      },
    ],
    plausible: { low: 0, high: 500, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: 7,
      high: null,
      source:
        "Devalia et al. 2014, BSH guideline: serum folate below 7 nmol/L (3 µg/L) indicates deficiency (commonly cited figure; not re-read this pass); upper bound not used",
    },
  },
  vitamin_d: {
    canonicalUnit: "nmol/L",
    displayUnit: "nmol/L",
    units: [
      same("nmol/L", ["nmol/l"], "canonical"),
      {
        ucum: "ng/mL",
        spellings: ["ng/ml", "ug/l"],
        toCanonical: 2.496,
        basis: "25-hydroxyvitamin D3 C27H44O2 400.6 g/mol (PubChem CID 5283731): 1000/400.6",
      },
    ],
    plausible: { low: 0, high: 2000, source: "house rule (intoxication reports run to about 1500 nmol/L)" },
    rangeKind: "reference",
    reference: {
      low: 50,
      high: null,
      source:
        "IOM 2011 (Ross et al., J Clin Endocrinol Metab 96:53-58): 50 nmol/L (20 ng/mL) meets the needs of 97.5% of people; below 25 nmol/L is deficiency (SACN 2016); not re-read this pass; upper bound not used",
    },
  },
};

/**
 * Decision 196: body weight and BMI, so a weight series can be read against the weight before an
 * antipsychotic started. Weight has no reference range (a weight alone is not high or low); BMI
 * carries the WHO adult classes.
 */
const BODY_MEASURES: Readonly<Record<string, AnalyteMeasure>> = {
  weight: {
    canonicalUnit: "kg",
    displayUnit: "kg",
    units: [
      same("kg", ["kg", "kgs", "kilogram", "kilograms"], "canonical"),
      { ucum: "g", spellings: ["g", "gram", "grams"], toCanonical: 0.001, basis: "1 g = 0.001 kg" },
      {
        ucum: "[lb_av]",
        spellings: ["lb", "lbs", "pound", "pounds", "[lb_av]"],
        toCanonical: 0.45359237,
        basis: "international avoirdupois pound, defined as exactly 0.45359237 kg",
      },
    ],
    plausible: {
      low: 0.2,
      high: 700,
      source: "house rule, the bounds of the patient context's weight (PATIENT_CONTEXT_LIMITS)",
    },
    rangeKind: "reference",
    noRange:
      "Body weight has no range: a weight alone is neither high nor low; it is read as a series (change since a medicine started) and through BMI.",
  },
  bmi: {
    canonicalUnit: "kg/m2",
    displayUnit: "kg/m2",
    units: [same("kg/m2", ["kg/m2", "kg/m^2", "kg/m*2", "kg/sqm"], "canonical")],
    plausible: { low: 5, high: 250, source: "house rule" },
    rangeKind: "reference",
    reference: {
      low: 18.5,
      high: 24.9,
      source:
        "WHO adult BMI classes: underweight below 18.5, normal 18.5-24.9, overweight 25.0-29.9, obese from 30 kg/m2 (WHO 'Obesity and overweight' fact sheet and WHO Technical Report Series 894; not re-read this pass); adults only",
    },
  },
};

/** Every analyte with its relevance and, where sourced, its measurement row. */
export const ANALYTES: readonly AnalyteEntry[] = Object.freeze(
  RELEVANCE.map((entry): AnalyteEntry => {
    const measure =
      MEASURES[entry.key] ??
      MORE_MEASURES[entry.key] ??
      ECG_AND_PREGNANCY_MEASURES[entry.key] ??
      BODY_MEASURES[entry.key];
    return measure ? { ...entry, measure } : { ...entry };
  }),
);

/** The relevance map the biomarker engine has always read: the same table. */
export const BIOMARKER_MAP: readonly AnalyteEntry[] = ANALYTES;

/** The table row of a key; undefined when the service does not know it. */
export function analyteByKey(key: string): AnalyteEntry | undefined {
  return ANALYTES.find((entry) => entry.key === key);
}

/** Lower-case letters and digits only, accents removed: "Free T4", "free-t4" and "FT 4" compare equal to "freet4". */
export function normaliseAnalyteName(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/** Words a lab adds around an analyte name that do not change which analyte it is. */
const FILLER_WORDS = new Set([
  "serum",
  "plasma",
  "blood",
  "level",
  "levels",
  "concentration",
  "conc",
  "result",
  "test",
]);

function withoutFillers(name: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "" && !FILLER_WORDS.has(w));
  return words.join("");
}

const BY_NAME = new Map<string, AnalyteEntry>();
const BY_LOINC = new Map<string, AnalyteEntry>();
for (const entry of BIOMARKER_MAP) {
  for (const name of [entry.key, entry.display, ...entry.variants]) {
    const norm = normaliseAnalyteName(name);
    if (norm !== "" && !BY_NAME.has(norm)) BY_NAME.set(norm, entry);
  }
  for (const ref of entry.loinc ?? []) BY_LOINC.set(ref.code, entry);
}

/** The map entry for a reading name: exact after normalisation, then without filler words. */
export function findAnalyte(name: string): AnalyteEntry | null {
  const exact = BY_NAME.get(normaliseAnalyteName(name));
  if (exact) return exact;
  const stripped = withoutFillers(name);
  return stripped === "" ? null : (BY_NAME.get(stripped) ?? null);
}

/** The map entry that lists this verified LOINC code, if any. */
export function findAnalyteByLoinc(code: string): AnalyteEntry | null {
  return BY_LOINC.get(code.trim()) ?? null;
}

/** Which LOINC property a reading's unit implies, when it says (mass or moles matter for the code). */
export function unitProperty(unit: string | undefined): "mass" | "moles" | null {
  if (!unit) return null;
  const u = unit.trim().toLowerCase().replace(/μ/g, "µ");
  if (/(^|[^a-z])([mµunpk]?mol|meq)(\/|$|\s)/.test(u) || /mmol|µmol|umol|nmol|pmol|meq/.test(u))
    return "moles";
  if (/(^|[^a-z])([mµunpk]?g|mcg)\s*\//.test(u) || /g\/dl|g\/l|mg\/|µg\/|ug\/|ng\/|pg\/|mcg\//.test(u))
    return "mass";
  return null;
}

/**
 * The verified LOINC code to emit for a reading of `entry`, or null. A code the caller sent is
 * kept only if it is one of the entry's verified codes. Otherwise a mass or moles code is chosen
 * only when the reading's unit says which; unit-independent codes (units, counts, enzyme
 * activity, fractions, volumes) are chosen unless the unit contradicts them.
 */
export function chooseLoinc(
  entry: AnalyteEntry,
  unit: string | undefined,
  callerCode?: string,
): LoincRef | null {
  const refs = entry.loinc ?? [];
  if (callerCode !== undefined && callerCode.trim() !== "") {
    return refs.find((r) => r.code === callerCode.trim()) ?? null;
  }
  const property = unitProperty(unit);
  for (const ref of refs) {
    if (ref.byDefault === false) continue;
    if (ref.property === "mass" || ref.property === "moles") {
      if (property === ref.property) return ref;
    } else if (property === null || ref.property === "patient_mass" || ref.property === "ratio") {
      // A body measure's unit (kg, kg/m2) is no concentration, whatever it looks like.
      return ref;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Units: every evaluation is made in the canonical unit, or not at all (decision 65)

/**
 * A unit as labs write it, compared loosely: lower case, µ/μ/mc read as u, spaces dropped, ^ and
 * superscript exponents read as *, "cells" kept only as "/": "x10^9/L", "10*9/l" and "×10⁹/L"
 * compare equal.
 */
export function normaliseUnitSpelling(unit: string): string {
  return unit
    .normalize("NFKC")
    .trim()
    .toLowerCase()
    .replace(/[µμ]/g, "u")
    .replace(/mcg/g, "ug")
    .replace(/mcl/g, "ul")
    .replace(/×/g, "x")
    .replace(/\s+/g, "")
    .replace(/\^/g, "*");
}

export type UnitResolution =
  | { kind: "resolved"; unit: AnalyteUnit }
  | { kind: "missing" | "unknown" | "ambiguous"; reason: string };

/**
 * True when every accepted unit is the canonical one under another name (no factor, no offset)
 * and no spelling is named ambiguous: an analyte also reported in a unit the table will not
 * convert (urea in mg/dL, prolactin in mIU/L, ammonia in µg/dL) has more than one scale in use,
 * so a value without a unit cannot be read (decision 64).
 */
export function hasSingleScale(measure: AnalyteMeasure): boolean {
  return (
    measure.units.every((u) => u.toCanonical === 1 && (u.offset ?? 0) === 0) &&
    (measure.ambiguousUnits ?? []).length === 0
  );
}

/** Accepted units of a measurement row, as UCUM codes, canonical first. */
export function acceptedUnitCodes(measure: AnalyteMeasure): string[] {
  return measure.units.map((u) => u.ucum);
}

/**
 * Which accepted unit a reading's unit is. Missing: no unit given. Ambiguous: a spelling the row
 * names as not one unit for this analyte (e.g. "%" for a count). Unknown: anything else.
 */
export function resolveUnit(entry: AnalyteEntry, unit: string | undefined): UnitResolution {
  const measure = entry.measure;
  const list = measure ? acceptedUnitCodes(measure).join(", ") : "";
  if (!measure) return { kind: "unknown", reason: `${entry.display} has no unit table` };
  if (unit === undefined || unit.trim() === "")
    return { kind: "missing", reason: `unit missing; ${entry.display} is accepted in ${list}` };
  const spelled = normaliseUnitSpelling(unit);
  const ambiguous = measure.ambiguousUnits?.find((a) => normaliseUnitSpelling(a.spelling) === spelled);
  if (ambiguous)
    return {
      kind: "ambiguous",
      reason: `unit "${unit}" is ambiguous for ${entry.display}: ${ambiguous.reason}`,
    };
  const found = measure.units.find(
    (u) =>
      normaliseUnitSpelling(u.ucum) === spelled ||
      u.spellings.some((s) => normaliseUnitSpelling(s) === spelled),
  );
  return found
    ? { kind: "resolved", unit: found }
    : { kind: "unknown", reason: `unit "${unit}" is not known for ${entry.display} (accepted: ${list})` };
}

/** The value in the canonical unit. */
export function toCanonicalValue(unit: AnalyteUnit, value: number): number {
  return value * unit.toCanonical + (unit.offset ?? 0);
}

/** A canonical value as people read it: whole numbers from 100, else three significant digits. */
export function formatAnalyteValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const rounded = Math.abs(value) >= 100 ? Math.round(value) : Number(value.toPrecision(3));
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

// ---------------------------------------------------------------------------------------------
// Evaluation against the table

export type RangeFlag = "low" | "normal" | "high" | "critical_low" | "critical_high";

export interface AnalyteEvaluation {
  evaluated: true;
  /** The value in the canonical unit (unrounded). */
  canonicalValue: number;
  /** The canonical unit as people write it. */
  unit: string;
  flag: RangeFlag;
  /** The critical limit crossed, if any. */
  critical: CriticalLimit | null;
  /** E.g. "above the epilepsy range (50-100 mg/L) but within the acute mania target (50-125 mg/L)". */
  notes: string[];
  /**
   * Set only when the reading came without a unit and was read by the unit-less rule (decision
   * 180): `only_plausible`, one accepted unit makes the value plausible; `critical_every_reading`,
   * the value is beyond a critical limit under every accepted unit that makes it plausible.
   * `readings` names each plausible reading ("0.4 x10^9/L", "0.4 /uL = 0.0004 x10^9/L").
   */
  unitNotGiven?: { rule: "only_plausible" | "critical_every_reading"; readings: string[] };
}

export interface AnalyteNotEvaluated {
  evaluated: false;
  /** `unit`: missing, unknown or ambiguous unit; `implausible`: outside the plausible range (data quality). */
  reason: "unit" | "implausible";
  detail: string;
  /**
   * A value without a unit refused as ambiguous though one of its plausible readings is beyond a
   * critical limit (decision 180): readers raise it for review above a plain unit gap.
   */
  criticalPossible?: boolean;
}

export interface EvaluateOptions {
  /**
   * A reading without a unit is read by the unit-less rule (`readUnitless`, decision 180): read
   * in the one accepted unit scale that makes it plausible; refused as ambiguous where several
   * do, unless it is beyond a critical limit under every one of them (then critical). Default
   * false: a unitless reading is never evaluated (the sandbox and FHIR always carry a unit).
   */
  unitlessMeansCanonical?: boolean;
}

/**
 * Conversions are floating point: 7.214 mg/dL calcium is 1.8 mmol/L give or take 1e-16. Limits
 * and plausible bounds are compared with this relative slack, always towards the safer side (a
 * value at an inclusive critical limit is critical; a value at a plausible bound is plausible).
 */
const SLACK = 1e-9;
const slack = (limit: number) => SLACK * Math.max(1, Math.abs(limit));

function isBelow(limit: CriticalLimit | undefined, value: number): boolean {
  if (!limit) return false;
  return limit.inclusive ? value <= limit.value + slack(limit.value) : value < limit.value;
}

function isAbove(limit: CriticalLimit | undefined, value: number): boolean {
  if (!limit) return false;
  return limit.inclusive ? value >= limit.value - slack(limit.value) : value > limit.value;
}

/** The ranges a value is read against: the reference range, or every therapeutic range. */
function normalRanges(measure: AnalyteMeasure): readonly (SourcedRange & { indication?: string })[] {
  if (measure.rangeKind === "therapeutic" && measure.therapeutic && measure.therapeutic.length > 0)
    return measure.therapeutic;
  return measure.reference ? [measure.reference] : [];
}

function boundsText(range: SourcedRange, unit: string): string {
  if (range.low !== null && range.high !== null) {
    // Decimals of the more precise bound, so "0.6-1.0" keeps its trailing zero.
    const decimals = Math.max(...[range.low, range.high].map((v) => (String(v).split(".")[1] ?? "").length));
    return `${range.low.toFixed(decimals)}-${range.high.toFixed(decimals)} ${unit}`;
  }
  if (range.high !== null) return `<= ${range.high} ${unit}`;
  return range.low !== null ? `>= ${range.low} ${unit}` : `no range in ${unit}`;
}

/**
 * Critical limits first; then low or high only when outside every normal range (a valproate of
 * 110 mg/L is above the epilepsy range but within the acute mania target, so not high; a note
 * says so).
 */
export function flagCanonicalValue(
  measure: AnalyteMeasure,
  value: number,
): { flag: RangeFlag; critical: CriticalLimit | null; notes: string[] } {
  if (isBelow(measure.criticalLow, value))
    return { flag: "critical_low", critical: measure.criticalLow ?? null, notes: [] };
  if (isAbove(measure.criticalHigh, value))
    return { flag: "critical_high", critical: measure.criticalHigh ?? null, notes: [] };
  const ranges = normalRanges(measure);
  if (ranges.length === 0) return { flag: "normal", critical: null, notes: [] };
  const inside = ranges.filter(
    (r) => (r.low === null || value >= r.low) && (r.high === null || value <= r.high),
  );
  const primary = ranges[0] as SourcedRange & { indication?: string };
  if (inside.length === 0) {
    const below = ranges.every((r) => r.low !== null && value < r.low);
    return { flag: below ? "low" : "high", critical: null, notes: [] };
  }
  const notes: string[] = [];
  if (!inside.includes(primary)) {
    const side = primary.high !== null && value > primary.high ? "Above" : "Below";
    const within = inside
      .map((r) => `the ${r.indication ?? "other"} target (${boundsText(r, measure.displayUnit)})`)
      .join(" and ");
    notes.push(
      `${side} the ${primary.indication ?? "usual"} range (${boundsText(primary, measure.displayUnit)}) but within ${within}; read it against the indication.`,
    );
  }
  return { flag: "normal", critical: null, notes };
}

/**
 * Evaluates one reading of `entry` against the table: resolves its unit, converts to the
 * canonical unit, checks plausibility, then flags it. Null when the analyte has no measurement
 * row. A missing, unknown or ambiguous unit, or an implausible value, is never evaluated.
 */
export function evaluateAnalyteValue(
  entry: AnalyteEntry,
  value: number,
  unit: string | undefined,
  options: EvaluateOptions = {},
): AnalyteEvaluation | AnalyteNotEvaluated | null {
  const measure = entry.measure;
  if (!measure) return null;
  const resolved = resolveUnit(entry, unit);
  if (resolved.kind === "missing" && options.unitlessMeansCanonical)
    return readUnitless(entry, measure, value);
  if (resolved.kind !== "resolved") return { evaluated: false, reason: "unit", detail: resolved.reason };
  const canonical = toCanonicalValue(resolved.unit, value);
  const { low, high } = measure.plausible;
  if (!Number.isFinite(canonical) || canonical < low - slack(low) || canonical > high + slack(high)) {
    const shown = unit === undefined || unit.trim() === "" ? measure.displayUnit : unit;
    return {
      evaluated: false,
      reason: "implausible",
      detail: `${entry.display} ${value} ${shown} is outside the plausible range (${low}-${high} ${measure.displayUnit}); a data-quality problem (wrong unit or entry?), not a result`,
    };
  }
  const { flag, critical, notes } = flagCanonicalValue(measure, canonical);
  if (measure.noRange) notes.push(measure.noRange);
  return { evaluated: true, canonicalValue: canonical, unit: measure.displayUnit, flag, critical, notes };
}

const FLAG_WORDS: Readonly<Record<RangeFlag, string>> = {
  low: "low",
  normal: "within range",
  high: "high",
  critical_low: "critical",
  critical_high: "critical",
};

/** One unit scale of a row: the accepted units sharing one factor and offset (mg/L and µg/mL). */
export interface UnitScale {
  /** The first accepted unit of the scale, in table order. */
  unit: AnalyteUnit;
  /** Every accepted unit on this scale. */
  units: readonly AnalyteUnit[];
}

/** The distinct scales of a row's accepted units, the canonical scale first. */
export function unitScales(measure: AnalyteMeasure): UnitScale[] {
  const scales: { unit: AnalyteUnit; units: AnalyteUnit[] }[] = [];
  for (const u of measure.units) {
    const same = scales.find(
      (s) => s.unit.toCanonical === u.toCanonical && (s.unit.offset ?? 0) === (u.offset ?? 0),
    );
    if (same) same.units.push(u);
    else scales.push({ unit: u, units: [u] });
  }
  return scales;
}

/**
 * Spellings the row names as another unit of the same quantity that the table does not convert
 * (prolactin mIU/L, urea mg/dL, haemoglobin mmol/L): a value without a unit may be in one of
 * them, so the unit-less rule can never rule them out. A spelling for another quantity (a
 * percentage of a count) is not one of them.
 */
export function unconvertedUnits(measure: AnalyteMeasure): readonly { spelling: string; reason: string }[] {
  return (measure.ambiguousUnits ?? []).filter((a) => a.otherQuantity !== true);
}

function isPlausible(measure: AnalyteMeasure, canonical: number): boolean {
  const { low, high } = measure.plausible;
  return Number.isFinite(canonical) && canonical >= low - slack(low) && canonical <= high + slack(high);
}

/** "0.4 x10^9/L" for the canonical scale, "0.4 /uL = 0.0004 x10^9/L" for another. */
function readingUnder(measure: AnalyteMeasure, scale: UnitScale, value: number, canonical: number): string {
  const unitText = scale.units.map((u) => u.ucum).join(" or ");
  if (scale.unit.toCanonical === 1 && (scale.unit.offset ?? 0) === 0)
    return `${value} ${measure.displayUnit}`;
  return `${value} ${unitText} = ${formatAnalyteValue(canonical)} ${measure.displayUnit}`;
}

/**
 * The unit-less rule (decision 180), the one reading of a value sent without a unit. Each
 * distinct unit scale the row accepts is tried: the value is plausible in it or not (the row's
 * plausible range, canonical unit).
 * - plausible in no scale: a data-quality finding (not evaluated, implausible);
 * - plausible in exactly one, and no unconverted unit of the same quantity in use: read in that
 *   scale, with a note naming the unit it was read in;
 * - plausible in several (or an unconverted unit could be meant): beyond a critical limit under
 *   every plausible reading, it is critical (wording: the unit was not given and every plausible
 *   reading is critical); otherwise refused as ambiguous, "not evaluated: unit", never normal.
 * An unconverted unit cannot be read, so with one in use only the refusal remains.
 */
export function readUnitless(
  entry: AnalyteEntry,
  measure: AnalyteMeasure,
  value: number,
): AnalyteEvaluation | AnalyteNotEvaluated {
  const scales = unitScales(measure);
  const readings = scales.map((scale) => {
    const canonical = toCanonicalValue(scale.unit, value);
    return { scale, canonical, plausible: isPlausible(measure, canonical) };
  });
  const plausible = readings.filter((r) => r.plausible);
  const unconverted = unconvertedUnits(measure);
  const accepted = acceptedUnitCodes(measure).join(", ");
  const { low, high } = measure.plausible;
  if (plausible.length === 0 && unconverted.length === 0)
    return {
      evaluated: false,
      reason: "implausible",
      detail: `${entry.display} ${value} without a unit is outside the plausible range (${low}-${high} ${measure.displayUnit}) in every accepted unit (${accepted}); a data-quality problem (wrong unit or entry?), not a result`,
    };
  const flagged = plausible.map((r) => ({ ...r, ...flagCanonicalValue(measure, r.canonical) }));
  const texts = flagged.map((r) => readingUnder(measure, r.scale, value, r.canonical));
  const first = flagged[0];
  if (first && flagged.length === 1 && unconverted.length === 0) {
    const others = readings
      .filter((r) => !r.plausible)
      .map((r) => r.scale.units.map((u) => u.ucum).join(" or "));
    // One scale (lithium mmol/L = mEq/L): the value is read in it, as it always was (decision 65).
    if (others.length === 0)
      return {
        evaluated: true,
        canonicalValue: first.canonical,
        unit: measure.displayUnit,
        flag: first.flag,
        critical: first.critical,
        notes: first.notes,
      };
    return {
      evaluated: true,
      canonicalValue: first.canonical,
      unit: measure.displayUnit,
      flag: first.flag,
      critical: first.critical,
      notes: [
        `Unit not given: read as ${texts[0]}, the only accepted unit in which ${value} is a plausible ${entry.display} value (implausible in ${others.join(", ")}); confirm the unit with the laboratory.`,
        ...first.notes,
      ],
      unitNotGiven: { rule: "only_plausible", readings: texts },
    };
  }
  const isCritical = (f: RangeFlag) => f === "critical_low" || f === "critical_high";
  if (first && unconverted.length === 0 && flagged.every((r) => isCritical(r.flag))) {
    return {
      evaluated: true,
      canonicalValue: first.canonical,
      unit: measure.displayUnit,
      flag: first.flag,
      critical: first.critical,
      notes: [
        `Unit not given: ${value} is beyond a critical limit under every plausible unit reading (${texts.join("; ")}); critical whichever unit was meant. Confirm the unit and the result with the laboratory.`,
      ],
      unitNotGiven: { rule: "critical_every_reading", readings: texts },
    };
  }
  const why =
    unconverted.length > 0
      ? `${entry.display} is also reported in ${unconverted.map((u) => u.spelling).join(", ")}, which the service does not convert`
      : `${value} is plausible in more than one accepted unit (${flagged.map((r, i) => `${texts[i]}: ${FLAG_WORDS[r.flag]}`).join("; ")})`;
  const criticalPossible = flagged.some((r) => isCritical(r.flag));
  return {
    evaluated: false,
    reason: "unit",
    detail: `unit missing; ${entry.display} is accepted in ${accepted}; ${why}, so a value without a unit cannot be read`,
    ...(criticalPossible ? { criticalPossible } : {}),
  };
}

/** "0.6-1.0 mmol/L (therapeutic, maintenance); critical >= 1.5". */
export function measureRangeText(measure: AnalyteMeasure): string {
  const ranges = normalRanges(measure);
  const primary = ranges[0];
  let text = primary ? boundsText(primary, measure.displayUnit) : `no range in ${measure.displayUnit}`;
  const kind =
    measure.rangeKind === "therapeutic" && primary && "indication" in primary
      ? `therapeutic, ${String(primary.indication)}`
      : measure.rangeKind;
  const others = ranges
    .slice(1)
    .map(
      (r) =>
        `${r.high !== null ? `up to ${r.high}` : boundsText(r, measure.displayUnit)} in ${(r as TherapeuticRange).indication}`,
    );
  text += ` (${[kind, ...others].join("; ")})`;
  const limits: string[] = [];
  if (measure.criticalLow)
    limits.push(`${measure.criticalLow.inclusive ? "<=" : "<"} ${measure.criticalLow.value}`);
  if (measure.criticalHigh)
    limits.push(`${measure.criticalHigh.inclusive ? ">=" : ">"} ${measure.criticalHigh.value}`);
  return limits.length === 0 ? text : `${text}; critical ${limits.join(" or ")}`;
}

/** "Lithium 2.6 mmol/L: at or above the 1.5 mmol/L toxicity threshold". */
export function criticalText(entry: AnalyteEntry, evaluation: AnalyteEvaluation): string {
  if (evaluation.unitNotGiven?.rule === "critical_every_reading")
    return `${entry.display} sent without a unit: beyond a critical limit under every plausible unit reading (${evaluation.unitNotGiven.readings.join("; ")})`;
  const limit = evaluation.critical;
  const value = `${entry.display} ${formatAnalyteValue(evaluation.canonicalValue)} ${evaluation.unit}`;
  if (!limit) return value;
  const high = evaluation.flag === "critical_high";
  const side = high ? (limit.inclusive ? "at or above" : "above") : limit.inclusive ? "at or below" : "below";
  return `${value}: ${side} the ${limit.value} ${evaluation.unit} ${limit.name}`;
}

// ---------------------------------------------------------------------------------------------
// Clozapine neutrophil categories (US label and UK monitoring), decision 66

export interface ClozapineAncCategories {
  /** US Clozaril label ANC categories (general population, or the BEN table when indicated). */
  usLabel: { category: string; source: string };
  /** UK monitoring-service colour band (general population thresholds). */
  ukMonitoring: { band: "green" | "amber" | "red"; source: string };
}

const US_CLOZARIL_LABEL =
  "US clozapine labels: ANC categories for the general population and for benign ethnic neutropenia (Clozaril label tables as reproduced in PMC9243911 tables 6-7; current labels on openFDA keep ANC-based dosage modifications, general and BEN, in sections 2.3-2.4, and define severe neutropenia as ANC < 500/µL in the boxed warning)";
const UK_CLOZAPINE_MONITORING =
  "UK clozapine monitoring (Clozaril SmPC via NHS Borders and NHS GGC guidance): green >= 2.0, amber 1.5-2.0, red < 1.5 x10^9/L";

/**
 * The US-label category and the UK band of a neutrophil count in x10^9/L. `ben`: the patient has
 * benign ethnic neutropenia documented by a clinician; only the US-label category changes (its
 * BEN table); the UK bands and the critical limit never loosen (decision 66).
 */
export function clozapineAncCategories(ancGigaPerL: number, ben = false): ClozapineAncCategories {
  const perUl = ancGigaPerL * 1000;
  let category: string;
  if (ben)
    category =
      perUl >= 1000
        ? "normal BEN range (>= 1000/µL)"
        : perUl >= 500
          ? "BEN neutropenia (500-999/µL): haematology consultation"
          : "BEN severe neutropenia (< 500/µL): interrupt clozapine";
  else
    category =
      perUl >= 1500
        ? "normal range (>= 1500/µL)"
        : perUl >= 1000
          ? "mild neutropenia (1000-1499/µL): continue, ANC three times weekly"
          : perUl >= 500
            ? "moderate neutropenia (500-999/µL): interrupt clozapine"
            : "severe neutropenia (< 500/µL): interrupt clozapine, haematology consultation";
  const band = ancGigaPerL >= 2.0 ? "green" : ancGigaPerL >= 1.5 ? "amber" : "red";
  return {
    usLabel: { category, source: US_CLOZARIL_LABEL },
    ukMonitoring: { band, source: UK_CLOZAPINE_MONITORING },
  };
}

/** One sentence naming both categories, for observations and signal details. */
export function clozapineAncText(ancGigaPerL: number, ben = false): string {
  const c = clozapineAncCategories(ancGigaPerL, ben);
  return `On clozapine: US label ${c.usLabel.category}${ben ? " (BEN table)" : ""}; UK monitoring ${c.ukMonitoring.band}.`;
}
