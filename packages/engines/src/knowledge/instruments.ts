/**
 * Every symptom and wellbeing instrument the service knows, written once: how to recognise it,
 * which way its scores run, its items and totals, bands, caseness, reliable change, risk items,
 * LOINC (verified codes only) and sources. The engines (symptom findings, outcome, relapse,
 * medication), the agent tools (instrument catalog, scoreInstruments) and the terminology codes of
 * the intelligence block all read this table. Sources and evidence levels:
 * docs/engines/instruments.md and docs/engines/evidence.md ("Instruments").
 */

export type InstrumentId = "phq9" | "gad7" | "pcl5" | "audit" | "who5" | "epds";

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
  /** How item answers must already be scored (reverse keying, etc.). */
  itemScoring: string;
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
      source: "loinc.org (cdn.loinc.org/44261-6 'Member of these Panels')",
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
      source: "loinc.org/69729-2 (PHQ-SADS panel hierarchy)",
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

/** The table: one entry per instrument, in catalog order. */
export const INSTRUMENTS: Readonly<Record<InstrumentId, InstrumentKnowledge>> = Object.freeze({
  phq9: PHQ9,
  gad7: GAD7,
  pcl5: PCL5,
  audit: AUDIT,
  who5: WHO5,
  epds: EPDS,
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
 * null. Matching ignores case, spaces and punctuation and is exact after that: "PHQ-2", "PHQ-8",
 * "PHQ-9 item 9", "PCL-C", "AUDIT-C" and "WHO-10" are other instruments.
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
