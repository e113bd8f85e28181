/**
 * The medicine model: every ingredient the service recognises (generic names, salts, spellings,
 * brands where a source gives them), the combination products it knows with every ingredient,
 * the pharmacological classes interaction rules select on, the QT risk category, CYP roles and
 * RxNorm codes where verified. Each fact is written here once; the interaction checker
 * (tools/drug-names.ts, knowledge/interaction-rules.ts) reads it. Sources and evidence levels:
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
  // Added with the coverage of decision 172; the same evidence level as the rows above.
  droperidol: knownRisk(),
  sulpiride: knownRisk(),
  amisulpride: {
    risk: "known",
    source: `${CREDIBLEMEDS_KNOWN}; Solian (amisulpride) UK SmPC, Special warnings (QT prolongation, torsade de pointes)`,
    sourceChecked: false,
  },
  flecainide: knownRisk(),
  dronedarone: knownRisk(),
  disopyramide: knownRisk(),
  dofetilide: knownRisk(),
  ziprasidone: {
    risk: "possible",
    source:
      "Geodon (ziprasidone) US label, Warnings (dose-related QT prolongation) and Contraindications (other QT-prolonging drugs); category placed by CredibleMeds' definition",
    sourceChecked: false,
  },
  iloperidone: {
    risk: "possible",
    source:
      "Fanapt (iloperidone) US label, Warnings (QT prolongation; avoid with other QT-prolonging drugs); category placed by CredibleMeds' definition",
    sourceChecked: false,
  },
  asenapine: {
    risk: "possible",
    source:
      "Saphris (asenapine) US label, Warnings (QT prolongation; avoid with other QT-prolonging drugs); category placed by CredibleMeds' definition",
    sourceChecked: false,
  },
  pimavanserin: {
    risk: "possible",
    source:
      "Nuplazid (pimavanserin) US label, Warnings (QT prolongation; avoid with other QT-prolonging drugs); category placed by CredibleMeds' definition",
    sourceChecked: false,
  },
  lofexidine: {
    risk: "possible",
    source:
      "Lucemyra (lofexidine) US label, Warnings (QT prolongation; avoid with other QT-prolonging drugs); category placed by CredibleMeds' definition",
    sourceChecked: false,
  },
  hydroxyzine: {
    risk: "conditional",
    source:
      "MHRA Drug Safety Update April 2015 (hydroxyzine: small risk of QT prolongation and torsade de pointes, mostly with other risk factors); category placed by CredibleMeds' definition",
    sourceChecked: false,
  },
};

/** Ingredients whose own label tells prescribers to avoid other QT-prolonging drugs. */
export const QT_LABEL_AVOID: Readonly<Record<string, string>> = {
  quetiapine:
    "Seroquel (quetiapine) US label, Warnings (QT prolongation) and Drug Interactions: avoid with other drugs known to increase QTc, including class 1A and III antiarrhythmics, antipsychotics, antibiotics, citalopram, pentamidine and methadone",
  paliperidone:
    "Invega (paliperidone) US label, Warnings (QT prolongation): avoid with other drugs known to prolong QTc",
  ziprasidone:
    "Geodon (ziprasidone) US label, Contraindications: other drugs that prolong the QT interval (as recalled from the label; not reopened during this task)",
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
  viloxazine: {
    inhibitor: { CYP1A2: "strong" },
    source:
      "Qelbree (viloxazine) US label, Contraindications and Drug Interactions (strong CYP1A2 inhibitor)",
  },
  cenobamate: {
    inhibitor: { CYP2C19: "moderate" },
    inducer: { CYP3A4: "moderate" },
    source:
      "Xcopri (cenobamate) US label, Drug Interactions (CYP2C19 substrates raised, CYP3A4 substrates lowered)",
  },
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

/**
 * Where every `rxcui` of INGREDIENTS comes from: the CPIC drug table (github.com/cpicpgx/cpic-schema,
 * drug.sql, rows `RxNorm:<code>\t<name>`), the one public source read that pairs each code with
 * its ingredient name (docs/terminology.md, single-source caveat).
 */
export const RXNORM_INGREDIENT_SOURCE = "cpicpgx/cpic-schema drug.sql";

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
  // Coverage of WHO ATC N05A, N05B, N05C, N06A, N06B, N03A and N07B (decision 172). Brands are US
  // and UK names as printed on the products' labels or in the BNF; their properties are in
  // knowledge/medicine-properties.ts.
  // N05A antipsychotics
  entry("amisulpride", ["antipsychotic"], { brands: ["solian"] }),
  entry("asenapine", ["antipsychotic"], { brands: ["saphris", "sycrest", "secuado"] }),
  entry("cariprazine", ["antipsychotic"], { brands: ["vraylar", "reagila"] }),
  entry("flupentixol", ["antipsychotic"], {
    names: ["flupenthixol", "flupentixol decanoate", "flupenthixol decanoate"],
    brands: ["depixol", "fluanxol", "psytixol"],
  }),
  entry("fluphenazine", ["antipsychotic", "sedating_antipsychotic"], { brands: ["modecate"] }),
  entry("ziprasidone", ["antipsychotic"], { brands: ["geodon", "zeldox"] }),
  entry("zuclopenthixol", ["antipsychotic", "sedating_antipsychotic"], {
    names: ["zuclopenthixol decanoate", "zuclopenthixol acetate", "zuclopenthixol dihydrochloride"],
    brands: ["clopixol", "clopixol acuphase"],
  }),
  entry("brexpiprazole", ["antipsychotic"], { brands: ["rexulti"] }),
  entry("iloperidone", ["antipsychotic"], { brands: ["fanapt"] }),
  entry("lumateperone", ["antipsychotic"], { brands: ["caplyta"] }),
  entry("pimavanserin", ["antipsychotic"], { brands: ["nuplazid"] }),
  entry("sulpiride", ["antipsychotic"], { brands: ["dolmatil", "sulpor"] }),
  entry("trifluoperazine", ["antipsychotic"], { brands: ["stelazine"] }),
  entry("perphenazine", ["antipsychotic"], { brands: ["trilafon", "fentazin"] }),
  entry("loxapine", ["antipsychotic", "sedating_antipsychotic"], { brands: ["loxitane", "adasuve"] }),
  entry("levomepromazine", ["antipsychotic", "anticholinergic_high", "sedating_antipsychotic"], {
    names: ["methotrimeprazine"],
    brands: ["nozinan"],
  }),
  entry("prochlorperazine", ["antipsychotic"], { brands: ["stemetil", "buccastem", "compazine"] }),
  entry("promazine", ["antipsychotic", "sedating_antipsychotic"]),
  entry("pericyazine", ["antipsychotic", "sedating_antipsychotic"], { names: ["periciazine"] }),
  entry("benperidol", ["antipsychotic"], { brands: ["anquil"] }),
  entry("thiothixene", ["antipsychotic"], { names: ["tiotixene"], brands: ["navane"] }),
  entry("molindone", ["antipsychotic"]),
  entry("droperidol", ["antipsychotic"], { brands: ["inapsine", "xomolix"] }),
  // N05B and N05C anxiolytics and hypnotics
  entry("clobazam", ["benzodiazepine"], { brands: ["frisium", "onfi", "sympazan", "tapclob"] }),
  entry("clorazepate", ["benzodiazepine"], { names: ["clorazepate dipotassium"], brands: ["tranxene"] }),
  entry("triazolam", ["benzodiazepine"], { brands: ["halcion"] }),
  entry("lormetazepam", ["benzodiazepine"]),
  entry("loprazolam", ["benzodiazepine"]),
  entry("flurazepam", ["benzodiazepine"]),
  entry("estazolam", ["benzodiazepine"]),
  entry("quazepam", ["benzodiazepine"], { brands: ["doral"] }),
  entry("clomethiazole", [], { names: ["chlormethiazole"], brands: ["heminevrin"] }),
  entry("melatonin", [], { brands: ["circadin", "slenyto"] }),
  entry("tasimelteon", [], { brands: ["hetlioz"] }),
  entry("suvorexant", [], { brands: ["belsomra"] }),
  entry("lemborexant", [], { brands: ["dayvigo"] }),
  entry("daridorexant", [], { brands: ["quviviq"] }),
  // N06A antidepressants
  entry("esketamine", ["antidepressant"], { brands: ["spravato"] }),
  entry("reboxetine", ["antidepressant"], { brands: ["edronax"] }),
  entry("mianserin", ["antidepressant"]),
  entry("nefazodone", ["other_serotonergic_antidepressant", "antidepressant"]),
  entry("protriptyline", ["tca", "anticholinergic_high", "antidepressant"]),
  entry("amoxapine", ["tca", "anticholinergic_high", "antidepressant"]),
  entry("maprotiline", ["antidepressant"]),
  entry("gepirone", ["other_serotonergic_antidepressant", "antidepressant"], { brands: ["exxua"] }),
  entry("zuranolone", ["antidepressant"], { brands: ["zurzuvae"] }),
  // N06B psychostimulants and wakefulness agents; ADHD non-stimulants
  entry("armodafinil", [], { brands: ["nuvigil"] }),
  entry("solriamfetol", [], { brands: ["sunosi"] }),
  entry("pitolisant", [], { brands: ["wakix"] }),
  entry("viloxazine", [], { brands: ["qelbree"] }),
  entry("guanfacine", [], { brands: ["intuniv", "tenex"] }),
  entry("clonidine", [], { brands: ["catapres", "kapvay"] }),
  entry("methamphetamine", ["stimulant"], { brands: ["desoxyn"] }),
  // N03A antiepileptics
  entry("levetiracetam", [], { brands: ["keppra", "desitrend"] }),
  entry("lacosamide", [], { brands: ["vimpat"] }),
  entry("brivaracetam", [], { brands: ["briviact"] }),
  entry("zonisamide", [], { brands: ["zonegran"] }),
  entry("perampanel", [], { brands: ["fycompa"] }),
  entry("cenobamate", [], { brands: ["xcopri", "ontozry"] }),
  entry("ethosuximide", [], { brands: ["zarontin"] }),
  entry("vigabatrin", [], { brands: ["sabril"] }),
  entry("tiagabine", [], { brands: ["gabitril"] }),
  entry("rufinamide", [], { brands: ["banzel", "inovelon"] }),
  entry("eslicarbazepine", [], { names: ["eslicarbazepine acetate"], brands: ["aptiom", "zebinix"] }),
  entry("felbamate", [], { brands: ["felbatol"] }),
  entry("stiripentol", [], { brands: ["diacomit"] }),
  entry("cannabidiol", [], { brands: ["epidiolex", "epidyolex"] }),
  entry("fenfluramine", [], { brands: ["fintepla"] }),
  entry("fosphenytoin", [], { brands: ["cerebyx", "pro-epanutin"] }),
  entry("ganaxolone", [], { brands: ["ztalmy"] }),
  // N07B drugs used in addictive disorders
  entry("nalmefene", [], { brands: ["selincro"] }),
  entry("acamprosate", [], { names: ["acamprosate calcium"], brands: ["campral"] }),
  entry("lofexidine", [], { brands: ["lucemyra", "britlofex"] }),
  entry("varenicline", [], { brands: ["chantix", "champix"] }),
  // Co-prescribed classes that interact with psychotropics
  entry("oxymorphone", ["opioid"], { brands: ["opana"] }),
  entry("diamorphine", ["opioid"], { names: ["heroin"] }),
  entry("granisetron", [], { brands: ["kytril", "sancuso"] }),
  entry("palonosetron", [], { brands: ["aloxi"] }),
  entry("flecainide", [], { brands: ["tambocor"] }),
  entry("dronedarone", [], { brands: ["multaq"] }),
  entry("disopyramide", [], { brands: ["rythmodan", "norpace"] }),
  entry("propafenone", [], { brands: ["rythmol", "arythmol"] }),
  entry("dofetilide", [], { brands: ["tikosyn"] }),
  entry("spironolactone", [], { brands: ["aldactone"] }),
  entry("amiloride", []),
  entry("metolazone", [], { brands: ["zaroxolyn"] }),
];

/** Every ingredient the service recognises, with its derived QT and CYP classes. */
export const INGREDIENTS: readonly IngredientEntry[] = BASE_INGREDIENTS.map((base) => ({
  ...base,
  classes: [...base.classes, ...derivedClasses(base.ingredient)],
  qtRisk: QT_RISK[base.ingredient]?.risk ?? null,
}));

/**
 * Antipsychotics (WHO ATC N05A) that are not in INGREDIENTS. Empty since decision 172: the ones
 * listed here before (amisulpride, asenapine, cariprazine, flupentixol, fluphenazine, ziprasidone,
 * zuclopenthixol) are ingredients with their properties now, so the relapse tool reads them
 * through `namesOfClass("antipsychotic")`. Kept so a reader of the old list still compiles.
 */
export const ANTIPSYCHOTICS_NOT_MODELLED: readonly string[] = [];

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

/** A lower maximum for older adults (and, for some labels, with listed interacting drugs). */
export interface ReducedDoseLimit {
  /** The lower maximum, in mg per day. */
  maxDailyMg: number;
  /** It applies above this age in years. */
  aboveAgeYears: number;
  /** Co-prescribed classes that also bring the lower maximum. */
  withClasses?: readonly DrugClass[];
  /** Every group the lower maximum applies to, as the label says. */
  appliesTo: string;
  /** What to check when the age is given and below the threshold, if the label names other groups. */
  otherConditions?: string;
  /** The lower maximum also applies with hepatic impairment of any grade, as the label says (decision 197). */
  withHepaticImpairment?: true;
}

export interface DailyDoseLimit {
  /** The most the label recommends per day for adults, in mg. */
  maxDailyMg: number;
  /** The older-adult maximum where the label gives a lower one. */
  reduced?: ReducedDoseLimit;
  harm: string;
  source: string;
  /** True when the cited label (or a faithful copy) was read during this task. */
  sourceChecked: boolean;
}

const DOSE_HARM = "dose-related adverse effects above the licensed dose";

/** A label maximum: US Prescribing Information unless the source names the UK SmPC or BNF. */
function labelMax(maxDailyMg: number, source: string, reduced?: ReducedDoseLimit): DailyDoseLimit {
  return {
    maxDailyMg,
    ...(reduced === undefined ? {} : { reduced }),
    harm: DOSE_HARM,
    source: `${source} (maximum recalled from the label, not reopened during this task)`,
    sourceChecked: false,
  };
}

/** Where a label says "elderly" without an age, the lower maximum is applied above 65 (decision 174). */
const ELDERLY = 65;

function olderAdult(maxDailyMg: number, aboveAgeYears: number, appliesTo: string): ReducedDoseLimit {
  return { maxDailyMg, aboveAgeYears, appliesTo };
}

/**
 * Label dose limits the checker applies to a dose written in an entry (decisions 70 and 174):
 * every ingredient whose label states a fixed adult maximum in mg per day. Not listed: drugs dosed
 * by level or weight (lithium, valproate, phenytoin), by titration without a stated maximum
 * (lamotrigine with interacting drugs, methadone, buprenorphine, opioids other than those below),
 * and those whose two markets' labels give maxima too different to state one (methylphenidate,
 * haloperidol, pimozide, diclofenac).
 */
export const DAILY_DOSE_LIMITS: Readonly<Record<string, DailyDoseLimit>> = {
  citalopram: {
    maxDailyMg: 40,
    reduced: {
      maxDailyMg: 20,
      aboveAgeYears: 60,
      withClasses: ["cyp2c19_inhibitor"],
      withHepaticImpairment: true,
      appliesTo:
        "patients older than 60 years, with hepatic impairment, who are CYP2C19 poor metabolisers, or who take cimetidine or another CYP2C19 inhibitor",
      otherConditions: "Check hepatic function and CYP2C19 status.",
    },
    harm: "dose-dependent QT prolongation and torsade de pointes",
    source:
      "FDA Drug Safety Communications 24 Aug 2011 and 28 Mar 2012 (citalopram: no more than 40 mg/day; 20 mg/day maximum in the groups named); Celexa US label, Dosage and Administration",
    sourceChecked: true,
  },
  // Antidepressants
  sertraline: labelMax(200, "Zoloft (sertraline) US label, Dosage"),
  fluoxetine: labelMax(80, "Prozac (fluoxetine) US label, Dosage (the UK SmPC states 60 mg)"),
  paroxetine: labelMax(
    60,
    "Paxil (paroxetine) US label, Dosage (60 mg for OCD and panic disorder; 40 mg in elderly or debilitated patients)",
    olderAdult(40, ELDERLY, "elderly or debilitated patients"),
  ),
  escitalopram: labelMax(
    20,
    "Lexapro (escitalopram) US label, Dosage (10 mg/day for elderly patients and patients with hepatic impairment); Cipralex UK SmPC, Posology (patients aged 65 and over: maximum 10 mg; reduced hepatic function: 10 mg); MHRA Drug Safety Update December 2011 (escitalopram 10 mg maximum over 65 and with hepatic impairment)",
    {
      ...olderAdult(10, ELDERLY, "patients aged 65 and over or with hepatic impairment"),
      withHepaticImpairment: true,
    },
  ),
  fluvoxamine: labelMax(300, "Fluvoxamine US label, Dosage"),
  vilazodone: labelMax(40, "Viibryd (vilazodone) US label, Dosage"),
  venlafaxine: labelMax(
    375,
    "Effexor (venlafaxine) US label, Dosage (375 mg/day in severely depressed inpatients)",
  ),
  duloxetine: labelMax(120, "Cymbalta (duloxetine) US label, Dosage"),
  milnacipran: labelMax(200, "Savella (milnacipran) US label, Dosage"),
  levomilnacipran: labelMax(120, "Fetzima (levomilnacipran) US label, Dosage"),
  amitriptyline: labelMax(300, "Amitriptyline US label, Dosage (hospitalised patients up to 300 mg/day)"),
  nortriptyline: labelMax(150, "Pamelor (nortriptyline) US label, Dosage"),
  clomipramine: labelMax(250, "Anafranil (clomipramine) US label, Dosage"),
  imipramine: labelMax(300, "Tofranil (imipramine) US label, Dosage (hospitalised patients)"),
  doxepin: labelMax(300, "Doxepin capsules US label, Dosage"),
  desipramine: labelMax(300, "Norpramin (desipramine) US label, Dosage"),
  trimipramine: labelMax(300, "Surmontil (trimipramine) US label, Dosage (hospitalised patients)"),
  protriptyline: labelMax(60, "Protriptyline US label, Dosage"),
  amoxapine: labelMax(600, "Amoxapine US label, Dosage (hospitalised patients)"),
  maprotiline: labelMax(225, "Maprotiline US label, Dosage (hospitalised patients)"),
  dosulepin: labelMax(225, "BNF, dosulepin hydrochloride (up to 225 mg daily in hospital)"),
  lofepramine: labelMax(210, "BNF, lofepramine"),
  phenelzine: labelMax(90, "Nardil (phenelzine) US label, Dosage"),
  tranylcypromine: labelMax(60, "Parnate (tranylcypromine) US label, Dosage"),
  isocarboxazid: labelMax(60, "Marplan (isocarboxazid) US label, Dosage"),
  moclobemide: labelMax(600, "Moclobemide UK SmPC, Posology"),
  mirtazapine: labelMax(45, "Remeron (mirtazapine) US label, Dosage"),
  trazodone: labelMax(600, "Trazodone US label, Dosage (400 mg/day outpatients, 600 mg/day inpatients)"),
  nefazodone: labelMax(600, "Nefazodone US label, Dosage"),
  vortioxetine: labelMax(20, "Trintellix (vortioxetine) US label, Dosage"),
  bupropion: labelMax(450, "Wellbutrin and Wellbutrin XL (bupropion) US labels, Dosage"),
  agomelatine: labelMax(50, "Valdoxan (agomelatine) UK SmPC, Posology"),
  reboxetine: labelMax(12, "Edronax (reboxetine) UK SmPC, Posology"),
  // Antipsychotics
  clozapine: labelMax(900, "Clozaril (clozapine) US label, Dosage"),
  olanzapine: labelMax(20, "Zyprexa (olanzapine) US label, Dosage (oral)"),
  quetiapine: labelMax(800, "Seroquel (quetiapine) US label, Dosage (bipolar mania 800 mg/day)"),
  risperidone: labelMax(16, "Risperdal (risperidone) US label, Dosage"),
  paliperidone: labelMax(12, "Invega (paliperidone) US label, Dosage"),
  aripiprazole: labelMax(30, "Abilify (aripiprazole) US label, Dosage"),
  brexpiprazole: labelMax(4, "Rexulti (brexpiprazole) US label, Dosage"),
  cariprazine: labelMax(6, "Vraylar (cariprazine) US label, Dosage"),
  lurasidone: labelMax(160, "Latuda (lurasidone) US label, Dosage"),
  ziprasidone: labelMax(160, "Geodon (ziprasidone) US label, Dosage (80 mg twice daily)"),
  iloperidone: labelMax(24, "Fanapt (iloperidone) US label, Dosage"),
  lumateperone: labelMax(42, "Caplyta (lumateperone) US label, Dosage (42 mg once daily)"),
  asenapine: labelMax(20, "Saphris (asenapine) US label, Dosage (10 mg twice daily)"),
  pimavanserin: labelMax(34, "Nuplazid (pimavanserin) US label, Dosage"),
  amisulpride: labelMax(1200, "Solian (amisulpride) UK SmPC, Posology"),
  sulpiride: labelMax(2400, "Sulpiride UK SmPC, Posology"),
  chlorpromazine: labelMax(1000, "Chlorpromazine US label, Dosage"),
  loxapine: labelMax(250, "Loxitane (loxapine) US label, Dosage"),
  perphenazine: labelMax(64, "Perphenazine US label, Dosage (hospitalised patients)"),
  fluphenazine: labelMax(40, "Fluphenazine hydrochloride US label, Dosage"),
  // Anxiolytics and hypnotics
  diazepam: labelMax(40, "Valium (diazepam) US label, Dosage (anxiety: 2-10 mg two to four times daily)"),
  alprazolam: labelMax(10, "Xanax (alprazolam) US label, Dosage (panic disorder)"),
  lorazepam: labelMax(10, "Ativan (lorazepam) US label, Dosage"),
  clonazepam: labelMax(20, "Klonopin (clonazepam) US label, Dosage (seizure disorders)"),
  chlordiazepoxide: labelMax(300, "Librium (chlordiazepoxide) US label, Dosage (acute alcohol withdrawal)"),
  oxazepam: labelMax(120, "Oxazepam US label, Dosage"),
  temazepam: labelMax(30, "Restoril (temazepam) US label, Dosage"),
  triazolam: labelMax(
    0.5,
    "Halcion (triazolam) US label, Dosage (geriatric patients 0.125-0.25 mg)",
    olderAdult(0.25, ELDERLY, "geriatric patients"),
  ),
  clobazam: labelMax(40, "Onfi (clobazam) US label, Dosage"),
  zolpidem: labelMax(
    10,
    "Ambien (zolpidem) US label, Dosage (5 mg for geriatric patients)",
    olderAdult(5, ELDERLY, "geriatric patients"),
  ),
  eszopiclone: labelMax(
    3,
    "Lunesta (eszopiclone) US label, Dosage (elderly: do not exceed 2 mg)",
    olderAdult(2, ELDERLY, "elderly patients"),
  ),
  zaleplon: labelMax(
    20,
    "Sonata (zaleplon) US label, Dosage (elderly: doses over 10 mg not recommended)",
    olderAdult(10, ELDERLY, "elderly patients"),
  ),
  zopiclone: labelMax(7.5, "Zimovane (zopiclone) UK SmPC, Posology"),
  suvorexant: labelMax(20, "Belsomra (suvorexant) US label, Dosage"),
  lemborexant: labelMax(10, "Dayvigo (lemborexant) US label, Dosage"),
  daridorexant: labelMax(50, "Quviviq (daridorexant) US label, Dosage"),
  ramelteon: labelMax(8, "Rozerem (ramelteon) US label, Dosage"),
  buspirone: labelMax(60, "Buspirone US label, Dosage"),
  hydroxyzine: labelMax(
    100,
    "MHRA Drug Safety Update April 2015 (hydroxyzine: QT prolongation; adults 100 mg/day, elderly 50 mg/day); Atarax UK SmPC",
    olderAdult(50, ELDERLY, "elderly patients"),
  ),
  // Stimulants, wakefulness, ADHD non-stimulants
  atomoxetine: labelMax(100, "Strattera (atomoxetine) US label, Dosage"),
  lisdexamfetamine: labelMax(70, "Vyvanse (lisdexamfetamine) US label, Dosage"),
  dexamfetamine: labelMax(60, "Dexedrine US label, Dosage (narcolepsy 60 mg); BNF (adults with ADHD)"),
  modafinil: labelMax(400, "Provigil (modafinil) UK SmPC, Posology"),
  armodafinil: labelMax(250, "Nuvigil (armodafinil) US label, Dosage"),
  solriamfetol: labelMax(150, "Sunosi (solriamfetol) US label, Dosage"),
  pitolisant: labelMax(36, "Wakix (pitolisant) US label, Dosage"),
  viloxazine: labelMax(600, "Qelbree (viloxazine) US label, Dosage (adults)"),
  guanfacine: labelMax(7, "Intuniv (guanfacine extended release) US label and UK SmPC, Dosage"),
  // Antiepileptics
  carbamazepine: labelMax(1600, "Tegretol (carbamazepine) US label, Dosage (1600 mg/day in rare instances)"),
  oxcarbazepine: labelMax(2400, "Trileptal (oxcarbazepine) US label, Dosage"),
  eslicarbazepine: labelMax(1600, "Aptiom (eslicarbazepine) US label, Dosage"),
  topiramate: labelMax(400, "Topamax (topiramate) US label, Dosage"),
  gabapentin: labelMax(3600, "Neurontin (gabapentin) US label, Dosage"),
  pregabalin: labelMax(600, "Lyrica (pregabalin) US label, Dosage"),
  levetiracetam: labelMax(3000, "Keppra (levetiracetam) US label, Dosage"),
  brivaracetam: labelMax(200, "Briviact (brivaracetam) US label, Dosage"),
  lacosamide: labelMax(400, "Vimpat (lacosamide) US label, Dosage"),
  zonisamide: labelMax(600, "Zonegran (zonisamide) US label, Dosage"),
  perampanel: labelMax(12, "Fycompa (perampanel) US label, Dosage"),
  cenobamate: labelMax(400, "Xcopri (cenobamate) US label, Dosage"),
  ethosuximide: labelMax(
    1500,
    "Zarontin (ethosuximide) US label, Dosage (above 1.5 g/day only under strict supervision)",
  ),
  vigabatrin: labelMax(3000, "Sabril (vigabatrin) US label, Dosage"),
  tiagabine: labelMax(56, "Gabitril (tiagabine) US label, Dosage"),
  rufinamide: labelMax(3200, "Banzel (rufinamide) US label, Dosage"),
  felbamate: labelMax(3600, "Felbatol (felbamate) US label, Dosage"),
  // Addictive disorders
  varenicline: labelMax(2, "Chantix (varenicline) US label, Dosage"),
  nalmefene: labelMax(18, "Selincro (nalmefene) UK SmPC, Posology"),
  acamprosate: labelMax(1998, "Campral (acamprosate) US label, Dosage (666 mg three times daily)"),
  disulfiram: labelMax(500, "Antabuse (disulfiram) US label, Dosage"),
  lofexidine: labelMax(2.88, "Lucemyra (lofexidine) US label, Dosage (0.72 mg per dose, 2.88 mg/day)"),
  // Opioids, NSAIDs and triptans
  tramadol: labelMax(
    400,
    "Ultram (tramadol) US label, Dosage (patients over 75 years: no more than 300 mg/day)",
    olderAdult(300, 75, "patients over 75 years"),
  ),
  codeine: labelMax(240, "BNF, codeine phosphate (maximum 240 mg per day)"),
  dihydrocodeine: labelMax(240, "BNF, dihydrocodeine tartrate (maximum 240 mg per day)"),
  ibuprofen: labelMax(3200, "Motrin (ibuprofen) US label, Dosage"),
  naproxen: labelMax(1500, "Naprosyn (naproxen) US label, Dosage (1500 mg/day for limited periods)"),
  celecoxib: labelMax(400, "Celebrex (celecoxib) US label, Dosage"),
  meloxicam: labelMax(15, "Mobic (meloxicam) US label, Dosage"),
  etoricoxib: labelMax(120, "Arcoxia (etoricoxib) UK SmPC, Posology"),
  ketorolac: labelMax(40, "Ketorolac tablets US label, Dosage (oral, 40 mg/day)"),
  sumatriptan: labelMax(200, "Imitrex (sumatriptan) tablets US label, Dosage"),
  rizatriptan: labelMax(30, "Maxalt (rizatriptan) US label, Dosage"),
  zolmitriptan: labelMax(10, "Zomig (zolmitriptan) US label, Dosage"),
  naratriptan: labelMax(5, "Amerge (naratriptan) US label, Dosage"),
  eletriptan: labelMax(80, "Relpax (eletriptan) US label, Dosage"),
  almotriptan: labelMax(25, "Axert (almotriptan) US label, Dosage"),
  frovatriptan: labelMax(7.5, "Frova (frovatriptan) US label, Dosage"),
};
