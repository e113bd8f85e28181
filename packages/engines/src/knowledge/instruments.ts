/**
 * Every symptom and wellbeing instrument the service knows, written once: how to recognise it,
 * which way its scores run, its items and totals, bands, caseness, reliable change, risk items,
 * LOINC (verified codes only) and sources. The engines (symptom findings, outcome, relapse,
 * medication), the agent tools (instrument catalog, scoreInstruments) and the terminology codes of
 * the intelligence block all read this table. Sources and evidence levels:
 * docs/engines/instruments.md and docs/engines/evidence.md ("Instruments").
 */

import type { AgentRiskLevel } from "../tools/types.js";
import type { Evidence } from "./parameter-evidence.js";

export type InstrumentId =
  | "phq9"
  | "gad7"
  | "pcl5"
  | "audit"
  | "who5"
  | "epds"
  | "phq8"
  | "phq2"
  | "gad2"
  | "madrs"
  | "hamd17"
  | "qidssr16"
  | "bdi2"
  | "ymrs"
  | "asrm"
  | "k10"
  | "core10"
  | "wemwbs"
  | "swemwbs"
  | "ybocs"
  | "panss"
  | "moca"
  | "mmse";

/** Which way a worse state moves the total (decision 60). */
export type ScaleDirection = "higher_is_worse" | "higher_is_better";

/** One published band of total scores, `min` to `max` inclusive. */
export interface InstrumentBand {
  key: string;
  label: string;
  min: number;
  max: number;
}

/** An item whose answer above 0 bears on risk whatever the total (1-based item number). */
export interface InstrumentRiskItem {
  item: number;
  label: string;
  /** What goes unscreened when the item is not available, e.g. "suicide risk". */
  screens: string;
}

/** A LOINC code seen in a public LOINC source, with where it was verified. */
export interface VerifiedLoinc {
  code: string;
  display: string;
  source: string;
}

export interface InstrumentKnowledge {
  id: InstrumentId;
  display: string;
  /** Names that mean this instrument, as lower-case letters and digits only ("phq9", "who5wellbeingindex"). */
  aliases: readonly string[];
  direction: ScaleDirection;
  itemCount: number;
  itemMin: number;
  itemMax: number;
  /** Items (1-based) whose allowed scores are not every whole number from itemMin to itemMax. */
  allowedItemValues?: Readonly<Record<number, readonly number[]>>;
  totalMin: number;
  totalMax: number;
  /** Items are scored in whole numbers, so a total that is not a whole number is not a valid administration. */
  wholeNumberTotals: boolean;
  /** Lowest first, covering totalMin..totalMax without gaps. */
  bands: readonly InstrumentBand[];
  /** The band the engines read as a severe latest score (null: the instrument has no severity band). */
  severeBandKey: string | null;
  /** Lowest total that counts as a clinical case (higher-is-worse scales); null when none is sourced. */
  casenessMin: number | null;
  /** Smallest change in total, either way, that counts as reliable; null when none is sourced. */
  reliableChangePoints: number | null;
  riskItems: readonly InstrumentRiskItem[];
  /**
   * A risk the instrument's parent form screens and this form leaves out (the PHQ-8 and PHQ-2 have
   * no PHQ-9 item 9), so a score never reads as if that risk was screened.
   */
  riskNotScreened?: { screens: string; note: string };
  /**
   * Items (1-based) scored together: the total is the sum over these groups of the highest item in
   * each (QIDS-SR16's nine symptom domains). Absent: the total is the sum of the items.
   */
  domains?: readonly (readonly number[])[];
  /** How item answers must already be scored (reverse keying, etc.). */
  itemScoring: string;
  /** A clinician's rating scale, not a self-report, with where that is said. Absent: self-report. */
  clinicianRated?: { source: string };
  /** The items are the form's sections (a cognitive screen), each scored up to its own maximum. */
  itemsAreSections?: true;
  /** WHO-5 only: the raw total times this is the published percentage score. */
  percentPerPoint?: number;
  /** LOINC of the total score (and panel), only when verified. */
  loinc?: { total: VerifiedLoinc; panel?: VerifiedLoinc };
  /** Short citation for items, bands, caseness and reliable change. */
  source: string;
}

const ZERO_TO_THREE = "0 not at all, 1 several days, 2 more than half the days, 3 nearly every day";

// PHQ-9: 9 items 0-3, total 0-27; cut-points 5, 10, 15, 20 (Kroenke, Spitzer & Williams 2001,
// J Gen Intern Med 16:606-613). Caseness >= 10 and reliable change >= 6 points: NHS Talking
// Therapies outcome definitions (Clark et al. 2018, Lancet 391:679-686). Item 9 (thoughts of being
// better off dead or of self-harm) carries a higher later risk of suicide attempt and death
// (Simon et al. 2013, Psychiatr Serv, doi:10.1176/appi.ps.201200587).
const PHQ9: InstrumentKnowledge = {
  id: "phq9",
  display: "PHQ-9",
  aliases: ["phq9", "patienthealthquestionnaire9", "patienthealthquestionnaire9item", "phq9total"],
  direction: "higher_is_worse",
  itemCount: 9,
  itemMin: 0,
  itemMax: 3,
  totalMin: 0,
  totalMax: 27,
  wholeNumberTotals: true,
  bands: [
    { key: "minimal", label: "minimal", min: 0, max: 4 },
    { key: "mild", label: "mild", min: 5, max: 9 },
    { key: "moderate", label: "moderate", min: 10, max: 14 },
    { key: "moderately_severe", label: "moderately severe", min: 15, max: 19 },
    { key: "severe", label: "severe", min: 20, max: 27 },
  ],
  severeBandKey: "severe",
  casenessMin: 10,
  reliableChangePoints: 6,
  riskItems: [{ item: 9, label: "thoughts of death or self-harm", screens: "suicide risk" }],
  itemScoring: ZERO_TO_THREE,
  loinc: {
    total: {
      code: "44261-6",
      display: "Patient Health Questionnaire 9 item (PHQ-9) total score [Reported]",
      source: "loinc.org (cdn.loinc.org/44261-6); NLM CDE cde.nlm.nih.gov/deView?tinyId=Qy_ihKG8km",
    },
    panel: {
      code: "44249-1",
      display: "PHQ-9 quick depression assessment panel [Reported.PHQ]",
      source: "loinc.org (cdn.loinc.org/44261-6 'Member of these Panels'); healthassure.in LOINC page",
    },
  },
  source:
    "Kroenke et al. 2001 (bands); NHS Talking Therapies / Clark et al. 2018 (caseness, reliable change)",
};

// GAD-7: 7 items 0-3, total 0-21; cut-points 5, 10, 15 (Spitzer, Kroenke, Williams & Löwe 2006,
// Arch Intern Med 166:1092-1097). NHS Talking Therapies: caseness >= 8; reliable change >= 4.
const GAD7: InstrumentKnowledge = {
  id: "gad7",
  display: "GAD-7",
  aliases: [
    "gad7",
    "generalizedanxietydisorder7",
    "generalisedanxietydisorder7",
    "generalizedanxietydisorder7item",
    "generalisedanxietydisorder7item",
    "generalizedanxietydisorderscale7",
    "generalisedanxietydisorderscale7",
    "gad7total",
  ],
  direction: "higher_is_worse",
  itemCount: 7,
  itemMin: 0,
  itemMax: 3,
  totalMin: 0,
  totalMax: 21,
  wholeNumberTotals: true,
  bands: [
    { key: "minimal", label: "minimal", min: 0, max: 4 },
    { key: "mild", label: "mild", min: 5, max: 9 },
    { key: "moderate", label: "moderate", min: 10, max: 14 },
    { key: "severe", label: "severe", min: 15, max: 21 },
  ],
  severeBandKey: "severe",
  casenessMin: 8,
  reliableChangePoints: 4,
  riskItems: [],
  itemScoring: ZERO_TO_THREE,
  loinc: {
    total: {
      code: "70274-6",
      display: "Generalized anxiety disorder 7 item (GAD-7) total score [Reported.PHQ]",
      source: "loinc.org/69729-2 (PHQ-SADS panel hierarchy); healthassure.in LOINC page",
    },
  },
  source:
    "Spitzer et al. 2006 (bands); NHS Talking Therapies / Clark et al. 2018 (caseness, reliable change)",
};

// PCL-5: 20 items 0-4, total 0-80 (Blevins, Weathers, Davis, Witte & Domino 2015, J Trauma Stress
// 28:489-498). Provisional PTSD cut-point 31-33 (National Center for PTSD); no empirically derived
// severity ranges exist, so the bands only place a score against that range. Reliable change:
// NCPTSD gives 5-10 points; the top of the range is used (Marx et al. 2022, Psychol Assess
// 34:197-203, found 15-18 points in two veteran samples). Published range, value expert-set.
const PCL5_POSSIBLE_MIN = 31;
const PCL5_PROBABLE_MIN = 33;
const PCL5: InstrumentKnowledge = {
  id: "pcl5",
  display: "PCL-5",
  aliases: [
    "pcl5",
    "pcl5total",
    "ptsdchecklist5",
    "ptsdchecklistfordsm5",
    "ptsdchecklistdsm5",
    "posttraumaticstressdisorderchecklistfordsm5",
    "posttraumaticstressdisorderchecklistdsm5",
  ],
  direction: "higher_is_worse",
  itemCount: 20,
  itemMin: 0,
  itemMax: 4,
  totalMin: 0,
  totalMax: 80,
  wholeNumberTotals: true,
  bands: [
    {
      key: "below_threshold",
      label: "below the provisional PTSD cut-point",
      min: 0,
      max: PCL5_POSSIBLE_MIN - 1,
    },
    {
      key: "possible_ptsd",
      label: "possible PTSD (within the 31-33 cut-point range)",
      min: PCL5_POSSIBLE_MIN,
      max: PCL5_PROBABLE_MIN - 1,
    },
    { key: "probable_ptsd", label: "probable PTSD (provisional)", min: PCL5_PROBABLE_MIN, max: 80 },
  ],
  severeBandKey: null,
  casenessMin: null,
  reliableChangePoints: 10,
  riskItems: [],
  itemScoring: "0 not at all, 1 a little bit, 2 moderately, 3 quite a bit, 4 extremely",
  source:
    "Blevins et al. 2015 (items); National Center for PTSD (31-33 cut-point, 5-10 point reliable change); Marx et al. 2022",
};

// AUDIT: 10 items; items 1-8 scored 0-4, items 9 and 10 scored 0, 2 or 4; total 0-40. Risk zones
// I 0-7, II 8-15, III 16-19, IV 20-40 (Babor, Higgins-Biddle, Saunders & Monteiro 2001, WHO AUDIT
// manual 2nd ed., WHO/MSD/MSB/01.6a). No sourced reliable-change figure. LOINC 75624-7.
const AUDIT_YES_NO_ITEM_VALUES = [0, 2, 4] as const;
const AUDIT: InstrumentKnowledge = {
  id: "audit",
  display: "AUDIT",
  aliases: [
    "audit",
    "audit10",
    "audittotal",
    "alcoholusedisordersidentificationtest",
    "alcoholusedisorderidentificationtest",
  ],
  direction: "higher_is_worse",
  itemCount: 10,
  itemMin: 0,
  itemMax: 4,
  allowedItemValues: { 9: AUDIT_YES_NO_ITEM_VALUES, 10: AUDIT_YES_NO_ITEM_VALUES },
  totalMin: 0,
  totalMax: 40,
  wholeNumberTotals: true,
  bands: [
    { key: "zone_1", label: "zone I: low-risk drinking", min: 0, max: 7 },
    { key: "zone_2", label: "zone II: hazardous drinking", min: 8, max: 15 },
    { key: "zone_3", label: "zone III: harmful drinking", min: 16, max: 19 },
    { key: "zone_4", label: "zone IV: possible alcohol dependence", min: 20, max: 40 },
  ],
  severeBandKey: null,
  casenessMin: null,
  reliableChangePoints: null,
  riskItems: [],
  itemScoring:
    "items 1-8 scored 0-4; items 9-10 scored 0 (no), 2 (yes, not in the last year), 4 (yes, last year)",
  loinc: {
    total: {
      code: "75624-7",
      display: "Total score [AUDIT]",
      source: "loinc.org 75624-7; panel 72110-0 on cdn.loinc.org",
    },
  },
  source: "Babor et al. 2001, WHO AUDIT manual (2nd ed.)",
};

// WHO-5: 5 items 0-5, raw total 0-25 (x4 = percentage). Higher is better (Topp, Østergaard,
// Søndergaard & Bech 2015, Psychother Psychosom 84:167-176). Raw <= 12 (percentage <= 50) is poor
// wellbeing; percentage <= 28 (raw <= 7) suggests likely depression (the <= 28 figure seen only in
// secondary summaries). "A 10 % difference indicates a significant change" (WHO-5 scoring notes):
// 10 percentage points = 2.5 raw points (derived).
const WHO5_PERCENT_PER_RAW_POINT = 4;
const WHO5_LIKELY_DEPRESSION_MAX_RAW = 7;
const WHO5_POOR_WELLBEING_MAX_RAW = 12;
const WHO5: InstrumentKnowledge = {
  id: "who5",
  display: "WHO-5",
  aliases: [
    "who5",
    "who5total",
    "who5wellbeingindex",
    "whofivewellbeingindex",
    "worldhealthorganization5wellbeingindex",
    "worldhealthorganisation5wellbeingindex",
    "worldhealthorganizationfivewellbeingindex",
    "worldhealthorganisationfivewellbeingindex",
    "worldhealthorganizationwellbeingindex",
    "worldhealthorganisationwellbeingindex",
  ],
  direction: "higher_is_better",
  itemCount: 5,
  itemMin: 0,
  itemMax: 5,
  totalMin: 0,
  totalMax: 25,
  wholeNumberTotals: true,
  bands: [
    {
      key: "likely_depression",
      label: "very low wellbeing (28 % or less): likely depression, assess",
      min: 0,
      max: WHO5_LIKELY_DEPRESSION_MAX_RAW,
    },
    {
      key: "poor_wellbeing",
      label: "poor wellbeing (50 % or less): screen for depression",
      min: WHO5_LIKELY_DEPRESSION_MAX_RAW + 1,
      max: WHO5_POOR_WELLBEING_MAX_RAW,
    },
    {
      key: "above_poor_wellbeing_cut",
      label: "above the poor-wellbeing cut-off",
      min: WHO5_POOR_WELLBEING_MAX_RAW + 1,
      max: 25,
    },
  ],
  severeBandKey: null,
  casenessMin: null,
  reliableChangePoints: 10 / WHO5_PERCENT_PER_RAW_POINT,
  riskItems: [],
  itemScoring: "0 at no time ... 5 all of the time (raw item scores, not percentages)",
  percentPerPoint: WHO5_PERCENT_PER_RAW_POINT,
  source: "Topp et al. 2015 (direction, cut-offs); WHO-5 scoring notes (10 percentage-point change)",
};

// EPDS: 10 items 0-3 after the form's reverse keying, total 0-30 (Cox, Holden & Sagovsky 1987, Br
// J Psychiatry 150:782-786). Above 12/13 probable depression; 10 or more where greater sensitivity
// is wanted; any answer above 0 on item 10 (thoughts of harming oneself) always prompts assessment.
// Reliable change 4 points (Matthey 2004, J Affect Disord 78:269-272, Jacobson-Truax RCI).
const EPDS_POSSIBLE_MIN = 10;
const EPDS_PROBABLE_MIN = 13;
const EPDS: InstrumentKnowledge = {
  id: "epds",
  display: "EPDS",
  aliases: [
    "epds",
    "epdstotal",
    "edinburghpostnataldepressionscale",
    "edinburghpostnataldepressionscaleepds",
    "edinburghdepressionscale",
  ],
  direction: "higher_is_worse",
  itemCount: 10,
  itemMin: 0,
  itemMax: 3,
  totalMin: 0,
  totalMax: 30,
  wholeNumberTotals: true,
  bands: [
    { key: "below_cut_off", label: "below the screening cut-off", min: 0, max: EPDS_POSSIBLE_MIN - 1 },
    {
      key: "possible_depression",
      label: "possible depression",
      min: EPDS_POSSIBLE_MIN,
      max: EPDS_PROBABLE_MIN - 1,
    },
    { key: "probable_depression", label: "probable depression", min: EPDS_PROBABLE_MIN, max: 30 },
  ],
  severeBandKey: null,
  casenessMin: null,
  reliableChangePoints: 4,
  riskItems: [{ item: 10, label: "thoughts of harming oneself", screens: "self-harm risk" }],
  itemScoring: "each item 0-3 with 3 the most symptomatic, after the form's reverse keying (items 3, 5-10)",
  source: "Cox et al. 1987 (items, cut-offs, item 10); Matthey 2004 (reliable change)",
};

// --- Further instruments (decision 60): each only with what could be sourced. Item texts are
// paraphrased; sources and evidence levels in docs/engines/instruments.md. Of their LOINC codes only
// the PHQ-2's was verified on loinc.org; the others stay unmapped.

const NO_PUBLISHED_BANDS_KEY = "no_published_bands";

/** One band over the whole range, for instruments whose severity bands could not be sourced. */
function unbanded(totalMin: number, totalMax: number): readonly InstrumentBand[] {
  return [
    { key: NO_PUBLISHED_BANDS_KEY, label: "no published severity bands", min: totalMin, max: totalMax },
  ];
}

/** The same words as the PHQ-9 bands, for the PHQ-8 over 0-24 (Kroenke et al. 2009). */
const PHQ_BANDS_TO_24: readonly InstrumentBand[] = [
  { key: "minimal", label: "minimal", min: 0, max: 4 },
  { key: "mild", label: "mild", min: 5, max: 9 },
  { key: "moderate", label: "moderate", min: 10, max: 14 },
  { key: "moderately_severe", label: "moderately severe", min: 15, max: 19 },
  { key: "severe", label: "severe", min: 20, max: 24 },
];

// PHQ-8: the PHQ-9 without item 9; 8 items 0-3, total 0-24; the PHQ-9 cut-points apply and >= 10
// is current depression (Kroenke, Strine, Spitzer, Williams, Berry & Mokdad 2009, J Affect Disord
// 114:163-173). It has no self-harm item, so suicide risk is never screened by it.
const PHQ8: InstrumentKnowledge = {
  id: "phq8",
  display: "PHQ-8",
  aliases: ["phq8", "phq8total", "patienthealthquestionnaire8", "patienthealthquestionnaire8item"],
  direction: "higher_is_worse",
  itemCount: 8,
  itemMin: 0,
  itemMax: 3,
  totalMin: 0,
  totalMax: 24,
  wholeNumberTotals: true,
  bands: PHQ_BANDS_TO_24,
  severeBandKey: "severe",
  casenessMin: 10,
  reliableChangePoints: null,
  riskItems: [],
  riskNotScreened: {
    screens: "suicide risk",
    note: "the PHQ-8 leaves out the PHQ-9's item on thoughts of death or self-harm, so suicide risk is not screened by it",
  },
  itemScoring: ZERO_TO_THREE,
  source: "Kroenke et al. 2009 (items, cut-points, current depression at 10 or more)",
};

// PHQ-2: PHQ-9 items 1-2 (interest, low mood), total 0-6; 3 or more is a positive screen (Kroenke,
// Spitzer & Williams 2003, Med Care 41:1284-1292). A screen: no severity bands, no self-harm item.
const PHQ2_POSITIVE_MIN = 3;
const PHQ2: InstrumentKnowledge = {
  id: "phq2",
  display: "PHQ-2",
  aliases: ["phq2", "phq2total", "patienthealthquestionnaire2", "patienthealthquestionnaire2item"],
  direction: "higher_is_worse",
  itemCount: 2,
  itemMin: 0,
  itemMax: 3,
  totalMin: 0,
  totalMax: 6,
  wholeNumberTotals: true,
  bands: [
    { key: "below_cut_off", label: "below the screening cut-off", min: 0, max: PHQ2_POSITIVE_MIN - 1 },
    {
      key: "positive_screen",
      label: "positive depression screen: assess further (PHQ-9)",
      min: PHQ2_POSITIVE_MIN,
      max: 6,
    },
  ],
  severeBandKey: null,
  casenessMin: null,
  reliableChangePoints: null,
  riskItems: [],
  riskNotScreened: {
    screens: "suicide risk",
    note: "the PHQ-2 has no item on thoughts of death or self-harm, so suicide risk is not screened by it",
  },
  itemScoring: ZERO_TO_THREE,
  loinc: {
    total: {
      code: "55758-7",
      display: "Patient Health Questionnaire 2 item (PHQ-2) total score [Reported]",
      source: "loinc.org (cdn.loinc.org/55757-9 panel hierarchy)",
    },
    panel: {
      code: "55757-9",
      display: "Patient Health Questionnaire 2 item (PHQ-2) [Reported]",
      source: "loinc.org (cdn.loinc.org/55757-9)",
    },
  },
  source: "Kroenke et al. 2003 (items, cut-point 3)",
};

// GAD-2: GAD-7 items 1-2, total 0-6; 3 or more is a positive screen (Kroenke, Spitzer, Williams,
// Monahan & Löwe 2007, Ann Intern Med 146:317-325).
const GAD2_POSITIVE_MIN = 3;
const GAD2: InstrumentKnowledge = {
  id: "gad2",
  display: "GAD-2",
  aliases: [
    "gad2",
    "gad2total",
    "generalizedanxietydisorder2",
    "generalisedanxietydisorder2",
    "generalizedanxietydisorder2item",
    "generalisedanxietydisorder2item",
  ],
  direction: "higher_is_worse",
  itemCount: 2,
  itemMin: 0,
  itemMax: 3,
  totalMin: 0,
  totalMax: 6,
  wholeNumberTotals: true,
  bands: [
    { key: "below_cut_off", label: "below the screening cut-off", min: 0, max: GAD2_POSITIVE_MIN - 1 },
    {
      key: "positive_screen",
      label: "positive anxiety screen: assess further (GAD-7)",
      min: GAD2_POSITIVE_MIN,
      max: 6,
    },
  ],
  severeBandKey: null,
  casenessMin: null,
  reliableChangePoints: null,
  riskItems: [],
  itemScoring: ZERO_TO_THREE,
  source: "Kroenke et al. 2007 (items, cut-point 3)",
};

// MADRS: 10 clinician-rated items 0-6, total 0-60 (Montgomery & Åsberg 1979, Br J Psychiatry
// 134:382-389). Grades 0-6 / 7-19 / 20-34 / 35-60 (Snaith, Harrop, Newby & Teale 1986, Br J
// Psychiatry 148:599-601, seen in secondary text); 35 for severe also in Müller et al. 2000, J
// Affect Disord 60:137-140. Item 10 (suicidal thoughts): 2 = weariness of life with only fleeting
// suicidal thoughts, 4 = suicide considered as a solution, 6 = explicit plans or preparation.
const MADRS: InstrumentKnowledge = {
  id: "madrs",
  display: "MADRS",
  aliases: [
    "madrs",
    "madrstotal",
    "montgomeryasbergdepressionratingscale",
    "montgomeryandasbergdepressionratingscale",
    "montgomeryasbergdepressionscale",
  ],
  direction: "higher_is_worse",
  itemCount: 10,
  itemMin: 0,
  itemMax: 6,
  totalMin: 0,
  totalMax: 60,
  wholeNumberTotals: true,
  bands: [
    { key: "normal", label: "symptoms absent (normal)", min: 0, max: 6 },
    { key: "mild", label: "mild", min: 7, max: 19 },
    { key: "moderate", label: "moderate", min: 20, max: 34 },
    { key: "severe", label: "severe", min: 35, max: 60 },
  ],
  severeBandKey: "severe",
  casenessMin: null,
  reliableChangePoints: null,
  riskItems: [{ item: 10, label: "suicidal thoughts", screens: "suicide risk" }],
  clinicianRated: { source: "Montgomery & Åsberg 1979 (a rating scale for the clinical interview)" },
  itemScoring:
    "each item 0-6 as rated by the clinician (anchors at 0, 2, 4 and 6; odd scores lie between them)",
  source:
    "Montgomery & Åsberg 1979 (items); Snaith et al. 1986 (grades, secondary); Müller et al. 2000 (35 for severe)",
};

// HAM-D 17: items 1-3, 7-11 and 15 scored 0-4; items 4-6, 12-14, 16 and 17 scored 0-2; total 0-52
// (Hamilton 1960, J Neurol Neurosurg Psychiatry 23:56-62). Bands 0-7 / 8-16 / 17-23 / 24-52
// (Zimmerman, Martinez, Young, Chelminski & Dalrymple 2013, J Affect Disord 150:384-388: 17 and
// 24 optimal cut-offs). Item 3 (suicide): 1 life not worth living, 2 wishes to be dead or thinks
// of own death, 3 suicidal ideas or gestures, 4 attempts.
const HAMD_ZERO_TO_TWO = [0, 1, 2] as const;
const HAMD17: InstrumentKnowledge = {
  id: "hamd17",
  display: "HAM-D 17",
  aliases: [
    "hamd",
    "hamd17",
    "hamd17item",
    "hdrs",
    "hdrs17",
    "hrsd",
    "hrsd17",
    "hamiltondepressionratingscale",
    "hamiltondepressionratingscale17",
    "hamiltondepressionratingscale17item",
    "hamiltonratingscalefordepression",
    "hamiltonratingscalefordepression17",
    "hamiltonratingscalefordepression17item",
    "hamiltondepressionscale",
  ],
  direction: "higher_is_worse",
  itemCount: 17,
  itemMin: 0,
  itemMax: 4,
  allowedItemValues: {
    4: HAMD_ZERO_TO_TWO,
    5: HAMD_ZERO_TO_TWO,
    6: HAMD_ZERO_TO_TWO,
    12: HAMD_ZERO_TO_TWO,
    13: HAMD_ZERO_TO_TWO,
    14: HAMD_ZERO_TO_TWO,
    16: HAMD_ZERO_TO_TWO,
    17: HAMD_ZERO_TO_TWO,
  },
  totalMin: 0,
  totalMax: 52,
  wholeNumberTotals: true,
  bands: [
    { key: "no_depression", label: "no depression", min: 0, max: 7 },
    { key: "mild", label: "mild", min: 8, max: 16 },
    { key: "moderate", label: "moderate", min: 17, max: 23 },
    { key: "severe", label: "severe", min: 24, max: 52 },
  ],
  severeBandKey: "severe",
  casenessMin: null,
  reliableChangePoints: null,
  riskItems: [{ item: 3, label: "suicide", screens: "suicide risk" }],
  clinicianRated: { source: "Hamilton 1960 (a rating scale for the clinical interview)" },
  itemScoring:
    "items 1-3, 7-11 and 15 scored 0-4; items 4-6 (insomnia), 12-14, 16 (weight loss) and 17 (insight) scored 0-2",
  source: "Hamilton 1960 (items); Zimmerman et al. 2013 (bands)",
};

// QIDS-SR16: 16 self-report items 0-3 scored as nine symptom domains (the highest of items 1-4
// sleep, 6-9 appetite/weight and 15-16 psychomotor; items 5, 10-14 on their own), total 0-27.
// Bands 0-5 none, 6-10 mild, 11-15 moderate, 16-20 severe, 21-27 very severe (Rush et al. 2003,
// Biol Psychiatry 54:573-583; ids-qids.org interpretation table). Item 12: thoughts of death or
// suicide (1 life empty or not worth living ... 3 thoughts several times a day, plans or attempt).
const QIDSSR16: InstrumentKnowledge = {
  id: "qidssr16",
  display: "QIDS-SR16",
  aliases: [
    "qidssr16",
    "qidssr",
    "qids",
    "qids16",
    "qidssr16total",
    "quickinventoryofdepressivesymptomatology",
    "quickinventoryofdepressivesymptomatologyselfreport",
    "quickinventoryofdepressivesymptomatologyselfreport16",
    "quickinventoryofdepressivesymptomatologyselfreport16item",
  ],
  direction: "higher_is_worse",
  itemCount: 16,
  itemMin: 0,
  itemMax: 3,
  domains: [[1, 2, 3, 4], [5], [6, 7, 8, 9], [10], [11], [12], [13], [14], [15, 16]],
  totalMin: 0,
  totalMax: 27,
  wholeNumberTotals: true,
  bands: [
    { key: "none", label: "no depression", min: 0, max: 5 },
    { key: "mild", label: "mild", min: 6, max: 10 },
    { key: "moderate", label: "moderate", min: 11, max: 15 },
    { key: "severe", label: "severe", min: 16, max: 20 },
    { key: "very_severe", label: "very severe", min: 21, max: 27 },
  ],
  severeBandKey: "very_severe",
  casenessMin: null,
  reliableChangePoints: null,
  riskItems: [{ item: 12, label: "thoughts of death or suicide", screens: "suicide risk" }],
  itemScoring:
    "16 items 0-3; the total is the sum of nine domains, the highest of items 1-4, 6-9 and 15-16 each counting once",
  source: "Rush et al. 2003 (items, domain scoring, bands; ids-qids.org)",
};

// BDI-II: 21 items 0-3 (items 16 and 18 offer a/b forms of the same score), total 0-63; 0-13
// minimal, 14-19 mild, 20-28 moderate, 29-63 severe (Beck, Steer & Brown 1996, BDI-II manual, seen
// in secondary text). Item 9: suicidal thoughts or wishes.
const BDI2: InstrumentKnowledge = {
  id: "bdi2",
  display: "BDI-II",
  aliases: [
    "bdiii",
    "bdi2",
    "bdiiitotal",
    "bdi2total",
    "beckdepressioninventoryii",
    "beckdepressioninventory2",
    "beckdepressioninventorysecondedition",
    "beckdepressioninventory2ndedition",
  ],
  direction: "higher_is_worse",
  itemCount: 21,
  itemMin: 0,
  itemMax: 3,
  totalMin: 0,
  totalMax: 63,
  wholeNumberTotals: true,
  bands: [
    { key: "minimal", label: "minimal", min: 0, max: 13 },
    { key: "mild", label: "mild", min: 14, max: 19 },
    { key: "moderate", label: "moderate", min: 20, max: 28 },
    { key: "severe", label: "severe", min: 29, max: 63 },
  ],
  severeBandKey: "severe",
  casenessMin: null,
  reliableChangePoints: null,
  riskItems: [{ item: 9, label: "suicidal thoughts or wishes", screens: "suicide risk" }],
  itemScoring: "each item 0-3 (the a/b answers of items 16 and 18 score as their number)",
  source: "Beck, Steer & Brown 1996 (items, cut scores; secondary)",
};

// YMRS: 11 clinician-rated items; items 1-4, 7, 10 and 11 scored 0-4, items 5, 6, 8 and 9 (given
// double weight) scored 0-8; total 0-60 (Young, Biggs, Ziegler & Meyer 1978, Br J Psychiatry
// 133:429-435). No severity bands were sourced.
const YMRS_ZERO_TO_FOUR = [0, 1, 2, 3, 4] as const;
const YMRS: InstrumentKnowledge = {
  id: "ymrs",
  display: "YMRS",
  aliases: ["ymrs", "ymrstotal", "youngmaniaratingscale", "youngmaniascale"],
  direction: "higher_is_worse",
  itemCount: 11,
  itemMin: 0,
  itemMax: 8,
  allowedItemValues: {
    1: YMRS_ZERO_TO_FOUR,
    2: YMRS_ZERO_TO_FOUR,
    3: YMRS_ZERO_TO_FOUR,
    4: YMRS_ZERO_TO_FOUR,
    7: YMRS_ZERO_TO_FOUR,
    10: YMRS_ZERO_TO_FOUR,
    11: YMRS_ZERO_TO_FOUR,
  },
  totalMin: 0,
  totalMax: 60,
  wholeNumberTotals: true,
  bands: unbanded(0, 60),
  severeBandKey: null,
  casenessMin: null,
  reliableChangePoints: null,
  riskItems: [],
  clinicianRated: { source: "Young et al. 1978 (rated by the clinician at interview)" },
  itemScoring: "items 1-4, 7, 10 and 11 scored 0-4; items 5, 6, 8 and 9 scored 0-8 (double weight)",
  source: "Young et al. 1978 (items, weights); no severity bands sourced",
};

// ASRM: 5 self-report items 0-4, total 0-20; above 5 suggests mania or hypomania (sensitivity
// 85.5 %, specificity 87.3 %: Altman, Hedeker, Peterson & Davis 1997, Biol Psychiatry 42:948-955).
const ASRM_POSITIVE_MIN = 6;
const ASRM: InstrumentKnowledge = {
  id: "asrm",
  display: "ASRM",
  aliases: [
    "asrm",
    "asrmtotal",
    "altmanselfratingmaniascale",
    "altmanselfratingscaleformania",
    "altmanmaniascale",
  ],
  direction: "higher_is_worse",
  itemCount: 5,
  itemMin: 0,
  itemMax: 4,
  totalMin: 0,
  totalMax: 20,
  wholeNumberTotals: true,
  bands: [
    { key: "below_cut_off", label: "below the screening cut-off", min: 0, max: ASRM_POSITIVE_MIN - 1 },
    {
      key: "positive_screen",
      label: "possible mania or hypomania: assess",
      min: ASRM_POSITIVE_MIN,
      max: 20,
    },
  ],
  severeBandKey: null,
  casenessMin: null,
  reliableChangePoints: null,
  riskItems: [],
  itemScoring: "each item 0 (no change from usual) to 4 (the most marked change)",
  source: "Altman et al. 1997 (items, cut-off above 5)",
};

// K10: 10 items scored 1 (none of the time) to 5 (all of the time), total 10-50 (Kessler et al.
// 2002, Psychol Med 32:959-976). ABS groupings 10-15 low, 16-21 moderate, 22-29 high, 30-50 very
// high (Australian Bureau of Statistics 4817.0.55.001, drawing on Andrews & Slade 2001, Aust N Z
// J Public Health 25:494-497). The US 0-4 item scoring (total 0-40) is another metric: read it
// off this scale (its maxScore is 40).
const K10: InstrumentKnowledge = {
  id: "k10",
  display: "K10",
  aliases: [
    "k10",
    "k10total",
    "kessler10",
    "kesslerk10",
    "kesslerpsychologicaldistressscale",
    "kesslerpsychologicaldistressscale10",
    "kesslerpsychologicaldistressscalek10",
    "kessler10psychologicaldistressscale",
  ],
  direction: "higher_is_worse",
  itemCount: 10,
  itemMin: 1,
  itemMax: 5,
  totalMin: 10,
  totalMax: 50,
  wholeNumberTotals: true,
  bands: [
    { key: "low", label: "low distress", min: 10, max: 15 },
    { key: "moderate", label: "moderate distress", min: 16, max: 21 },
    { key: "high", label: "high distress", min: 22, max: 29 },
    { key: "very_high", label: "very high distress", min: 30, max: 50 },
  ],
  severeBandKey: "very_high",
  casenessMin: null,
  reliableChangePoints: null,
  riskItems: [],
  itemScoring: "each item 1 (none of the time) to 5 (all of the time); the lowest total is 10",
  source: "Kessler et al. 2002 (items); ABS 4817.0.55.001 after Andrews & Slade 2001 (groupings)",
};

// CORE-10: 10 items 0-4 (items 2 and 3, worded positively, reverse-keyed), total 0-40; clinical
// cut-off 11, reliable change 6 points (90 % CI) (Barkham et al. 2013, Couns Psychother Res 13:3-13).
// Item 6 (made plans to end one's life) is the risk item.
const CORE10_CLINICAL_MIN = 11;
const CORE10: InstrumentKnowledge = {
  id: "core10",
  display: "CORE-10",
  aliases: ["core10", "core10total", "clinicaloutcomesinroutineevaluation10"],
  direction: "higher_is_worse",
  itemCount: 10,
  itemMin: 0,
  itemMax: 4,
  totalMin: 0,
  totalMax: 40,
  wholeNumberTotals: true,
  bands: [
    {
      key: "below_clinical_cut_off",
      label: "below the clinical cut-off",
      min: 0,
      max: CORE10_CLINICAL_MIN - 1,
    },
    {
      key: "clinical_range",
      label: "in the clinical range (at or above the cut-off of 11)",
      min: CORE10_CLINICAL_MIN,
      max: 40,
    },
  ],
  severeBandKey: null,
  casenessMin: CORE10_CLINICAL_MIN,
  reliableChangePoints: 6,
  riskItems: [{ item: 6, label: "made plans to end one's life", screens: "suicide risk" }],
  itemScoring:
    "each item 0 (not at all) to 4 (most or all of the time), after reverse keying of items 2 and 3",
  source: "Barkham et al. 2013 (items, clinical cut-off 11, reliable change 6)",
};

// WEMWBS: 14 positively worded items 1-5, total 14-70; higher is better (Tennant et al. 2007,
// Health Qual Life Outcomes 5:63; Warwick Medical School scoring page). Bands: 40 or less probable
// depression, 41-44 possible depression, 45-59 average, 60 or more high (Warwick guidance as quoted
// in secondary summaries; Warwick also says the scale is not a screening instrument, so no band is
// read as severe). No reliable-change figure was sourced.
const WEMWBS: InstrumentKnowledge = {
  id: "wemwbs",
  display: "WEMWBS",
  aliases: [
    "wemwbs",
    "wemwbstotal",
    "wemwbs14",
    "warwickedinburghmentalwellbeingscale",
    "warwickedinburghmentalwellbeingscale14item",
  ],
  direction: "higher_is_better",
  itemCount: 14,
  itemMin: 1,
  itemMax: 5,
  totalMin: 14,
  totalMax: 70,
  wholeNumberTotals: true,
  bands: [
    {
      key: "probable_depression",
      label: "very low wellbeing (40 or less): probable depression, assess",
      min: 14,
      max: 40,
    },
    { key: "possible_depression", label: "low wellbeing (41-44): possible depression", min: 41, max: 44 },
    { key: "average", label: "average wellbeing", min: 45, max: 59 },
    { key: "high", label: "high wellbeing", min: 60, max: 70 },
  ],
  severeBandKey: null,
  casenessMin: null,
  reliableChangePoints: null,
  riskItems: [],
  itemScoring: "each item 1 (none of the time) to 5 (all of the time); the lowest total is 14",
  source: "Tennant et al. 2007 (items); Warwick Medical School (scoring; cut points via secondary summaries)",
};

// SWEMWBS: 7 WEMWBS items 1-5, raw total 7-35, higher is better (Stewart-Brown et al. 2009, Health
// Qual Life Outcomes 7:15). Warwick converts the raw total to a Rasch metric score with a table
// (same 7-35 range, same order); the table was not verified here, so the tool does not convert:
// the entry takes any total from 7 to 35, raw or converted (metric scores have decimals), with no
// bands and no reliable change, so only direction and range are read.
const SWEMWBS: InstrumentKnowledge = {
  id: "swemwbs",
  display: "SWEMWBS",
  aliases: [
    "swemwbs",
    "swemwbstotal",
    "shortwemwbs",
    "shortwarwickedinburghmentalwellbeingscale",
    "warwickedinburghmentalwellbeingscaleshort",
  ],
  direction: "higher_is_better",
  itemCount: 7,
  itemMin: 1,
  itemMax: 5,
  totalMin: 7,
  totalMax: 35,
  wholeNumberTotals: false,
  bands: unbanded(7, 35),
  severeBandKey: null,
  casenessMin: null,
  reliableChangePoints: null,
  riskItems: [],
  itemScoring: "each item 1-5; summed responses give the raw total (not converted to the Rasch metric score)",
  source: "Stewart-Brown et al. 2009 (items); Warwick Medical School (metric conversion, not applied)",
};

// Y-BOCS: 10 clinician-rated items 0-4 (five on obsessions, five on compulsions), total 0-40;
// 0-7 subclinical, 8-15 mild, 16-23 moderate, 24-31 severe, 32-40 extreme (Goodman et al. 1989,
// Arch Gen Psychiatry 46:1006-1011, ranges as restated by several secondary texts). The Y-BOCS-II
// (items 0-5, total 0-50) is another instrument and is not recognised.
const YBOCS: InstrumentKnowledge = {
  id: "ybocs",
  display: "Y-BOCS",
  aliases: ["ybocs", "ybocstotal", "yalebrownobsessivecompulsivescale", "yalebrownocdscale"],
  direction: "higher_is_worse",
  itemCount: 10,
  itemMin: 0,
  itemMax: 4,
  totalMin: 0,
  totalMax: 40,
  wholeNumberTotals: true,
  bands: [
    { key: "subclinical", label: "subclinical", min: 0, max: 7 },
    { key: "mild", label: "mild", min: 8, max: 15 },
    { key: "moderate", label: "moderate", min: 16, max: 23 },
    { key: "severe", label: "severe", min: 24, max: 31 },
    { key: "extreme", label: "extreme", min: 32, max: 40 },
  ],
  severeBandKey: "extreme",
  casenessMin: null,
  reliableChangePoints: null,
  riskItems: [],
  clinicianRated: { source: "Goodman et al. 1989 (clinician-rated, semi-structured interview)" },
  itemScoring: "each item 0 (none) to 4 (extreme); items 1-5 obsessions, 6-10 compulsions",
  source: "Goodman et al. 1989 (items, severity ranges as restated)",
};

// PANSS: 30 clinician-rated items 1 (absent) to 7 (extreme), total 30-210 (Kay, Fiszbein & Opler
// 1987, Schizophr Bull 13:261-276; rating points as in the published rating criteria). No
// severity bands were sourced. Short forms (PANSS-6, -8, -14) are other instruments.
const PANSS: InstrumentKnowledge = {
  id: "panss",
  display: "PANSS",
  aliases: ["panss", "panss30", "pansstotal", "positiveandnegativesyndromescale"],
  direction: "higher_is_worse",
  itemCount: 30,
  itemMin: 1,
  itemMax: 7,
  totalMin: 30,
  totalMax: 210,
  wholeNumberTotals: true,
  bands: unbanded(30, 210),
  severeBandKey: null,
  casenessMin: null,
  reliableChangePoints: null,
  riskItems: [],
  clinicianRated: { source: "Kay et al. 1987 (rated by the clinician after a clinical interview)" },
  itemScoring: "each item 1 (absent) to 7 (extreme); the lowest total is 30",
  source: "Kay et al. 1987 (items, 1-7 rating points); no severity bands sourced",
};

// MoCA: 30 points in seven sections (visuospatial/executive 5, naming 3, attention 6, language
// 3, abstraction 2, delayed recall 5, orientation 6); higher is better; 26 or more is normal
// (Nasreddine et al. 2005, J Am Geriatr Soc 53:695-699; section points as tabulated in
// PMC3770123). The form adds 1 point for 12 years of education or fewer (total capped at 30):
// a total sent with that point is within range; section responses are summed without it.
const MOCA_NORMAL_MIN = 26;
const MOCA: InstrumentKnowledge = {
  id: "moca",
  display: "MoCA",
  aliases: ["moca", "mocatotal", "montrealcognitiveassessment"],
  direction: "higher_is_better",
  itemCount: 7,
  itemMin: 0,
  itemMax: 6,
  allowedItemValues: {
    1: [0, 1, 2, 3, 4, 5],
    2: [0, 1, 2, 3],
    4: [0, 1, 2, 3],
    5: [0, 1, 2],
    6: [0, 1, 2, 3, 4, 5],
  },
  totalMin: 0,
  totalMax: 30,
  wholeNumberTotals: true,
  bands: [
    {
      key: "below_cut_off",
      label: "below the usual cut-off (26): possible cognitive impairment, assess",
      min: 0,
      max: MOCA_NORMAL_MIN - 1,
    },
    { key: "normal_range", label: "at or above the usual cut-off", min: MOCA_NORMAL_MIN, max: 30 },
  ],
  severeBandKey: null,
  casenessMin: null,
  reliableChangePoints: null,
  riskItems: [],
  itemsAreSections: true,
  itemScoring:
    "seven section scores in form order: visuospatial/executive 0-5, naming 0-3, attention 0-6, language 0-3, abstraction 0-2, delayed recall 0-5, orientation 0-6 (without the education point)",
  source: "Nasreddine et al. 2005 (sections, cut-off 26)",
};

// MMSE: 30 points (orientation 10, registration 3, attention and calculation 5, recall 3,
// language and praxis 9); higher is better; below 24 is the usual cut-off for possible cognitive
// impairment (Folstein, Folstein & McHugh 1975, J Psychiatr Res 12:189-198; section points and
// the cut-off as restated by secondary texts, which disagree on finer bands, so none is used).
const MMSE_CUT_OFF_MIN = 24;
const MMSE: InstrumentKnowledge = {
  id: "mmse",
  display: "MMSE",
  aliases: ["mmse", "mmsetotal", "minimentalstateexamination", "minimentalstateexam", "folsteinmmse"],
  direction: "higher_is_better",
  itemCount: 5,
  itemMin: 0,
  itemMax: 10,
  allowedItemValues: {
    2: [0, 1, 2, 3],
    3: [0, 1, 2, 3, 4, 5],
    4: [0, 1, 2, 3],
    5: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  },
  totalMin: 0,
  totalMax: 30,
  wholeNumberTotals: true,
  bands: [
    {
      key: "below_cut_off",
      label: "below the usual cut-off (24): possible cognitive impairment, assess",
      min: 0,
      max: MMSE_CUT_OFF_MIN - 1,
    },
    { key: "normal_range", label: "at or above the usual cut-off", min: MMSE_CUT_OFF_MIN, max: 30 },
  ],
  severeBandKey: null,
  casenessMin: null,
  reliableChangePoints: null,
  riskItems: [],
  itemsAreSections: true,
  itemScoring:
    "five section scores: orientation 0-10, registration 0-3, attention and calculation 0-5, recall 0-3, language and praxis 0-9",
  source: "Folstein et al. 1975 (items, 30 points; cut-off 24 as restated)",
};

/** The table: one entry per instrument, in catalog order. */
export const INSTRUMENTS: Readonly<Record<InstrumentId, InstrumentKnowledge>> = Object.freeze({
  phq9: PHQ9,
  gad7: GAD7,
  pcl5: PCL5,
  audit: AUDIT,
  who5: WHO5,
  epds: EPDS,
  phq8: PHQ8,
  phq2: PHQ2,
  gad2: GAD2,
  madrs: MADRS,
  hamd17: HAMD17,
  qidssr16: QIDSSR16,
  bdi2: BDI2,
  ymrs: YMRS,
  asrm: ASRM,
  k10: K10,
  core10: CORE10,
  wemwbs: WEMWBS,
  swemwbs: SWEMWBS,
  ybocs: YBOCS,
  panss: PANSS,
  moca: MOCA,
  mmse: MMSE,
});

export const INSTRUMENT_IDS: readonly InstrumentId[] = Object.keys(INSTRUMENTS) as InstrumentId[];

/** Lower-case letters and digits only: "PHQ-9", "phq_9" and "Phq 9" all become "phq9". */
export function normaliseInstrumentText(text: string): string {
  return text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

const BY_ALIAS: ReadonlyMap<string, InstrumentId> = new Map(
  INSTRUMENT_IDS.flatMap((id) => INSTRUMENTS[id].aliases.map((alias): [string, InstrumentId] => [alias, id])),
);

/**
 * Answers by text. A request repeats the same few instrument ids and names hundreds of times, and
 * the Unicode normalisation costs more than the rest of an assessment's reading; the answer
 * depends on the text alone, so it is kept (bounded: cleared when full).
 */
const recognised = new Map<string, InstrumentId | null>();
const RECOGNISED_MAX = 1_024;

function recogniseOne(text: string): InstrumentId | null {
  const known = recognised.get(text);
  if (known !== undefined) return known;
  const answer = BY_ALIAS.get(normaliseInstrumentText(text)) ?? null;
  if (recognised.size >= RECOGNISED_MAX) recognised.clear();
  recognised.set(text, answer);
  return answer;
}

/**
 * The instrument an assessment's `instrumentId` (tried first) or `instrumentName` means, else
 * null. Matching ignores case, spaces and punctuation and is exact after that, never a prefix:
 * "PHQ-9 item 9", "PCL-C", "AUDIT-C", "WHO-10", "HAM-A", "HAM-D 21", "MADRS-S", "BDI" and "K6" are
 * other instruments (not recognised), and "PHQ-8" is never read as the PHQ-9.
 */
export function recogniseInstrument(instrumentId: string, instrumentName: string): InstrumentId | null {
  return recogniseOne(instrumentId) ?? recogniseOne(instrumentName);
}

/** The direction of a recognised instrument; null (direction unknown) otherwise (decision 60). */
export function directionOf(id: InstrumentId | null): ScaleDirection | null {
  return id === null ? null : INSTRUMENTS[id].direction;
}

/**
 * The band of a total: the highest band whose lower cut-point it has reached. A total below the
 * lowest band reads as the lowest band and one above the maximum as the top band.
 */
export function bandOfTotal(id: InstrumentId, total: number): InstrumentBand {
  const bands = INSTRUMENTS[id].bands;
  let found = bands[0] as InstrumentBand;
  for (const band of bands) if (total >= band.min) found = band;
  return found;
}

/**
 * Whether a total is a valid administration of the published instrument (decision 63): within the
 * published total range, on the published maximum, and a whole number where items are.
 */
export function isPublishedTotal(id: InstrumentId, total: number, maxScore: number): boolean {
  const k = INSTRUMENTS[id];
  return (
    maxScore === k.totalMax &&
    total >= k.totalMin &&
    total <= k.totalMax &&
    (!k.wholeNumberTotals || Number.isInteger(total))
  );
}

/**
 * Percent of the scale of one administration, unclamped: on a recognised instrument whose range
 * starts above 0 (K10 10-50, WEMWBS 14-70, SWEMWBS 7-35, PANSS 30-210), given on its published
 * maximum, the share of the published range, (score - totalMin) / (totalMax - totalMin), so the
 * lowest possible total is 0 % and a change is read against the range the scale can move over;
 * otherwise (every scale from 0, another maxScore, an unknown instrument) score / maxScore. The
 * engines' percentage points, and the 15-point rule, are read on this.
 */
export function percentOfScale(id: InstrumentId | null, score: number, maxScore: number): number {
  const k = id === null ? null : INSTRUMENTS[id];
  if (k !== null && k.totalMin > 0 && maxScore === k.totalMax)
    return ((score - k.totalMin) / (k.totalMax - k.totalMin)) * 100;
  return (score / maxScore) * 100;
}

/**
 * How much worse `after` is than `before`, in the instrument's points: positive is worse on
 * either direction (a WHO-5 fall from 18 to 5 is +13).
 */
export function worseningOf(direction: ScaleDirection, before: number, after: number): number {
  return direction === "higher_is_worse" ? after - before : before - after;
}

/** Which of two totals is the better one (lower on higher-is-worse scales, higher otherwise). */
export function isBetter(direction: ScaleDirection, a: number, b: number): boolean {
  return direction === "higher_is_worse" ? a < b : a > b;
}

/** The highest score an item can take (its listed values, else itemMax). */
export function itemMaximumOf(id: InstrumentId, item: number): number {
  const k = INSTRUMENTS[id];
  const listed = k.allowedItemValues?.[item];
  return listed ? Math.max(...listed) : k.itemMax;
}

/** The lowest score an item can take (its listed values, else itemMin). */
function itemMinimumOf(id: InstrumentId, item: number): number {
  const k = INSTRUMENTS[id];
  const listed = k.allowedItemValues?.[item];
  return listed ? Math.min(...listed) : k.itemMin;
}

/** Groups of items that count as one score: the instrument's domains, else each item alone. */
function scoringGroups(id: InstrumentId): readonly (readonly number[])[] {
  const k = INSTRUMENTS[id];
  return k.domains ?? Array.from({ length: k.itemCount }, (_, i) => [i + 1]);
}

/**
 * The total of a complete set of item responses (1-based item i at index i - 1): the sum of the
 * items, or on a domain-scored instrument (QIDS-SR16) the sum of the highest item of each domain.
 */
export function totalOfResponses(id: InstrumentId, responses: readonly number[]): number {
  let total = 0;
  for (const group of scoringGroups(id)) total += Math.max(...group.map((item) => responses[item - 1] ?? 0));
  return total;
}

/** The lowest and highest totals the items can reach under the instrument's scoring. */
export function reachableTotalRange(id: InstrumentId): { min: number; max: number } {
  let min = 0;
  let max = 0;
  for (const group of scoringGroups(id)) {
    min += Math.max(...group.map((item) => itemMinimumOf(id, item)));
    max += Math.max(...group.map((item) => itemMaximumOf(id, item)));
  }
  return { min, max };
}

/**
 * The highest total the instrument can reach without any contribution from `item` (it at its
 * minimum): what a total beyond it says about that item. For a domain-scored instrument the item's
 * domain still counts through its other items.
 */
export function maximumTotalWithout(id: InstrumentId, item: number): number {
  let max = 0;
  for (const group of scoringGroups(id)) {
    const others = group.filter((other) => other !== item);
    const values = others.map((other) => itemMaximumOf(id, other));
    if (others.length < group.length) values.push(itemMinimumOf(id, item));
    max += Math.max(...values);
  }
  return max;
}

/**
 * What an administration of a recognised instrument is (decision 81): `published` (a valid total
 * on the published scale), `other_form` (the same instrument on another maximum, e.g. sent as
 * 0-100, read off-scale in percentage points: decision 63) or `invalid` (a total the form cannot
 * produce: on the published maximum, a fraction of a whole-number instrument or a total outside
 * the published range; on another maximum, a total below 0 or above that maximum).
 */
export type TotalValidity = "published" | "other_form" | "invalid";

export function totalValidity(id: InstrumentId, total: number, maxScore: number): TotalValidity {
  const k = INSTRUMENTS[id];
  if (maxScore !== k.totalMax) return total < 0 || total > maxScore ? "invalid" : "other_form";
  return isPublishedTotal(id, total, maxScore) ? "published" : "invalid";
}

/** Why a total is invalid for its instrument ("total 12.5 is not a whole number ..."), or null when it is not. */
export function invalidTotalReason(id: InstrumentId, total: number, maxScore: number): string | null {
  if (totalValidity(id, total, maxScore) !== "invalid") return null;
  const k = INSTRUMENTS[id];
  const t = String(Math.round(total * 1000) / 1000);
  if (maxScore !== k.totalMax) return `total ${t} is outside 0-${maxScore}, the range of its own maxScore`;
  if (total < k.totalMin || total > k.totalMax)
    return `total ${t} is outside the published ${k.display} range ${k.totalMin}-${k.totalMax}`;
  return `total ${t} is not a whole number (${k.display} items are scored in whole numbers)`;
}

/**
 * The nearest totals the form can produce either side of an invalid total (decision 81): clamped
 * into the range (0-maxScore on another form), and on a whole-number instrument at its published
 * maximum the whole numbers below and above a fraction. `worse` is the one nearer the scale's
 * worse end, `better` the other; both are the total itself for a valid administration.
 */
export function nearestFormTotals(
  id: InstrumentId,
  total: number,
  maxScore: number,
): { worse: number; better: number } {
  if (totalValidity(id, total, maxScore) !== "invalid") return { worse: total, better: total };
  const k = INSTRUMENTS[id];
  const published = maxScore === k.totalMax;
  const lo = published ? k.totalMin : 0;
  const clamped = Math.min(maxScore, Math.max(lo, total));
  const down = published && k.wholeNumberTotals ? Math.floor(clamped) : clamped;
  const up = published && k.wholeNumberTotals ? Math.ceil(clamped) : clamped;
  return k.direction === "higher_is_worse" ? { worse: up, better: down } : { worse: down, better: up };
}

/** The band of each instrument that always raises risk, and to what level (null: no such band). */
export const ALERT_BANDS: Readonly<Record<InstrumentId, { bandKey: string; level: AgentRiskLevel } | null>> =
  {
    // Top band of the main depression measure: prompt treatment review (expert-set, as the relapse
    // engine's floor for a severe latest score).
    phq9: { bandKey: "severe", level: "moderate" },
    gad7: { bandKey: "severe", level: "low" },
    // Positive provisional screen; needs a diagnostic interview (NCPTSD), not an acute risk.
    pcl5: { bandKey: "probable_ptsd", level: "low" },
    // Zone IV: specialist diagnostic evaluation for dependence (Babor et al. 2001); withdrawal risk.
    audit: { bandKey: "zone_4", level: "moderate" },
    who5: { bandKey: "likely_depression", level: "low" },
    epds: { bandKey: "probable_depression", level: "low" },
    // The top band of the depression severity measures: as the PHQ-9's.
    phq8: { bandKey: "severe", level: "moderate" },
    madrs: { bandKey: "severe", level: "moderate" },
    hamd17: { bandKey: "severe", level: "moderate" },
    qidssr16: { bandKey: "very_severe", level: "moderate" },
    bdi2: { bandKey: "severe", level: "moderate" },
    // Positive screens and clinical-range scores: assess further, not an acute risk.
    phq2: { bandKey: "positive_screen", level: "low" },
    gad2: { bandKey: "positive_screen", level: "low" },
    asrm: { bandKey: "positive_screen", level: "low" },
    core10: { bandKey: "clinical_range", level: "low" },
    k10: { bandKey: "very_high", level: "low" },
    wemwbs: { bandKey: "probable_depression", level: "low" },
    ybocs: { bandKey: "extreme", level: "low" },
    moca: { bandKey: "below_cut_off", level: "low" },
    mmse: { bandKey: "below_cut_off", level: "low" },
    // No sourced bands.
    ymrs: null,
    swemwbs: null,
    panss: null,
  };

/**
 * The evidence of each instrument's figures, as docs/engines/evidence.md ("Instruments") prints it
 * beside the figure (generated, decision 217): direction and maximum for every instrument, the
 * bands and caseness where the engines read them, and the reliable change exactly where
 * `reliableChangePoints` is set (a test keeps the two in step).
 */
export interface InstrumentEvidence {
  direction: Evidence;
  maxScore: Evidence;
  bands?: Evidence;
  casenessMin?: Evidence;
  reliableChangePoints?: Evidence;
}

export const INSTRUMENT_EVIDENCE: { readonly [K in InstrumentId]: InstrumentEvidence } = {
  phq9: {
    direction: {
      level: "published cut-off",
      source: "Kroenke et al. 2001: higher totals are more severe depression.",
    },
    maxScore: {
      level: "published cut-off",
      source: "Kroenke, Spitzer & Williams 2001, _J Gen Intern Med_ 16:606-613: 9 items scored 0-3.",
    },
    bands: {
      level: "published cut-off",
      source:
        "Kroenke et al. 2001: scores of 5, 10, 15 and 20 represent mild, moderate, moderately severe and severe depression.",
    },
    casenessMin: {
      level: "published cut-off",
      source:
        "Clark et al. 2018 (NHS Talking Therapies caseness); Kroenke et al. 2001: ≥ 10 had sensitivity and specificity of 88 %.",
    },
    reliableChangePoints: {
      level: "published cut-off",
      source: "Clark et al. 2018; NHS Talking Therapies manual (as quoted).",
    },
  },
  gad7: {
    direction: {
      level: "published cut-off",
      source: "Spitzer et al. 2006: higher totals are more severe anxiety.",
    },
    maxScore: {
      level: "published cut-off",
      source: "Spitzer, Kroenke, Williams & Löwe 2006, _Arch Intern Med_ 166:1092-1097: 7 items scored 0-3.",
    },
    bands: {
      level: "published cut-off",
      source: "Spitzer et al. 2006: cut-points 5, 10 and 15 for mild, moderate and severe anxiety.",
    },
    casenessMin: {
      level: "published cut-off",
      source: "Clark et al. 2018 (NHS Talking Therapies caseness for the GAD-7).",
    },
    reliableChangePoints: {
      level: "published cut-off",
      source: "Clark et al. 2018; NHS Talking Therapies manual (as quoted).",
    },
  },
  pcl5: {
    direction: {
      level: "published cut-off",
      source:
        "Blevins et al. 2015: items rate how much each symptom bothered the respondent (0 not at all ... 4 extremely).",
    },
    maxScore: { level: "published cut-off", source: "Blevins et al. 2015: 20 items scored 0-4." },
    reliableChangePoints: {
      level: "expert-set",
      source:
        "Top of the National Center for PTSD's 5-10 point range (published range, value chosen); Marx et al. 2022 (instruments.md).",
    },
  },
  audit: {
    direction: { level: "published cut-off", source: "Babor et al. 2001: zones I-IV rise with the total." },
    maxScore: {
      level: "published cut-off",
      source:
        "Babor et al. 2001: items 1-8 scored 0-4, items 9-10 scored 0, 2 or 4. No sourced reliable change: `UNKNOWN_SCALE_CHANGE_PP` applies (6 of 40 points).",
    },
  },
  who5: {
    direction: {
      level: "published cut-off",
      source:
        "Topp et al. 2015: 0 is the worst and 100 % the best possible wellbeing; the WHO-5 is the one instrument here that runs this way.",
    },
    maxScore: {
      level: "published cut-off",
      source: "WHO-5 scoring notes: 5 items scored 0-5; the raw total times 4 is the percentage score.",
    },
    reliableChangePoints: {
      level: "derived",
      source:
        "WHO-5 scoring notes: a 10 % difference is a significant change; 10 / 4 = 2.5 raw points (instruments.md).",
    },
  },
  epds: {
    direction: {
      level: "published cut-off",
      source:
        "Cox et al. 1987: scored so that 3 is the most symptomatic answer; higher totals are probable depression.",
    },
    maxScore: { level: "published cut-off", source: "Cox et al. 1987: 10 items scored 0-3." },
    reliableChangePoints: {
      level: "published cut-off",
      source: "Matthey 2004, _J Affect Disord_ 78:269-272: Jacobson-Truax reliable change of 4 points.",
    },
  },
  phq8: {
    direction: {
      level: "published cut-off",
      source:
        "Kroenke et al. 2009, _J Affect Disord_ 114:163-173: the PHQ-9 without item 9; higher totals are more severe depression.",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "Kroenke et al. 2009: 8 items scored 0-3; the PHQ-9 cut-points 5, 10, 15, 20 and a total of 10 or more as current depression (`casenessMin` 10). No reliable change sourced: `UNKNOWN_SCALE_CHANGE_PP` applies. It has no self-harm item: the tool says suicide risk was not screened (instruments.md).",
    },
  },
  phq2: {
    direction: {
      level: "published cut-off",
      source:
        "Kroenke, Spitzer & Williams 2003, _Med Care_ 41:1284-1292: PHQ-9 items 1-2 (interest, low mood).",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "Kroenke et al. 2003: 2 items scored 0-3; 3 or more is a positive screen (cut-point as quoted on reproductions of the form; Arroll et al. 2010, _Ann Fam Med_ 8(4):348 (full text), sensitivity 61 % and specificity 92 % at 3).",
    },
  },
  gad2: {
    direction: {
      level: "published cut-off",
      source:
        "Kroenke, Spitzer, Williams, Monahan & Löwe 2007, _Ann Intern Med_ 146:317-325: GAD-7 items 1-2.",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "Kroenke et al. 2007: 2 items scored 0-3; 3 or more is a positive screen (as quoted by secondary summaries).",
    },
  },
  madrs: {
    direction: {
      level: "published cut-off",
      source:
        "Montgomery & Åsberg 1979, _Br J Psychiatry_ 134:382-389: each item rates severity, 0 normal to 6 most severe.",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "Montgomery & Åsberg 1979: 10 items scored 0-6. Grades 0-6 / 7-19 / 20-34 / 35-60 (Snaith, Harrop, Newby & Teale 1986, _Br J Psychiatry_ 148:599-601, seen in secondary text); 35 for severe also in Müller et al. 2000, _J Affect Disord_ 60:137-140 (abstract). No reliable change sourced.",
    },
  },
  hamd17: {
    direction: {
      level: "published cut-off",
      source:
        "Hamilton 1960, _J Neurol Neurosurg Psychiatry_ 23:56-62: items rate symptom severity from 0 (absent).",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "Hamilton 1960 (17-item version): 9 items scored 0-4 and 8 items (4-6, 12-14, 16, 17) scored 0-2. Bands 0-7 / 8-16 / 17-23 / 24-52: Zimmerman et al. 2013, _J Affect Disord_ 150:384-388 (abstract: 17 and 24 as the optimal mild / moderate / severe cut-offs). No reliable change sourced.",
    },
  },
  qidssr16: {
    direction: {
      level: "published cut-off",
      source: "Rush et al. 2003, _Biol Psychiatry_ 54:573-583: items scored 0-3 with 3 the most symptomatic.",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "Rush et al. 2003: 16 items scored as 9 symptom domains (the highest of the sleep, appetite/weight and psychomotor items each counts once), 9 × 3 = 27; bands 0-5 / 6-10 / 11-15 / 16-20 / 21-27 (ids-qids.org interpretation table). No reliable change sourced.",
    },
  },
  bdi2: {
    direction: {
      level: "published cut-off",
      source: "Beck, Steer & Brown 1996, BDI-II manual: items scored 0-3 with 3 the most severe.",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "Beck et al. 1996: 21 items scored 0-3; cut scores 0-13 minimal, 14-19 mild, 20-28 moderate, 29-63 severe (the manual seen only through several secondary texts). No reliable change sourced.",
    },
  },
  ymrs: {
    direction: {
      level: "published cut-off",
      source:
        "Young, Biggs, Ziegler & Meyer 1978, _Br J Psychiatry_ 133:429-435: items rate the severity of manic symptoms.",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "Young et al. 1978: 7 items scored 0-4 and 4 items (5, 6, 8, 9) scored 0-8, double weight (as described by secondary summaries). No severity bands or reliable change sourced.",
    },
  },
  asrm: {
    direction: {
      level: "published cut-off",
      source:
        "Altman, Hedeker, Peterson & Davis 1997, _Biol Psychiatry_ 42:948-955: 0 is no change from usual, 4 the most marked manic change.",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "Altman et al. 1997 (abstract): a score above 5 gave sensitivity 85.5 % and specificity 87.3 % for mania; 5 items scored 0-4.",
    },
  },
  k10: {
    direction: {
      level: "published cut-off",
      source: "Kessler et al. 2002, _Psychol Med_ 32:959-976: items rate how often distress was felt.",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "10 items scored 1-5, total 10-50 (`totalMin` 10); groupings 10-15 low, 16-21 moderate, 22-29 high, 30-50 very high (Australian Bureau of Statistics 4817.0.55.001, after Andrews & Slade 2001, _Aust N Z J Public Health_ 25:494-497). The US 0-4 scoring (0-40) is read off this scale.",
    },
  },
  core10: {
    direction: {
      level: "published cut-off",
      source:
        "Barkham et al. 2013, _Couns Psychother Res_ 13:3-13: higher totals are more psychological distress.",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "Barkham et al. 2013: 10 items scored 0-4 (two reverse-keyed); clinical cut-off 11 (`casenessMin`).",
    },
    reliableChangePoints: {
      level: "published cut-off",
      source: "Barkham et al. 2013 (abstract): reliable change index (90 % CI) of 6 points.",
    },
  },
  wemwbs: {
    direction: {
      level: "published cut-off",
      source:
        "Tennant et al. 2007, _Health Qual Life Outcomes_ 5:63: 14 positively worded items; higher totals are better mental wellbeing.",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "Warwick Medical School scoring page: items 1-5, total 14-70 (`totalMin` 14). Bands 40 or less probable depression, 41-44 possible, 45-59 average, 60 or more high: Warwick guidance seen only in secondary summaries; Warwick says the scale is not a screening instrument, so no band is read as severe. No reliable change sourced.",
    },
  },
  swemwbs: {
    direction: {
      level: "published cut-off",
      source:
        "Stewart-Brown et al. 2009, _Health Qual Life Outcomes_ 7:15: 7 WEMWBS items; higher is better.",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "Items 1-5, raw total 7-35 (`totalMin` 7); Warwick converts it to a Rasch metric score over the same range with a table (Warwick scoring page), not verified here, so not applied: the table takes a total from 7 to 35, raw or metric, with no bands and no reliable change.",
    },
  },
  ybocs: {
    direction: {
      level: "published cut-off",
      source:
        "Goodman et al. 1989, _Arch Gen Psychiatry_ 46:1006-1011: items rate OCD severity from 0 (none) to 4 (extreme).",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "Goodman et al. 1989: 10 items scored 0-4; ranges 0-7 / 8-15 / 16-23 / 24-31 / 32-40 as restated identically by several secondary texts. The Y-BOCS-II (0-50) is not recognised.",
    },
  },
  panss: {
    direction: {
      level: "published cut-off",
      source:
        "Kay, Fiszbein & Opler 1987, _Schizophr Bull_ 13:261-276: each item 1 (absent) to 7 (extreme) (published rating criteria).",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "30 items scored 1-7, total 30-210 (`totalMin` 30). No severity bands or reliable change sourced.",
    },
  },
  moca: {
    direction: {
      level: "published cut-off",
      source:
        "Nasreddine et al. 2005, _J Am Geriatr Soc_ 53:695-699: points for correct performance; lower is more cognitive impairment.",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "Nasreddine et al. 2005: seven sections, 30 points (section points as tabulated in PMC3770123); 26 or more normal. A caller's total may include the education point.",
    },
  },
  mmse: {
    direction: {
      level: "published cut-off",
      source:
        "Folstein, Folstein & McHugh 1975, _J Psychiatr Res_ 12:189-198: one point per correct response; lower is more cognitive impairment.",
    },
    maxScore: {
      level: "published cut-off",
      source:
        "Folstein et al. 1975: 30 points (orientation 10, registration 3, attention and calculation 5, recall 3, language and praxis 9, as restated); below 24 the usual cut-off (secondary texts disagree on finer bands, none used).",
    },
  },
};

/** The rules every instrument shares, as docs/engines/evidence.md names them. */
export type InstrumentRule =
  | "UNKNOWN_SCALE_CHANGE_PP"
  | "wholeNumberTotals"
  | "severeBandKey"
  | "UNREAD_SCALE_CONFIDENCE_CAP"
  | "UNREAD_SCALE_CONFIDENCE_SCORE_CAP"
  | "bestPointDeterioration"
  | "callerSeverity"
  | "totalMin"
  | "riskItems"
  | "riskNotScreened";

/**
 * The evidence of the rules every instrument shares (the values are read from the table and the
 * engines' constants when the page is generated).
 */
export const INSTRUMENT_RULE_EVIDENCE: { readonly [K in InstrumentRule]: Evidence } = {
  UNKNOWN_SCALE_CHANGE_PP: {
    level: "expert-set",
    source:
      "A recognised scale read off its published scale (another maxScore: decision 63) or without a sourced reliable change (AUDIT): a change of 15 percentage points of the maximum toward the worse (better) end counts as deterioration (improvement). It is below both known scales' reliable change as a share of the maximum (PHQ-9 6/27 = 22 %, GAD-7 4/21 = 19 %), so such a reading is never held to a stricter standard. A scale whose direction is not known is not read for change at all (decision 60).",
  },
  wholeNumberTotals: {
    level: "published cut-off",
    source:
      "Every item of every instrument is scored in whole numbers (the sources above and in instruments.md), so a total that is not a whole number is not a valid administration: the agent tool refuses it (decision 63) and the engines do not evaluate it as improvement, reading it only for a deterioration or severe score at the nearest whole total toward the worse end (decision 81). The SWEMWBS also takes its Rasch metric score, which has decimals (Warwick Medical School scoring page), so its totals may be fractional.",
  },
  severeBandKey: {
    level: "published cut-off",
    source:
      'The top published severity band of each severity measure (Kroenke 2001; Spitzer 2006; Kroenke 2009; Snaith 1986; Zimmerman 2013; Beck 1996; Rush 2003; ABS after Andrews & Slade 2001; Goodman 1989). Screens (PCL-5, AUDIT, WHO-5, EPDS, PHQ-2, GAD-2, ASRM, CORE-10, WEMWBS, MoCA, MMSE) publish cut-offs, which the engines do not read as a severe score; YMRS, SWEMWBS and PANSS bands were not sourced. Which band is read as severe is ours (expert-set): the QIDS-SR16 top band "very severe" (21-27), not "severe" (16-20), the K10 "very high distress" (30-50) and the Y-BOCS "extreme" (32-40).',
  },
  UNREAD_SCALE_CONFIDENCE_CAP: {
    level: "expert-set",
    source:
      "Decision 60: a reading beside which a scale of unknown direction was given on two or more dates (its change could not be read), or (decision 81) with an administration whose total is invalid, is at most moderate; alone, such a scale leaves no symptom anchor and confidence is low.",
  },
  UNREAD_SCALE_CONFIDENCE_SCORE_CAP: {
    level: "expert-set",
    source: "Below every engine's high cut-off (0.75), above the moderate cut-off (0.45).",
  },
  bestPointDeterioration: {
    level: "expert-set",
    source:
      "Decision 61: a reliable deterioration is also measured from the best (lowest burden) earlier score, with the same reliable-change threshold, so a rise since remission is not hidden by a fall from the first score. The threshold is the published one; comparing with the best point is our rule.",
  },
  callerSeverity: {
    level: "expert-set",
    source:
      'A caller\'s `severity` naming the top band marks the score severe, so a scale we do not know is never hidden. "Moderately severe" does not.',
  },
  totalMin: {
    level: "published cut-off",
    source:
      "The lowest total the items allow (items scored from 1). Tools and `isPublishedTotal` check it, and the engines read percent of the scale on the published range (`percentOfScale`: (score - totalMin) / (totalMax - totalMin) on the published maximum), so the lowest total is 0 % and the 15-point rule needs 15 % of the range (K10 6, WEMWBS 8.4, SWEMWBS 4.2, PANSS 27 points). On every scale from 0, another maximum or an unknown instrument it is score / maxScore, as before.",
  },
  riskItems: {
    level: "published cut-off",
    source:
      "The item that asks about suicide or self-harm (item content: MADRS 10 and HAM-D 3 in published comparison tables of suicide items, PMC4350518 / PMC3025994; QIDS-SR16 12, IOM 2010 workshop box after Rush; BDI-II 9, secondary; CORE-10 6, Barkham et al. 2013 as quoted). Any answer above 0 raises the tool's risk whatever the total, as PHQ-9 item 9 (levels expert-set, instruments.md).",
  },
  riskNotScreened: {
    level: "expert-set",
    source:
      "The PHQ-8 and PHQ-2 leave out the PHQ-9's self-harm item; a score on them never reads as suicide risk screened (not evaluated, risk low, with a warning; decision 80's shared rule), as a PHQ-9 given as a total only.",
  },
};
