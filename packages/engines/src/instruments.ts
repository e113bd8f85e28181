/**
 * Recognition of the two symptom scales whose psychometrics the engines know (PHQ-9, GAD-7) and
 * the Jacobson & Truax (1991) reliable change index. Pure functions; sources in
 * docs/engines/medication.md ("Reliable change").
 */

export type KnownInstrument = "phq9" | "gad7";

/** Published properties of a recognised instrument. */
export interface InstrumentProfile {
  key: KnownInstrument;
  display: string;
  /** Highest possible total score of the published instrument. */
  maxScore: number;
  /** Default SD of the total score used for the RCI (normative sample; see the doc). */
  sd: number;
  /** Default test-retest reliability used for the RCI. */
  reliability: number;
}

export const INSTRUMENT_PROFILES: Readonly<Record<KnownInstrument, InstrumentProfile>> = {
  phq9: {
    key: "phq9",
    display: "PHQ-9",
    // Kroenke, Spitzer & Williams 2001 (J Gen Intern Med 16:606-613): 9 items scored 0-3, total 0-27.
    maxScore: 27,
    // Kocalevent, Hinz & Brähler 2013 (Gen Hosp Psychiatry 35:551-555), German general-population
    // norms: mean (SD) women 3.1 (3.5), men 2.7 (3.5).
    sd: 3.5,
    // Kroenke et al. 2001: 48-hour retest (clinic self-report vs telephone interview) r = 0.84.
    reliability: 0.84,
  },
  gad7: {
    key: "gad7",
    display: "GAD-7",
    // Spitzer, Kroenke, Williams & Löwe 2006 (Arch Intern Med 166:1092-1097): 7 items 0-3, total 0-21.
    maxScore: 21,
    // Löwe et al. 2008 (Med Care 46:266-274), German general-population norms: mean (SD) women
    // 3.2 (3.5), men 2.7 (3.2); the larger SD is used (wider, more conservative threshold).
    sd: 3.5,
    // Spitzer et al. 2006: test-retest intraclass correlation 0.83.
    reliability: 0.83,
  },
};

/** Lower-case letters and digits only: "PHQ-9", "phq_9" and "Phq 9" all become "phq9". */
export function normaliseInstrumentText(text: string): string {
  return text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

const PHQ9_NAMES = new Set([
  "phq9",
  "patienthealthquestionnaire9",
  "patienthealthquestionnaire9item",
  "phq9total",
]);
const GAD7_NAMES = new Set([
  "gad7",
  "generalizedanxietydisorder7",
  "generalisedanxietydisorder7",
  "generalizedanxietydisorder7item",
  "generalisedanxietydisorder7item",
  "generalizedanxietydisorderscale7",
  "generalisedanxietydisorderscale7",
  "gad7total",
]);

function recogniseOne(text: string): KnownInstrument | null {
  const key = normaliseInstrumentText(text);
  if (PHQ9_NAMES.has(key)) return "phq9";
  if (GAD7_NAMES.has(key)) return "gad7";
  return null;
}

/**
 * PHQ-9 or GAD-7 from an assessment's `instrumentId` (tried first) or `instrumentName`, else null.
 * Matching ignores case, spaces and punctuation, and is exact after that: "PHQ-2", "PHQ-9 item 9"
 * and "PHQ-8" are not the PHQ-9.
 */
export function recogniseInstrument(instrumentId: string, instrumentName: string): KnownInstrument | null {
  return recogniseOne(instrumentId) ?? recogniseOne(instrumentName);
}

/** Outcome of a Jacobson-Truax comparison of two scores of the same instrument. */
export interface ReliableChange {
  /** after - before, in score points. */
  change: number;
  /** Standard error of the difference, sqrt(2) * SD * sqrt(1 - r). */
  sDiff: number;
  /** change / sDiff. */
  rci: number;
  /** Smallest |change| that is reliable at the given z: z * sDiff. */
  threshold: number;
  reliable: boolean;
  /** On a symptom scale (higher is worse): a reliable fall is improvement. */
  direction: "improved" | "deteriorated" | "no_reliable_change";
}

/**
 * Jacobson & Truax 1991 (J Consult Clin Psychol 59:12-19): SE = SD * sqrt(1 - r);
 * S_diff = sqrt(2 * SE^2); RCI = (x2 - x1) / S_diff; |RCI| > z (1.96 for p < .05) is reliable.
 * Returns null when the inputs cannot give an index (SD <= 0, r outside [0, 1), non-finite).
 */
export function reliableChange(
  before: number,
  after: number,
  sd: number,
  reliability: number,
  z = 1.96,
): ReliableChange | null {
  if (![before, after, sd, reliability, z].every(Number.isFinite)) return null;
  if (sd <= 0 || reliability < 0 || reliability >= 1 || z <= 0) return null;
  const standardError = sd * Math.sqrt(1 - reliability);
  const sDiff = Math.sqrt(2 * standardError * standardError);
  const change = after - before;
  const rci = change / sDiff;
  const reliable = Math.abs(rci) > z;
  return {
    change,
    sDiff,
    rci,
    threshold: z * sDiff,
    reliable,
    direction: !reliable ? "no_reliable_change" : change < 0 ? "improved" : "deteriorated",
  };
}
