/**
 * The properties of each ingredient that interaction, duplicate-therapy and dose rules are derived
 * from (decision 172): WHO ATC code, the pharmacological subclass that makes two drugs duplicate
 * therapy, serotonergic activity, CNS depression, anticholinergic burden (ACB), the CYP enzymes
 * that clear it, narrow therapeutic index, teratogenicity and renal elimination. QT category and
 * CYP inhibitor/inducer roles stay in knowledge/medicines.ts (QT_RISK, CYP_ROLES) and label dose
 * limits in DAILY_DOSE_LIMITS there.
 *
 * Unknown is a value: a property absent from a row is unknown for that ingredient, and a rule that
 * needs it says "not evaluated" (decision 173) instead of reading it as absent. Sources are given
 * per property (PROPERTY_SOURCES) and, where a row differs, in the row; docs/engines/medicine-
 * coverage.md is generated from this table (`pnpm knowledge:coverage`).
 */

/** An ACB score: 0 (not anticholinergic), 1 possible, 2 or 3 definite (Boustani et al. 2008). */
export type AcbScore = 0 | 1 | 2 | 3;

export type SubstrateEnzyme = "CYP1A2" | "CYP2C19" | "CYP2D6" | "CYP3A4";

/** What one row says; every field but the ingredient may be unknown (undefined). */
export interface MedicineProperties {
  ingredient: string;
  /** WHO ATC code; undefined when not known. */
  atc?: string;
  /**
   * The pharmacological subclass of which two members are duplicate therapy (e.g. `ssri`,
   * `antipsychotic`, `benzodiazepine`); null when the ingredient belongs to no such subclass
   * (e.g. a heterogeneous "other antidepressants" group), undefined when not assessed.
   */
  subclass?: string | null;
  serotonergic?: boolean;
  cnsDepressant?: boolean;
  acb?: AcbScore;
  /**
   * CYP enzymes that clear the drug to a clinically relevant degree; [] when it is not
   * CYP-metabolised (renal or glucuronidation), undefined when not known.
   */
  cypSubstrate?: readonly SubstrateEnzyme[];
  narrowTherapeuticIndex?: boolean;
  teratogenic?: boolean;
  /** Cleared mainly unchanged by the kidney (a dose reduction in renal impairment in the label). */
  renal?: boolean;
  /** Where a row's facts come from when it is not the property's group source. */
  note?: string;
}

/** The source of each property, for every row that gives no other (decision 172). */
export const PROPERTY_SOURCES = {
  atc: "WHO Collaborating Centre for Drug Statistics Methodology, ATC/DDD Index (codes as published; the index was not opened during this task, so every code is sourceChecked: false)",
  subclass:
    "WHO ATC level 4 groups and the BNF chapter classes (SSRIs, SNRIs, tricyclics, MAOIs, antipsychotics, benzodiazepines, z-drugs, orexin receptor antagonists, gabapentinoids, stimulants, opioids, NSAIDs, anticoagulants, ACE inhibitors, ARBs, thiazides, loop diuretics, triptans, 5-HT3 antagonists, racetams)",
  serotonergic:
    "Boyer and Shannon 2005, N Engl J Med 352:1112-1120 (drugs associated with serotonin syndrome); FDA Drug Safety Communication 22 Mar 2016 (opioids); each product's US label, Warnings (serotonin syndrome)",
  cnsDepressant:
    "FDA Drug Safety Communication 31 Aug 2016 (opioids with benzodiazepines or other CNS depressants: sedative-hypnotics, anxiolytics, antipsychotics, gabapentinoids, other opioids, alcohol); each product's US label, Warnings (CNS depression)",
  acb: "Anticholinergic Cognitive Burden scale (Boustani et al. 2008, Aging Health 4:311-320; 2012 update, Aging Brain Care); an ingredient the scale does not list scores 0 by the scale's own rule only when it was marketed before the 2012 update, later ones are unknown",
  cypSubstrate:
    "FDA, Drug Development and Drug Interactions: Table of Substrates, Inhibitors and Inducers; each product's US label, Clinical Pharmacology (metabolism)",
  narrowTherapeuticIndex:
    "Each product's US label (therapeutic drug monitoring required) and the BNF (plasma-concentration monitoring)",
  teratogenic:
    "MHRA Drug Safety Updates (valproate Pregnancy Prevention Programme 2018 and 2024; topiramate 2024; carbamazepine, phenytoin, phenobarbital 2021 antiepileptic safety review); each product's label, Use in Pregnancy (lithium: Ebstein's anomaly)",
  renal: "Each product's US label, Dosage in renal impairment, and the BNF (renal impairment)",
  qt: "CredibleMeds QTdrugs categories (known, possible, conditional risk of TdP) in QT_RISK of knowledge/medicines.ts; an ingredient without a category there has its QT risk not recorded (unknown), not 'no risk'",
} as const;

export type PropertyName = keyof typeof PROPERTY_SOURCES;

/**
 * Every property and its sentence, for "not evaluated: <property> unknown for X" and the
 * coverage table.
 */
export const PROPERTY_LABELS: Readonly<Record<PropertyName, string>> = {
  atc: "WHO ATC code",
  subclass: "pharmacological subclass",
  serotonergic: "serotonergic activity",
  cnsDepressant: "CNS depression",
  acb: "anticholinergic burden (ACB score)",
  cypSubstrate: "CYP substrate roles",
  narrowTherapeuticIndex: "narrow therapeutic index",
  teratogenic: "teratogenicity",
  renal: "renal elimination",
  qt: "QT risk category",
};

/**
 * One row: ingredient, ATC code ("" = unknown), subclass ("-" = none of the duplicate-therapy
 * subclasses, "" = not assessed), then flags, each optional (an absent flag is unknown):
 *   S / s   serotonergic yes / no          D / d   CNS depressant yes / no
 *   A0..A3  ACB score                      N / n   narrow therapeutic index yes / no
 *   T / t   teratogenic yes / no           R / r   mainly renally eliminated yes / no
 *   1A2 2C19 2D6 3A4  CYP substrate        c-      not CYP-metabolised
 */
type Row = readonly [ingredient: string, atc: string, subclass: string, flags: string, note?: string];

const ROWS: readonly Row[] = [
  // SSRIs (N06AB)
  ["sertraline", "N06AB06", "ssri", "S d A1 2C19 3A4 n"],
  ["fluoxetine", "N06AB03", "ssri", "S d A1 2D6 n"],
  [
    "paroxetine",
    "N06AB05",
    "ssri",
    "S d A3 2D6 n T",
    "Paxil US label, Pregnancy (cardiac malformations, first trimester)",
  ],
  ["citalopram", "N06AB04", "ssri", "S d A1 2C19 3A4 n"],
  ["escitalopram", "N06AB10", "ssri", "S d A1 2C19 3A4 n"],
  ["fluvoxamine", "N06AB08", "ssri", "S d A1 1A2 2D6 n"],
  ["vilazodone", "N06AX24", "ssri", "S d 3A4 n"],
  // SNRIs
  ["venlafaxine", "N06AX16", "snri", "S d A1 2D6 n"],
  ["desvenlafaxine", "N06AX23", "snri", "S d n R"],
  ["duloxetine", "N06AX21", "snri", "S d A1 1A2 2D6 n"],
  ["milnacipran", "N06AX17", "snri", "S d c- n R"],
  ["levomilnacipran", "N06AX28", "snri", "S d 3A4 n R"],
  // Tricyclics (N06AA)
  ["amitriptyline", "N06AA09", "tca", "S D A3 2D6 2C19 n"],
  ["nortriptyline", "N06AA10", "tca", "S D A3 2D6 N", "Pamelor US label (plasma levels 50-150 ng/mL)"],
  ["clomipramine", "N06AA04", "tca", "S D A3 2D6 2C19 1A2 n"],
  ["imipramine", "N06AA02", "tca", "S D A3 2D6 2C19 n"],
  ["doxepin", "N06AA12", "tca", "S D A3 2D6 2C19 n"],
  ["desipramine", "N06AA01", "tca", "S D A3 2D6 n"],
  ["trimipramine", "N06AA06", "tca", "S D A3 2D6 n"],
  ["dosulepin", "N06AA16", "tca", "S D A3 n"],
  ["lofepramine", "N06AA07", "tca", "S D A1 n"],
  ["protriptyline", "N06AA11", "tca", "S d A3 2D6 n"],
  ["amoxapine", "N06AA17", "tca", "S D A3 2D6 n"],
  // MAOIs (N06AF, N06AG) and selegiline (N04BD)
  ["phenelzine", "N06AF03", "maoi", "S d A1 n"],
  ["tranylcypromine", "N06AF04", "maoi", "S d n"],
  ["isocarboxazid", "N06AF01", "maoi", "S d n"],
  ["selegiline", "N04BD01", "maoi", "S d 2C19 3A4 n"],
  ["moclobemide", "N06AG02", "maoi", "S d 2C19 n"],
  // Other antidepressants (N06AX): no shared subclass
  ["mirtazapine", "N06AX11", "-", "S D A1 1A2 2D6 3A4 n"],
  ["trazodone", "N06AX05", "-", "S D A1 3A4 n"],
  ["nefazodone", "N06AX06", "-", "S D 3A4 n"],
  ["vortioxetine", "N06AX26", "-", "S d 2D6 n"],
  [
    "gepirone",
    "N06AX",
    "-",
    "S d 3A4",
    "Exxua (gepirone) US label (5-HT1A agonist; serotonin syndrome warning); ATC code not assigned at level 5 when checked from memory",
  ],
  ["bupropion", "N06AX12", "-", "s d A1 n"],
  ["agomelatine", "N06AX22", "-", "s d 1A2 n"],
  ["mianserin", "N06AX03", "-", "s D A1 3A4 n"],
  ["maprotiline", "N06AA21", "-", "s D A1 2D6 n"],
  ["reboxetine", "N06AX18", "-", "s d 3A4 n"],
  [
    "esketamine",
    "N06AX27",
    "-",
    "s D 3A4 2C19",
    "Spravato (esketamine) US label, Boxed Warning (sedation, dissociation) and Clinical Pharmacology",
  ],
  [
    "zuranolone",
    "N06AX",
    "-",
    "s D 3A4",
    "Zurzuvae (zuranolone) US label, Boxed Warning (CNS depressant effects) and Drug Interactions (CYP3A4)",
  ],
  ["st johns wort", "N06AX25", "-", "S d n"],
  // Antipsychotics (N05A)
  ["clozapine", "N05AH02", "antipsychotic", "s D A3 1A2 3A4 2D6 N"],
  ["olanzapine", "N05AH03", "antipsychotic", "s D A3 1A2 n"],
  ["quetiapine", "N05AH04", "antipsychotic", "s D A3 3A4 n"],
  ["risperidone", "N05AX08", "antipsychotic", "s D A1 2D6 n"],
  ["paliperidone", "N05AX13", "antipsychotic", "s D c- n R"],
  ["aripiprazole", "N05AX12", "antipsychotic", "s D A1 2D6 3A4 n"],
  ["brexpiprazole", "N05AX16", "antipsychotic", "s D 2D6 3A4 n"],
  ["cariprazine", "N05AX15", "antipsychotic", "s D 3A4 n"],
  ["lurasidone", "N05AE05", "antipsychotic", "s D 3A4 n"],
  ["ziprasidone", "N05AE04", "antipsychotic", "s D 3A4 n"],
  ["iloperidone", "N05AX14", "antipsychotic", "s D 2D6 3A4 n"],
  [
    "lumateperone",
    "N05AX",
    "antipsychotic",
    "s D 3A4",
    "Caplyta (lumateperone) US label (CYP3A4 substrate; somnolence); ATC level 5 code not verified",
  ],
  ["pimavanserin", "N05AX17", "antipsychotic", "s d 3A4 n"],
  ["asenapine", "N05AH05", "antipsychotic", "s D 1A2 n"],
  ["haloperidol", "N05AD01", "antipsychotic", "s D A1 2D6 3A4 n"],
  ["droperidol", "N05AD08", "antipsychotic", "s D n"],
  ["benperidol", "N05AD07", "antipsychotic", "s D"],
  ["chlorpromazine", "N05AA01", "antipsychotic", "s D A3 2D6 1A2 n"],
  ["levomepromazine", "N05AA02", "antipsychotic", "s D A3 n"],
  ["promazine", "N05AA03", "antipsychotic", "s D A3"],
  ["pericyazine", "N05AC01", "antipsychotic", "s D A3"],
  ["thioridazine", "N05AC02", "antipsychotic", "s D A3 2D6 n"],
  ["fluphenazine", "N05AB02", "antipsychotic", "s D A1 2D6 n"],
  ["perphenazine", "N05AB03", "antipsychotic", "s D A1 2D6 n"],
  ["prochlorperazine", "N05AB04", "antipsychotic", "s D A2 n"],
  ["trifluoperazine", "N05AB06", "antipsychotic", "s D A3 1A2 n"],
  ["flupentixol", "N05AF01", "antipsychotic", "s D 2D6"],
  ["zuclopenthixol", "N05AF05", "antipsychotic", "s D 2D6"],
  ["thiothixene", "N05AF04", "antipsychotic", "s D A3 1A2"],
  ["pimozide", "N05AG02", "antipsychotic", "s D A2 3A4 2D6 n"],
  ["loxapine", "N05AH01", "antipsychotic", "s D A2 n"],
  ["molindone", "N05AE02", "antipsychotic", "s D A2"],
  ["amisulpride", "N05AL05", "antipsychotic", "s D c- n R"],
  ["sulpiride", "N05AL01", "antipsychotic", "s D c- n R"],
  // Lithium (N05AN) and antiepileptics (N03A)
  [
    "lithium",
    "N05AN01",
    "-",
    "S d A1 c- N T R",
    "Lithium US label (Boxed Warning: toxicity closely related to serum levels; Pregnancy: Ebstein's anomaly); serotonergic: Boyer and Shannon 2005",
  ],
  ["valproate", "N03AG01", "-", "s D c- N T"],
  ["carbamazepine", "N03AF01", "sodium_channel_antiepileptic", "s D A2 3A4 N T"],
  ["oxcarbazepine", "N03AF02", "sodium_channel_antiepileptic", "s D c- n R"],
  ["eslicarbazepine", "N03AF04", "sodium_channel_antiepileptic", "s D c- n R"],
  ["lamotrigine", "N03AX09", "-", "s D c- n"],
  ["phenytoin", "N03AB02", "-", "s D 2C19 N T"],
  ["fosphenytoin", "N03AB05", "-", "s D 2C19 N T"],
  ["phenobarbital", "N03AA02", "barbiturate", "s D 2C19 N T"],
  ["primidone", "N03AA03", "barbiturate", "s D N T"],
  [
    "topiramate",
    "N03AX11",
    "-",
    "s D c- n T R",
    "MHRA Drug Safety Update June 2024 (topiramate: Pregnancy Prevention Programme); Topamax US label",
  ],
  ["gabapentin", "N03AX12", "gabapentinoid", "s D A0 c- n R"],
  ["pregabalin", "N03AX16", "gabapentinoid", "s D c- n R"],
  ["levetiracetam", "N03AX14", "racetam", "s D c- n R"],
  [
    "brivaracetam",
    "N03AX23",
    "racetam",
    "s D 2C19 n",
    "Briviact US label (no added therapeutic benefit with levetiracetam)",
  ],
  ["lacosamide", "N03AX18", "sodium_channel_antiepileptic", "s D 2C19 n R"],
  ["zonisamide", "N03AX15", "-", "s D 3A4 n"],
  ["perampanel", "N03AX22", "-", "s D 3A4 n"],
  ["cenobamate", "N03AX25", "-", "s D n"],
  ["ethosuximide", "N03AD01", "-", "s D 3A4 n"],
  ["vigabatrin", "N03AG04", "-", "s D c- n R"],
  ["tiagabine", "N03AG06", "-", "s D 3A4 n"],
  ["rufinamide", "N03AF03", "sodium_channel_antiepileptic", "s D c- n"],
  ["felbamate", "N03AX10", "-", "s d n"],
  ["stiripentol", "N03AX17", "-", "s D"],
  ["cannabidiol", "N03AX24", "-", "s D 3A4 2C19"],
  ["fenfluramine", "N03AX26", "-", "S d", "Fintepla (fenfluramine) US label, Warnings (serotonin syndrome)"],
  ["ganaxolone", "N03AX27", "-", "s D 3A4"],
  ["clonazepam", "N03AE01", "benzodiazepine", "s D A1 3A4 n"],
  // Benzodiazepines (N05BA, N05CD)
  ["diazepam", "N05BA01", "benzodiazepine", "s D A1 2C19 3A4 n"],
  ["chlordiazepoxide", "N05BA02", "benzodiazepine", "s D A1 3A4 n"],
  ["oxazepam", "N05BA04", "benzodiazepine", "s D A1 c- n"],
  ["lorazepam", "N05BA06", "benzodiazepine", "s D A1 c- n"],
  ["alprazolam", "N05BA12", "benzodiazepine", "s D A1 3A4 n"],
  ["clobazam", "N05BA09", "benzodiazepine", "s D 3A4 2C19 n"],
  ["clorazepate", "N05BA05", "benzodiazepine", "s D A1 3A4 n"],
  ["temazepam", "N05CD07", "benzodiazepine", "s D A1 c- n"],
  ["nitrazepam", "N05CD02", "benzodiazepine", "s D 3A4 n"],
  ["midazolam", "N05CD08", "benzodiazepine", "s D 3A4 n"],
  ["triazolam", "N05CD05", "benzodiazepine", "s D 3A4 n"],
  ["lormetazepam", "N05CD06", "benzodiazepine", "s D c- n"],
  ["loprazolam", "N05CD11", "benzodiazepine", "s D 3A4"],
  ["flurazepam", "N05CD01", "benzodiazepine", "s D 3A4 n"],
  ["estazolam", "N05CD04", "benzodiazepine", "s D 3A4 n"],
  ["quazepam", "N05CD10", "benzodiazepine", "s D 3A4 n"],
  // Z-drugs and other hypnotics (N05CF, N05CH, N05CJ, N05CM)
  ["zolpidem", "N05CF02", "z_drug", "s D 3A4 n"],
  ["zopiclone", "N05CF01", "z_drug", "s D 3A4 n"],
  ["eszopiclone", "N05CF04", "z_drug", "s D 3A4 n"],
  ["zaleplon", "N05CF03", "z_drug", "s D 3A4 n"],
  ["melatonin", "N05CH01", "melatonin_agonist", "s d 1A2 n"],
  ["ramelteon", "N05CH02", "melatonin_agonist", "s d 1A2 n"],
  ["tasimelteon", "N05CH03", "melatonin_agonist", "s d 1A2 3A4 n"],
  ["suvorexant", "N05CJ01", "orexin_antagonist", "s D 3A4 n"],
  ["lemborexant", "N05CJ02", "orexin_antagonist", "s D 3A4 n"],
  ["daridorexant", "N05CJ03", "orexin_antagonist", "s D 3A4 n"],
  ["clomethiazole", "N05CM02", "-", "s D"],
  // Other anxiolytics (N05BB, N05BE)
  ["hydroxyzine", "N05BB01", "-", "s D A3 3A4 n"],
  ["buspirone", "N05BE01", "-", "S d 3A4 n"],
  // Psychostimulants and wakefulness (N06B) and ADHD non-stimulants
  ["methylphenidate", "N06BA04", "stimulant", "s d c- n"],
  ["dexmethylphenidate", "N06BA11", "stimulant", "s d c- n"],
  [
    "amphetamine",
    "N06BA01",
    "stimulant",
    "S d 2D6 n",
    "Adderall US label, Warnings (serotonin syndrome with serotonergic drugs)",
  ],
  ["dexamfetamine", "N06BA02", "stimulant", "S d 2D6 n", "Dexedrine US label, Warnings (serotonin syndrome)"],
  ["lisdexamfetamine", "N06BA12", "stimulant", "S d c- n", "Vyvanse US label, Warnings (serotonin syndrome)"],
  ["methamphetamine", "N06BA03", "stimulant", "S d 2D6 n"],
  ["atomoxetine", "N06BA09", "-", "s d 2D6 n"],
  [
    "viloxazine",
    "N06BA",
    "-",
    "s d 2D6",
    "Qelbree (viloxazine) US label (CYP2D6 substrate, strong CYP1A2 inhibitor); ATC level 5 code not verified",
  ],
  ["modafinil", "N06BA07", "-", "s d 3A4 n"],
  ["armodafinil", "N06BA13", "-", "s d 3A4 n"],
  ["solriamfetol", "N06BA14", "-", "s d c- n R"],
  ["pitolisant", "N07XX11", "-", "s d 2D6 3A4 n"],
  ["caffeine", "N06BC01", "-", "s d 1A2 n"],
  ["guanfacine", "C02AC02", "-", "s D 3A4 n"],
  ["clonidine", "C02AC01", "-", "s D n R"],
  // Drugs used in addictive disorders (N07B)
  ["nicotine", "N07BA01", "-", "s d 2D6 n"],
  ["varenicline", "N07BA03", "-", "s d c- n R"],
  ["disulfiram", "N07BB01", "-", "s d n"],
  ["acamprosate", "N07BB03", "-", "s d c- n R"],
  ["naltrexone", "N07BB04", "-", "s d c- n"],
  ["nalmefene", "N07BB05", "-", "s d c- n"],
  ["buprenorphine", "N07BC01", "opioid", "s D 3A4 n"],
  [
    "methadone",
    "N07BC02",
    "opioid",
    "S D 3A4 2C19 2D6 N",
    "Methadone US label (Boxed Warning: QT prolongation, respiratory depression; narrow therapeutic window in induction); FDA 2016 serotonergic opioid",
  ],
  ["lofexidine", "N07BC04", "-", "s D 2D6 n"],
  // Opioids (N02A) and antitussive
  ["morphine", "N02AA01", "opioid", "s D A1 c- n R"],
  ["oxycodone", "N02AA05", "opioid", "s D A1 3A4 2D6 n"],
  ["hydrocodone", "N02AA", "opioid", "s D A1 3A4 2D6 n"],
  ["hydromorphone", "N02AA03", "opioid", "s D A1 c- n"],
  ["oxymorphone", "N02AA11", "opioid", "s D c- n"],
  ["diamorphine", "N07BC06", "opioid", "s D c- n"],
  ["codeine", "R05DA04", "opioid", "s D A1 2D6 3A4 n"],
  ["dihydrocodeine", "N02AA08", "opioid", "s D 2D6 n"],
  ["tramadol", "N02AX02", "opioid", "S D 2D6 3A4 n R"],
  ["tapentadol", "N02AX06", "opioid", "S D c- n"],
  ["fentanyl", "N02AB03", "opioid", "S D A1 3A4 n"],
  ["pethidine", "N02AB02", "opioid", "S D A2 3A4 n R"],
  ["dextromethorphan", "R05DA09", "-", "S d 2D6 n"],
  // Triptans (N02CC) and 5-HT3 antagonists (A04AA)
  ["sumatriptan", "N02CC01", "triptan", "S d c- n"],
  ["rizatriptan", "N02CC04", "triptan", "S d c- n"],
  ["zolmitriptan", "N02CC03", "triptan", "S d 1A2 n"],
  ["naratriptan", "N02CC02", "triptan", "S d n R"],
  ["eletriptan", "N02CC06", "triptan", "S d 3A4 n"],
  ["almotriptan", "N02CC05", "triptan", "S d 3A4 2D6 n"],
  ["frovatriptan", "N02CC07", "triptan", "S d 1A2 n"],
  ["ondansetron", "A04AA01", "5ht3_antagonist", "S d 3A4 1A2 2D6 n"],
  ["granisetron", "A04AA02", "5ht3_antagonist", "S d 3A4 n"],
  ["palonosetron", "A04AA05", "5ht3_antagonist", "S d 2D6 3A4 n"],
  // Anti-infectives
  ["linezolid", "J01XX08", "-", "S d c- n"],
  ["methylene blue", "V03AB17", "-", "S d"],
  ["clarithromycin", "J01FA09", "macrolide", "s d 3A4 n"],
  ["erythromycin", "J01FA01", "macrolide", "s d 3A4 n"],
  ["azithromycin", "J01FA10", "macrolide", "s d c- n"],
  ["ciprofloxacin", "J01MA02", "fluoroquinolone", "s d c- n R"],
  ["levofloxacin", "J01MA12", "fluoroquinolone", "s d c- n R"],
  ["moxifloxacin", "J01MA14", "fluoroquinolone", "s d c- n"],
  ["fluconazole", "J02AC01", "azole", "s d c- n R"],
  ["ketoconazole", "J02AB02", "azole", "s d 3A4 n"],
  ["itraconazole", "J02AC02", "azole", "s d 3A4 n"],
  ["voriconazole", "J02AC03", "azole", "s d 2C19 3A4 n"],
  ["posaconazole", "J02AC04", "azole", "s d c- n"],
  ["rifampicin", "J04AB02", "-", "s d n"],
  ["metronidazole", "J01XD01", "-", "s d n"],
  // Antiarrhythmics
  ["amiodarone", "C01BD01", "-", "s d 3A4 N"],
  ["dronedarone", "C01BD07", "-", "s d 3A4 n"],
  ["sotalol", "C07AA07", "-", "s d c- N R"],
  ["quinidine", "C01BA01", "-", "s d 3A4 N"],
  ["flecainide", "C01BC04", "-", "s d 2D6 N R"],
  ["propafenone", "C01BC03", "-", "s d 2D6 3A4 1A2 n"],
  ["disopyramide", "C01BA03", "-", "s d 3A4 n R"],
  ["dofetilide", "C01BD04", "-", "s d n R"],
  // Diuretics, ACE inhibitors, ARBs
  ["hydrochlorothiazide", "C03AA03", "thiazide", "s d c- n R"],
  ["bendroflumethiazide", "C03AA01", "thiazide", "s d n"],
  ["chlortalidone", "C03BA04", "thiazide", "s d c- n R"],
  ["indapamide", "C03BA11", "thiazide", "s d 3A4 n"],
  ["metolazone", "C03BA08", "thiazide", "s d n"],
  ["furosemide", "C03CA01", "loop_diuretic", "s d A1 c- n R"],
  ["bumetanide", "C03CA02", "loop_diuretic", "s d n R"],
  ["torasemide", "C03CA04", "loop_diuretic", "s d n"],
  ["spironolactone", "C03DA01", "-", "s d n"],
  ["amiloride", "C03DB01", "-", "s d c- n R"],
  ["lisinopril", "C09AA03", "ace_inhibitor", "s d c- n R"],
  ["ramipril", "C09AA05", "ace_inhibitor", "s d c- n R"],
  ["enalapril", "C09AA02", "ace_inhibitor", "s d c- n R"],
  ["perindopril", "C09AA04", "ace_inhibitor", "s d c- n R"],
  ["captopril", "C09AA01", "ace_inhibitor", "s d A1 c- n R"],
  ["losartan", "C09CA01", "arb", "s d n"],
  ["valsartan", "C09CA03", "arb", "s d c- n"],
  ["candesartan", "C09CA06", "arb", "s d c- n"],
  ["irbesartan", "C09CA04", "arb", "s d n"],
  ["olmesartan", "C09CA08", "arb", "s d c- n"],
  ["telmisartan", "C09CA07", "arb", "s d c- n"],
  // NSAIDs, anticoagulants, antiplatelets
  ["ibuprofen", "M01AE01", "nsaid", "s d n"],
  ["naproxen", "M01AE02", "nsaid", "s d n"],
  ["diclofenac", "M01AB05", "nsaid", "s d n"],
  ["celecoxib", "M01AH01", "nsaid", "s d n"],
  ["meloxicam", "M01AC06", "nsaid", "s d 3A4 n"],
  ["indometacin", "M01AB01", "nsaid", "s d n"],
  ["ketorolac", "M01AB15", "nsaid", "s d n R"],
  ["etoricoxib", "M01AH05", "nsaid", "s d 3A4 n"],
  [
    "warfarin",
    "B01AA03",
    "anticoagulant",
    "s d 2C19 3A4 N T",
    "Coumadin US label (narrow therapeutic index; Contraindications: pregnancy except mechanical heart valves); CYP2C9 is its main enzyme, not modelled",
  ],
  ["apixaban", "B01AF02", "anticoagulant", "s d 3A4 n"],
  ["rivaroxaban", "B01AF01", "anticoagulant", "s d 3A4 n R"],
  ["dabigatran", "B01AE07", "anticoagulant", "s d c- n R"],
  ["edoxaban", "B01AF03", "anticoagulant", "s d c- n R"],
  ["aspirin", "B01AC06", "antiplatelet", "s d n"],
  ["clopidogrel", "B01AC04", "antiplatelet", "s d 2C19 n"],
  ["prasugrel", "B01AC22", "antiplatelet", "s d 3A4 n"],
  ["ticagrelor", "B01AC24", "antiplatelet", "s d 3A4 n"],
  // Hormonal contraceptives
  ["ethinylestradiol", "G03AA", "-", "s d 3A4 n"],
  ["levonorgestrel", "G03AC03", "-", "s d 3A4 n"],
  ["norethisterone", "G03AC01", "-", "s d 3A4 n"],
  ["desogestrel", "G03AC09", "-", "s d 3A4 n"],
  ["etonogestrel", "G03AC08", "-", "s d 3A4 n"],
  ["drospirenone", "G03AA12", "-", "s d 3A4 n"],
  // Other ingredients of the model
  ["metoprolol", "C07AB02", "-", "s d 2D6 n"],
  ["hydroxychloroquine", "P01BA02", "-", "s d n"],
  ["meropenem", "J01DH02", "-", "s d c- n R"],
  ["ertapenem", "J01DH03", "-", "s d c- n R"],
  ["tamoxifen", "L02BA01", "-", "s d 2D6 3A4 n T"],
  ["domperidone", "A03FA03", "-", "s d 3A4 n"],
  ["donepezil", "N06DA02", "-", "s d 2D6 3A4 n"],
  ["theophylline", "R03DA04", "-", "s d 1A2 N"],
  ["tizanidine", "M03BX02", "-", "s D 1A2 n"],
  ["tetrabenazine", "N07XX06", "-", "s D 2D6 n"],
  ["levodopa", "N04BA01", "-", "s d c- n"],
  ["carbidopa", "", "-", "s d"],
  ["benserazide", "", "-", "s d"],
  ["alcohol", "", "-", "s D", "Not a medicine; CNS depressant as in the FDA 2016 boxed warning"],
  ["metformin", "A10BA02", "-", "s d c- n R"],
  ["pseudoephedrine", "R01BA02", "-", "s d c- n R"],
  ["phenylephrine", "R01BA03", "-", "s d n"],
  ["ephedrine", "R03CA02", "-", "s d n"],
  ["procyclidine", "N04AA04", "-", "s d A3"],
  ["benztropine", "N04AC01", "-", "s d A3"],
  ["trihexyphenidyl", "N04AA01", "-", "s d A3"],
  ["oxybutynin", "G04BD04", "-", "s d A3 3A4 n"],
  ["tolterodine", "G04BD07", "-", "s d A3 2D6 3A4 n"],
  ["promethazine", "R06AD02", "-", "s D A3 2D6 n"],
  ["diphenhydramine", "R06AA02", "-", "s D A3 2D6 n"],
  ["chlorphenamine", "R06AB04", "-", "s D A3"],
  ["ritonavir", "J05AE03", "-", "s d 3A4 n"],
  ["cimetidine", "A02BA01", "-", "s d A1 n R"],
  ["terbinafine", "D01BA02", "-", "s d n"],
  ["omeprazole", "A02BC01", "-", "s d 2C19 3A4 n"],
  ["tobacco smoke", "", "-", "s d", "Not a medicine; a CYP1A2 inducer (CYP_ROLES)"],
  [
    "paracetamol",
    "N02BE01",
    "-",
    "s d A0 c- n",
    "Paracetamol US/UK labels (glucuronidation and sulfation; CYP2E1 to NAPQI, not modelled)",
  ],
  ["naloxone", "V03AB15", "-", "s d c- n"],
];

function parseRow([ingredient, atc, subclass, flags, note]: Row): MedicineProperties {
  const props: MedicineProperties = { ingredient };
  if (atc !== "") props.atc = atc;
  if (subclass !== "") props.subclass = subclass === "-" ? null : subclass;
  const substrate: SubstrateEnzyme[] = [];
  let cypKnown = false;
  for (const flag of flags.split(" ").filter((f) => f !== "")) {
    if (flag === "S" || flag === "s") props.serotonergic = flag === "S";
    else if (flag === "D" || flag === "d") props.cnsDepressant = flag === "D";
    else if (flag === "N" || flag === "n") props.narrowTherapeuticIndex = flag === "N";
    else if (flag === "T" || flag === "t") props.teratogenic = flag === "T";
    else if (flag === "R" || flag === "r") props.renal = flag === "R";
    else if (/^A[0-3]$/.test(flag)) props.acb = Number(flag.slice(1)) as AcbScore;
    else if (flag === "c-") cypKnown = true;
    else if (["1A2", "2C19", "2D6", "3A4"].includes(flag)) {
      cypKnown = true;
      substrate.push(`CYP${flag}` as SubstrateEnzyme);
    } else throw new Error(`Medicine property row ${ingredient}: unknown flag ${flag}`);
  }
  if (cypKnown) props.cypSubstrate = substrate;
  if (note !== undefined) props.note = note;
  return props;
}

/** Properties per canonical ingredient; an ingredient without a row has every property unknown. */
export const MEDICINE_PROPERTIES: ReadonlyMap<string, MedicineProperties> = new Map(
  ROWS.map((row) => [row[0], parseRow(row)]),
);

/** The properties of one ingredient (every property unknown when it has no row). */
export function propertiesOf(ingredient: string): MedicineProperties {
  return MEDICINE_PROPERTIES.get(ingredient) ?? { ingredient };
}

// ---------------------------------------------------------------------------------------------
// One active moiety: metabolites, prodrugs and enantiomers

export type MoietyRelation = "active metabolite" | "prodrug" | "enantiomer";

export interface MoietyLink {
  /** The parent (or racemate). */
  parent: string;
  /** Its active metabolite, the drug it is a prodrug of, or its single enantiomer. */
  other: string;
  relation: MoietyRelation;
  source: string;
}

/**
 * Pairs that deliver one active moiety: taking both is duplicate therapy (decision 172). Only
 * pairs where both are marketed ingredients; a metabolite that is not a medicine (norfluoxetine,
 * desmethylclomipramine) cannot be listed twice and needs no row.
 */
export const MOIETY_LINKS: readonly MoietyLink[] = [
  {
    parent: "risperidone",
    other: "paliperidone",
    relation: "active metabolite",
    source:
      "Invega (paliperidone) US label, Description (9-hydroxyrisperidone, the major active metabolite of risperidone) and Contraindications (hypersensitivity to risperidone)",
  },
  {
    parent: "venlafaxine",
    other: "desvenlafaxine",
    relation: "active metabolite",
    source: "Pristiq (desvenlafaxine) US label, Description (the major active metabolite of venlafaxine)",
  },
  {
    parent: "amitriptyline",
    other: "nortriptyline",
    relation: "active metabolite",
    source: "Amitriptyline US label, Clinical Pharmacology (demethylated to nortriptyline)",
  },
  {
    parent: "imipramine",
    other: "desipramine",
    relation: "active metabolite",
    source: "Tofranil (imipramine) US label, Clinical Pharmacology (desipramine, its active metabolite)",
  },
  {
    parent: "loxapine",
    other: "amoxapine",
    relation: "active metabolite",
    source:
      "Loxitane US label, Clinical Pharmacology (amoxapine among the metabolites); amoxapine US label, Description",
  },
  {
    parent: "diazepam",
    other: "temazepam",
    relation: "active metabolite",
    source:
      "Valium (diazepam) US label, Clinical Pharmacology (metabolites desmethyldiazepam, temazepam, oxazepam)",
  },
  {
    parent: "diazepam",
    other: "oxazepam",
    relation: "active metabolite",
    source: "Valium (diazepam) US label, Clinical Pharmacology",
  },
  {
    parent: "temazepam",
    other: "oxazepam",
    relation: "active metabolite",
    source: "Restoril (temazepam) US label, Clinical Pharmacology (minor oxazepam)",
  },
  {
    parent: "chlordiazepoxide",
    other: "oxazepam",
    relation: "active metabolite",
    source:
      "Librium (chlordiazepoxide) US label, Clinical Pharmacology (desmethylchlordiazepoxide, demoxepam, desmethyldiazepam, oxazepam)",
  },
  {
    parent: "clorazepate",
    other: "diazepam",
    relation: "prodrug",
    source:
      "Tranxene (clorazepate) US label, Clinical Pharmacology (decarboxylated to nordiazepam, the active metabolite shared with diazepam)",
  },
  {
    parent: "codeine",
    other: "morphine",
    relation: "active metabolite",
    source:
      "Codeine US label, Boxed Warning and Clinical Pharmacology (O-demethylated by CYP2D6 to morphine)",
  },
  {
    parent: "hydrocodone",
    other: "hydromorphone",
    relation: "active metabolite",
    source: "Hydrocodone US labels, Clinical Pharmacology (hydromorphone via CYP2D6)",
  },
  {
    parent: "oxycodone",
    other: "oxymorphone",
    relation: "active metabolite",
    source: "OxyContin US label, Clinical Pharmacology (oxymorphone via CYP2D6)",
  },
  {
    parent: "diamorphine",
    other: "morphine",
    relation: "prodrug",
    source: "BNF, diamorphine hydrochloride (converted to morphine)",
  },
  {
    parent: "primidone",
    other: "phenobarbital",
    relation: "active metabolite",
    source: "Mysoline (primidone) US label, Clinical Pharmacology (phenobarbital and PEMA)",
  },
  {
    parent: "fosphenytoin",
    other: "phenytoin",
    relation: "prodrug",
    source: "Cerebyx (fosphenytoin) US label, Description (prodrug of phenytoin)",
  },
  {
    parent: "oxcarbazepine",
    other: "eslicarbazepine",
    relation: "active metabolite",
    source:
      "Trileptal US label (monohydroxy derivative, licarbazepine) and Aptiom US label, Contraindications and Warnings (do not use with oxcarbazepine)",
  },
  {
    parent: "lisdexamfetamine",
    other: "dexamfetamine",
    relation: "prodrug",
    source: "Vyvanse (lisdexamfetamine) US label, Clinical Pharmacology (prodrug of dextroamphetamine)",
  },
  {
    parent: "amphetamine",
    other: "dexamfetamine",
    relation: "enantiomer",
    source: "Adderall US label, Description (racemic amphetamine salts and dextroamphetamine)",
  },
  {
    parent: "methylphenidate",
    other: "dexmethylphenidate",
    relation: "enantiomer",
    source:
      "Focalin (dexmethylphenidate) US label, Description (the d-threo enantiomer of racemic methylphenidate)",
  },
  {
    parent: "citalopram",
    other: "escitalopram",
    relation: "enantiomer",
    source:
      "Lexapro (escitalopram) US label, Description (the S-enantiomer of racemic citalopram) and Contraindications/Warnings (do not take with citalopram)",
  },
  {
    parent: "zopiclone",
    other: "eszopiclone",
    relation: "enantiomer",
    source: "Lunesta (eszopiclone) US label, Description (the S-isomer of zopiclone)",
  },
  {
    parent: "milnacipran",
    other: "levomilnacipran",
    relation: "enantiomer",
    source:
      "Fetzima (levomilnacipran) US label, Description (the 1S,2R-enantiomer of milnacipran) and Warnings (do not use with milnacipran)",
  },
  {
    parent: "modafinil",
    other: "armodafinil",
    relation: "enantiomer",
    source: "Nuvigil (armodafinil) US label, Description (the R-enantiomer of modafinil)",
  },
];

/** The link when two ingredients deliver one active moiety (either order), else undefined. */
export function moietyLink(first: string, second: string): MoietyLink | undefined {
  return MOIETY_LINKS.find(
    (link) =>
      (link.parent === first && link.other === second) || (link.parent === second && link.other === first),
  );
}
