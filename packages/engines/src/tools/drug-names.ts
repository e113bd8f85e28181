/**
 * Ingredient dictionary of the interaction checker: canonical generic names, the names and a few
 * well-known brands that map to them, the pharmacological classes the interaction rules select on,
 * and RxNorm ingredient codes where one was verified. Method and sources:
 * docs/engines/interactions.md.
 */

/**
 * Classes the rules in interaction-rules.ts select on. A class here is a shared property that
 * drives an interaction (for example "strong CYP2D6 inhibitor"), not a therapeutic category.
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
  "nsaid",
  "ace_inhibitor",
  "arb",
  "thiazide",
  "loop_diuretic",
  "anticoagulant",
  "antiplatelet",
  /** FDA table of CYP inhibitors: strong CYP2D6 inhibitors. */
  "strong_cyp2d6_inhibitor",
  /** FDA table of CYP inhibitors and the clozapine label: strong CYP1A2 inhibitors. */
  "strong_cyp1a2_inhibitor",
  /** Strong inducers of CYP3A4 (and of glucuronidation), which lower many psychotropics. */
  "strong_inducer",
  "hormonal_contraceptive",
  /** CredibleMeds "known risk of torsade de pointes" (membership not checked against the list this pass). */
  "qt_known_risk",
  /** Anticholinergic Cognitive Burden scale score 3 (Boustani et al. 2008). */
  "anticholinergic_high",
  "stimulant",
  "sympathomimetic",
  /** Antipsychotics with marked sedation, added to CNS-depressant stacking with opioids. */
  "sedating_antipsychotic",
  /** CYP3A4-inhibiting macrolides that raise carbamazepine. */
  "cyp3a4_inhibiting_macrolide",
] as const;
export type DrugClass = (typeof DRUG_CLASSES)[number];

export interface IngredientEntry {
  /** Canonical lower-case generic name. */
  ingredient: string;
  classes: readonly DrugClass[];
  /** Other generic names, salts and spellings that mean this ingredient (lower case). */
  names: readonly string[];
  /** Well-known brand names only (lower case). */
  brands: readonly string[];
  /** RxNorm ingredient RxCUI, only where verified (docs/engines/interactions.md, "RxNorm codes"). */
  rxcui: string | null;
}

interface EntryOptions {
  names?: readonly string[];
  brands?: readonly string[];
  rxcui?: string;
}

function entry(
  ingredient: string,
  classes: readonly DrugClass[],
  options: EntryOptions = {},
): IngredientEntry {
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

/** Every ingredient the checker recognises, grouped loosely by use. */
export const INGREDIENTS: readonly IngredientEntry[] = [
  // Antidepressants: SSRIs
  entry("sertraline", ["ssri"], { brands: ["zoloft", "lustral"], rxcui: "36437" }),
  entry("fluoxetine", ["ssri", "strong_cyp2d6_inhibitor"], { brands: ["prozac", "sarafem"], rxcui: "4493" }),
  entry("paroxetine", ["ssri", "strong_cyp2d6_inhibitor", "anticholinergic_high"], {
    brands: ["paxil", "seroxat"],
    rxcui: "32937",
  }),
  entry("citalopram", ["ssri", "qt_known_risk"], { brands: ["celexa", "cipramil"], rxcui: "2556" }),
  entry("escitalopram", ["ssri", "qt_known_risk"], { brands: ["lexapro", "cipralex"], rxcui: "321988" }),
  entry("fluvoxamine", ["ssri", "strong_cyp1a2_inhibitor"], { brands: ["luvox", "faverin"], rxcui: "42355" }),
  entry("vilazodone", ["ssri"], { brands: ["viibryd"] }),
  // SNRIs
  entry("venlafaxine", ["snri"], { brands: ["effexor"], rxcui: "39786" }),
  entry("desvenlafaxine", ["snri"], { brands: ["pristiq"] }),
  entry("duloxetine", ["snri"], { brands: ["cymbalta"], rxcui: "72625" }),
  entry("milnacipran", ["snri"], { brands: ["savella"] }),
  entry("levomilnacipran", ["snri"], { brands: ["fetzima"] }),
  // Tricyclics
  entry("amitriptyline", ["tca", "anticholinergic_high"], { rxcui: "704" }),
  entry("nortriptyline", ["tca", "anticholinergic_high"], { brands: ["pamelor"], rxcui: "7531" }),
  entry("clomipramine", ["tca", "anticholinergic_high"], { brands: ["anafranil"], rxcui: "2597" }),
  entry("imipramine", ["tca", "anticholinergic_high"], { brands: ["tofranil"], rxcui: "5691" }),
  entry("doxepin", ["tca", "anticholinergic_high"], { rxcui: "3638" }),
  entry("desipramine", ["tca", "anticholinergic_high"], { rxcui: "3247" }),
  entry("trimipramine", ["tca", "anticholinergic_high"], { rxcui: "10834" }),
  entry("dosulepin", ["tca", "anticholinergic_high"], { names: ["dothiepin"] }),
  entry("lofepramine", ["tca"]),
  // MAOIs
  entry("phenelzine", ["maoi"], { brands: ["nardil"] }),
  entry("tranylcypromine", ["maoi"], { brands: ["parnate"] }),
  entry("isocarboxazid", ["maoi"], { brands: ["marplan"] }),
  entry("selegiline", ["maoi"], { brands: ["emsam", "eldepryl"] }),
  entry("moclobemide", ["maoi"], { brands: ["manerix", "aurorix"] }),
  // Other antidepressants
  entry("mirtazapine", ["other_serotonergic_antidepressant"], {
    brands: ["remeron", "zispin"],
    rxcui: "15996",
  }),
  entry("trazodone", ["other_serotonergic_antidepressant"], { brands: ["desyrel", "molipaxin"] }),
  entry("vortioxetine", ["other_serotonergic_antidepressant"], {
    brands: ["trintellix", "brintellix"],
    rxcui: "1455099",
  }),
  entry("bupropion", ["strong_cyp2d6_inhibitor"], {
    names: ["amfebutamone"],
    brands: ["wellbutrin", "zyban"],
    rxcui: "42347",
  }),
  entry("agomelatine", [], { brands: ["valdoxan"] }),
  entry("st johns wort", ["strong_inducer"], {
    names: ["saint johns wort", "st john wort", "hypericum", "hypericum perforatum"],
  }),
  // Antipsychotics
  entry("clozapine", ["anticholinergic_high", "sedating_antipsychotic"], {
    brands: ["clozaril", "denzapine", "zaponex"],
    rxcui: "2626",
  }),
  entry("olanzapine", ["anticholinergic_high", "sedating_antipsychotic"], {
    brands: ["zyprexa"],
    rxcui: "61381",
  }),
  entry("quetiapine", ["anticholinergic_high", "sedating_antipsychotic"], { brands: ["seroquel"] }),
  entry("risperidone", [], { brands: ["risperdal"], rxcui: "35636" }),
  entry("paliperidone", [], { brands: ["invega", "xeplion"] }),
  entry("aripiprazole", [], { brands: ["abilify"], rxcui: "89013" }),
  entry("haloperidol", ["qt_known_risk"], { brands: ["haldol"], rxcui: "5093" }),
  entry("lurasidone", [], { brands: ["latuda"] }),
  entry("chlorpromazine", ["qt_known_risk", "anticholinergic_high", "sedating_antipsychotic"], {
    brands: ["largactil", "thorazine"],
  }),
  entry("pimozide", ["qt_known_risk"], { brands: ["orap"], rxcui: "8331" }),
  entry("thioridazine", ["qt_known_risk", "anticholinergic_high"], { rxcui: "10502" }),
  // Mood stabilisers and antiepileptics
  entry("lithium", [], {
    names: ["lithium carbonate", "lithium citrate"],
    brands: ["priadel", "camcolit", "lithobid", "liskonum"],
  }),
  // No code: CPIC lists valproic acid (11118) and divalproex sodium (266856) as separate concepts
  // and no source maps the salts to one ingredient (docs/terminology.md).
  entry("valproate", [], {
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
  entry("carbamazepine", ["strong_inducer"], { brands: ["tegretol"], rxcui: "2002" }),
  entry("oxcarbazepine", [], { brands: ["trileptal"], rxcui: "32624" }),
  entry("lamotrigine", [], { brands: ["lamictal"], rxcui: "28439" }),
  entry("phenytoin", ["strong_inducer"], { brands: ["dilantin", "epanutin"], rxcui: "8183" }),
  entry("phenobarbital", ["strong_inducer"], { names: ["phenobarbitone"] }),
  entry("primidone", ["strong_inducer"], { brands: ["mysoline"] }),
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
  entry("methadone", ["opioid", "serotonergic_opioid", "qt_known_risk"], { rxcui: "6813" }),
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
  entry("amiodarone", ["qt_known_risk"]),
  entry("sotalol", ["qt_known_risk"]),
  entry("quinidine", ["strong_cyp2d6_inhibitor", "qt_known_risk"], { rxcui: "9068" }),
  // Anti-infectives
  entry("ciprofloxacin", ["strong_cyp1a2_inhibitor", "qt_known_risk"], { brands: ["cipro"], rxcui: "2551" }),
  entry("levofloxacin", ["qt_known_risk"], { rxcui: "82122" }),
  entry("moxifloxacin", ["qt_known_risk"], { rxcui: "139462" }),
  entry("clarithromycin", ["qt_known_risk", "cyp3a4_inhibiting_macrolide"]),
  entry("erythromycin", ["qt_known_risk", "cyp3a4_inhibiting_macrolide"], { rxcui: "4053" }),
  entry("azithromycin", ["qt_known_risk"]),
  entry("fluconazole", ["qt_known_risk"]),
  entry("hydroxychloroquine", ["qt_known_risk"]),
  entry("linezolid", [], { brands: ["zyvox"] }),
  entry("metronidazole", [], { brands: ["flagyl"] }),
  entry("meropenem", []),
  entry("ertapenem", []),
  entry("rifampicin", ["strong_inducer"], { names: ["rifampin"] }),
  // Other
  entry("methylene blue", [], { names: ["methylthioninium chloride", "methylthioninium"], rxcui: "6878" }),
  entry("tamoxifen", [], { rxcui: "10324" }),
  entry("ondansetron", ["qt_known_risk"], { brands: ["zofran"], rxcui: "26225" }),
  entry("domperidone", ["qt_known_risk"], { brands: ["motilium"] }),
  entry("donepezil", ["qt_known_risk"], { brands: ["aricept"], rxcui: "135447" }),
  entry("theophylline", []),
  entry("tizanidine", [], { brands: ["zanaflex"] }),
  entry("ramelteon", [], { brands: ["rozerem"] }),
  entry("tetrabenazine", [], { rxcui: "10390" }),
  entry("buspirone", [], { brands: ["buspar"] }),
  entry("levodopa", [], { names: ["co-careldopa", "co-beneldopa"], brands: ["sinemet", "madopar"] }),
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
  entry("amphetamine", ["stimulant"], { names: ["mixed amphetamine salts"], brands: ["adderall"] }),
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
    brands: ["microgynon", "yasmin", "rigevidon"],
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
];

// ---------------------------------------------------------------------------------------------
// Lookup

const INGREDIENT_BY_NAME: ReadonlyMap<string, IngredientEntry> = new Map(
  INGREDIENTS.map((item) => [item.ingredient, item]),
);

/**
 * Lower case, accents and apostrophes dropped, every other run of non-alphanumerics (except a
 * decimal point between digits) turned into one space: "St. John's Wort" -> "st johns wort".
 */
export function normaliseMedicationText(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[µμ]/g, "mc")
      .replace(/['’`]/g, "")
      .replace(/(\d),(\d)/g, "$1.$2")
      .replace(/[^a-z0-9.]+/g, " ")
      // A point stays only as a decimal point ("2.5 mg"); "St." and "tab." lose it.
      .replace(/\.(?!\d)|(?<!\d)\./g, " ")
      .replace(/\s+/g, " ")
      .trim()
  );
}

/** Phrase (normalised, space-separated tokens) -> canonical ingredient, built once. */
const PHRASE_TO_INGREDIENT: ReadonlyMap<string, string> = buildPhraseIndex();

/** The longest phrase in the index, in tokens; bounds the matching window. */
const LONGEST_PHRASE_TOKENS = Math.max(...[...PHRASE_TO_INGREDIENT.keys()].map((p) => p.split(" ").length));

function buildPhraseIndex(): Map<string, string> {
  const index = new Map<string, string>();
  for (const item of INGREDIENTS) {
    for (const name of [item.ingredient, ...item.names, ...item.brands]) {
      const phrase = normaliseMedicationText(name);
      const existing = index.get(phrase);
      if (existing !== undefined && existing !== item.ingredient) {
        throw new Error(`Medication name "${name}" maps to both ${existing} and ${item.ingredient}`);
      }
      index.set(phrase, item.ingredient);
    }
  }
  return index;
}

/** The dictionary entry of a canonical ingredient name, or undefined. */
export function ingredientEntry(ingredient: string): IngredientEntry | undefined {
  return INGREDIENT_BY_NAME.get(ingredient);
}

/**
 * Every ingredient named in normalised text, in order of appearance, each once. Matching is on
 * whole words, longest phrase first, so "escitalopram" is never read as citalopram and "lithium
 * carbonate" is one name.
 */
export function findIngredients(normalisedText: string): string[] {
  const tokens = normalisedText === "" ? [] : normalisedText.split(" ");
  const found: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    const match = longestPhraseAt(tokens, i);
    if (match === null) {
      i += 1;
      continue;
    }
    if (!found.includes(match.ingredient)) found.push(match.ingredient);
    i += match.length;
  }
  return found;
}

function longestPhraseAt(
  tokens: readonly string[],
  start: number,
): { ingredient: string; length: number } | null {
  const maxLength = Math.min(LONGEST_PHRASE_TOKENS, tokens.length - start);
  for (let length = maxLength; length >= 1; length--) {
    const ingredient = PHRASE_TO_INGREDIENT.get(tokens.slice(start, start + length).join(" "));
    if (ingredient !== undefined) return { ingredient, length };
  }
  return null;
}
