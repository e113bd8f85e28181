/**
 * The two symptom scales whose published psychometrics the engines know (PHQ-9, GAD-7): how to
 * recognise them, their severity bands, and the service definitions of reliable improvement,
 * reliable deterioration and recovery. Pure functions; every number is sourced in
 * docs/engines/evidence.md ("Instruments").
 */

export type KnownInstrument = "phq9" | "gad7";

export type SeverityKey = "minimal" | "mild" | "moderate" | "moderately_severe" | "severe";

/** One published severity band: scores from `min` up to and including `max`. */
export interface SeverityBand {
  key: SeverityKey;
  label: string;
  min: number;
  max: number;
}

/** Published properties of a recognised instrument. */
export interface InstrumentProfile {
  key: KnownInstrument;
  display: string;
  /** Highest possible total score of the published instrument. */
  maxScore: number;
  /** Severity bands, lowest first; they cover 0..maxScore without gaps. */
  bands: readonly SeverityBand[];
  /** Lowest total that counts as a clinical case ("caseness"). */
  casenessMin: number;
  /** Smallest change in points, either way, that counts as reliable. */
  reliableChangePoints: number;
  /** Where the bands, caseness and reliable-change figures come from (short citation). */
  source: string;
}

const band = (key: SeverityKey, label: string, min: number, max: number): SeverityBand => ({
  key,
  label,
  min,
  max,
});

export const INSTRUMENT_PROFILES: Readonly<Record<KnownInstrument, InstrumentProfile>> = {
  phq9: {
    key: "phq9",
    display: "PHQ-9",
    // Kroenke, Spitzer & Williams 2001 (J Gen Intern Med 16:606-613): 9 items scored 0-3, total
    // 0-27; cut-points 5, 10, 15 and 20 for mild, moderate, moderately severe and severe.
    maxScore: 27,
    bands: [
      band("minimal", "minimal", 0, 4),
      band("mild", "mild", 5, 9),
      band("moderate", "moderate", 10, 14),
      band("moderately_severe", "moderately severe", 15, 19),
      band("severe", "severe", 20, 27),
    ],
    // NHS Talking Therapies (formerly IAPT) outcome definitions (Clark et al. 2018, Lancet
    // 391:679-686; the programme's manual): caseness PHQ-9 >= 10; reliable change >= 6 points.
    casenessMin: 10,
    reliableChangePoints: 6,
    source:
      "Kroenke et al. 2001 (bands); NHS Talking Therapies / Clark et al. 2018 (caseness, reliable change)",
  },
  gad7: {
    key: "gad7",
    display: "GAD-7",
    // Spitzer, Kroenke, Williams & Löwe 2006 (Arch Intern Med 166:1092-1097): 7 items 0-3, total
    // 0-21; cut-points 5, 10 and 15 for mild, moderate and severe anxiety.
    maxScore: 21,
    bands: [
      band("minimal", "minimal", 0, 4),
      band("mild", "mild", 5, 9),
      band("moderate", "moderate", 10, 14),
      band("severe", "severe", 15, 21),
    ],
    // NHS Talking Therapies: caseness GAD-7 >= 8; reliable change >= 4 points.
    casenessMin: 8,
    reliableChangePoints: 4,
    source:
      "Spitzer et al. 2006 (bands); NHS Talking Therapies / Clark et al. 2018 (caseness, reliable change)",
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

function recogniseUncached(text: string): KnownInstrument | null {
  const key = normaliseInstrumentText(text);
  if (PHQ9_NAMES.has(key)) return "phq9";
  if (GAD7_NAMES.has(key)) return "gad7";
  return null;
}

/**
 * Answers by text. A request repeats the same few instrument ids and names hundreds of times, and
 * the Unicode normalisation costs more than the rest of an assessment's reading; the answer
 * depends on the text alone, so it is kept (bounded: cleared when full).
 */
const recognised = new Map<string, KnownInstrument | null>();
const RECOGNISED_MAX = 1_024;

function recogniseOne(text: string): KnownInstrument | null {
  const known = recognised.get(text);
  if (known !== undefined) return known;
  const answer = recogniseUncached(text);
  if (recognised.size >= RECOGNISED_MAX) recognised.clear();
  recognised.set(text, answer);
  return answer;
}

/**
 * PHQ-9 or GAD-7 from an assessment's `instrumentId` (tried first) or `instrumentName`, else null.
 * Matching ignores case, spaces and punctuation, and is exact after that: "PHQ-2", "PHQ-9 item 9"
 * and "PHQ-8" are not the PHQ-9.
 */
export function recogniseInstrument(instrumentId: string, instrumentName: string): KnownInstrument | null {
  return recogniseOne(instrumentId) ?? recogniseOne(instrumentName);
}

/**
 * The published severity band of a total score. A score above the instrument's maximum reads as
 * the top band and a negative one as the bottom band (the contract bounds allow both); a
 * fractional score (for example prorated) falls in the band whose lower cut-point it has reached.
 */
export function severityBand(instrument: KnownInstrument, score: number): SeverityBand {
  const bands = INSTRUMENT_PROFILES[instrument].bands;
  let found = bands[0] as SeverityBand;
  for (const b of bands) if (score >= b.min) found = b;
  return found;
}

export type ScaleChangeCategory = "reliable_improvement" | "reliable_deterioration" | "no_reliable_change";

/** Two administrations of one recognised instrument compared by the service definitions. */
export interface ScaleChange {
  before: number;
  after: number;
  /** after - before, in points (higher is worse on both scales). */
  change: number;
  /** The instrument's reliable-change threshold in points. */
  threshold: number;
  category: ScaleChangeCategory;
  /** Case at the first administration and not a case at the second. */
  recovery: boolean;
  /** Recovery together with a reliable improvement. */
  reliableRecovery: boolean;
}

/**
 * Reliable improvement / deterioration: a fall / rise of at least the instrument's reliable-change
 * points (PHQ-9 6, GAD-7 4; a calibrated `threshold` may replace them). Recovery: from at or above caseness to below it. Reliable recovery:
 * both. The definitions of NHS Talking Therapies (Clark et al. 2018); see evidence.md for why they
 * are used instead of a Jacobson-Truax index with population SDs.
 */
export function classifyScaleChange(
  instrument: KnownInstrument,
  before: number,
  after: number,
  threshold: number = INSTRUMENT_PROFILES[instrument].reliableChangePoints,
): ScaleChange {
  const profile = INSTRUMENT_PROFILES[instrument];
  const change = after - before;
  const category: ScaleChangeCategory =
    change <= -threshold
      ? "reliable_improvement"
      : change >= threshold
        ? "reliable_deterioration"
        : "no_reliable_change";
  const recovery = before >= profile.casenessMin && after < profile.casenessMin;
  return {
    before,
    after,
    change,
    threshold,
    category,
    recovery,
    reliableRecovery: recovery && category === "reliable_improvement",
  };
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
 * Jacobson & Truax 1991 (J Consult Clin Psychol 59:12-19) for a caller who has a scale's SD and
 * reliability from its own sample: SE = SD * sqrt(1 - r); S_diff = sqrt(2 * SE^2);
 * RCI = (x2 - x1) / S_diff; |RCI| > z (1.96 for p < .05) is reliable. The engines do not use it
 * for the PHQ-9 and GAD-7 (see classifyScaleChange). Returns null when the inputs cannot give an
 * index (SD <= 0, r outside [0, 1), non-finite).
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
