/**
 * Knowledge base of the interaction checker: each rule names two sides (ingredients and/or classes
 * from drug-names.ts), a FHIR DetectedIssue severity, the mechanism, what to do, and the source.
 * Severity scale, the full table and what was checked: docs/engines/interactions.md.
 */
import { QT_LABEL_AVOID, type SelectableClass } from "./medicines.js";

/** FHIR DetectedIssue.severity: high, moderate, low. */
export type InteractionSeverity = "high" | "moderate" | "low";

/** One side of a rule: a medication matches if its ingredient is listed or it has one of the classes. */
export interface DrugSelector {
  ingredients?: readonly string[];
  classes?: readonly SelectableClass[];
}

/**
 * Rules of one group describe the same harm (for example serotonin toxicity). When several rules
 * of a group match one pair, only the most severe (then the first listed) is reported, so a
 * specific rule is not repeated by a broader one.
 */
export type InteractionGroup =
  | "maoi"
  | "serotonin"
  | "cns-depression"
  | "qt"
  | "bleeding"
  | "lithium-level"
  | "clozapine-exposure"
  | "enzyme-induction"
  | "seizure-threshold"
  | "cyp2d6-inhibition"
  | "cyp1a2-inhibition"
  | "anticholinergic"
  | "antiepileptic-level"
  | "anticoagulant-level"
  | "disulfiram"
  | "opioid-antagonist"
  | "lithium-neurotoxicity"
  | "quetiapine-exposure"
  | "cyp3a4-inhibition"
  // Groups of the derived rules only (tools/derived-interactions.ts, decision 173)
  | "duplicate-therapy"
  | "cyp-inhibition";

export interface InteractionRule {
  /** Stable id, kebab case. */
  id: string;
  a: DrugSelector;
  b: DrugSelector;
  severity: InteractionSeverity;
  group: InteractionGroup;
  /** A few words for the risk label: "serotonin syndrome and seizure risk". */
  effect: string;
  mechanism: string;
  recommendation: string;
  /** Named source(s): label section, regulator communication, paper or reference work. */
  source: string;
  /** True when the cited source (or a faithful copy) was read during this task. */
  sourceChecked: boolean;
}

// ---------------------------------------------------------------------------------------------
// Sources cited by several rules (full citations in docs/engines/interactions.md)

const FDA_2016_OPIOID_CNS =
  "FDA Drug Safety Communication 31 Aug 2016: boxed warning on opioids combined with benzodiazepines or other CNS depressants";
const FDA_2019_GABAPENTINOID =
  "FDA Drug Safety Communication 19 Dec 2019: respiratory depression with gabapentin or pregabalin plus opioids or other CNS depressants";
const FDA_2011_LINEZOLID =
  "FDA Drug Safety Communications 26 Jul and 20 Oct 2011: linezolid and serotonergic psychiatric medicines";
const FDA_2011_METHYLENE_BLUE =
  "FDA Drug Safety Communications 26 Jul and 20 Oct 2011: methylene blue and serotonergic psychiatric medicines";
const FDA_CYP_TABLE =
  "FDA table of CYP substrates, inhibitors and inducers (Drug Development and Drug Interactions)";
const SSRI_SNRI_MAOI_LABELS =
  "US labels of SSRIs/SNRIs (Contraindications: MAOI within 14 days; 5 weeks after fluoxetine); Stockley's Drug Interactions";
const CLOZAPINE_LABEL =
  "Clozaril (clozapine) US prescribing information, Dosage (concomitant medications) and Drug Interactions, Table 1";
const LITHIUM_REVIEWS =
  "Lithium US label (Drug Interactions); bpac NZ 2007 'Lithium in general practice'; Australian Prescriber 'Lithium therapy and its interactions'";
const DDINTER = "DDInter (Xiong et al. 2022, Nucleic Acids Res 50:D1200-D1207)";
const CREDIBLEMEDS =
  "CredibleMeds QTdrugs list (known risk of TdP); BNF Appendix 1 (QT-interval prolongation)";
const CREDIBLEMEDS_CATEGORIES =
  "CredibleMeds risk categories (known, possible and conditional risk of TdP, as defined on crediblemeds.org)";

// ---------------------------------------------------------------------------------------------
// Shared selectors

const MAOI: DrugSelector = { classes: ["maoi"] };
const SSRI_SNRI: DrugSelector = { classes: ["ssri", "snri"] };
const SEROTONERGIC_ANTIDEPRESSANT: DrugSelector = {
  classes: ["ssri", "snri", "tca", "other_serotonergic_antidepressant"],
};
const STRONG_CYP2D6_INHIBITOR: DrugSelector = { classes: ["strong_cyp2d6_inhibitor"] };
const STRONG_CYP1A2_INHIBITOR: DrugSelector = { classes: ["strong_cyp1a2_inhibitor"] };
const STRONG_INDUCER: DrugSelector = { classes: ["strong_inducer"] };
const OPIOID: DrugSelector = { classes: ["opioid"] };
const BENZODIAZEPINE: DrugSelector = { classes: ["benzodiazepine"] };
const LITHIUM: DrugSelector = { ingredients: ["lithium"] };
const CLOZAPINE: DrugSelector = { ingredients: ["clozapine"] };
const ALCOHOL: DrugSelector = { ingredients: ["alcohol"] };
const QT_KNOWN: DrugSelector = { classes: ["qt_known_risk"] };
const QUETIAPINE: DrugSelector = { ingredients: ["quetiapine"] };
const SSRI_SNRI_TCA: DrugSelector = { classes: ["ssri", "snri", "tca"] };

// ---------------------------------------------------------------------------------------------
// MAOIs: serotonin syndrome and hypertensive reactions

const MAOI_RULES: InteractionRule[] = [
  {
    id: "maoi-ssri",
    a: MAOI,
    b: { classes: ["ssri"] },
    severity: "high",
    group: "maoi",
    effect: "serotonin syndrome",
    mechanism:
      "MAO inhibition plus serotonin reuptake inhibition; fatal serotonin syndrome reported, including after switching without a washout.",
    recommendation:
      "Contraindicated. Allow 14 days after stopping an MAOI before an SSRI, and 5 weeks after fluoxetine (2 weeks after other SSRIs) before an MAOI.",
    source: SSRI_SNRI_MAOI_LABELS,
    sourceChecked: true,
  },
  {
    id: "maoi-snri",
    a: MAOI,
    b: { classes: ["snri"] },
    severity: "high",
    group: "maoi",
    effect: "serotonin syndrome",
    mechanism:
      "MAO inhibition plus serotonin and noradrenaline reuptake inhibition: serotonin syndrome, hypertension.",
    recommendation:
      "Contraindicated; observe the washout in the SNRI label (MAOI stopped 14 days; SNRI stopped 5-7 days).",
    source: "US labels of venlafaxine, desvenlafaxine, duloxetine (Contraindications)",
    sourceChecked: false,
  },
  {
    id: "maoi-tca",
    a: MAOI,
    b: { classes: ["tca"] },
    severity: "high",
    group: "maoi",
    effect: "serotonin syndrome and hypertensive reaction",
    mechanism:
      "Serotonergic TCAs (clomipramine, imipramine) with an MAOI cause serotonin syndrome; other TCAs risk hyperpyrexia and hypertensive reactions.",
    recommendation:
      "Avoid; only specialist-initiated combinations, never clomipramine or imipramine with an MAOI.",
    source: "BNF Appendix 1 (MAOIs, tricyclic antidepressants); Stockley's Drug Interactions",
    sourceChecked: false,
  },
  {
    id: "maoi-serotonergic-opioid",
    a: MAOI,
    b: { classes: ["serotonergic_opioid"] },
    severity: "high",
    group: "maoi",
    effect: "serotonin syndrome",
    mechanism:
      "Pethidine, tramadol, methadone, fentanyl, tapentadol and dextromethorphan inhibit serotonin reuptake; with an MAOI, fatal serotonin toxicity is reported (classically pethidine).",
    recommendation:
      "Avoid; use a non-serotonergic opioid (e.g. morphine, with caution) if an opioid is required.",
    source:
      "FDA Drug Safety Communication 22 Mar 2016 (serotonin syndrome with opioids); pethidine and tramadol labels",
    sourceChecked: false,
  },
  {
    id: "maoi-triptan",
    a: MAOI,
    b: { ingredients: ["sumatriptan", "rizatriptan", "zolmitriptan"] },
    severity: "high",
    group: "maoi",
    effect: "triptan toxicity and serotonin syndrome",
    mechanism:
      "These triptans are cleared by MAO-A; an MAOI raises their exposure several-fold and adds serotonergic load.",
    recommendation:
      "Contraindicated during and for 2 weeks after an MAO-A inhibitor; consider a non-MAO-cleared triptan only with specialist advice.",
    source: "US labels of sumatriptan, rizatriptan, zolmitriptan (Contraindications)",
    sourceChecked: false,
  },
  {
    id: "maoi-bupropion",
    a: MAOI,
    b: { ingredients: ["bupropion"] },
    severity: "high",
    group: "maoi",
    effect: "hypertensive reaction",
    mechanism: "Bupropion raises noradrenaline and dopamine; with MAO inhibition, hypertensive reactions.",
    recommendation: "Contraindicated; at least 14 days between stopping an MAOI and starting bupropion.",
    source: "Wellbutrin (bupropion) US label, Contraindications",
    sourceChecked: false,
  },
  {
    id: "maoi-other-serotonergic-antidepressant",
    a: MAOI,
    b: { classes: ["other_serotonergic_antidepressant"] },
    severity: "high",
    group: "maoi",
    effect: "serotonin syndrome",
    mechanism: "Mirtazapine, trazodone and vortioxetine are serotonergic; with an MAOI, serotonin syndrome.",
    recommendation: "Contraindicated per labels; observe a 14-day washout.",
    source: "US labels of mirtazapine and vortioxetine (Contraindications); trazodone label (Warnings)",
    sourceChecked: false,
  },
  {
    id: "maoi-stimulant",
    a: MAOI,
    b: { classes: ["stimulant"] },
    severity: "high",
    group: "maoi",
    effect: "hypertensive crisis",
    mechanism:
      "Amphetamines and methylphenidate release or block reuptake of catecholamines that MAO would clear.",
    recommendation: "Contraindicated during and for 14 days after an MAOI.",
    source: "US labels of methylphenidate, amphetamine, lisdexamfetamine (Contraindications)",
    sourceChecked: false,
  },
  {
    id: "maoi-sympathomimetic",
    a: MAOI,
    b: { classes: ["sympathomimetic"] },
    severity: "high",
    group: "maoi",
    effect: "hypertensive crisis",
    mechanism:
      "Indirect sympathomimetics (pseudoephedrine, phenylephrine, ephedrine) release noradrenaline that MAO cannot clear.",
    recommendation: "Avoid, including over-the-counter decongestants.",
    source: "BNF Appendix 1 (MAOIs, sympathomimetics); Stockley's Drug Interactions",
    sourceChecked: false,
  },
  {
    id: "maoi-atomoxetine",
    a: MAOI,
    b: { ingredients: ["atomoxetine"] },
    severity: "high",
    group: "maoi",
    effect: "hypertensive and serotonergic reactions",
    mechanism: "Noradrenaline reuptake inhibition with MAO inhibition.",
    recommendation: "Contraindicated during and for 2 weeks after an MAOI.",
    source: "Strattera (atomoxetine) US label, Contraindications",
    sourceChecked: false,
  },
  {
    id: "maoi-maoi",
    a: MAOI,
    b: MAOI,
    severity: "high",
    group: "maoi",
    effect: "hypertensive crisis and serotonin toxicity",
    mechanism: "Two MAO inhibitors: additive and prolonged MAO inhibition.",
    recommendation: "Avoid; switching between MAOIs needs a washout planned by a specialist.",
    source: "BNF Appendix 1 (MAOIs); MAOI labels",
    sourceChecked: false,
  },
  {
    id: "maoi-linezolid-methylene-blue",
    a: MAOI,
    b: { ingredients: ["linezolid", "methylene blue"] },
    severity: "high",
    group: "maoi",
    effect: "serotonin syndrome and hypertensive reaction",
    mechanism: "Linezolid and methylene blue are themselves MAO inhibitors; inhibition adds up.",
    recommendation: "Avoid; linezolid is contraindicated with, or within 2 weeks of, another MAOI.",
    source: `Zyvox (linezolid) US label, Contraindications; ${FDA_2011_METHYLENE_BLUE}`,
    sourceChecked: true,
  },
  {
    id: "maoi-carbamazepine",
    a: MAOI,
    b: { ingredients: ["carbamazepine"] },
    severity: "high",
    group: "maoi",
    effect: "hypertensive and serotonergic reactions",
    mechanism: "Carbamazepine is structurally related to the tricyclics; the label contraindicates MAOIs.",
    recommendation: "Contraindicated; stop the MAOI at least 14 days before carbamazepine.",
    source: "Tegretol (carbamazepine) US label, Contraindications",
    sourceChecked: false,
  },
  {
    id: "maoi-buspirone",
    a: MAOI,
    b: { ingredients: ["buspirone"] },
    severity: "high",
    group: "maoi",
    effect: "raised blood pressure",
    mechanism: "Elevated blood pressure reported when buspirone was added to an MAOI.",
    recommendation: "Do not combine; the buspirone label advises against use with an MAOI.",
    source: "Buspar (buspirone) US label, Warnings",
    sourceChecked: false,
  },
  {
    id: "maoi-st-johns-wort",
    a: MAOI,
    b: { ingredients: ["st johns wort"] },
    severity: "high",
    group: "maoi",
    effect: "serotonin syndrome",
    mechanism: "St John's wort has serotonergic activity; added to MAO inhibition, serotonin toxicity.",
    recommendation: "Avoid.",
    source:
      "Henderson et al. 2002, Br J Clin Pharmacol 54:349-356 (St John's wort interactions); BNF Appendix 1",
    sourceChecked: true,
  },
  {
    id: "maoi-levodopa",
    a: MAOI,
    b: { ingredients: ["levodopa"] },
    severity: "high",
    group: "maoi",
    effect: "hypertensive crisis",
    mechanism: "Dopamine formed from levodopa is not cleared when MAO-A is inhibited (non-selective MAOIs).",
    recommendation:
      "Avoid non-selective MAOIs with levodopa; selegiline (MAO-B) at licensed doses is the exception.",
    source: "Levodopa/carbidopa US label, Contraindications (non-selective MAOIs)",
    sourceChecked: false,
  },
];

// ---------------------------------------------------------------------------------------------
// Linezolid and methylene blue

const LINEZOLID_RULES: InteractionRule[] = [
  {
    id: "linezolid-ssri-snri",
    a: { ingredients: ["linezolid"] },
    b: { classes: ["ssri", "snri"], ingredients: ["clomipramine"] },
    severity: "high",
    group: "serotonin",
    effect: "serotonin syndrome",
    mechanism:
      "Linezolid is a reversible MAO-A inhibitor; most serotonin syndrome reports with it involved SSRIs or SNRIs.",
    recommendation:
      "Avoid unless linezolid is urgent and there is no alternative; then stop the serotonergic drug and monitor for serotonin toxicity for 2 weeks (5 weeks after fluoxetine) or until 24 h after the last linezolid dose, whichever comes first.",
    source: FDA_2011_LINEZOLID,
    sourceChecked: true,
  },
  {
    id: "linezolid-other-serotonergic",
    a: { ingredients: ["linezolid"] },
    b: {
      classes: ["tca", "other_serotonergic_antidepressant", "serotonergic_opioid", "triptan"],
      ingredients: ["bupropion", "buspirone", "lithium"],
    },
    severity: "moderate",
    group: "serotonin",
    effect: "possible serotonin syndrome",
    mechanism:
      "MAO-A inhibition with a drug of lesser serotonergic activity; risk unclear in the FDA review.",
    recommendation: "Prefer another antibiotic; if used, monitor for serotonin toxicity.",
    source: `${FDA_2011_LINEZOLID} (section II, lesser serotonergic activity)`,
    sourceChecked: true,
  },
  {
    id: "linezolid-sympathomimetic",
    a: { ingredients: ["linezolid"] },
    b: { classes: ["sympathomimetic", "stimulant"] },
    severity: "moderate",
    group: "maoi",
    effect: "blood pressure rise",
    mechanism: "MAO inhibition enhances the pressor response to indirect sympathomimetics.",
    recommendation: "Reduce the sympathomimetic dose and monitor blood pressure, or avoid.",
    source: "Zyvox (linezolid) US label, Drug Interactions (adrenergic agents)",
    sourceChecked: false,
  },
  {
    id: "methylene-blue-ssri-snri",
    a: { ingredients: ["methylene blue"] },
    b: { classes: ["ssri", "snri"], ingredients: ["clomipramine"] },
    severity: "high",
    group: "serotonin",
    effect: "serotonin syndrome",
    mechanism:
      "Methylene blue is a potent reversible MAO-A inhibitor; cases occurred with intravenous doses of 1-8 mg/kg.",
    recommendation:
      "Avoid unless urgent; stop the serotonergic drug when possible and monitor for serotonin toxicity.",
    source: FDA_2011_METHYLENE_BLUE,
    sourceChecked: true,
  },
  {
    id: "methylene-blue-other-serotonergic",
    a: { ingredients: ["methylene blue"] },
    b: {
      classes: ["tca", "other_serotonergic_antidepressant", "serotonergic_opioid", "triptan"],
      ingredients: ["bupropion", "buspirone"],
    },
    severity: "moderate",
    group: "serotonin",
    effect: "possible serotonin syndrome",
    mechanism: "MAO-A inhibition with a drug of lesser serotonergic activity; risk unclear.",
    recommendation: "Monitor for serotonin toxicity if the combination cannot be avoided.",
    source: `${FDA_2011_METHYLENE_BLUE} (section II)`,
    sourceChecked: true,
  },
];

// ---------------------------------------------------------------------------------------------
// Serotonergic combinations without an MAOI

const SEROTONIN_RULES: InteractionRule[] = [
  {
    id: "serotonergic-tramadol",
    // The tramadol label names "drugs that affect the serotonergic neurotransmitter system
    // (e.g. mirtazapine, trazodone, tramadol)" beside SSRIs, SNRIs and TCAs (decision 173).
    a: { classes: ["ssri", "snri", "tca", "other_serotonergic_antidepressant"] },
    b: { ingredients: ["tramadol"] },
    severity: "high",
    group: "serotonin",
    effect: "serotonin syndrome and seizure risk",
    mechanism:
      "Tramadol inhibits serotonin reuptake and lowers the seizure threshold; SSRIs, SNRIs and TCAs add serotonergic load and seizure risk.",
    recommendation:
      "Prefer a non-serotonergic analgesic; if combined, use the lowest dose and warn about serotonin toxicity and seizures.",
    source: `Ultram (tramadol) US label, Warnings (serotonin syndrome, seizure risk); ${DDINTER}`,
    sourceChecked: false,
  },
  {
    id: "serotonergic-antidepressant-opioid",
    a: SEROTONERGIC_ANTIDEPRESSANT,
    b: { ingredients: ["methadone", "fentanyl", "pethidine", "tapentadol", "dextromethorphan"] },
    severity: "moderate",
    group: "serotonin",
    effect: "serotonin syndrome",
    mechanism:
      "These opioids and dextromethorphan have serotonergic activity that adds to the antidepressant's.",
    recommendation: "Monitor for serotonin toxicity, especially when starting or raising either drug.",
    source: "FDA Drug Safety Communication 22 Mar 2016 (serotonin syndrome with opioids, class labelling)",
    sourceChecked: false,
  },
  {
    id: "triptan-ssri-snri",
    a: { classes: ["triptan"] },
    b: SSRI_SNRI,
    severity: "moderate",
    group: "serotonin",
    effect: "serotonin syndrome (rare)",
    mechanism:
      "5-HT1B/1D agonist with serotonin reuptake inhibition; few reported cases met Hunter criteria.",
    recommendation: "Combination is commonly used; inform the patient of serotonin toxicity symptoms.",
    source:
      "FDA alert 19 Jul 2006 (triptans with SSRIs/SNRIs); Evans 2007, MedGenMed 9:48 (analysis of the 29 FDA cases)",
    sourceChecked: true,
  },
  {
    id: "st-johns-wort-serotonergic",
    a: { ingredients: ["st johns wort"] },
    b: { classes: ["ssri", "snri", "tca", "other_serotonergic_antidepressant", "triptan"] },
    severity: "high",
    group: "serotonin",
    effect: "serotonin syndrome",
    mechanism: "St John's wort is serotonergic; reports of serotonin toxicity with SSRIs and triptans.",
    recommendation:
      "Avoid; stop St John's wort (it also induces CYP3A4, so review other drug levels when stopping).",
    source: "Henderson et al. 2002, Br J Clin Pharmacol 54:349-356",
    sourceChecked: true,
  },
  {
    id: "serotonergic-antidepressant-combination",
    a: SEROTONERGIC_ANTIDEPRESSANT,
    b: SEROTONERGIC_ANTIDEPRESSANT,
    severity: "moderate",
    group: "serotonin",
    effect: "serotonin toxicity",
    mechanism:
      "Two serotonergic antidepressants: additive serotonergic effect; duplicate therapy if both are SSRIs.",
    recommendation:
      "Check the combination is intended (e.g. mirtazapine augmentation or a cross-taper) and monitor for serotonin toxicity.",
    source:
      "SSRI/SNRI US labels, Warnings (serotonin syndrome with other serotonergic drugs); BNF Appendix 1",
    sourceChecked: false,
  },
  {
    id: "lithium-serotonergic-antidepressant",
    a: LITHIUM,
    b: { classes: ["ssri", "snri", "tca"] },
    severity: "low",
    group: "serotonin",
    effect: "serotonin toxicity (rare)",
    mechanism:
      "Lithium has serotonergic activity; serotonin syndrome reported rarely with SSRIs, clomipramine and venlafaxine.",
    recommendation:
      "Usually uneventful and often intended (augmentation); tell the patient which symptoms to report.",
    source: "bpac NZ 2007 'Lithium in general practice' (interactions)",
    sourceChecked: true,
  },
];

// ---------------------------------------------------------------------------------------------
// Bleeding

const BLEEDING_RULES: InteractionRule[] = [
  {
    id: "ssri-snri-anticoagulant",
    a: SSRI_SNRI,
    b: { classes: ["anticoagulant"] },
    severity: "moderate",
    group: "bleeding",
    effect: "bleeding risk",
    mechanism:
      "SSRIs/SNRIs deplete platelet serotonin and impair aggregation; added to anticoagulation, more bleeding.",
    recommendation:
      "Monitor for bleeding; consider gastroprotection; with warfarin check INR after starting or stopping.",
    source:
      "SSRI/SNRI US labels, Warnings (abnormal bleeding); UKMi Q&A 163.2 (SSRIs and GI bleeding); Opatrny et al. 2008, Br J Clin Pharmacol 66:76-81",
    sourceChecked: true,
  },
  {
    id: "ssri-snri-antiplatelet",
    a: SSRI_SNRI,
    b: { classes: ["antiplatelet"] },
    severity: "moderate",
    group: "bleeding",
    effect: "bleeding risk",
    mechanism: "Impaired platelet serotonin uptake plus pharmacological antiplatelet effect.",
    recommendation:
      "Consider a proton pump inhibitor for gastroprotection, especially in older patients; monitor for bleeding.",
    source: "SSRI/SNRI US labels, Warnings (abnormal bleeding); UKMi Q&A 163.2",
    sourceChecked: true,
  },
  {
    id: "ssri-snri-nsaid",
    a: SSRI_SNRI,
    b: { classes: ["nsaid"] },
    severity: "moderate",
    group: "bleeding",
    effect: "gastrointestinal bleeding risk",
    mechanism:
      "SSRIs add to the gastrointestinal bleeding risk of NSAIDs (more than additive in case-control studies).",
    recommendation: "Avoid regular NSAIDs if possible; otherwise add a proton pump inhibitor and monitor.",
    source:
      "UKMi Q&A 163.2 (de Abajo et al. case-control studies); SSRI US labels, Warnings (abnormal bleeding)",
    sourceChecked: true,
  },
  {
    id: "anticoagulant-nsaid",
    a: { classes: ["anticoagulant"] },
    b: { classes: ["nsaid"] },
    severity: "high",
    group: "bleeding",
    effect: "major bleeding risk",
    mechanism: "NSAIDs injure gastric mucosa and inhibit platelets on top of anticoagulation.",
    recommendation: "Avoid; use paracetamol for pain; if unavoidable, shortest course with gastroprotection.",
    source: "Warfarin and DOAC US labels, Drug Interactions (NSAIDs); BNF Appendix 1",
    sourceChecked: false,
  },
  {
    id: "warfarin-cyp2c9-inhibiting-ssri",
    a: { ingredients: ["warfarin"] },
    b: { ingredients: ["fluoxetine", "fluvoxamine"] },
    severity: "moderate",
    group: "anticoagulant-level",
    effect: "raised INR",
    mechanism:
      "Fluoxetine and fluvoxamine inhibit CYP2C9 (and fluvoxamine CYP1A2/3A4), slowing warfarin clearance.",
    recommendation: "Check INR within a week of starting, changing or stopping the SSRI.",
    source: `Luvox (fluvoxamine) and Prozac (fluoxetine) US labels, Drug Interactions (warfarin); ${FDA_CYP_TABLE}`,
    sourceChecked: false,
  },
];

// ---------------------------------------------------------------------------------------------
// Lithium

const LITHIUM_RULES: InteractionRule[] = [
  {
    id: "lithium-thiazide",
    a: LITHIUM,
    b: { classes: ["thiazide"] },
    severity: "high",
    group: "lithium-level",
    effect: "lithium toxicity",
    mechanism:
      "Thiazides increase proximal sodium and lithium reabsorption; levels rise quickly (within days) and predictably.",
    recommendation:
      "Avoid if possible; if essential, reduce the lithium dose (often by about half) and check levels within 5-7 days and after each change.",
    source: LITHIUM_REVIEWS,
    sourceChecked: true,
  },
  {
    id: "lithium-nsaid",
    a: LITHIUM,
    b: { classes: ["nsaid"] },
    severity: "high",
    group: "lithium-level",
    effect: "lithium toxicity",
    mechanism:
      "NSAIDs reduce renal prostaglandin-dependent lithium clearance; levels can rise by up to about 40 %.",
    recommendation:
      "Avoid regular NSAIDs (including over-the-counter ibuprofen); if needed, check lithium levels within a week and after stopping.",
    source: `${LITHIUM_REVIEWS}; ${DDINTER}`,
    sourceChecked: true,
  },
  {
    id: "lithium-ace-inhibitor",
    a: LITHIUM,
    b: { classes: ["ace_inhibitor"] },
    severity: "moderate",
    group: "lithium-level",
    effect: "raised lithium level",
    mechanism:
      "Reduced glomerular filtration and sodium loss lower lithium clearance; the rise is delayed and unpredictable.",
    recommendation:
      "Monitor lithium levels and renal function more often for several weeks after starting, changing or stopping.",
    source: LITHIUM_REVIEWS,
    sourceChecked: true,
  },
  {
    id: "lithium-arb",
    a: LITHIUM,
    b: { classes: ["arb"] },
    severity: "moderate",
    group: "lithium-level",
    effect: "raised lithium level",
    mechanism: "As with ACE inhibitors: reduced lithium clearance, delayed and unpredictable.",
    recommendation:
      "Monitor lithium levels and renal function more often for several weeks after starting, changing or stopping.",
    source: LITHIUM_REVIEWS,
    sourceChecked: true,
  },
  {
    id: "lithium-loop-diuretic",
    a: LITHIUM,
    b: { classes: ["loop_diuretic"] },
    severity: "low",
    group: "lithium-level",
    effect: "possible lithium rise",
    mechanism:
      "Loop diuretics cause less lithium retention than thiazides, but volume depletion can still raise levels.",
    recommendation: "Check lithium levels after starting or changing the dose and during dehydration.",
    source: LITHIUM_REVIEWS,
    sourceChecked: true,
  },
  {
    id: "lithium-metronidazole",
    a: LITHIUM,
    b: { ingredients: ["metronidazole"] },
    severity: "moderate",
    group: "lithium-level",
    effect: "lithium toxicity",
    mechanism: "Metronidazole reduces renal lithium clearance (case reports of toxicity).",
    recommendation:
      "Check lithium level within a few days of starting metronidazole, or choose another antibiotic.",
    source: "Stahl's Prescriber's Guide (lithium interactions); BNF Appendix 1",
    sourceChecked: false,
  },
  {
    id: "lithium-theophylline",
    a: LITHIUM,
    b: { ingredients: ["theophylline"] },
    severity: "moderate",
    group: "lithium-level",
    effect: "lower lithium level",
    mechanism:
      "Theophylline (a methylxanthine) increases renal lithium clearance, so the serum lithium level falls and mood control may be lost.",
    recommendation:
      "Check the lithium level after starting, changing or stopping theophylline and adjust the lithium dose; watch for toxicity when theophylline is stopped.",
    source:
      "Perry et al. 1984, Acta Psychiatr Scand 69:528-537 (theophylline raises lithium clearance); Holstad et al. 1988, Psychiatry Res 25:203-211; Pharmaceuticals 2023, 16:74, Table 1 (xanthines decrease lithium concentration)",
    sourceChecked: true,
  },
];

// ---------------------------------------------------------------------------------------------
// Clozapine and olanzapine exposure

const CLOZAPINE_RULES: InteractionRule[] = [
  {
    id: "clozapine-strong-cyp1a2-inhibitor",
    a: CLOZAPINE,
    b: STRONG_CYP1A2_INHIBITOR,
    severity: "high",
    group: "clozapine-exposure",
    effect: "clozapine toxicity",
    mechanism:
      "Clozapine is cleared mainly by CYP1A2; fluvoxamine raises levels several-fold (up to 5-10x), ciprofloxacin about 2x (fatal cases reported).",
    recommendation:
      "Use one-third of the clozapine dose with a strong CYP1A2 inhibitor; monitor levels and adverse effects, or avoid.",
    source: CLOZAPINE_LABEL,
    sourceChecked: true,
  },
  {
    id: "clozapine-carbamazepine",
    a: CLOZAPINE,
    b: { ingredients: ["carbamazepine"] },
    severity: "high",
    group: "clozapine-exposure",
    effect: "agranulocytosis risk and loss of clozapine effect",
    mechanism:
      "Both can suppress the bone marrow (agranulocytosis); carbamazepine also induces CYP3A4/1A2 and lowers clozapine levels.",
    recommendation: "Avoid; choose another mood stabiliser.",
    source: `${CLOZAPINE_LABEL}; Stockley's Drug Interactions`,
    sourceChecked: true,
  },
  {
    id: "clozapine-strong-inducer",
    a: CLOZAPINE,
    b: STRONG_INDUCER,
    severity: "moderate",
    group: "clozapine-exposure",
    effect: "loss of clozapine effect",
    mechanism: "Strong CYP3A4 inducers (phenytoin, rifampicin, St John's wort) lower clozapine levels.",
    recommendation:
      "Not recommended; if necessary, raise the clozapine dose on levels and reduce it again when the inducer stops.",
    source: CLOZAPINE_LABEL,
    sourceChecked: true,
  },
  {
    id: "clozapine-benzodiazepine",
    a: CLOZAPINE,
    b: BENZODIAZEPINE,
    severity: "moderate",
    group: "cns-depression",
    effect: "collapse and respiratory arrest",
    mechanism:
      "Collapse, respiratory and cardiac arrest reported with clozapine plus benzodiazepines, mostly at initiation.",
    recommendation:
      "Use caution, especially when starting clozapine; avoid parenteral benzodiazepines during titration.",
    source: "Clozaril (clozapine) US label, Warnings (orthostatic hypotension, syncope; benzodiazepines)",
    sourceChecked: false,
  },
  {
    id: "clozapine-anticholinergic",
    a: CLOZAPINE,
    b: { classes: ["anticholinergic_high"] },
    severity: "moderate",
    group: "anticholinergic",
    effect: "gastrointestinal hypomotility",
    mechanism: "Clozapine slows gut transit; strongly anticholinergic drugs add to it (ileus, fatal cases).",
    recommendation:
      "Avoid other anticholinergics where possible; monitor bowel habit and treat constipation early.",
    source:
      "MHRA Drug Safety Update Mar 2017 and FDA Drug Safety Communication Jan 2020 (clozapine constipation)",
    sourceChecked: false,
  },
  {
    id: "clozapine-nicotine-smoking",
    a: CLOZAPINE,
    b: { ingredients: ["nicotine"] },
    severity: "low",
    group: "clozapine-exposure",
    effect: "smoking change alters clozapine level",
    mechanism:
      "Tobacco smoke (not nicotine) induces CYP1A2; nicotine replacement usually means the patient stopped smoking, so clozapine levels can rise.",
    recommendation:
      "Ask about smoking; after stopping, check clozapine levels and expect to reduce the dose.",
    source: `${CLOZAPINE_LABEL} (tobacco smoking as CYP1A2 inducer); ${FDA_CYP_TABLE} (tobacco)`,
    sourceChecked: true,
  },
  {
    id: "olanzapine-fluvoxamine",
    a: { ingredients: ["olanzapine"] },
    b: { ingredients: ["fluvoxamine"] },
    severity: "moderate",
    group: "clozapine-exposure",
    effect: "raised olanzapine level",
    mechanism: "Fluvoxamine inhibits CYP1A2, olanzapine's main clearance route.",
    recommendation: "Consider a lower olanzapine dose and monitor for sedation and metabolic effects.",
    source: "Zyprexa (olanzapine) US label, Drug Interactions (fluvoxamine)",
    sourceChecked: false,
  },
  {
    id: "olanzapine-nicotine-smoking",
    a: { ingredients: ["olanzapine"] },
    b: { ingredients: ["nicotine"] },
    severity: "low",
    group: "clozapine-exposure",
    effect: "smoking change alters olanzapine level",
    mechanism:
      "Tobacco smoke induces CYP1A2; stopping smoking (suggested by nicotine replacement) raises olanzapine levels.",
    recommendation: "Ask about smoking; monitor for sedation after stopping and consider a dose reduction.",
    source: `Zyprexa (olanzapine) US label, Clinical Pharmacology (smokers); ${FDA_CYP_TABLE} (tobacco)`,
    sourceChecked: false,
  },
  {
    id: "olanzapine-carbamazepine",
    a: { ingredients: ["olanzapine"] },
    b: { ingredients: ["carbamazepine"] },
    severity: "low",
    group: "enzyme-induction",
    effect: "lower olanzapine level",
    mechanism: "Carbamazepine induces CYP1A2 and raises olanzapine clearance by about 50 %.",
    recommendation: "Watch for loss of effect; adjust the olanzapine dose clinically.",
    source: "Zyprexa (olanzapine) US label, Drug Interactions (carbamazepine)",
    sourceChecked: false,
  },
];

// ---------------------------------------------------------------------------------------------
// CNS depression

const CNS_DEPRESSION_RULES: InteractionRule[] = [
  {
    id: "opioid-benzodiazepine",
    a: OPIOID,
    b: BENZODIAZEPINE,
    severity: "high",
    group: "cns-depression",
    effect: "respiratory depression and death",
    mechanism: "Additive CNS and respiratory depression.",
    recommendation:
      "Co-prescribe only when alternatives are inadequate; lowest doses and shortest duration; warn about sedation and slowed breathing; consider naloxone.",
    source: FDA_2016_OPIOID_CNS,
    sourceChecked: true,
  },
  {
    id: "opioid-z-drug",
    a: OPIOID,
    b: { classes: ["z_drug"] },
    severity: "high",
    group: "cns-depression",
    effect: "respiratory depression",
    mechanism:
      "Additive CNS and respiratory depression (z-drugs are among the 'other CNS depressants' of the warning).",
    recommendation:
      "Avoid where possible; if combined, lowest doses, shortest duration, and warn the patient.",
    source: FDA_2016_OPIOID_CNS,
    sourceChecked: true,
  },
  {
    id: "opioid-gabapentinoid",
    a: OPIOID,
    b: { classes: ["gabapentinoid"] },
    severity: "high",
    group: "cns-depression",
    effect: "respiratory depression and overdose death",
    mechanism:
      "Gabapentinoids add respiratory depression to opioids; co-use is linked to more opioid overdose deaths.",
    recommendation:
      "Start the gabapentinoid at the lowest dose and monitor for respiratory depression; avoid in other respiratory risk.",
    source: FDA_2019_GABAPENTINOID,
    sourceChecked: true,
  },
  {
    id: "opioid-alcohol",
    a: OPIOID,
    b: ALCOHOL,
    severity: "high",
    group: "cns-depression",
    effect: "respiratory depression",
    mechanism: "Additive CNS and respiratory depression.",
    recommendation: "Advise the patient not to drink alcohol while taking opioids.",
    source: FDA_2016_OPIOID_CNS,
    sourceChecked: true,
  },
  {
    id: "benzodiazepine-alcohol",
    a: BENZODIAZEPINE,
    b: ALCOHOL,
    severity: "high",
    group: "cns-depression",
    effect: "respiratory depression",
    mechanism: "Additive CNS depression; alcohol is involved in many benzodiazepine overdose deaths.",
    recommendation: "Advise against alcohol; assess alcohol use before prescribing.",
    source: `${FDA_2016_OPIOID_CNS} (advice to avoid alcohol); benzodiazepine US labels`,
    sourceChecked: true,
  },
  {
    id: "benzodiazepine-z-drug",
    a: BENZODIAZEPINE,
    b: { classes: ["z_drug"] },
    severity: "moderate",
    group: "cns-depression",
    effect: "excess sedation and falls",
    mechanism: "Both act on the GABA-A receptor: additive sedation, psychomotor impairment and falls.",
    recommendation: "Avoid duplicate hypnotic/anxiolytic therapy; if used, lowest doses and review soon.",
    source: "BNF Appendix 1 (CNS depressants); Stockley's Drug Interactions",
    sourceChecked: false,
  },
  {
    id: "benzodiazepine-gabapentinoid",
    a: BENZODIAZEPINE,
    b: { classes: ["gabapentinoid"] },
    severity: "moderate",
    group: "cns-depression",
    effect: "respiratory depression",
    mechanism:
      "Additive CNS depression; the 2019 FDA warning covers gabapentinoids with anti-anxiety medicines.",
    recommendation:
      "Lowest effective doses; monitor for sedation and breathing problems, particularly in older patients.",
    source: FDA_2019_GABAPENTINOID,
    sourceChecked: true,
  },
  {
    id: "opioid-sedating-antipsychotic",
    a: OPIOID,
    b: { classes: ["sedating_antipsychotic"] },
    severity: "moderate",
    group: "cns-depression",
    effect: "additive sedation",
    mechanism:
      "Sedating antipsychotics are CNS depressants: additive sedation and respiratory depression with opioids.",
    recommendation: "Use lowest doses; monitor for sedation.",
    source: `${FDA_2016_OPIOID_CNS} (other CNS depressants); opioid US labels, Drug Interactions`,
    sourceChecked: true,
  },
  {
    id: "z-drug-alcohol",
    a: { classes: ["z_drug"] },
    b: ALCOHOL,
    severity: "moderate",
    group: "cns-depression",
    effect: "sedation and complex sleep behaviours",
    mechanism: "Additive CNS depression; alcohol raises the risk of complex sleep behaviours with z-drugs.",
    recommendation: "Advise not to take the hypnotic after drinking alcohol.",
    source: "Ambien (zolpidem) US label, Warnings (CNS depressants, complex sleep behaviours)",
    sourceChecked: false,
  },
];

// ---------------------------------------------------------------------------------------------
// Seizure threshold

const SEIZURE_RULES: InteractionRule[] = [
  {
    id: "bupropion-tramadol",
    a: { ingredients: ["bupropion"] },
    b: { ingredients: ["tramadol"] },
    severity: "high",
    group: "seizure-threshold",
    effect: "seizure risk",
    mechanism:
      "Both lower the seizure threshold dose-dependently; bupropion also inhibits CYP2D6, raising parent tramadol (the seizure- and serotonin-active form).",
    recommendation: "Avoid; choose another analgesic. If unavoidable, lowest doses and warn about seizures.",
    source: `Wellbutrin (bupropion) US label, Warnings (seizure); ${DDINTER}`,
    sourceChecked: true,
  },
  {
    id: "bupropion-seizure-threshold",
    a: { ingredients: ["bupropion"] },
    b: { classes: ["tca"], ingredients: ["clozapine", "chlorpromazine", "theophylline"] },
    severity: "moderate",
    group: "seizure-threshold",
    effect: "seizure risk",
    mechanism:
      "Bupropion's dose-related seizure risk adds to that of drugs that lower the seizure threshold.",
    recommendation:
      "Extreme caution: low starting doses, slow titration, do not exceed the maximum bupropion dose.",
    source: `Wellbutrin (bupropion) US label, Warnings (seizure); ${DDINTER}`,
    sourceChecked: true,
  },
];

// ---------------------------------------------------------------------------------------------
// CYP2D6 inhibition (bupropion, fluoxetine, paroxetine, quinidine)

const CYP2D6_RULES: InteractionRule[] = [
  {
    id: "tamoxifen-strong-cyp2d6-inhibitor",
    a: { ingredients: ["tamoxifen"] },
    b: STRONG_CYP2D6_INHIBITOR,
    severity: "high",
    group: "cyp2d6-inhibition",
    effect: "reduced tamoxifen efficacy",
    mechanism:
      "Tamoxifen needs CYP2D6 to form endoxifen; paroxetine during tamoxifen was associated with higher breast cancer mortality.",
    recommendation:
      "Avoid; choose an antidepressant with little CYP2D6 inhibition (e.g. citalopram, escitalopram, venlafaxine).",
    source: `Kelly et al. 2010, BMJ 340:c693; ${FDA_CYP_TABLE}`,
    sourceChecked: true,
  },
  {
    id: "codeine-tramadol-strong-cyp2d6-inhibitor",
    a: { ingredients: ["codeine", "tramadol"] },
    b: STRONG_CYP2D6_INHIBITOR,
    severity: "moderate",
    group: "cyp2d6-inhibition",
    effect: "reduced analgesia",
    mechanism:
      "Codeine and tramadol are activated by CYP2D6 (to morphine and O-desmethyltramadol); inhibition reduces pain relief.",
    recommendation:
      "Expect poor analgesia; prefer an analgesic not activated by CYP2D6. Watch for withdrawal if the inhibitor stops.",
    source: `${FDA_CYP_TABLE}; codeine and tramadol US labels (CYP2D6 inhibitors)`,
    sourceChecked: true,
  },
  {
    id: "aripiprazole-strong-cyp2d6-inhibitor",
    a: { ingredients: ["aripiprazole"] },
    b: STRONG_CYP2D6_INHIBITOR,
    severity: "moderate",
    group: "cyp2d6-inhibition",
    effect: "raised aripiprazole level",
    mechanism:
      "Aripiprazole is cleared by CYP2D6 and CYP3A4; strong CYP2D6 inhibitors roughly double exposure.",
    recommendation: "Halve the aripiprazole dose per the label; restore it when the inhibitor stops.",
    source: "Abilify (aripiprazole) US label, Dosage (dose adjustments with CYP2D6 inhibitors)",
    sourceChecked: false,
  },
  {
    id: "atomoxetine-strong-cyp2d6-inhibitor",
    a: { ingredients: ["atomoxetine"] },
    b: STRONG_CYP2D6_INHIBITOR,
    severity: "moderate",
    group: "cyp2d6-inhibition",
    effect: "raised atomoxetine level",
    mechanism: "Atomoxetine is cleared by CYP2D6; strong inhibitors raise exposure several-fold.",
    recommendation:
      "Start at the usual dose and increase only if symptoms persist after 4 weeks (label advice).",
    source: "Strattera (atomoxetine) US label, Dosage (strong CYP2D6 inhibitors)",
    sourceChecked: false,
  },
  {
    id: "tca-strong-cyp2d6-inhibitor",
    a: { classes: ["tca"] },
    b: STRONG_CYP2D6_INHIBITOR,
    severity: "moderate",
    group: "cyp2d6-inhibition",
    effect: "TCA toxicity",
    mechanism:
      "TCAs are cleared by CYP2D6; strong inhibitors raise TCA levels (cardiotoxicity, seizures, anticholinergic effects).",
    recommendation:
      "Lower the TCA dose and monitor plasma levels or ECG when starting or stopping the inhibitor.",
    source: `${FDA_CYP_TABLE}; TCA US labels (drugs inhibiting CYP2D6)`,
    sourceChecked: true,
  },
  {
    id: "vortioxetine-strong-cyp2d6-inhibitor",
    a: { ingredients: ["vortioxetine"] },
    b: STRONG_CYP2D6_INHIBITOR,
    severity: "moderate",
    group: "cyp2d6-inhibition",
    effect: "raised vortioxetine level",
    mechanism: "Vortioxetine is cleared mainly by CYP2D6.",
    recommendation: "Halve the vortioxetine dose with a strong CYP2D6 inhibitor (label).",
    source: "Trintellix (vortioxetine) US label, Dosage (CYP2D6 inhibitors)",
    sourceChecked: false,
  },
  {
    id: "risperidone-strong-cyp2d6-inhibitor",
    a: { ingredients: ["risperidone"] },
    b: STRONG_CYP2D6_INHIBITOR,
    severity: "moderate",
    group: "cyp2d6-inhibition",
    effect: "raised risperidone level",
    mechanism: "Fluoxetine and paroxetine raise risperidone plus 9-hydroxyrisperidone concentrations.",
    recommendation: "Re-evaluate the risperidone dose; monitor for extrapyramidal effects.",
    source: "Risperdal (risperidone) US label, Drug Interactions (fluoxetine, paroxetine)",
    sourceChecked: false,
  },
  {
    id: "metoprolol-strong-cyp2d6-inhibitor",
    a: { ingredients: ["metoprolol"] },
    b: STRONG_CYP2D6_INHIBITOR,
    severity: "moderate",
    group: "cyp2d6-inhibition",
    effect: "bradycardia and hypotension",
    mechanism: "Metoprolol is cleared by CYP2D6; strong inhibitors raise its levels several-fold.",
    recommendation:
      "Monitor heart rate and blood pressure; consider a beta-blocker not cleared by CYP2D6 (e.g. bisoprolol).",
    source: `${FDA_CYP_TABLE} (metoprolol as CYP2D6 substrate); metoprolol US label`,
    sourceChecked: false,
  },
  {
    id: "tetrabenazine-strong-cyp2d6-inhibitor",
    a: { ingredients: ["tetrabenazine"] },
    b: STRONG_CYP2D6_INHIBITOR,
    severity: "moderate",
    group: "cyp2d6-inhibition",
    effect: "raised tetrabenazine metabolite levels",
    mechanism: "Active dihydrotetrabenazine metabolites are cleared by CYP2D6.",
    recommendation: "Halve the tetrabenazine dose; do not exceed 50 mg/day (label).",
    source: "Xenazine (tetrabenazine) US label, Dosage (strong CYP2D6 inhibitors)",
    sourceChecked: false,
  },
  {
    id: "pimozide-ssri",
    a: { ingredients: ["pimozide"] },
    b: {
      ingredients: ["sertraline", "fluoxetine", "paroxetine", "fluvoxamine", "citalopram", "escitalopram"],
    },
    severity: "high",
    group: "qt",
    effect: "QT prolongation and arrhythmia",
    mechanism:
      "Raised pimozide levels (CYP2D6/3A4 inhibition by several SSRIs) and additive QT effect (citalopram, escitalopram).",
    recommendation: "Contraindicated; choose another antipsychotic or antidepressant.",
    source:
      "Orap (pimozide) US label, Contraindications; sertraline, paroxetine, fluoxetine, fluvoxamine, citalopram, escitalopram US labels (Contraindications)",
    sourceChecked: false,
  },
  {
    id: "thioridazine-cyp2d6-inhibitor",
    a: { ingredients: ["thioridazine"] },
    b: { ingredients: ["fluoxetine", "paroxetine", "fluvoxamine", "bupropion", "quinidine"] },
    severity: "high",
    group: "qt",
    effect: "QT prolongation and arrhythmia",
    mechanism:
      "Inhibitors of thioridazine clearance raise its levels, and its QT prolongation is dose-related.",
    recommendation: "Contraindicated.",
    source:
      "Thioridazine US label, Contraindications (fluoxetine, paroxetine, fluvoxamine, CYP2D6 inhibitors)",
    sourceChecked: false,
  },
];

// ---------------------------------------------------------------------------------------------
// CYP1A2 inhibition (fluvoxamine, ciprofloxacin), other than clozapine/olanzapine

const CYP1A2_RULES: InteractionRule[] = [
  {
    id: "tizanidine-strong-cyp1a2-inhibitor",
    a: { ingredients: ["tizanidine"] },
    b: STRONG_CYP1A2_INHIBITOR,
    severity: "high",
    group: "cyp1a2-inhibition",
    effect: "severe hypotension and sedation",
    mechanism: "Tizanidine exposure rises about 10-fold or more with fluvoxamine or ciprofloxacin.",
    recommendation: "Contraindicated.",
    source: `Zanaflex (tizanidine) US label, Contraindications; ${FDA_CYP_TABLE}`,
    sourceChecked: false,
  },
  {
    id: "theophylline-strong-cyp1a2-inhibitor",
    a: { ingredients: ["theophylline"] },
    b: STRONG_CYP1A2_INHIBITOR,
    severity: "high",
    group: "cyp1a2-inhibition",
    effect: "theophylline toxicity",
    mechanism: "Theophylline is cleared by CYP1A2; levels can triple (seizures, arrhythmias).",
    recommendation:
      "Avoid, or reduce theophylline to about one-third and monitor levels (fluvoxamine label).",
    source: "Luvox (fluvoxamine) US label, Drug Interactions (theophylline); ciprofloxacin US label",
    sourceChecked: false,
  },
  {
    id: "duloxetine-strong-cyp1a2-inhibitor",
    a: { ingredients: ["duloxetine"] },
    b: STRONG_CYP1A2_INHIBITOR,
    severity: "high",
    group: "cyp1a2-inhibition",
    effect: "raised duloxetine level",
    mechanism: "Fluvoxamine raised duloxetine exposure about 6-fold.",
    recommendation: "Avoid the combination (label).",
    source: "Cymbalta (duloxetine) US label, Drug Interactions (potent CYP1A2 inhibitors)",
    sourceChecked: false,
  },
  {
    id: "agomelatine-strong-cyp1a2-inhibitor",
    a: { ingredients: ["agomelatine"] },
    b: STRONG_CYP1A2_INHIBITOR,
    severity: "high",
    group: "cyp1a2-inhibition",
    effect: "raised agomelatine level",
    mechanism: "Agomelatine is cleared by CYP1A2; fluvoxamine raised exposure about 60-fold.",
    recommendation: "Contraindicated (EU SmPC).",
    source: "Valdoxan (agomelatine) EMA SmPC, sections 4.3 and 4.5",
    sourceChecked: false,
  },
  {
    id: "ramelteon-fluvoxamine",
    a: { ingredients: ["ramelteon"] },
    b: { ingredients: ["fluvoxamine"] },
    severity: "high",
    group: "cyp1a2-inhibition",
    effect: "raised ramelteon level",
    mechanism: "Fluvoxamine raised ramelteon exposure about 190-fold.",
    recommendation: "Do not combine (label).",
    source: "Rozerem (ramelteon) US label, Drug Interactions (fluvoxamine)",
    sourceChecked: false,
  },
];

// ---------------------------------------------------------------------------------------------
// Enzyme induction (carbamazepine, phenytoin, phenobarbital, primidone, rifampicin, St John's wort)

const INDUCTION_RULES: InteractionRule[] = [
  {
    id: "inducer-hormonal-contraceptive",
    a: { classes: ["strong_inducer"], ingredients: ["oxcarbazepine", "modafinil"] },
    b: { classes: ["hormonal_contraceptive"] },
    severity: "high",
    group: "enzyme-induction",
    effect: "contraceptive failure",
    mechanism:
      "Induction of CYP3A4 and glucuronidation lowers oestrogen and progestogen levels; unplanned pregnancies reported.",
    recommendation:
      "Use a contraceptive unaffected by enzyme inducers (copper or levonorgestrel IUD, medroxyprogesterone injection) during and for 28 days after the inducer.",
    source:
      "FSRH CEU statements (enzyme-inducing drugs; St John's wort, Mar 2014); carbamazepine, phenytoin, modafinil US labels (hormonal contraceptives)",
    sourceChecked: true,
  },
  {
    id: "inducer-quetiapine",
    a: STRONG_INDUCER,
    b: { ingredients: ["quetiapine"] },
    severity: "moderate",
    group: "enzyme-induction",
    effect: "loss of quetiapine effect",
    mechanism:
      "CYP3A4 induction: carbamazepine lowered quetiapine exposure to about 13 % of baseline; phenytoin raised clearance 5-fold.",
    recommendation:
      "Expect loss of effect; up to 5-fold quetiapine dose increases may be needed, reduced again when the inducer stops.",
    source:
      "Seroquel (quetiapine) label, Drug Interactions (carbamazepine, phenytoin); Wong et al. 2001, J Clin Psychopharmacol 21:89-93",
    sourceChecked: true,
  },
  {
    id: "inducer-aripiprazole",
    a: STRONG_INDUCER,
    b: { ingredients: ["aripiprazole"] },
    severity: "moderate",
    group: "enzyme-induction",
    effect: "loss of aripiprazole effect",
    mechanism: "CYP3A4 induction lowers aripiprazole exposure by about 70 %.",
    recommendation: "Double the aripiprazole dose over 1-2 weeks (label); reduce when the inducer stops.",
    source: "Abilify (aripiprazole) US label, Dosage (CYP3A4 inducers)",
    sourceChecked: false,
  },
  {
    id: "inducer-lamotrigine",
    a: { classes: ["strong_inducer"] },
    b: { ingredients: ["lamotrigine"] },
    severity: "moderate",
    group: "enzyme-induction",
    effect: "lower lamotrigine level",
    mechanism: "Induction of glucuronidation roughly halves lamotrigine levels.",
    recommendation:
      "Use the label's titration for patients on enzyme inducers; adjust when the inducer starts or stops.",
    source: "Lamictal (lamotrigine) US label, Dosage (estrogen-containing contraceptives and inducers)",
    sourceChecked: false,
  },
  {
    id: "inducer-lurasidone",
    a: STRONG_INDUCER,
    b: { ingredients: ["lurasidone"] },
    severity: "high",
    group: "enzyme-induction",
    effect: "loss of lurasidone effect",
    mechanism: "Strong CYP3A4 induction lowered lurasidone exposure to about one-fifth.",
    recommendation: "Contraindicated (label).",
    source: "Latuda (lurasidone) US label, Contraindications (strong CYP3A4 inducers)",
    sourceChecked: false,
  },
  {
    id: "inducer-methadone",
    a: STRONG_INDUCER,
    b: { ingredients: ["methadone"] },
    severity: "moderate",
    group: "enzyme-induction",
    effect: "opioid withdrawal",
    mechanism: "Induction of methadone metabolism lowers levels; withdrawal can follow within days.",
    recommendation: "Monitor for withdrawal and adjust the methadone dose; reduce when the inducer stops.",
    source: "Methadone US label, Drug Interactions (CYP3A4 inducers)",
    sourceChecked: false,
  },
  {
    id: "inducer-warfarin",
    a: STRONG_INDUCER,
    b: { ingredients: ["warfarin"] },
    severity: "moderate",
    group: "enzyme-induction",
    effect: "reduced anticoagulation",
    mechanism: "Induction of warfarin metabolism lowers INR; INR rises when the inducer stops.",
    recommendation: "Monitor INR closely when starting, changing or stopping the inducer.",
    source: "Warfarin US label, Drug Interactions; Henderson et al. 2002 (St John's wort)",
    sourceChecked: true,
  },
  {
    id: "inducer-valproate",
    a: STRONG_INDUCER,
    b: { ingredients: ["valproate"] },
    severity: "moderate",
    group: "enzyme-induction",
    effect: "lower valproate level",
    mechanism: "Carbamazepine and phenytoin induce valproate metabolism (and raise toxic metabolites).",
    recommendation: "Monitor valproate levels and clinical response.",
    source: "Depakote (divalproex) US label, Drug Interactions",
    sourceChecked: false,
  },
  {
    id: "inducer-haloperidol",
    a: STRONG_INDUCER,
    b: { ingredients: ["haloperidol"] },
    severity: "moderate",
    group: "enzyme-induction",
    effect: "loss of haloperidol effect",
    mechanism: "CYP3A4 induction lowers haloperidol levels substantially.",
    recommendation: "Monitor response; adjust the dose when the inducer starts or stops.",
    source: "Haloperidol US label, Drug Interactions (carbamazepine, rifampin)",
    sourceChecked: false,
  },
  {
    id: "lamotrigine-combined-contraceptive",
    a: { ingredients: ["lamotrigine"] },
    b: { ingredients: ["ethinylestradiol"] },
    severity: "moderate",
    group: "antiepileptic-level",
    effect: "lower lamotrigine level",
    mechanism:
      "Ethinylestradiol induces lamotrigine glucuronidation (levels roughly halve; rise in the pill-free week).",
    recommendation:
      "Adjust the lamotrigine dose per the label when starting or stopping a combined contraceptive.",
    source: "Lamictal (lamotrigine) US label, Dosage (estrogen-containing oral contraceptives)",
    sourceChecked: false,
  },
];

// ---------------------------------------------------------------------------------------------
// Antiepileptic levels

const ANTIEPILEPTIC_RULES: InteractionRule[] = [
  {
    id: "valproate-lamotrigine",
    a: { ingredients: ["valproate"] },
    b: { ingredients: ["lamotrigine"] },
    severity: "high",
    group: "antiepileptic-level",
    effect: "serious rash (SJS/TEN) risk",
    mechanism:
      "Valproate inhibits lamotrigine glucuronidation and about doubles its half-life; higher lamotrigine exposure raises the risk of serious rash.",
    recommendation:
      "Use the label's reduced lamotrigine titration with valproate (about half the usual doses); halve an existing lamotrigine dose when valproate is added.",
    source: "Lamictal (lamotrigine) US label, Boxed Warning (serious rash) and Dosage (with valproate)",
    sourceChecked: true,
  },
  {
    id: "valproate-carbapenem",
    a: { ingredients: ["valproate"] },
    b: { ingredients: ["meropenem", "ertapenem"] },
    severity: "high",
    group: "antiepileptic-level",
    effect: "loss of seizure control",
    mechanism:
      "Carbapenems cut valproate levels by 60-100 % within a day; raising the valproate dose does not overcome it.",
    recommendation: "Avoid; use another antibiotic or bridge with a different antiepileptic.",
    source: "Depakote (divalproex) US label, Drug Interactions (carbapenem antibiotics)",
    sourceChecked: false,
  },
  {
    id: "valproate-topiramate",
    a: { ingredients: ["valproate"] },
    b: { ingredients: ["topiramate"] },
    severity: "moderate",
    group: "antiepileptic-level",
    effect: "hyperammonaemia and encephalopathy",
    mechanism: "The combination is associated with hyperammonaemia, with or without encephalopathy.",
    recommendation: "Check ammonia if lethargy, vomiting or confusion develop.",
    source: "Depakote (divalproex) and Topamax (topiramate) US labels, Warnings (hyperammonemia)",
    sourceChecked: false,
  },
  {
    id: "carbamazepine-cyp3a4-inhibiting-macrolide",
    a: { ingredients: ["carbamazepine"] },
    b: { classes: ["cyp3a4_inhibiting_macrolide"] },
    severity: "moderate",
    group: "antiepileptic-level",
    effect: "carbamazepine toxicity",
    mechanism:
      "Clarithromycin and erythromycin inhibit CYP3A4 and raise carbamazepine levels (ataxia, diplopia, sedation).",
    recommendation: "Prefer azithromycin or another antibiotic; otherwise monitor carbamazepine levels.",
    source: "Tegretol (carbamazepine) US label, Drug Interactions (CYP3A4 inhibitors)",
    sourceChecked: false,
  },
];

// ---------------------------------------------------------------------------------------------
// Rows an audit found missing (decision 69): the clozapine label's table, quetiapine with strong
// CYP3A4 inhibitors, lithium with haloperidol, tamoxifen with a moderate CYP2D6 inhibitor,
// olanzapine with ciprofloxacin, linezolid with methylene blue, ondansetron with serotonergic
// antidepressants, and topical NSAIDs with lithium (decision 71).

const SEROQUEL_LABEL =
  "Seroquel (quetiapine) US label, Dosage and Administration (dose modification with strong CYP3A4 inhibitors: reduce to one sixth) and Drug Interactions (ketoconazole reduced quetiapine clearance by 84 %)";

const AUDIT_RULES: InteractionRule[] = [
  {
    id: "clozapine-cyp2d6-cyp3a4-inhibitor",
    a: CLOZAPINE,
    b: {
      classes: ["strong_cyp2d6_inhibitor", "moderate_cyp2d6_inhibitor", "strong_cyp3a4_inhibitor"],
      ingredients: ["cimetidine", "escitalopram", "erythromycin", "sertraline"],
    },
    severity: "moderate",
    group: "clozapine-exposure",
    effect: "raised clozapine level",
    mechanism:
      "Clozapine is also cleared by CYP2D6 and CYP3A4; the label names cimetidine, escitalopram, erythromycin, paroxetine, bupropion, fluoxetine, quinidine, duloxetine, terbinafine and sertraline.",
    recommendation:
      "Monitor for clozapine adverse reactions (sedation, hypotension, seizures) and consider a lower clozapine dose; check a clozapine level after starting or stopping the inhibitor.",
    source: `${CLOZAPINE_LABEL} (CYP2D6 or CYP3A4 inhibitors)`,
    sourceChecked: true,
  },
  {
    id: "clozapine-weak-cyp1a2-inhibitor",
    a: CLOZAPINE,
    b: { ingredients: ["ethinylestradiol", "caffeine"] },
    severity: "moderate",
    group: "clozapine-exposure",
    effect: "raised clozapine level",
    mechanism: "Oral contraceptives (ethinylestradiol) and caffeine are moderate or weak CYP1A2 inhibitors.",
    recommendation:
      "Monitor for clozapine adverse reactions and consider a lower dose if needed; expect levels to fall when the inhibitor stops.",
    source: `${CLOZAPINE_LABEL} (moderate or weak CYP1A2 inhibitors)`,
    sourceChecked: true,
  },
  {
    id: "clozapine-tobacco-smoking",
    a: CLOZAPINE,
    b: { ingredients: ["tobacco smoke"] },
    severity: "moderate",
    group: "clozapine-exposure",
    effect: "clozapine level changes with smoking",
    mechanism:
      "Tobacco smoke induces CYP1A2 and lowers clozapine levels; stopping smoking (including on admission to a smoke-free ward) makes them rise within days.",
    recommendation:
      "Record smoking status; when a patient stops or cuts down, check clozapine levels and expect to reduce the dose; when they start again, watch for loss of effect.",
    source: `${CLOZAPINE_LABEL} (tobacco smoking as CYP1A2 inducer); ${FDA_CYP_TABLE} (tobacco)`,
    sourceChecked: true,
  },
  {
    id: "clozapine-omeprazole",
    a: CLOZAPINE,
    b: { ingredients: ["omeprazole"] },
    severity: "low",
    group: "clozapine-exposure",
    effect: "lower clozapine level",
    mechanism: "Omeprazole is a moderate or weak CYP1A2 or CYP3A4 inducer in the clozapine label.",
    recommendation: "Watch for loss of effect; consider a clozapine level if the response changes.",
    source: `${CLOZAPINE_LABEL} (moderate or weak CYP1A2 or CYP3A4 inducers)`,
    sourceChecked: true,
  },
  {
    id: "olanzapine-strong-cyp1a2-inhibitor",
    a: { ingredients: ["olanzapine"] },
    b: STRONG_CYP1A2_INHIBITOR,
    severity: "moderate",
    group: "clozapine-exposure",
    effect: "raised olanzapine level",
    mechanism:
      "Olanzapine is cleared mainly by CYP1A2; ciprofloxacin and fluvoxamine are strong CYP1A2 inhibitors.",
    recommendation:
      "Consider a lower olanzapine dose and monitor for sedation, hypotension and anticholinergic effects.",
    source: `${FDA_CYP_TABLE} (ciprofloxacin, fluvoxamine: strong CYP1A2 inhibitors); Zyprexa (olanzapine) US label, Drug Interactions (CYP1A2 inhibitors)`,
    sourceChecked: false,
  },
  {
    id: "olanzapine-tobacco-smoking",
    a: { ingredients: ["olanzapine"] },
    b: { ingredients: ["tobacco smoke"] },
    severity: "low",
    group: "clozapine-exposure",
    effect: "olanzapine level changes with smoking",
    mechanism:
      "Tobacco smoke induces CYP1A2; smokers clear olanzapine faster, and levels rise after stopping.",
    recommendation: "Ask about smoking; after stopping, monitor for sedation and consider a lower dose.",
    source: `Zyprexa (olanzapine) US label, Clinical Pharmacology (smokers); ${FDA_CYP_TABLE} (tobacco)`,
    sourceChecked: false,
  },
  {
    id: "quetiapine-strong-cyp3a4-inhibitor",
    a: QUETIAPINE,
    b: { classes: ["strong_cyp3a4_inhibitor"] },
    severity: "high",
    group: "quetiapine-exposure",
    effect: "quetiapine toxicity (sedation, hypotension, coma)",
    mechanism:
      "Quetiapine is cleared by CYP3A4; ketoconazole raised its peak level about 3-fold and cut clearance by 84 %; coma is reported with ritonavir-boosted regimens.",
    recommendation:
      "Reduce quetiapine to one sixth of the dose when a strong CYP3A4 inhibitor (ketoconazole, itraconazole, clarithromycin, ritonavir, ...) is added; increase it back 6-fold when the inhibitor stops.",
    source: `${SEROQUEL_LABEL}; Sampson et al. 2019, J Clin Pharmacol 59:500-509 (quetiapine with HIV protease inhibitors)`,
    sourceChecked: true,
  },
  {
    id: "quetiapine-moderate-cyp3a4-inhibitor",
    a: QUETIAPINE,
    b: { classes: ["moderate_cyp3a4_inhibitor"] },
    severity: "moderate",
    group: "quetiapine-exposure",
    effect: "raised quetiapine level",
    mechanism: "Erythromycin and fluconazole are moderate CYP3A4 inhibitors and reduce quetiapine clearance.",
    recommendation: "Use a reduced quetiapine dose and watch for sedation and orthostatic hypotension.",
    source:
      "Seroquel XR (quetiapine) US label, Drug Interactions (caution, reduced dosage, with ketoconazole and other CYP3A inhibitors such as itraconazole, fluconazole, erythromycin, protease inhibitors)",
    sourceChecked: true,
  },
  {
    id: "lurasidone-strong-cyp3a4-inhibitor",
    a: { ingredients: ["lurasidone"] },
    b: { classes: ["strong_cyp3a4_inhibitor"] },
    severity: "high",
    group: "cyp3a4-inhibition",
    effect: "lurasidone toxicity",
    mechanism: "Lurasidone is cleared by CYP3A4; strong inhibitors raise its exposure several-fold.",
    recommendation: "Contraindicated; choose another antipsychotic or another anti-infective.",
    source:
      "Latuda (lurasidone) US label, Contraindications and Drug Interactions (strong CYP3A4 inhibitors: ketoconazole, clarithromycin, ritonavir, voriconazole)",
    sourceChecked: true,
  },
  {
    id: "lurasidone-moderate-cyp3a4-inhibitor",
    a: { ingredients: ["lurasidone"] },
    b: { classes: ["moderate_cyp3a4_inhibitor"] },
    severity: "moderate",
    group: "cyp3a4-inhibition",
    effect: "raised lurasidone level",
    mechanism: "Moderate CYP3A4 inhibitors (erythromycin, fluconazole, diltiazem) raise lurasidone exposure.",
    recommendation:
      "Halve the lurasidone dose (at most 80 mg/day); start at 20 mg/day if lurasidone is added.",
    source: "Latuda (lurasidone) US label, Dosage (moderate CYP3A4 inhibitors: half the dose)",
    sourceChecked: true,
  },
  {
    id: "aripiprazole-strong-cyp3a4-inhibitor",
    a: { ingredients: ["aripiprazole"] },
    b: { classes: ["strong_cyp3a4_inhibitor"] },
    severity: "moderate",
    group: "cyp3a4-inhibition",
    effect: "raised aripiprazole level",
    mechanism: "Aripiprazole is cleared by CYP3A4 and CYP2D6; ketoconazole roughly doubles its exposure.",
    recommendation:
      "Halve the aripiprazole dose with a strong CYP3A4 inhibitor; a quarter with a strong CYP2D6 inhibitor as well.",
    source:
      "Abilify (aripiprazole) label, Dosage (dose modifications with strong CYP3A4 inhibitors); EU SmPC text read in a copy",
    sourceChecked: true,
  },
  {
    id: "alprazolam-azole-antifungal",
    a: { ingredients: ["alprazolam"] },
    b: { ingredients: ["ketoconazole", "itraconazole"] },
    severity: "high",
    group: "cyp3a4-inhibition",
    effect: "prolonged sedation and respiratory depression",
    mechanism:
      "Ketoconazole and itraconazole block CYP3A, alprazolam's clearance route (alprazolam exposure 2.5-4-fold, half-life 2.6-fold).",
    recommendation:
      "Contraindicated; use a benzodiazepine not cleared by CYP3A (e.g. lorazepam) or another antifungal.",
    source: "Xanax (alprazolam) US label, Contraindications (ketoconazole, itraconazole)",
    sourceChecked: true,
  },
  {
    id: "lithium-haloperidol",
    a: LITHIUM,
    b: { ingredients: ["haloperidol"] },
    severity: "moderate",
    group: "lithium-neurotoxicity",
    effect: "neurotoxicity (encephalopathic syndrome)",
    mechanism:
      "An encephalopathic syndrome (weakness, lethargy, fever, confusion, extrapyramidal signs, leucocytosis) followed by irreversible brain damage has occurred in a few patients on lithium plus haloperidol, at ordinary lithium levels; causality not established.",
    recommendation:
      "Monitor closely for early neurological toxicity, especially at initiation and high doses; stop promptly if signs appear.",
    source:
      "Lithium and Haldol (haloperidol) US labels, Warnings (combined use of haloperidol and lithium); Cohen and Cohen 1974, JAMA 230:1283-1287",
    sourceChecked: true,
  },
  {
    id: "tamoxifen-moderate-cyp2d6-inhibitor",
    a: { ingredients: ["tamoxifen"] },
    b: { classes: ["moderate_cyp2d6_inhibitor"] },
    severity: "moderate",
    group: "cyp2d6-inhibition",
    effect: "possibly reduced tamoxifen efficacy",
    mechanism:
      "Tamoxifen needs CYP2D6 to form endoxifen; duloxetine is a moderate CYP2D6 inhibitor and lowers endoxifen less than paroxetine or fluoxetine.",
    recommendation:
      "Prefer an antidepressant with little CYP2D6 inhibition (e.g. venlafaxine, citalopram, escitalopram); if duloxetine is needed, discuss with the oncology team.",
    source: `${FDA_CYP_TABLE} (duloxetine: moderate CYP2D6 inhibitor); Kelly et al. 2010, BMJ 340:c693`,
    sourceChecked: true,
  },
  {
    id: "linezolid-methylene-blue",
    a: { ingredients: ["linezolid"] },
    b: { ingredients: ["methylene blue"] },
    severity: "high",
    group: "maoi",
    effect: "serotonin syndrome and hypertensive reaction",
    mechanism:
      "Both are MAO inhibitors; together they add MAO inhibition, and each is itself a serotonin-syndrome risk with any serotonergic drug the patient takes.",
    recommendation:
      "Avoid giving both; if both are essential, stop serotonergic drugs where possible and monitor for serotonin toxicity and blood pressure.",
    source: `${FDA_2011_LINEZOLID}; ${FDA_2011_METHYLENE_BLUE}; Zyvox (linezolid) US label, Contraindications (MAO inhibitors)`,
    sourceChecked: true,
  },
  {
    id: "ondansetron-serotonergic-antidepressant",
    a: { ingredients: ["ondansetron"] },
    b: SSRI_SNRI_TCA,
    severity: "moderate",
    group: "serotonin",
    effect: "serotonin syndrome (reported)",
    mechanism:
      "Serotonin syndrome has been reported with 5-HT3 antagonists and serotonergic drugs; the mechanism is disputed (Gillman) but regulators required label warnings.",
    recommendation:
      "Use if needed, but tell the patient and staff the signs of serotonin toxicity and stop ondansetron if they appear; check the QT interaction separately (citalopram, escitalopram).",
    source:
      "Zofran (ondansetron) US label, Warnings (serotonin syndrome); TGA safety advisory on 5-HT3 antagonists and serotonergic drugs (secondary report read)",
    sourceChecked: false,
  },
  {
    id: "lithium-topical-nsaid",
    a: LITHIUM,
    b: { classes: ["topical_nsaid"] },
    severity: "low",
    group: "lithium-level",
    effect: "small possible lithium rise",
    mechanism:
      "A topical NSAID reaches the blood at a small fraction of an oral dose (diclofenac 1 % gel: about 6 % of the systemic exposure of oral diclofenac), so a clinically relevant lithium rise is unlikely; the gel label still carries the class warning.",
    recommendation:
      "Acceptable with lithium; check a lithium level if large areas are treated for long periods, or if toxicity symptoms appear.",
    source:
      "Voltaren (diclofenac sodium topical gel) 1 % US label, Clinical Pharmacology (systemic exposure) and Drug Interactions (lithium); secondary summaries read; decision 71",
    sourceChecked: false,
  },
];

// ---------------------------------------------------------------------------------------------
// QT prolongation, anticholinergic burden, disulfiram, opioid antagonists

const OTHER_RULES: InteractionRule[] = [
  {
    id: "qt-prolonging-pair",
    a: QT_KNOWN,
    b: QT_KNOWN,
    severity: "high",
    group: "qt",
    effect: "QT prolongation and torsade de pointes",
    mechanism: "Two drugs with a known risk of torsade de pointes: additive QT prolongation.",
    recommendation:
      "Avoid where possible; otherwise baseline and follow-up ECG, correct potassium and magnesium, keep citalopram at or below 40 mg/day (20 mg over 60).",
    source: `${CREDIBLEMEDS}; FDA Drug Safety Communication 24 Aug 2011 (citalopram dose limit)`,
    sourceChecked: true,
  },
  {
    id: "qt-label-avoid-known-risk",
    a: { ingredients: Object.keys(QT_LABEL_AVOID) },
    b: QT_KNOWN,
    severity: "high",
    group: "qt",
    effect: "QT prolongation and torsade de pointes",
    mechanism:
      "The label of quetiapine (and of paliperidone) tells prescribers to avoid other drugs known to prolong QTc, and the ziprasidone label contraindicates them; the other drug has a known risk of torsade de pointes (the quetiapine label names methadone, citalopram, haloperidol, erythromycin, amiodarone and sotalol).",
    recommendation:
      "Avoid the combination; if it cannot be avoided, baseline and follow-up ECG, correct potassium and magnesium, and prefer an alternative without QT risk.",
    source: `${QT_LABEL_AVOID.quetiapine}; ${QT_LABEL_AVOID.paliperidone}; ${QT_LABEL_AVOID.ziprasidone}`,
    sourceChecked: true,
  },
  {
    id: "qt-known-with-possible-or-conditional",
    a: QT_KNOWN,
    b: { classes: ["qt_possible_risk", "qt_conditional_risk"] },
    severity: "moderate",
    group: "qt",
    effect: "additive QT prolongation",
    mechanism:
      "A drug with a known risk of torsade de pointes with one that prolongs QT (possible risk) or causes torsade de pointes under conditions such as interacting drugs (conditional risk).",
    recommendation:
      "ECG at baseline and after dose changes, keep potassium and magnesium normal, and review the need for both drugs, especially with other risk factors (age, female sex, heart disease, bradycardia).",
    source: `${CREDIBLEMEDS_CATEGORIES}; decision 70`,
    sourceChecked: true,
  },
  {
    id: "qt-label-avoid-other-qt",
    a: { ingredients: Object.keys(QT_LABEL_AVOID) },
    b: { classes: ["qt_possible_risk", "qt_conditional_risk"] },
    severity: "moderate",
    group: "qt",
    effect: "additive QT prolongation",
    mechanism:
      "The label of quetiapine (and of paliperidone) says to avoid other QT-prolonging drugs, and the ziprasidone label contraindicates them; the other drug prolongs QT or causes torsade de pointes under some conditions.",
    recommendation:
      "Prefer an alternative; if combined, ECG at baseline and after dose changes and keep potassium and magnesium normal.",
    source: `${QT_LABEL_AVOID.quetiapine}; ${QT_LABEL_AVOID.ziprasidone}; ${CREDIBLEMEDS_CATEGORIES}; decision 70`,
    sourceChecked: true,
  },
  {
    id: "qt-possible-or-conditional-pair",
    a: { classes: ["qt_possible_risk", "qt_conditional_risk"] },
    b: { classes: ["qt_possible_risk", "qt_conditional_risk"] },
    severity: "low",
    group: "qt",
    effect: "possible additive QT prolongation",
    mechanism:
      "Two drugs that prolong QT or carry a conditional risk of torsade de pointes; neither has a known risk when taken as recommended.",
    recommendation:
      "Consider an ECG when other risk factors are present (electrolyte disturbance, heart disease, high doses, interacting drugs).",
    source: `${CREDIBLEMEDS_CATEGORIES}; decision 70`,
    sourceChecked: true,
  },
  {
    id: "anticholinergic-burden",
    a: { classes: ["anticholinergic_high"] },
    b: { classes: ["anticholinergic_high"] },
    severity: "moderate",
    group: "anticholinergic",
    effect: "anticholinergic burden",
    mechanism:
      "Two drugs with an Anticholinergic Cognitive Burden score of 3: additive confusion, constipation, urinary retention and falls; a total of 3 or more is linked to cognitive decline.",
    recommendation:
      "Review the need for each; prefer less anticholinergic alternatives, especially in older people.",
    source: "Anticholinergic Cognitive Burden scale (Boustani et al. 2008, Aging Health 4:311-320)",
    sourceChecked: false,
  },
  {
    id: "disulfiram-alcohol",
    a: { ingredients: ["disulfiram"] },
    b: ALCOHOL,
    severity: "high",
    group: "disulfiram",
    effect: "disulfiram-alcohol reaction",
    mechanism:
      "Aldehyde dehydrogenase inhibition: acetaldehyde accumulates (flushing, hypotension, arrhythmia, collapse).",
    recommendation:
      "Do not give disulfiram to an intoxicated patient; no alcohol for 12 hours before and 14 days after.",
    source: "Antabuse (disulfiram) US label, Boxed Warning and Contraindications",
    sourceChecked: false,
  },
  {
    id: "disulfiram-metronidazole",
    a: { ingredients: ["disulfiram"] },
    b: { ingredients: ["metronidazole"] },
    severity: "high",
    group: "disulfiram",
    effect: "acute psychosis and confusion",
    mechanism: "Psychotic reactions reported with the combination.",
    recommendation: "Contraindicated; metronidazole not within 2 weeks of disulfiram.",
    source: "Flagyl (metronidazole) US label, Contraindications (disulfiram)",
    sourceChecked: false,
  },
  {
    id: "disulfiram-warfarin",
    a: { ingredients: ["disulfiram"] },
    b: { ingredients: ["warfarin"] },
    severity: "moderate",
    group: "disulfiram",
    effect: "raised INR",
    mechanism: "Disulfiram inhibits warfarin metabolism.",
    recommendation: "Monitor INR when starting or stopping disulfiram.",
    source: "Antabuse (disulfiram) US label, Precautions (oral anticoagulants)",
    sourceChecked: false,
  },
  {
    id: "disulfiram-phenytoin",
    a: { ingredients: ["disulfiram"] },
    b: { ingredients: ["phenytoin"] },
    severity: "moderate",
    group: "disulfiram",
    effect: "phenytoin toxicity",
    mechanism: "Disulfiram inhibits phenytoin metabolism.",
    recommendation: "Check phenytoin levels before and after starting disulfiram.",
    source: "Antabuse (disulfiram) US label, Precautions (phenytoin)",
    sourceChecked: false,
  },
  {
    id: "naltrexone-opioid",
    a: { ingredients: ["naltrexone"] },
    b: OPIOID,
    severity: "high",
    group: "opioid-antagonist",
    effect: "precipitated withdrawal or opioid blockade",
    mechanism:
      "Naltrexone blocks opioid receptors: precipitated withdrawal in dependent patients and loss of analgesia; overdose risk if the blockade is overridden.",
    recommendation:
      "Contraindicated in patients taking opioids; opioid-free for 7-10 days before naltrexone.",
    source: "Naltrexone US label, Contraindications",
    sourceChecked: false,
  },
];

/** Every rule, specific before broad within a group (the first of equal severity wins). */
export const INTERACTION_RULES: readonly InteractionRule[] = [
  ...MAOI_RULES,
  ...LINEZOLID_RULES,
  ...SEROTONIN_RULES,
  ...BLEEDING_RULES,
  ...LITHIUM_RULES,
  ...CLOZAPINE_RULES,
  ...CNS_DEPRESSION_RULES,
  ...SEIZURE_RULES,
  ...CYP2D6_RULES,
  ...CYP1A2_RULES,
  ...INDUCTION_RULES,
  ...ANTIEPILEPTIC_RULES,
  ...OTHER_RULES,
  ...AUDIT_RULES,
];
