/**
 * The rules keyed on who the patient is (decision 190), as tables `patientFactorFindings`
 * (factors.ts) reads: teratogens in pregnancy and potential pregnancy, medicines to avoid in
 * breastfeeding, renal function against renally cleared medicines, hepatic impairment against the
 * few labels that give a rule. Each row carries its source; `sourceChecked` says whether the
 * cited source (or a faithful copy of it) was read. Levels are the one clinical scale (decision
 * 182); how a label's words map to a level is ours and written once here
 * (docs/engines/evidence.md, "Patient factors").
 */
import type { ClinicalLevel } from "../judgement.js";

export type FactorLevel = Exclude<ClinicalLevel, "none">;

/**
 * Ages (whole years, inclusive) read as childbearing age when a female patient's pregnancy status
 * was not given. The MHRA programmes define childbearing potential by menarche and menopause, not
 * by age; the band is ours (expert-set, decision 190): from 10, before the usual age at menarche
 * so that early menarche is inside it, to 55, the age the MHRA's 2024 valproate and topiramate
 * measures use for "under 55".
 */
export const CHILDBEARING_AGE_YEARS = { min: 10, max: 55 } as const;

export const CHILDBEARING_AGE_SOURCE =
  "MHRA Drug Safety Update April 2018 (valproate Pregnancy Prevention Programme: women and girls of childbearing potential, not pre-pubescent or post-menopausal); MHRA 2024 valproate and topiramate measures (patients under 55); the age band itself is expert-set";

// ---------------------------------------------------------------------------------------------
// Pregnancy

export interface TeratogenRule {
  ingredient: string;
  /** Level when the patient is pregnant. */
  pregnant: FactorLevel;
  /**
   * Level when a pregnancy is possible: `pregnancy: "possible"`, or a female patient of
   * childbearing age (or of unknown age) whose pregnancy status was not given.
   */
  potential: FactorLevel;
  /**
   * Level for a patient of childbearing age stated not pregnant when a pregnancy prevention
   * programme applies to the medicine (contraception and review still needed); absent: none.
   */
  preventionProgramme?: FactorLevel;
  /** The harm, as a clause ("major congenital malformations ..."). */
  harm: string;
  /** What the source asks, as a sentence. */
  asks: string;
  source: string;
  sourceChecked: boolean;
}

const MHRA_AED_2021 =
  "MHRA Drug Safety Update January 2021 (antiepileptic drugs in pregnancy: review of safety data; not opened during this work)";

/**
 * Every ingredient the medicine model marks teratogenic (`teratogenic: true` in
 * knowledge/medicine-properties.ts) has a row; a test keeps it so. A teratogen without a row
 * would be read by `GENERIC_TERATOGEN`.
 */
export const TERATOGEN_RULES: readonly TeratogenRule[] = [
  {
    ingredient: "valproate",
    pregnant: "high",
    potential: "high",
    preventionProgramme: "moderate",
    harm: "major congenital malformations in about 1 in 10 exposed pregnancies and neurodevelopmental disorders in up to 4 in 10 children",
    asks: "Valproate is contraindicated in pregnancy (bipolar disorder; epilepsy only without a suitable alternative) and in women and girls of childbearing potential unless the Pregnancy Prevention Programme's conditions are met (highly effective contraception, annual specialist review, signed risk acknowledgement form).",
    source:
      "MHRA Drug Safety Update April 2018 (valproate Pregnancy Prevention Programme) and January 2024 update, read in NHS copies (NECSU, NHS GGC); NICE CG192 (February 2020 amendment: valproate must not be used in women and girls of childbearing potential unless other options are unsuitable and the programme is in place); US Depakote label, Boxed Warning (fetal risk; not opened)",
    sourceChecked: true,
  },
  {
    ingredient: "topiramate",
    pregnant: "high",
    potential: "moderate",
    preventionProgramme: "low",
    harm: "major congenital malformations, low birth weight and a 2 to 3 times higher risk of intellectual disability, autism and ADHD",
    asks: "Topiramate is contraindicated in pregnancy for migraine and for epilepsy unless no suitable alternative, and in women of childbearing potential unless a Pregnancy Prevention Programme is in place (pregnancy test before starting, effective contraception, annual review).",
    source:
      "MHRA Drug Safety Update June 2024 (topiramate Pregnancy Prevention Programme), read in secondary reports (Epilepsy Scotland, Pharmacy Biz, Enhanced Primary Care)",
    sourceChecked: true,
  },
  {
    ingredient: "carbamazepine",
    pregnant: "moderate",
    potential: "low",
    harm: "a higher risk of major congenital malformations (neural tube defects among them)",
    asks: "Discuss the risk and alternatives; NICE CG192 advises against carbamazepine for a mental health problem in pregnancy and links the MHRA antiepileptic advice.",
    source: `${MHRA_AED_2021}; NICE CG192 (May 2021 link to the MHRA advice on carbamazepine)`,
    sourceChecked: false,
  },
  {
    ingredient: "lithium",
    pregnant: "moderate",
    potential: "low",
    harm: "cardiac malformations (Ebstein's anomaly) after first-trimester use, and maternal or neonatal toxicity late in pregnancy",
    asks: "If lithium continues in pregnancy, monitor serum levels and adjust the dose, and reduce or stop it 2 to 3 days before delivery; advise of the risk to the fetus.",
    source:
      "US lithium label, 8.1 Pregnancy (risk summary and clinical considerations; read in a copy of the label)",
    sourceChecked: true,
  },
  {
    ingredient: "paroxetine",
    pregnant: "moderate",
    potential: "low",
    harm: "cardiac malformations after first-trimester exposure",
    asks: "Weigh switching to another treatment in a pregnancy or one being planned.",
    source:
      "Paxil (paroxetine) US label, Use in Pregnancy (first-trimester cardiovascular malformations; not opened)",
    sourceChecked: false,
  },
  {
    ingredient: "phenytoin",
    pregnant: "moderate",
    potential: "low",
    harm: "major congenital malformations (fetal hydantoin syndrome) and possible neurodevelopmental effects",
    asks: "Discuss the risk and effective contraception; review treatment before a pregnancy.",
    source: MHRA_AED_2021,
    sourceChecked: false,
  },
  {
    ingredient: "fosphenytoin",
    pregnant: "moderate",
    potential: "low",
    harm: "the risks of phenytoin, of which it is the prodrug",
    asks: "Discuss the risk and effective contraception; review treatment before a pregnancy.",
    source: `${MHRA_AED_2021}; Cerebyx (fosphenytoin) US label (prodrug of phenytoin; not opened)`,
    sourceChecked: false,
  },
  {
    ingredient: "phenobarbital",
    pregnant: "moderate",
    potential: "low",
    harm: "major congenital malformations and reduced growth",
    asks: "Discuss the risk and effective contraception; review treatment before a pregnancy.",
    source: MHRA_AED_2021,
    sourceChecked: false,
  },
  {
    ingredient: "primidone",
    pregnant: "moderate",
    potential: "low",
    harm: "the risks of phenobarbital, its active metabolite",
    asks: "Discuss the risk and effective contraception; review treatment before a pregnancy.",
    source: `${MHRA_AED_2021}; Mysoline (primidone) US label (phenobarbital metabolite; not opened)`,
    sourceChecked: false,
  },
  {
    ingredient: "warfarin",
    pregnant: "high",
    potential: "low",
    harm: "embryopathy and fetal bleeding",
    asks: "Warfarin is contraindicated in pregnancy except in women with mechanical heart valves at high thromboembolic risk.",
    source: "Coumadin (warfarin) US label, Contraindications (pregnancy; not opened)",
    sourceChecked: false,
  },
  {
    ingredient: "tamoxifen",
    pregnant: "moderate",
    potential: "low",
    harm: "fetal harm",
    asks: "Exclude pregnancy before starting and advise effective non-hormonal contraception during treatment.",
    source: "Nolvadex/Soltamox (tamoxifen) US label, Use in Pregnancy (not opened)",
    sourceChecked: false,
  },
];

/** Read for an ingredient the model marks teratogenic without a row of its own. */
export const GENERIC_TERATOGEN: Omit<TeratogenRule, "ingredient" | "source" | "sourceChecked"> = {
  pregnant: "moderate",
  potential: "low",
  harm: "harm to the fetus",
  asks: "Review the label's pregnancy section and the need for the medicine.",
};

// ---------------------------------------------------------------------------------------------
// Breastfeeding

export interface BreastfeedingRule {
  ingredient: string;
  level: FactorLevel;
  asks: string;
  source: string;
  sourceChecked: boolean;
}

const NICE_CG192_BREASTFEEDING =
  "NICE CG192 recommendation 1.9.8 (encourage breastfeeding unless the woman takes carbamazepine, clozapine or lithium; as quoted in the 2017 surveillance report)";

/** Only medicines whose label or guideline gives a breastfeeding rule (decision 190). */
export const BREASTFEEDING_RULES: readonly BreastfeedingRule[] = [
  {
    ingredient: "lithium",
    // A label contraindication is high, as valproate in pregnancy (decision 197).
    level: "high",
    asks: "Lithium passes into breast milk; the UK label contraindicates it in lactation and the US label does not recommend breastfeeding.",
    source: `Priadel (lithium) SmPC, 4.3 Contraindications (lactation; read in a copy of the Irish SmPC 2021); US lithium label, Lactation (breastfeeding not recommended; read in a summary); ${NICE_CG192_BREASTFEEDING}`,
    sourceChecked: true,
  },
  {
    ingredient: "clozapine",
    level: "moderate",
    asks: "Clozapine passes into breast milk (risk of agranulocytosis and sedation in the infant); breastfeeding is not advised.",
    source: `${NICE_CG192_BREASTFEEDING}; Clozaril UK SmPC, 4.6 (mothers taking clozapine should not breastfeed; not opened)`,
    sourceChecked: true,
  },
  {
    ingredient: "carbamazepine",
    level: "low",
    asks: "NICE does not encourage breastfeeding on carbamazepine; watch the infant if breastfeeding continues.",
    source: NICE_CG192_BREASTFEEDING,
    sourceChecked: true,
  },
];

// ---------------------------------------------------------------------------------------------
// Renal function

/** Which renal measure a label states its cut-offs in. */
export type RenalMeasure = "creatinine clearance" | "eGFR";

export interface RenalBand {
  /** Applies when the measure is below this value (mL/min, or mL/min/1.73 m2 for eGFR). */
  below: number;
  level: FactorLevel;
  /** What the label asks at this function, as a sentence. */
  asks: string;
}

export interface RenalRule {
  ingredient: string;
  /** The measure the label's cut-offs are in. */
  measure: RenalMeasure;
  /** Lowest cut-off first: the first band whose `below` the value is under applies. */
  bands: readonly RenalBand[];
  source: string;
  sourceChecked: boolean;
}

/**
 * Renally cleared medicines whose labels give cut-offs. Any other ingredient the model marks
 * renally eliminated (`renal: true`) is read by `GENERIC_RENAL`.
 */
export const RENAL_RULES: readonly RenalRule[] = [
  {
    ingredient: "lithium",
    measure: "creatinine clearance",
    bands: [
      {
        below: 30,
        level: "high",
        asks: "Lithium is contraindicated in severe renal insufficiency (UK SmPC) and not recommended in severe renal impairment (US label); NICE CG185 asks for renal function every 6 months and more often when it is impaired.",
      },
      {
        below: 60,
        level: "moderate",
        asks: "Moderate renal impairment: start at a lower dose, titrate slowly and measure serum levels and renal function more often (UK SmPC, US label).",
      },
    ],
    source:
      "Priadel (lithium) SmPC, 4.3 (severe renal insufficiency contraindicated) and 4.4 (mild or moderate renal impairment: close monitoring of serum levels; read in a copy of the Irish SmPC 2021); US lithium label, 8.6 Renal Impairment (mild to moderate: lower doses and slow titration; severe: not recommended; cut-offs 30 and 89 mL/min as recalled, not opened); NICE CG185 (renal function every 6 months); band edges at KDIGO G2/G3/G4 boundaries",
    sourceChecked: false,
  },
  {
    ingredient: "gabapentin",
    measure: "creatinine clearance",
    bands: [
      {
        below: 60,
        level: "moderate",
        asks: "Dose by creatinine clearance: 400-1400 mg/day at 30-59 mL/min, 200-700 mg/day at 15-29, 100-300 mg/day below 15 (reduced in proportion below 15).",
      },
    ],
    source:
      "Neurontin (gabapentin) US label, 2.4 Dosage adjustment in renal impairment (Table 1; read as quoted in secondary summaries)",
    sourceChecked: true,
  },
  {
    ingredient: "pregabalin",
    measure: "creatinine clearance",
    bands: [
      {
        below: 60,
        level: "moderate",
        asks: "Dose by creatinine clearance: 75-300 mg/day at 30-60 mL/min, 25-150 mg/day at 15-30, 25-75 mg/day below 15.",
      },
    ],
    source:
      "Lyrica (pregabalin) US label, Dosage in renal impairment (table as quoted in secondary summaries; the label was not opened)",
    sourceChecked: false,
  },
  {
    ingredient: "amisulpride",
    measure: "creatinine clearance",
    bands: [
      {
        below: 10,
        level: "high",
        asks: "No data below 10 mL/min: the label asks for particular caution (some SmPCs contraindicate severe renal impairment).",
      },
      {
        below: 60,
        level: "moderate",
        asks: "Halve the dose at creatinine clearance 30-60 mL/min and give a third of it at 10-30 mL/min.",
      },
    ],
    source:
      "Solian (amisulpride) SmPC, 4.2 Renal insufficiency (read in the Singapore HSA label text and an Italian SmPC); Amilia SmPC (severe renal impairment contraindicated)",
    sourceChecked: true,
  },
  {
    ingredient: "paliperidone",
    measure: "creatinine clearance",
    bands: [
      {
        below: 10,
        level: "high",
        asks: "Not studied below 10 mL/min: use is not recommended.",
      },
      {
        below: 50,
        level: "moderate",
        asks: "Moderate to severe impairment (10-49 mL/min): oral 1.5 mg daily, at most 3 mg; the monthly injection is not recommended.",
      },
      {
        below: 80,
        level: "moderate",
        asks: "Mild impairment (50-79 mL/min): oral 3 mg daily, at most 6 mg; reduced doses of the monthly injection.",
      },
    ],
    source:
      "Invega (paliperidone) and Invega Sustenna US labels, Dosage in renal impairment (read in a copy of the label text)",
    sourceChecked: true,
  },
  {
    ingredient: "desvenlafaxine",
    measure: "creatinine clearance",
    bands: [
      {
        below: 30,
        level: "moderate",
        asks: "Severe impairment or end-stage renal disease: 25 mg daily or 50 mg every other day; no supplemental dose after dialysis.",
      },
      {
        below: 50,
        level: "low",
        asks: "Moderate impairment (30-50 mL/min): at most 50 mg a day.",
      },
    ],
    source:
      "Pristiq (desvenlafaxine) US label, Dosage in renal impairment (read in secondary summaries; the label was not opened)",
    sourceChecked: false,
  },
  {
    ingredient: "topiramate",
    measure: "creatinine clearance",
    bands: [
      {
        below: 70,
        level: "moderate",
        asks: "Creatinine clearance below 70 mL/min: half the usual adult dose.",
      },
    ],
    source: "Topamax (topiramate) US label, Dosage in renal impairment (as recalled; not opened)",
    sourceChecked: false,
  },
];

/**
 * Any other renally eliminated ingredient: one cut-off, the KDIGO G3a boundary (below 60 is
 * decreased GFR), where most labels begin to adjust the dose (decision 190).
 */
export const GENERIC_RENAL: Omit<RenalRule, "ingredient"> = {
  measure: "creatinine clearance",
  bands: [
    {
      below: 60,
      level: "low",
      asks: "Renally eliminated: the label adjusts the dose in renal impairment.",
    },
  ],
  source:
    "Each product's US label, Dosage in renal impairment, and the BNF (renal impairment), as recorded in the medicine model's renal property; cut-off at the KDIGO 2012 G3a boundary (60 mL/min/1.73 m2)",
  sourceChecked: false,
};

/** KDIGO 2012 GFR categories (mL/min/1.73 m2), lowest first, for wording a renal finding. */
export const KDIGO_GFR_CATEGORIES: readonly { below: number; category: string; term: string }[] = [
  { below: 15, category: "G5", term: "kidney failure" },
  { below: 30, category: "G4", term: "severely decreased" },
  { below: 45, category: "G3b", term: "moderately to severely decreased" },
  { below: 60, category: "G3a", term: "mildly to moderately decreased" },
  { below: 90, category: "G2", term: "mildly decreased" },
  { below: Number.POSITIVE_INFINITY, category: "G1", term: "normal or high" },
];

export const KDIGO_SOURCE =
  "KDIGO 2012 Clinical Practice Guideline for the Evaluation and Management of CKD, Kidney Int Suppl 3:19-62, GFR categories G1-G5 (table read in reproductions)";

// ---------------------------------------------------------------------------------------------
// Hepatic impairment

export type HepaticGrade = "mild" | "moderate" | "severe";

export interface HepaticRule {
  ingredient: string;
  /** Level per grade of impairment; a grade not listed gives no finding. */
  levels: Partial<Record<HepaticGrade, FactorLevel>>;
  asks: string;
  source: string;
  sourceChecked: boolean;
}

/**
 * Only labels that give a rule (decision 190). Citalopram's 20 mg/day maximum in hepatic
 * impairment is the interaction checker's dose limit, which already asks to check hepatic
 * function; it is not repeated here.
 */
export const HEPATIC_RULES: readonly HepaticRule[] = [
  {
    ingredient: "agomelatine",
    levels: { mild: "high", moderate: "high", severe: "high" },
    asks: "Agomelatine is contraindicated in hepatic impairment (cirrhosis or active liver disease) and with transaminases above 3 times the upper limit of normal.",
    source:
      "Valdoxan (agomelatine) SmPC, 4.3 Contraindications (read in a copy of the EU SmPC and a Maltese generic's SmPC)",
    sourceChecked: true,
  },
  {
    ingredient: "valproate",
    levels: { mild: "moderate", moderate: "high", severe: "high" },
    asks: "Valproate is contraindicated in hepatic disease or significant hepatic dysfunction (risk of fatal hepatotoxicity).",
    source:
      "Depakote (divalproex) US label, Boxed Warning (hepatotoxicity) and Contraindications (not opened)",
    sourceChecked: false,
  },
  {
    ingredient: "duloxetine",
    levels: { mild: "high", moderate: "high", severe: "high" },
    asks: "Avoid duloxetine in hepatic insufficiency or chronic liver disease.",
    source:
      "Cymbalta (duloxetine) US label, Dosage in hepatic impairment and Warnings (hepatotoxicity; not opened)",
    sourceChecked: false,
  },
];

// ---------------------------------------------------------------------------------------------
// Male patients

export interface MaleRule {
  ingredient: string;
  /** Applies to a male patient younger than this, or of unknown age. */
  belowAgeYears: number;
  level: FactorLevel;
  asks: string;
  source: string;
  sourceChecked: boolean;
}

/** Measures a regulator applies to male patients (decision 190). */
export const MALE_RULES: readonly MaleRule[] = [
  {
    ingredient: "valproate",
    belowAgeYears: 55,
    level: "low",
    asks: "Valproate is not to be started in a male patient under 55 unless two specialists agree no other treatment is effective or tolerated; discuss the risks of infertility and testicular toxicity, and of neurodevelopmental disorders in children conceived during treatment (effective contraception).",
    source:
      "MHRA Drug Safety Updates January 2024 (valproate: new measures for patients under 55, males included) and September 2024 (possible neurodevelopmental risk in children of fathers taking valproate around conception), read in an NHS GGC copy",
    sourceChecked: true,
  },
];

/** A finding that could not be judged is at least this (decision 80). */
export const FACTOR_NOT_EVALUATED_LEVEL: FactorLevel = "low";
