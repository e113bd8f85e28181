/**
 * The medicine model: every ingredient the service recognises (generic names, salts, spellings,
 * brands where a source gives them), the combination products it knows with every ingredient,
 * the pharmacological classes interaction rules select on, the QT risk category, CYP roles and
 * RxNorm codes where verified. Each fact is written here once; the interaction checker
 * (tools/drug-names.ts, tools/interaction-rules.ts) reads it. Sources and evidence levels:
 * docs/engines/interactions.md ("The medicine model"); the choices are decisions 68-71.
 */

/**
 * Classes the interaction rules select on. A class is a shared property that drives an
 * interaction (for example "strong CYP2D6 inhibitor"), not a therapeutic category, except the two
 * therapeutic classes `mood_stabiliser` and `antipsychotic`, which the relapse signal tool reads
 * (a stopped maintenance medicine, decision 78). The QT and CYP classes are derived from QT_RISK
 * and CYP_ROLES below, never written on an ingredient.
 */
export const DRUG_CLASSES = [
  "ssri",
  "snri",
  "tca",
  "maoi",
  /** Antidepressants with serotonergic action outside the SSRI/SNRI/TCA/MAOI groups. */
  "other_serotonergic_antidepressant",
  /** Opioids and antitussives with serotonin reuptake inhibition (FDA 2016 opioid class labelling). */
  "serotonergic_opioid",
  "opioid",
  "triptan",
  "benzodiazepine",
  "z_drug",
  "gabapentinoid",
  /** A systemic NSAID; a topical one reads as `topical_nsaid` (decision 71). */
  "nsaid",
  "ace_inhibitor",
  "arb",
  "thiazide",
  "loop_diuretic",
  "anticoagulant",
  "antiplatelet",
  "hormonal_contraceptive",
  /** Anticholinergic Cognitive Burden scale score 3 (Boustani et al. 2008). */
  "anticholinergic_high",
  "stimulant",
  "sympathomimetic",
  /** Antipsychotics with marked sedation, added to CNS-depressant stacking with opioids. */
  "sedating_antipsychotic",
  /** CYP3A4-inhibiting macrolides that raise carbamazepine. */
  "cyp3a4_inhibiting_macrolide",
  /**
   * Long-term (maintenance) treatments of bipolar disorder: lithium and valproate (NICE CG185),
   * lamotrigine and carbamazepine (BAP bipolar guidelines). Therapeutic class; no rule selects on it.
   */
  "mood_stabiliser",
  /** WHO ATC group N05A (antipsychotics) without N05AN (lithium). Therapeutic class; no rule selects on it. */
  "antipsychotic",
  /**
   * WHO ATC group N06A (antidepressants) and St John's wort. Therapeutic class; the relapse signal
   * tool reads it (stopping an antidepressant, with its discontinuation syndrome).
   */
  "antidepressant",
  // Derived from QT_RISK (CredibleMeds categories; decision 70)
  "qt_known_risk",
  "qt_possible_risk",
  "qt_conditional_risk",
  // Derived from CYP_ROLES (FDA table of substrates, inhibitors and inducers)
  "strong_cyp2d6_inhibitor",
  "moderate_cyp2d6_inhibitor",
  "strong_cyp1a2_inhibitor",
  "strong_cyp3a4_inhibitor",
  "moderate_cyp3a4_inhibitor",
  "cyp2c19_inhibitor",
  /** Strong CYP3A4 inducers (which also induce glucuronidation), lowering many psychotropics. */
  "strong_inducer",
  "cyp1a2_inducer",
] as const;
export type DrugClass = (typeof DRUG_CLASSES)[number];

/** Classes derived from the route of one entry rather than held by an ingredient (decision 71). */
export const ROUTE_CLASSES = ["topical_nsaid"] as const;
export type RouteClass = (typeof ROUTE_CLASSES)[number];

/** A class a rule can select on: held by an ingredient, or derived from the entry's route. */
export type SelectableClass = DrugClass | RouteClass;

// ---------------------------------------------------------------------------------------------
// QT risk (CredibleMeds categories)

/**
 * CredibleMeds' categories of torsade de pointes (TdP) risk: known (prolongs QT and clearly
 * associated with TdP even when taken as recommended), possible (prolongs QT, no convincing
 * evidence of TdP when taken as recommended), conditional (TdP only under certain conditions:
 * excessive dose, hypokalaemia, interacting drugs). Definitions as published on crediblemeds.org.
 */
export type QtRisk = "known" | "possible" | "conditional";

export interface QtRiskEntry {
  risk: QtRisk;
  /** Where the category comes from. */
  source: string;
  /** True when the cited source (or a faithful copy) was read during this task. */
  sourceChecked: boolean;
}

const CREDIBLEMEDS_KNOWN =
  "CredibleMeds QTdrugs list, known risk of TdP (membership as commonly cited; the list itself needs registration and was not opened)";

function knownRisk(): QtRiskEntry {
  return { risk: "known", source: CREDIBLEMEDS_KNOWN, sourceChecked: false };
}

/** QT risk category per ingredient; an ingredient not listed has none recorded (not "no risk"). */
export const QT_RISK: Readonly<Record<string, QtRiskEntry>> = {
  citalopram: {
    risk: "known",
    source: `${CREDIBLEMEDS_KNOWN}; FDA Drug Safety Communications 24 Aug 2011 and 28 Mar 2012 (dose-dependent QT prolongation)`,
    sourceChecked: true,
  },
  escitalopram: knownRisk(),
  haloperidol: knownRisk(),
  chlorpromazine: knownRisk(),
  pimozide: knownRisk(),
  thioridazine: knownRisk(),
  methadone: knownRisk(),
  amiodarone: knownRisk(),
  sotalol: knownRisk(),
  quinidine: knownRisk(),
  ciprofloxacin: knownRisk(),
  levofloxacin: knownRisk(),
  moxifloxacin: knownRisk(),
  clarithromycin: knownRisk(),
  erythromycin: knownRisk(),
  azithromycin: knownRisk(),
  fluconazole: knownRisk(),
  hydroxychloroquine: knownRisk(),
  ondansetron: knownRisk(),
  domperidone: knownRisk(),
  donepezil: knownRisk(),
  quetiapine: {
    risk: "conditional",
    source:
      "Seroquel (quetiapine) US label, Warnings (QT prolongation: post-marketing cases in overdose, concomitant illness and with drugs that prolong QT or cause electrolyte imbalance), which is CredibleMeds' definition of conditional risk; TGA Medicines Safety Update (quetiapine and QT prolongation)",
    sourceChecked: true,
  },
  clozapine: {
    risk: "conditional",
    source:
      "Clozaril (clozapine) US label, Warnings (QT interval prolongation: torsade de pointes and sudden death with risk factors and QT-prolonging drugs); category placed by that definition",
    sourceChecked: false,
  },
  trazodone: {
    risk: "conditional",
    source:
      "Trazodone US label, Warnings (QT prolongation and torsade de pointes reported post-marketing); category placed by that definition",
    sourceChecked: false,
  },
  paliperidone: {
    risk: "possible",
    source:
      "Invega (paliperidone) US label, Warnings (modest QTc increase; avoid with other QT-prolonging drugs; no TdP signal stated)",
    sourceChecked: false,
  },
};

/** Ingredients whose own label tells prescribers to avoid other QT-prolonging drugs. */
export const QT_LABEL_AVOID: Readonly<Record<string, string>> = {
  quetiapine:
    "Seroquel (quetiapine) US label, Warnings (QT prolongation) and Drug Interactions: avoid with other drugs known to increase QTc, including class 1A and III antiarrhythmics, antipsychotics, antibiotics, citalopram, pentamidine and methadone",
  paliperidone:
    "Invega (paliperidone) US label, Warnings (QT prolongation): avoid with other drugs known to prolong QTc",
};

// ---------------------------------------------------------------------------------------------
// CYP roles (FDA table of substrates, inhibitors and inducers)

export type CypEnzyme = "CYP1A2" | "CYP2C19" | "CYP2D6" | "CYP3A4";
export type CypStrength = "strong" | "moderate" | "weak";

export interface CypRoles {
  inhibitor?: Partial<Record<CypEnzyme, CypStrength>>;
  inducer?: Partial<Record<CypEnzyme, CypStrength>>;
  /** Enzymes that clear the drug (or activate it, for tamoxifen) to a clinically relevant degree. */
  substrate?: readonly CypEnzyme[];
  source: string;
}

const FDA_CYP_TABLE =
  "FDA, Drug Development and Drug Interactions: Table of Substrates, Inhibitors and Inducers";

/** CYP roles per ingredient; only the roles the interaction rules or warnings use. */
export const CYP_ROLES: Readonly<Record<string, CypRoles>> = {
  fluoxetine: {
    inhibitor: { CYP2D6: "strong", CYP2C19: "moderate" },
    source: `${FDA_CYP_TABLE} (CYP2D6); PKIS perpetrator table, pkis.org (moderate CYP2C19 inhibitor)`,
  },
  paroxetine: { inhibitor: { CYP2D6: "strong" }, source: FDA_CYP_TABLE },
  bupropion: { inhibitor: { CYP2D6: "strong" }, source: FDA_CYP_TABLE },
  quinidine: { inhibitor: { CYP2D6: "strong" }, source: FDA_CYP_TABLE },
  duloxetine: {
    inhibitor: { CYP2D6: "moderate" },
    substrate: ["CYP1A2", "CYP2D6"],
    source: `${FDA_CYP_TABLE} (duloxetine: moderate CYP2D6 inhibitor, as restated in Clin Pharmacol Ther 2020;108:116-125, Table 4)`,
  },
  terbinafine: {
    inhibitor: { CYP2D6: "moderate" },
    source: `${FDA_CYP_TABLE} (as restated in a clinical reference table built on it)`,
  },
  fluvoxamine: {
    inhibitor: { CYP1A2: "strong", CYP2C19: "strong" },
    source: `${FDA_CYP_TABLE}; Clozaril (clozapine) US label, Table 1 (strong CYP1A2 inhibitor)`,
  },
  ciprofloxacin: {
    inhibitor: { CYP1A2: "strong" },
    source: `${FDA_CYP_TABLE}; Clozaril (clozapine) US label, Table 1 (strong CYP1A2 inhibitor)`,
  },
  ketoconazole: { inhibitor: { CYP3A4: "strong" }, source: FDA_CYP_TABLE },
  itraconazole: { inhibitor: { CYP3A4: "strong" }, source: FDA_CYP_TABLE },
  voriconazole: { inhibitor: { CYP3A4: "strong" }, source: FDA_CYP_TABLE },
  posaconazole: { inhibitor: { CYP3A4: "strong" }, source: FDA_CYP_TABLE },
  ritonavir: { inhibitor: { CYP3A4: "strong" }, source: FDA_CYP_TABLE },
  clarithromycin: { inhibitor: { CYP3A4: "strong" }, source: FDA_CYP_TABLE },
  erythromycin: {
    inhibitor: { CYP3A4: "moderate" },
    source: `${FDA_CYP_TABLE}; Clozaril (clozapine) US label, Table 1 (CYP3A4 inhibitor)`,
  },
  fluconazole: { inhibitor: { CYP2C19: "strong", CYP3A4: "moderate" }, source: FDA_CYP_TABLE },
  cimetidine: {
    inhibitor: { CYP2C19: "weak" },
    source:
      "Celexa (citalopram) US label, Dosage (20 mg/day maximum with cimetidine or another CYP2C19 inhibitor); Clozaril US label, Table 1",
  },
  carbamazepine: { inducer: { CYP3A4: "strong" }, source: FDA_CYP_TABLE },
  phenytoin: { inducer: { CYP3A4: "strong" }, source: FDA_CYP_TABLE },
  rifampicin: { inducer: { CYP3A4: "strong" }, source: FDA_CYP_TABLE },
  "st johns wort": { inducer: { CYP3A4: "strong" }, source: FDA_CYP_TABLE },
  phenobarbital: {
    inducer: { CYP3A4: "strong" },
    source: "Reference texts (broad enzyme inducer); not checked in the FDA table",
  },
  primidone: {
    inducer: { CYP3A4: "strong" },
    source: "Reference texts (metabolised to phenobarbital); not checked in the FDA table",
  },
  "tobacco smoke": {
    inducer: { CYP1A2: "moderate" },
    source: `${FDA_CYP_TABLE} (tobacco smoking); Clozaril (clozapine) US label, Table 1`,
  },
  omeprazole: {
    inducer: { CYP1A2: "weak" },
    source: "Clozaril (clozapine) US label, Table 1 (moderate or weak CYP1A2 or CYP3A4 inducers)",
  },
  clozapine: {
    substrate: ["CYP1A2", "CYP3A4", "CYP2D6"],
    source: "Clozaril (clozapine) US label, Clinical Pharmacology and Table 1",
  },
  olanzapine: { substrate: ["CYP1A2"], source: "Zyprexa (olanzapine) US label, Drug Interactions" },
  quetiapine: { substrate: ["CYP3A4"], source: FDA_CYP_TABLE },
  citalopram: {
    substrate: ["CYP2C19", "CYP3A4"],
    source: "Celexa (citalopram) US label, Clinical Pharmacology",
  },
  lurasidone: { substrate: ["CYP3A4"], source: "Latuda (lurasidone) US label, Drug Interactions" },
  alprazolam: { substrate: ["CYP3A4"], source: "Xanax (alprazolam) US label, Contraindications" },
  aripiprazole: {
    substrate: ["CYP2D6", "CYP3A4"],
    source: "Abilify (aripiprazole) label, Dosage (dose modifications)",
  },
  tamoxifen: { substrate: ["CYP2D6"], source: "Kelly et al. 2010, BMJ 340:c693 (activation to endoxifen)" },
};

/** The QT and CYP classes one ingredient holds, derived from QT_RISK and CYP_ROLES. */
function derivedClasses(ingredient: string): DrugClass[] {
  const classes: DrugClass[] = [];
  const qt = QT_RISK[ingredient]?.risk;
  if (qt !== undefined) classes.push(`qt_${qt}_risk`);
  const roles = CYP_ROLES[ingredient];
  const inhibits = roles?.inhibitor ?? {};
  const induces = roles?.inducer ?? {};
  if (inhibits.CYP2D6 === "strong") classes.push("strong_cyp2d6_inhibitor");
  if (inhibits.CYP2D6 === "moderate") classes.push("moderate_cyp2d6_inhibitor");
  if (inhibits.CYP1A2 === "strong") classes.push("strong_cyp1a2_inhibitor");
  if (inhibits.CYP3A4 === "strong") classes.push("strong_cyp3a4_inhibitor");
  if (inhibits.CYP3A4 === "moderate") classes.push("moderate_cyp3a4_inhibitor");
  if (inhibits.CYP2C19 !== undefined) classes.push("cyp2c19_inhibitor");
  if (induces.CYP3A4 === "strong") classes.push("strong_inducer");
  if (induces.CYP1A2 !== undefined) classes.push("cyp1a2_inducer");
  return classes;
}

// ---------------------------------------------------------------------------------------------
// Ingredients

export interface IngredientEntry {
  /** Canonical lower-case generic name. */
  ingredient: string;
  /** Pharmacological classes plus the QT and CYP classes derived from QT_RISK and CYP_ROLES. */
  classes: readonly DrugClass[];
  /** Other generic names, salts and spellings that mean this ingredient (lower case). */
  names: readonly string[];
  /** Well-known brand names of single-ingredient products only (lower case). */
  brands: readonly string[];
  /** RxNorm ingredient RxCUI, only where verified (docs/engines/interactions.md, "RxNorm codes"). */
  rxcui: string | null;
  /** CredibleMeds-style QT risk category, or null when none is recorded. */
  qtRisk: QtRisk | null;
}

interface BaseEntry {
  ingredient: string;
  classes: readonly DrugClass[];
  names: readonly string[];
  brands: readonly string[];
  rxcui: string | null;
}

interface EntryOptions {
  names?: readonly string[];
  brands?: readonly string[];
  rxcui?: string;
}

function entry(ingredient: string, classes: readonly DrugClass[], options: EntryOptions = {}): BaseEntry {
  return {
    ingredient,
    classes,
    names: options.names ?? [],
    brands: options.brands ?? [],
    rxcui: options.rxcui ?? null,
  };
}

// RxCUIs: CPIC drug table, github.com/cpicpgx/cpic-schema drug.sql (commit 05f9b09c), rows
// "RxNorm:<code>\t<name>", read 2026-11-23; the same source as docs/terminology.md. Ingredients
// without a CPIC row carry no code.

/** Every ingredient, grouped loosely by use; QT and CYP classes are added from the tables above. */
const BASE_INGREDIENTS: readonly BaseEntry[] = [
  // Antidepressants: SSRIs
  entry("sertraline", ["ssri", "antidepressant"], { brands: ["zoloft", "lustral"], rxcui: "36437" }),
  entry("fluoxetine", ["ssri", "antidepressant"], { brands: ["prozac", "sarafem"], rxcui: "4493" }),
  entry("paroxetine", ["ssri", "anticholinergic_high", "antidepressant"], {
    brands: ["paxil", "seroxat"],
    rxcui: "32937",
  }),
  entry("citalopram", ["ssri", "antidepressant"], { brands: ["celexa", "cipramil"], rxcui: "2556" }),
  entry("escitalopram", ["ssri", "antidepressant"], { brands: ["lexapro", "cipralex"], rxcui: "321988" }),
  entry("fluvoxamine", ["ssri", "antidepressant"], { brands: ["luvox", "faverin"], rxcui: "42355" }),
  entry("vilazodone", ["ssri", "antidepressant"], { brands: ["viibryd"] }),
  // SNRIs
  entry("venlafaxine", ["snri", "antidepressant"], { brands: ["effexor"], rxcui: "39786" }),
  entry("desvenlafaxine", ["snri", "antidepressant"], { brands: ["pristiq"] }),
  entry("duloxetine", ["snri", "antidepressant"], { brands: ["cymbalta"], rxcui: "72625" }),
  entry("milnacipran", ["snri", "antidepressant"], { brands: ["savella"] }),
  entry("levomilnacipran", ["snri", "antidepressant"], { brands: ["fetzima"] }),
  // Tricyclics
  entry("amitriptyline", ["tca", "anticholinergic_high", "antidepressant"], { rxcui: "704" }),
  entry("nortriptyline", ["tca", "anticholinergic_high", "antidepressant"], {
    brands: ["pamelor"],
    rxcui: "7531",
  }),
  entry("clomipramine", ["tca", "anticholinergic_high", "antidepressant"], {
    brands: ["anafranil"],
    rxcui: "2597",
  }),
  entry("imipramine", ["tca", "anticholinergic_high", "antidepressant"], {
    brands: ["tofranil"],
    rxcui: "5691",
  }),
  entry("doxepin", ["tca", "anticholinergic_high", "antidepressant"], { rxcui: "3638" }),
  entry("desipramine", ["tca", "anticholinergic_high", "antidepressant"], { rxcui: "3247" }),
  entry("trimipramine", ["tca", "anticholinergic_high", "antidepressant"], { rxcui: "10834" }),
  entry("dosulepin", ["tca", "anticholinergic_high", "antidepressant"], { names: ["dothiepin"] }),
  entry("lofepramine", ["tca", "antidepressant"]),
  // MAOIs
  entry("phenelzine", ["maoi", "antidepressant"], { brands: ["nardil"] }),
  entry("tranylcypromine", ["maoi", "antidepressant"], { brands: ["parnate"] }),
  entry("isocarboxazid", ["maoi", "antidepressant"], { brands: ["marplan"] }),
  entry("selegiline", ["maoi", "antidepressant"], { brands: ["emsam", "eldepryl"] }),
  entry("moclobemide", ["maoi", "antidepressant"], { brands: ["manerix", "aurorix"] }),
  // Other antidepressants
  entry("mirtazapine", ["other_serotonergic_antidepressant", "antidepressant"], {
    brands: ["remeron", "zispin"],
    rxcui: "15996",
  }),
  entry("trazodone", ["other_serotonergic_antidepressant", "antidepressant"], {
    brands: ["desyrel", "molipaxin"],
  }),
  entry("vortioxetine", ["other_serotonergic_antidepressant", "antidepressant"], {
    brands: ["trintellix", "brintellix"],
    rxcui: "1455099",
  }),
  entry("bupropion", ["antidepressant"], {
    names: ["amfebutamone"],
    brands: ["wellbutrin", "zyban"],
    rxcui: "42347",
  }),
  entry("agomelatine", ["antidepressant"], { brands: ["valdoxan"] }),
  entry("st johns wort", ["antidepressant"], {
    names: ["saint johns wort", "st john wort", "hypericum", "hypericum perforatum"],
  }),
  // Antipsychotics
  entry("clozapine", ["antipsychotic", "anticholinergic_high", "sedating_antipsychotic"], {
    brands: ["clozaril", "denzapine", "zaponex"],
    rxcui: "2626",
  }),
  entry("olanzapine", ["antipsychotic", "anticholinergic_high", "sedating_antipsychotic"], {
    brands: ["zyprexa"],
    rxcui: "61381",
  }),
  entry("quetiapine", ["antipsychotic", "anticholinergic_high", "sedating_antipsychotic"], {
    brands: ["seroquel"],
  }),
  entry("risperidone", ["antipsychotic"], { brands: ["risperdal"], rxcui: "35636" }),
  entry("paliperidone", ["antipsychotic"], { brands: ["invega", "xeplion"] }),
  entry("aripiprazole", ["antipsychotic"], { brands: ["abilify"], rxcui: "89013" }),
  entry("haloperidol", ["antipsychotic"], { brands: ["haldol"], rxcui: "5093" }),
  entry("lurasidone", ["antipsychotic"], { brands: ["latuda"] }),
  entry("chlorpromazine", ["antipsychotic", "anticholinergic_high", "sedating_antipsychotic"], {
    brands: ["largactil", "thorazine"],
  }),
  entry("pimozide", ["antipsychotic"], { brands: ["orap"], rxcui: "8331" }),
  entry("thioridazine", ["antipsychotic", "anticholinergic_high"], { rxcui: "10502" }),
  // Mood stabilisers and antiepileptics
  entry("lithium", ["mood_stabiliser"], {
    names: ["lithium carbonate", "lithium citrate"],
    brands: ["priadel", "camcolit", "lithobid", "liskonum"],
  }),
  // No code: CPIC lists valproic acid (11118) and divalproex sodium (266856) as separate concepts
  // and no source maps the salts to one ingredient (docs/terminology.md).
  entry("valproate", ["mood_stabiliser"], {
    names: [
      "valproic acid",
      "sodium valproate",
      "valproate sodium",
      "valproate semisodium",
      "divalproex",
      "divalproex sodium",
    ],
    brands: ["depakote", "depakene", "epilim", "depakine"],
  }),
  entry("carbamazepine", ["mood_stabiliser"], { brands: ["tegretol"], rxcui: "2002" }),
  entry("oxcarbazepine", [], { brands: ["trileptal"], rxcui: "32624" }),
  entry("lamotrigine", ["mood_stabiliser"], { brands: ["lamictal"], rxcui: "28439" }),
  entry("phenytoin", [], { brands: ["dilantin", "epanutin"], rxcui: "8183" }),
  entry("phenobarbital", [], { names: ["phenobarbitone"] }),
  entry("primidone", [], { brands: ["mysoline"] }),
  entry("topiramate", [], { brands: ["topamax"] }),
  entry("gabapentin", ["gabapentinoid"], { brands: ["neurontin"] }),
  entry("pregabalin", ["gabapentinoid"], { brands: ["lyrica"] }),
  // Benzodiazepines and z-drugs
  entry("diazepam", ["benzodiazepine"], { brands: ["valium"], rxcui: "3322" }),
  entry("alprazolam", ["benzodiazepine"], { brands: ["xanax"] }),
  entry("lorazepam", ["benzodiazepine"], { brands: ["ativan"] }),
  entry("clonazepam", ["benzodiazepine"], { brands: ["klonopin", "rivotril"] }),
  entry("temazepam", ["benzodiazepine"]),
  entry("oxazepam", ["benzodiazepine"], { rxcui: "7781" }),
  entry("chlordiazepoxide", ["benzodiazepine"], { brands: ["librium"] }),
  entry("midazolam", ["benzodiazepine"], { rxcui: "6960" }),
  entry("nitrazepam", ["benzodiazepine"]),
  entry("zolpidem", ["z_drug"], { brands: ["ambien", "stilnoct"] }),
  entry("zopiclone", ["z_drug"], { brands: ["zimovane"] }),
  entry("eszopiclone", ["z_drug"], { brands: ["lunesta"] }),
  entry("zaleplon", ["z_drug"]),
  // Opioids
  entry("morphine", ["opioid"], { rxcui: "7052" }),
  entry("oxycodone", ["opioid"], { brands: ["oxycontin"], rxcui: "7804" }),
  entry("hydrocodone", ["opioid"]),
  entry("hydromorphone", ["opioid"]),
  entry("codeine", ["opioid"], { rxcui: "2670" }),
  entry("dihydrocodeine", ["opioid"]),
  entry("buprenorphine", ["opioid"], { brands: ["subutex"] }),
  entry("tramadol", ["opioid", "serotonergic_opioid"], { brands: ["ultram", "zydol"], rxcui: "10689" }),
  entry("tapentadol", ["opioid", "serotonergic_opioid"], { brands: ["nucynta", "palexia"] }),
  entry("methadone", ["opioid", "serotonergic_opioid"], { rxcui: "6813" }),
  entry("fentanyl", ["opioid", "serotonergic_opioid"], { rxcui: "4337" }),
  entry("pethidine", ["opioid", "serotonergic_opioid"], { names: ["meperidine"], brands: ["demerol"] }),
  entry("dextromethorphan", ["serotonergic_opioid"], { rxcui: "3289" }),
  entry("naltrexone", [], { rxcui: "7243" }),
  // Triptans
  entry("sumatriptan", ["triptan"], { brands: ["imitrex", "imigran"] }),
  entry("rizatriptan", ["triptan"], { brands: ["maxalt"] }),
  entry("zolmitriptan", ["triptan"], { brands: ["zomig"] }),
  entry("naratriptan", ["triptan"]),
  entry("eletriptan", ["triptan"], { brands: ["relpax"] }),
  entry("almotriptan", ["triptan"]),
  entry("frovatriptan", ["triptan"]),
  // Analgesics, anticoagulants, antiplatelets
  entry("ibuprofen", ["nsaid"], { brands: ["advil", "motrin", "nurofen", "brufen"] }),
  entry("naproxen", ["nsaid"], { brands: ["aleve", "naprosyn"] }),
  entry("diclofenac", ["nsaid"], { brands: ["voltaren", "voltarol"], rxcui: "3355" }),
  entry("celecoxib", ["nsaid"], { brands: ["celebrex"], rxcui: "140587" }),
  entry("meloxicam", ["nsaid"], { brands: ["mobic"] }),
  entry("indometacin", ["nsaid"], { names: ["indomethacin"] }),
  entry("ketorolac", ["nsaid"]),
  entry("etoricoxib", ["nsaid"], { brands: ["arcoxia"] }),
  entry("warfarin", ["anticoagulant"], { brands: ["coumadin", "marevan"], rxcui: "11289" }),
  entry("apixaban", ["anticoagulant"], { brands: ["eliquis"] }),
  entry("rivaroxaban", ["anticoagulant"], { brands: ["xarelto"] }),
  entry("dabigatran", ["anticoagulant"], { names: ["dabigatran etexilate"], brands: ["pradaxa"] }),
  entry("edoxaban", ["anticoagulant"], { brands: ["lixiana", "savaysa"] }),
  entry("aspirin", ["antiplatelet"], { names: ["acetylsalicylic acid"], rxcui: "1191" }),
  entry("clopidogrel", ["antiplatelet"], { brands: ["plavix"], rxcui: "32968" }),
  entry("prasugrel", ["antiplatelet"], { brands: ["effient"] }),
  entry("ticagrelor", ["antiplatelet"], { brands: ["brilinta", "brilique"] }),
  // Cardiovascular and renal
  entry("lisinopril", ["ace_inhibitor"], { brands: ["zestril", "prinivil"] }),
  entry("ramipril", ["ace_inhibitor"], { brands: ["altace", "tritace"] }),
  entry("enalapril", ["ace_inhibitor"], { brands: ["vasotec"] }),
  entry("perindopril", ["ace_inhibitor"], { brands: ["coversyl"] }),
  entry("captopril", ["ace_inhibitor"], { rxcui: "1998" }),
  entry("losartan", ["arb"], { brands: ["cozaar"] }),
  entry("valsartan", ["arb"], { brands: ["diovan"] }),
  entry("candesartan", ["arb"], { brands: ["atacand"] }),
  entry("irbesartan", ["arb"], { brands: ["avapro", "aprovel"] }),
  entry("olmesartan", ["arb"], { brands: ["benicar"] }),
  entry("telmisartan", ["arb"], { brands: ["micardis"] }),
  entry("hydrochlorothiazide", ["thiazide"], { names: ["hctz"], rxcui: "5487" }),
  entry("bendroflumethiazide", ["thiazide"], { names: ["bendrofluazide"] }),
  entry("chlortalidone", ["thiazide"], { names: ["chlorthalidone"] }),
  entry("indapamide", ["thiazide"]),
  entry("furosemide", ["loop_diuretic"], { names: ["frusemide"], brands: ["lasix"], rxcui: "4603" }),
  entry("bumetanide", ["loop_diuretic"]),
  entry("torasemide", ["loop_diuretic"], { names: ["torsemide"] }),
  entry("metoprolol", [], { rxcui: "6918" }),
  entry("amiodarone", []),
  entry("sotalol", []),
  entry("quinidine", [], { rxcui: "9068" }),
  // Anti-infectives
  entry("ciprofloxacin", [], { brands: ["cipro"], rxcui: "2551" }),
  entry("levofloxacin", [], { rxcui: "82122" }),
  entry("moxifloxacin", [], { rxcui: "139462" }),
  entry("clarithromycin", ["cyp3a4_inhibiting_macrolide"]),
  entry("erythromycin", ["cyp3a4_inhibiting_macrolide"], { rxcui: "4053" }),
  entry("azithromycin", []),
  entry("fluconazole", []),
  entry("hydroxychloroquine", []),
  entry("linezolid", [], { brands: ["zyvox"] }),
  entry("metronidazole", [], { brands: ["flagyl"] }),
  entry("meropenem", []),
  entry("ertapenem", []),
  entry("rifampicin", [], { names: ["rifampin"] }),
  // Other
  entry("methylene blue", [], { names: ["methylthioninium chloride", "methylthioninium"], rxcui: "6878" }),
  entry("tamoxifen", [], { rxcui: "10324" }),
  entry("ondansetron", [], { brands: ["zofran"], rxcui: "26225" }),
  entry("domperidone", [], { brands: ["motilium"] }),
  entry("donepezil", [], { brands: ["aricept"], rxcui: "135447" }),
  entry("theophylline", []),
  entry("tizanidine", [], { brands: ["zanaflex"] }),
  entry("ramelteon", [], { brands: ["rozerem"] }),
  entry("tetrabenazine", [], { rxcui: "10390" }),
  entry("buspirone", [], { brands: ["buspar"] }),
  entry("levodopa", []),
  entry("carbidopa", []),
  entry("benserazide", []),
  entry("disulfiram", [], { brands: ["antabuse"] }),
  entry("nicotine", [], {
    names: ["nicotine replacement", "nicotine patch", "nicotine gum", "nrt"],
    brands: ["nicorette", "niquitin"],
    rxcui: "7407",
  }),
  // "alcohol" is not a medicine but is often listed; CPIC's ethanol row gives the code.
  entry("alcohol", [], { names: ["ethanol"], rxcui: "448" }),
  entry("metformin", [], { brands: ["glucophage"], rxcui: "6809" }),
  // ADHD and wakefulness
  entry("methylphenidate", ["stimulant"], { brands: ["ritalin", "concerta"], rxcui: "6901" }),
  entry("dexmethylphenidate", ["stimulant"], { brands: ["focalin"] }),
  entry("amphetamine", ["stimulant"]),
  entry("dexamfetamine", ["stimulant"], {
    names: ["dextroamphetamine", "dexamphetamine"],
    brands: ["dexedrine"],
  }),
  entry("lisdexamfetamine", ["stimulant"], { brands: ["vyvanse", "elvanse"] }),
  entry("atomoxetine", [], { brands: ["strattera"], rxcui: "38400" }),
  entry("modafinil", [], { brands: ["provigil"], rxcui: "30125" }),
  entry("pseudoephedrine", ["sympathomimetic"], { brands: ["sudafed"] }),
  entry("phenylephrine", ["sympathomimetic"]),
  entry("ephedrine", ["sympathomimetic"]),
  // Hormonal contraceptives ("the pill" is read as its oestrogen, ethinylestradiol)
  entry("ethinylestradiol", ["hormonal_contraceptive"], {
    names: [
      "ethinyl estradiol",
      "ethinyloestradiol",
      "ethinyl oestradiol",
      "combined oral contraceptive",
      "combined oral contraceptive pill",
      "oral contraceptive",
      "oral contraceptive pill",
      "combined pill",
    ],
  }),
  entry("levonorgestrel", ["hormonal_contraceptive"]),
  entry("norethisterone", ["hormonal_contraceptive"], { names: ["norethindrone"] }),
  entry("desogestrel", ["hormonal_contraceptive"], { brands: ["cerazette"] }),
  entry("etonogestrel", ["hormonal_contraceptive"], { brands: ["nexplanon", "implanon"] }),
  entry("drospirenone", ["hormonal_contraceptive"]),
  // Anticholinergics (ACB 3)
  entry("procyclidine", ["anticholinergic_high"], { brands: ["kemadrin"] }),
  entry("benztropine", ["anticholinergic_high"], { names: ["benzatropine"], brands: ["cogentin"] }),
  entry("trihexyphenidyl", ["anticholinergic_high"], { names: ["benzhexol"] }),
  entry("oxybutynin", ["anticholinergic_high"], { brands: ["ditropan"] }),
  entry("tolterodine", ["anticholinergic_high"], { brands: ["detrol", "detrusitol"], rxcui: "119565" }),
  entry("hydroxyzine", ["anticholinergic_high"], { brands: ["atarax", "vistaril"] }),
  entry("promethazine", ["anticholinergic_high"], { brands: ["phenergan"] }),
  entry("diphenhydramine", ["anticholinergic_high"], { brands: ["benadryl"] }),
  entry("chlorphenamine", ["anticholinergic_high"], { names: ["chlorpheniramine"], brands: ["piriton"] }),
  // Added for the interaction rows of decision 69: CYP3A4 and CYP2C19 inhibitors, CYP1A2
  // inducers named in the clozapine and quetiapine labels, and the other ingredients of
  // combination products.
  entry("ketoconazole", [], { brands: ["nizoral"] }),
  entry("itraconazole", [], { brands: ["sporanox"] }),
  entry("voriconazole", [], { brands: ["vfend"] }),
  entry("posaconazole", [], { brands: ["noxafil"] }),
  entry("ritonavir", [], { brands: ["norvir"] }),
  entry("cimetidine", [], { brands: ["tagamet"] }),
  entry("terbinafine", [], { brands: ["lamisil"] }),
  entry("omeprazole", [], { brands: ["prilosec", "losec"] }),
  entry("caffeine", []),
  // Tobacco smoke is not a medicine, but the clozapine label and the FDA table name smoking as a
  // CYP1A2 inducer, and medication lists often record it.
  entry("tobacco smoke", [], {
    names: [
      "smoking",
      "smoker",
      "smokes",
      "cigarettes",
      "cigarette",
      "tobacco",
      "cigarette smoking",
      "tobacco smoking",
    ],
  }),
  entry("paracetamol", [], { names: ["acetaminophen", "apap"], brands: ["tylenol", "panadol"] }),
  entry("naloxone", [], { brands: ["narcan"] }),
];

/** Every ingredient the service recognises, with its derived QT and CYP classes. */
export const INGREDIENTS: readonly IngredientEntry[] = BASE_INGREDIENTS.map((base) => ({
  ...base,
  classes: [...base.classes, ...derivedClasses(base.ingredient)],
  qtRisk: QT_RISK[base.ingredient]?.risk ?? null,
}));

/**
 * Antipsychotics (WHO ATC N05A) that are not in INGREDIENTS: their QT category and CYP roles are
 * not modelled, so the interaction checker leaves them unrecognised (not evaluated, decision 80)
 * rather than recognising them with no interaction. The relapse signal tool still reads them as
 * antipsychotics (a stopped depot of zuclopenthixol is a stopped antipsychotic). Generic names
 * only (lower case); source: WHO ATC index, group N05A, as reproduced by rxreasoner.com and
 * BMC Psychiatry 2013;13:198 Table 1 (secondary copies).
 */
export const ANTIPSYCHOTICS_NOT_MODELLED: readonly string[] = [
  "amisulpride",
  "asenapine",
  "cariprazine",
  "flupentixol",
  "flupenthixol",
  "fluphenazine",
  "ziprasidone",
  "zuclopenthixol",
];

// ---------------------------------------------------------------------------------------------
// Combination products

export interface CombinationProduct {
  /** Brand or generic combination names (lower case) that mean this product. */
  names: readonly string[];
  /** Every active ingredient, as canonical ingredient names. */
  ingredients: readonly string[];
  source: string;
  /** True when the product's label (or a faithful copy) was read during this task. */
  sourceChecked: boolean;
}

/**
 * Products that contain more than one ingredient, each with every ingredient (decision 68).
 * An entry naming one of these is read as all of its ingredients.
 */
export const COMBINATION_PRODUCTS: readonly CombinationProduct[] = [
  {
    names: ["hyzaar", "hyzaar ds"],
    ingredients: ["losartan", "hydrochlorothiazide"],
    source: "Hyzaar (losartan potassium and hydrochlorothiazide) US label and Canadian product monograph",
    sourceChecked: true,
  },
  {
    names: ["diovan hct"],
    ingredients: ["valsartan", "hydrochlorothiazide"],
    source: "Diovan HCT (valsartan and hydrochlorothiazide) US label",
    sourceChecked: true,
  },
  {
    names: ["benicar hct"],
    ingredients: ["olmesartan", "hydrochlorothiazide"],
    source: "Benicar HCT (olmesartan medoxomil and hydrochlorothiazide) US label",
    sourceChecked: true,
  },
  {
    names: ["zestoretic", "prinzide"],
    ingredients: ["lisinopril", "hydrochlorothiazide"],
    source:
      "Zestoretic (lisinopril and hydrochlorothiazide) US label; Prinzide as a trade name of the same combination (secondary source)",
    sourceChecked: true,
  },
  {
    names: ["atacand hct"],
    ingredients: ["candesartan", "hydrochlorothiazide"],
    source: "Atacand HCT (candesartan cilexetil and hydrochlorothiazide) US label",
    sourceChecked: false,
  },
  {
    names: ["avalide"],
    ingredients: ["irbesartan", "hydrochlorothiazide"],
    source: "Avalide (irbesartan and hydrochlorothiazide) US label",
    sourceChecked: false,
  },
  {
    names: ["micardis hct"],
    ingredients: ["telmisartan", "hydrochlorothiazide"],
    source: "Micardis HCT (telmisartan and hydrochlorothiazide) US label",
    sourceChecked: false,
  },
  {
    names: ["vaseretic"],
    ingredients: ["enalapril", "hydrochlorothiazide"],
    source: "Vaseretic (enalapril maleate and hydrochlorothiazide) US label",
    sourceChecked: false,
  },
  {
    names: ["symbyax"],
    ingredients: ["olanzapine", "fluoxetine"],
    source: "Symbyax (olanzapine and fluoxetine) US label",
    sourceChecked: true,
  },
  {
    names: ["auvelity"],
    ingredients: ["dextromethorphan", "bupropion"],
    source:
      "Auvelity (dextromethorphan hydrobromide and bupropion hydrochloride) extended-release tablets, US label",
    sourceChecked: true,
  },
  {
    names: ["nuedexta"],
    ingredients: ["dextromethorphan", "quinidine"],
    source: "Nuedexta (dextromethorphan hydrobromide and quinidine sulfate) US label",
    sourceChecked: false,
  },
  {
    names: ["contrave", "mysimba"],
    ingredients: ["naltrexone", "bupropion"],
    source: "Contrave (naltrexone hydrochloride and bupropion hydrochloride) US label; Mysimba (EU name)",
    sourceChecked: false,
  },
  {
    names: ["co-codamol", "tylenol with codeine", "tylenol 3", "tylenol no 3", "tylenol 4", "tylenol no 4"],
    ingredients: ["codeine", "paracetamol"],
    source: "BNF (co-codamol: codeine phosphate with paracetamol); Tylenol with Codeine US label",
    sourceChecked: false,
  },
  {
    names: ["percocet"],
    ingredients: ["oxycodone", "paracetamol"],
    source: "Percocet (oxycodone and acetaminophen) US label",
    sourceChecked: false,
  },
  {
    names: ["vicodin", "norco"],
    ingredients: ["hydrocodone", "paracetamol"],
    source: "Norco (hydrocodone bitartrate and acetaminophen) US label",
    sourceChecked: false,
  },
  {
    names: ["suboxone"],
    ingredients: ["buprenorphine", "naloxone"],
    source: "Suboxone (buprenorphine and naloxone) US label",
    sourceChecked: false,
  },
  {
    names: ["sinemet", "co-careldopa"],
    ingredients: ["carbidopa", "levodopa"],
    source: "Sinemet (carbidopa-levodopa) US label; BNF (co-careldopa)",
    sourceChecked: false,
  },
  {
    names: ["madopar", "co-beneldopa"],
    ingredients: ["benserazide", "levodopa"],
    source: "BNF (co-beneldopa: benserazide with levodopa)",
    sourceChecked: false,
  },
  {
    names: ["adderall", "mixed amphetamine salts"],
    ingredients: ["amphetamine", "dexamfetamine"],
    source: "Adderall (mixed salts of a single-entity amphetamine product) US label",
    sourceChecked: false,
  },
  {
    names: ["microgynon", "rigevidon"],
    ingredients: ["ethinylestradiol", "levonorgestrel"],
    source: "Microgynon 30 UK SmPC (ethinylestradiol and levonorgestrel)",
    sourceChecked: false,
  },
  {
    names: ["yasmin"],
    ingredients: ["ethinylestradiol", "drospirenone"],
    source: "Yasmin (drospirenone and ethinyl estradiol) US label",
    sourceChecked: false,
  },
];

/**
 * Every name that means an ingredient of a class (lower case): its generic name, other names and
 * brands, and the names of combination products that contain it.
 */
export function namesOfClass(drugClass: DrugClass): string[] {
  const members = INGREDIENTS.filter((item) => item.classes.includes(drugClass));
  const ingredients = new Set(members.map((item) => item.ingredient));
  return [
    ...members.flatMap((item) => [item.ingredient, ...item.names, ...item.brands]),
    ...COMBINATION_PRODUCTS.filter((product) => product.ingredients.some((i) => ingredients.has(i))).flatMap(
      (product) => product.names,
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Words of a medication entry that are not ingredients

/**
 * Words that describe form, strength, salt, route or timing. They are read without a warning;
 * any other word of an entry that names no ingredient is reported (decision 68). Numbers and
 * number-unit tokens ("50mg", "12.5") are recognised separately.
 */
export const MEDICATION_QUALIFIERS: ReadonlySet<string> = new Set(
  [
    // units
    "mg mcg ug g gram grams microgram micrograms milligram milligrams ml l unit units",
    "iu mmol meq percent h hr hrs hour hours",
    // dose forms and release
    "tablet tablets tab tabs capsule capsules cap caps pill pills oral po liquid",
    "solution suspension syrup elixir drops sachet sachets injection inj iv im sc",
    "subcut depot lai infusion inhaler nasal spray suppository film coated",
    "dispersible orodispersible odt chewable soluble effervescent sublingual buccal",
    "xr xl sr er mr cr la cd dr ir ec ds retard prolonged modified extended immediate",
    "delayed release slow continuous long acting patch patches transdermal gel cream",
    "ointment topical emulgel foam plaster lotion",
    // salts and chemical qualifiers
    "hcl hydrochloride hydrobromide hbr sodium potassium carbonate citrate maleate",
    "mesylate besylate fumarate succinate tartrate bitartrate sulfate sulphate",
    "phosphate acetate oxalate bromide chloride decanoate palmitate pamoate medoxomil",
    "cilexetil epolamine diethylamine magnesium calcium salt salts base free",
    // timing and quantity
    "daily once twice three four times time a per day days week weekly month monthly",
    "bd bid tds tid qds qid od om on qd qhs hs mane nocte prn stat every each x at",
    "night morning evening bedtime noon lunchtime breakfast meals with food and plus",
    "or of in the as needed required when for to take taking takes dose doses total",
    "then up max maximum usual current currently regular regularly started start new",
    "old stopped one two half quarter strength low high brand generic otc over",
    "counter prescribed only if by mouth dose apply applied",
  ]
    .join(" ")
    .split(" "),
);

/** Words that mark an entry as applied to the skin, for the NSAID route rule (decision 71). */
export const TOPICAL_ROUTE_WORDS: ReadonlySet<string> = new Set(
  "gel cream ointment topical emulgel foam patch plaster lotion".split(" "),
);

/** Brand names of products that are topical whatever the entry says (decision 71). */
export const TOPICAL_BRANDS: Readonly<Record<string, string>> = {
  pennsaid: "diclofenac",
  flector: "diclofenac",
};

// ---------------------------------------------------------------------------------------------
// Label dose limits

export interface DailyDoseLimit {
  /** The most the label recommends per day, in mg. */
  maxDailyMg: number;
  /** The lower maximum that applies in the groups below, in mg per day. */
  reducedMaxDailyMg: number;
  /** The reduced maximum applies above this age in years. */
  reducedAboveAgeYears: number;
  /** Co-prescribed classes that bring the reduced maximum. */
  reducedWithClasses: readonly DrugClass[];
  /** Every group the reduced maximum applies to, as the label says. */
  reducedFor: string;
  harm: string;
  source: string;
}

/** Label dose limits the checker applies to a dose written in the entry (decision 70). */
export const DAILY_DOSE_LIMITS: Readonly<Record<string, DailyDoseLimit>> = {
  citalopram: {
    maxDailyMg: 40,
    reducedMaxDailyMg: 20,
    reducedAboveAgeYears: 60,
    reducedWithClasses: ["cyp2c19_inhibitor"],
    reducedFor:
      "patients older than 60 years, with hepatic impairment, who are CYP2C19 poor metabolisers, or who take cimetidine or another CYP2C19 inhibitor",
    harm: "dose-dependent QT prolongation and torsade de pointes",
    source:
      "FDA Drug Safety Communications 24 Aug 2011 and 28 Mar 2012 (citalopram: no more than 40 mg/day; 20 mg/day maximum in the groups named); Celexa US label, Dosage and Administration",
  },
};
