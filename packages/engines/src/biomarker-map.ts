/**
 * Psychiatric relevance of common laboratory analytes, used by the biomarker engine. Each entry has
 * a canonical key (signal key `bio_<key>`), name variants, what a high or low result can mean in
 * psychiatric care, the tone of a high or low flag, and LOINC codes ONLY where the code was seen
 * paired with the analyte in a public source (listed per code in docs/engines/biomarker.md).
 * Unverified codes are left out on purpose: no code is better than a wrong one.
 */

export type FlagTone = "watch" | "elevated";

/** What a LOINC code measures; decides which code fits a reading's unit. */
export type LoincProperty = "mass" | "moles" | "units" | "count" | "activity" | "fraction" | "volume";

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
}

const W: FlagTone = "watch";
const E: FlagTone = "elevated";

export const BIOMARKER_MAP: readonly AnalyteEntry[] = [
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
  },
  {
    key: "urea",
    display: "Urea / BUN",
    variants: ["urea", "bun", "blood urea nitrogen", "urea nitrogen", "serum urea"],
    high: "High urea suggests dehydration or renal impairment, relevant to lithium levels.",
    low: "Low urea can reflect low protein intake or overhydration (for example polydipsia).",
    toneHigh: W,
    toneLow: W,
    // Urea nitrogen (BUN) is not urea: the code is kept only when the caller sends it.
    loinc: [
      {
        code: "3094-0",
        display: "Urea nitrogen [Mass/volume] in Serum or Plasma",
        property: "mass",
        byDefault: false,
      },
    ],
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
    loinc: [{ code: "4548-4", display: "Hemoglobin A1c/Hemoglobin.total in Blood", property: "fraction" }],
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
    } else if (property === null) {
      return ref;
    }
  }
  return null;
}
