/**
 * The engines' reading of the instrument table (knowledge/instruments.ts): severity bands and the
 * service definitions of reliable improvement, reliable deterioration and recovery, read in the
 * direction of each scale. Pure functions; every number is sourced in docs/engines/evidence.md
 * ("Instruments").
 */

import {
  bandOfTotal,
  INSTRUMENTS,
  type InstrumentBand,
  type InstrumentId,
  type ScaleDirection,
  worseningOf,
} from "./knowledge/instruments.js";

export {
  directionOf,
  INSTRUMENT_IDS,
  INSTRUMENTS,
  type InstrumentBand,
  type InstrumentId,
  type InstrumentKnowledge,
  type InstrumentRiskItem,
  invalidTotalReason,
  isPublishedTotal,
  nearestFormTotals,
  normaliseInstrumentText,
  recogniseInstrument,
  type ScaleDirection,
  type TotalValidity,
  totalValidity,
  worseningOf,
} from "./knowledge/instruments.js";

/** Every instrument the engines recognise (the knowledge table's ids). */
export type KnownInstrument = InstrumentId;

/** The PHQ-9 / GAD-7 band keys (other instruments have their own keys, see the knowledge table). */
export type SeverityKey = "minimal" | "mild" | "moderate" | "moderately_severe" | "severe";

/** One published band: scores from `min` up to and including `max`. */
export type SeverityBand = InstrumentBand;

/** The two instruments with sourced caseness cut-offs (NHS Talking Therapies). */
export type CasenessInstrument = "phq9" | "gad7";

/** Published properties of the PHQ-9 and GAD-7, read from the knowledge table. */
export interface InstrumentProfile {
  key: CasenessInstrument;
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

function profileOf(key: CasenessInstrument): InstrumentProfile {
  const k = INSTRUMENTS[key];
  return {
    key,
    display: k.display,
    maxScore: k.totalMax,
    bands: k.bands,
    casenessMin: k.casenessMin as number,
    reliableChangePoints: k.reliableChangePoints as number,
    source: k.source,
  };
}

/** PHQ-9 and GAD-7 as profiles (a view of the knowledge table, kept for existing readers). */
export const INSTRUMENT_PROFILES: Readonly<Record<CasenessInstrument, InstrumentProfile>> = {
  phq9: profileOf("phq9"),
  gad7: profileOf("gad7"),
};

/**
 * The published band of a total score. A score above the instrument's maximum reads as the top
 * band and a negative one as the bottom band; a fractional score falls in the band whose lower
 * cut-point it has reached (the engines do not band fractional totals: decision 63).
 */
export function severityBand(instrument: KnownInstrument, score: number): SeverityBand {
  return bandOfTotal(instrument, score);
}

export type ScaleChangeCategory = "reliable_improvement" | "reliable_deterioration" | "no_reliable_change";

/** Two administrations of one recognised instrument compared by the service definitions. */
export interface ScaleChange {
  before: number;
  after: number;
  /** after - before, in points (raw; a rise is worse only on higher-is-worse scales). */
  change: number;
  /** How much worse `after` is than `before`, in points: positive is worse on either direction. */
  worsening: number;
  direction: ScaleDirection;
  /** The reliable-change threshold in points (Infinity when the instrument has none sourced). */
  threshold: number;
  category: ScaleChangeCategory;
  /** Case at the first administration and not a case at the second (instruments with caseness). */
  recovery: boolean;
  /** Recovery together with a reliable improvement. */
  reliableRecovery: boolean;
}

/**
 * Reliable improvement / deterioration: a change of at least the instrument's reliable-change
 * points in the better / worse direction of the scale (PHQ-9 6, GAD-7 4, WHO-5 2.5, ...; a
 * calibrated `threshold` may replace them). An instrument without a sourced threshold never shows
 * a reliable change here. Recovery: from at or above caseness to below it. Reliable recovery:
 * both. The definitions of NHS Talking Therapies (Clark et al. 2018); see evidence.md for why they
 * are used instead of a Jacobson-Truax index with population SDs.
 */
export function classifyScaleChange(
  instrument: KnownInstrument,
  before: number,
  after: number,
  threshold: number = INSTRUMENTS[instrument].reliableChangePoints ?? Number.POSITIVE_INFINITY,
): ScaleChange {
  const k = INSTRUMENTS[instrument];
  const change = after - before;
  const worsening = worseningOf(k.direction, before, after);
  const category: ScaleChangeCategory =
    worsening <= -threshold
      ? "reliable_improvement"
      : worsening >= threshold
        ? "reliable_deterioration"
        : "no_reliable_change";
  const caseness = k.direction === "higher_is_worse" ? k.casenessMin : null;
  const recovery = caseness !== null && before >= caseness && after < caseness;
  return {
    before,
    after,
    change,
    worsening,
    direction: k.direction,
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
