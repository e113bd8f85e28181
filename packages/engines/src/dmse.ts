/**
 * Digital mental-status-exam signals (POST /v1/dmse/analyze). Up to four numbers measured on the
 * caller's device (response latency, psychomotor fidget episodes, speech rate, share of the
 * session with gaze on screen) are each compared with an operational threshold and read as
 * within_normal, subclinical or clinical_attention; an optional per-signal history gives a
 * baseline and a trend direction. Each signal gets one MSE-style line that states the device
 * measurement against the threshold used here, never a clinician-observed finding, a causal
 * reading or "normal" (docs/engines/dmse.md, Wording). Pure and deterministic: the clock comes
 * from `options.now`. Method, constants and sources: docs/engines/dmse.md.
 *
 * Decisions this module follows (docs/decisions.md): 40, input lengths and body size; 41, trend and
 * change vocabularies; 44, model versions; 73, physically implausible dmse values are a
 * capture-quality finding; 181, every dmse metric has a physical bound, in one table.
 */
import { assertNoProblems, engineParams, mergeNumericParams, negativeProblems } from "./params.js";
import { clamp, confidenceLevel, fmt, isFiniteNumber, mean, round, sampleSd } from "./shared.js";
import type { ConfidenceLevel, EngineFacts, EngineInput, EngineOptions, EngineRun } from "./types.js";

export type DmseSignalKey = "response_latency" | "psychomotor" | "speech_rate" | "sustained_attention";
export type DmseInterpretation = "within_normal" | "subclinical" | "clinical_attention";
export type DmseTrendDir = "up" | "down" | "stable";
/** `summary.status`: the worst signal interpretation, or insufficient_data when no metric was sent. */
export type DmseSummaryStatus = DmseInterpretation | "insufficient_data";

export interface DmseInput {
  psychomotorFidgetEpisodes?: number;
  responseLatencySeconds?: number;
  speechRateWpm?: number;
  /** Share of the session with gaze on screen, 0-100. */
  sustainedAttentionPct?: number;
  /** 0-14400; longer sessions raise confidence and normalise fidget episodes. */
  sessionDurationSeconds?: number;
  /** Prior values per signal, each array up to 100 numbers, in the signal's metric unit. */
  history?: Partial<Record<DmseSignalKey, number[]>>;
}

export interface DmseSignal {
  signalKey: DmseSignalKey;
  label: string;
  present: boolean;
  metricValue: number;
  metricUnit: string;
  interpretation: DmseInterpretation;
  referenceRange: string;
  detail: string;
  confidence: ConfidenceLevel;
  trendDir?: DmseTrendDir;
  mseLine: string;
  baseline?: { mean: number; sd: number; n: number };
}

export interface DmseData {
  generatedAt: string;
  summary: {
    status: DmseSummaryStatus;
    headline: string;
    flagged: string[];
    requiresClinicianReview: boolean;
  };
  signalsPresent: number;
  overallConfidence: ConfidenceLevel;
  signals: DmseSignal[];
  mseNarrative: string[];
  /** Legend of every status value shown: the three interpretations, plus insufficient_data when it is the status. */
  interpretationScale: Record<string, string>;
  disclaimer: string;
}

/** Every threshold and weight of the engine; sources in docs/engines/dmse.md. */
export interface DmseParams {
  latencySubclinicalMinSeconds: number;
  latencyClinicalMinSeconds: number;
  speechNormalMinWpm: number;
  speechNormalMaxWpm: number;
  speechClinicalBelowWpm: number;
  speechClinicalAboveWpm: number;
  psychomotorReferenceSeconds: number;
  psychomotorMinNormaliseSeconds: number;
  psychomotorSubclinicalMin: number;
  psychomotorClinicalMin: number;
  attentionNormalMinPct: number;
  attentionClinicalBelowPct: number;
  trendSdMultiplier: number;
  trendRelativeMin: number;
  confidenceDurationFullSeconds: number;
  confidenceHistoryFull: number;
  confidenceDurationWeight: number;
  confidenceHighMin: number;
  confidenceModerateMin: number;
}

export const DMSE_MODEL_KEY = "dmse_signals";

/**
 * Upper bounds of the dmse metrics a request may send (lower bound 0): one definition for the
 * dmse analysis request, its `history` arrays, and the MSE agent's telemetry.
 */
export const DMSE_METRIC_MAX = Object.freeze({
  psychomotorFidgetEpisodes: 1000,
  responseLatencySeconds: 120,
  speechRateWpm: 600,
  sustainedAttentionPct: 100,
  /** Decision 40: sessions up to 4 hours. */
  sessionDurationSeconds: 14_400,
});

export const DMSE_METRIC_REQUIRED_MESSAGE =
  "Send at least one of psychomotorFidgetEpisodes, responseLatencySeconds, speechRateWpm, sustainedAttentionPct.";

/** At least one metric was sent: a session duration alone measures nothing. */
export function hasDmseMetric(input: DmseInput): boolean {
  return (
    input.psychomotorFidgetEpisodes !== undefined ||
    input.responseLatencySeconds !== undefined ||
    input.speechRateWpm !== undefined ||
    input.sustainedAttentionPct !== undefined
  );
}

/** Fixed signal order: output order and tie-break of `flagged`. */
export const DMSE_SIGNAL_ORDER: readonly DmseSignalKey[] = [
  "response_latency",
  "psychomotor",
  "speech_rate",
  "sustained_attention",
];

/**
 * Human labels (also `summary.flagged` and the headline). They name what the device measured: a
 * fidget count is not an examination of psychomotor activity, and gaze share is not a test of
 * attention. The signal keys stay as the contract names them.
 */
export const DMSE_SIGNAL_LABELS: Readonly<Record<DmseSignalKey, string>> = {
  response_latency: "Response latency",
  psychomotor: "Fidget episodes",
  speech_rate: "Speech rate",
  sustained_attention: "Gaze on screen",
};

/** Status values, best to worst (facts.polarity). */
export const DMSE_STATUS_ORDER: readonly DmseInterpretation[] = [
  "within_normal",
  "subclinical",
  "clinical_attention",
];

/**
 * Legend of the interpretation values. The meanings are the contract's; the wording says that the
 * range is this service's, for a device measurement, so that "within" does not read as a normal
 * clinical finding.
 */
export const DMSE_INTERPRETATION_SCALE: Readonly<Record<DmseInterpretation, string>> = {
  within_normal:
    "Within the typical range used here for this device measurement; no action suggested by this measurement alone.",
  subclinical: "Mildly outside the range used here for this device measurement; worth noting, not urgent.",
  clinical_attention:
    "Clearly outside the range used here for this device measurement; flag for clinician review.",
};

/** Legend entry added when `summary.status` is insufficient_data. */
export const DMSE_INSUFFICIENT_DATA_LEGEND =
  "No dmse metric was sent; nothing was measured, so there is no reading.";

/** Headline when no metric was sent. */
export const DMSE_NO_METRIC_HEADLINE = "No dmse metric was sent; nothing was measured.";

export const DMSE_DISCLAIMER =
  "Decision support for clinician review only. Numbers measured on the caller's device are compared with operational thresholds (response latency: the service's thresholds; speech rate, fidget episodes and gaze share: expert-set, not validated norms). The signals are device measurements, not a clinical examination, not a diagnosis, not emotion or affect recognition and not a validated biometric measure.";

// ---------------------------------------------------------------------------------------------
// Readings: each metric against its thresholds

const RANK: Record<DmseInterpretation, number> = { within_normal: 0, subclinical: 1, clinical_attention: 2 };

/**
 * How a reading is worded. The engine compares a device measurement with an operational threshold
 * and says so; it never writes a clinician-observed finding ("was delayed", "was observed"), a
 * causal reading ("consistent with", "can accompany") or "normal" (docs/engines/dmse.md, Wording).
 */
interface Reading {
  interpretation: DmseInterpretation;
  referenceRange: string;
  /** The value against the threshold(s), e.g. "below the service's 1.8 s threshold". */
  comparison: string;
  /** Where the threshold comes from and what the measure is not, in parentheses, or "". */
  caveat: string;
}

/** Suffix of every clinical_attention line. */
const REVIEW_SUFFIX = "; device measurement for clinician review";

/** Reading of the interpretation in `detail` (the enum value itself contains "normal"). */
const DETAIL_READING: Record<DmseInterpretation, string> = {
  within_normal: "read as inside the range used here",
  subclinical: "read as mildly outside the range used here (subclinical)",
  clinical_attention: "read as clearly outside the range used here (clinical attention)",
};

/**
 * The value as text, with 2 decimals unless that would print it equal to a threshold it is not
 * equal to ("1.8 s, below the 1.8 s threshold"); then with up to 6 decimals.
 */
export function dmseShownValue(v: number, thresholds: readonly number[]): string {
  let digits = 2;
  while (digits < 6 && thresholds.some((t) => v !== t && round(v, digits) === round(t, digits))) digits += 1;
  return fmt(v, digits);
}

const LATENCY_DEFAULTS = {
  // Contract (interface spec, dmse.analysis): under 1.8 s typical; 1.8 to 2.4 s subclinical;
  // 2.5 s or more clinical attention. Longer response times in depression: Yamamoto et al. 2020
  // (PLoS One 15:e0238726).
  latencySubclinicalMinSeconds: 1.8,
  latencyClinicalMinSeconds: 2.5,
} satisfies Partial<DmseParams>;

function readLatency(v: number, p: DmseParams): Reading {
  const lo = p.latencySubclinicalMinSeconds;
  const hi = p.latencyClinicalMinSeconds;
  const referenceRange = `< ${fmt(lo)} s typical; ${fmt(lo)} to < ${fmt(hi)} s subclinical; >= ${fmt(hi)} s clinical attention`;
  // The latency thresholds are the contract's own: no expert-set caveat.
  if (v >= hi)
    return {
      interpretation: "clinical_attention",
      referenceRange,
      comparison: `at or above the service's ${fmt(hi)} s threshold`,
      caveat: "",
    };
  if (v >= lo)
    return {
      interpretation: "subclinical",
      referenceRange,
      comparison: `at or above the service's ${fmt(lo)} s threshold and below its ${fmt(hi)} s threshold`,
      caveat: "",
    };
  return {
    interpretation: "within_normal",
    referenceRange,
    comparison: `below the service's ${fmt(lo)} s threshold`,
    caveat: "",
  };
}

const SPEECH_DEFAULTS = {
  // Conversational English is usually quoted at about 150 wpm (120-180); Amir 2016 (Ann Behav Sci)
  // measured 154 wpm in broadcast interviews. No published clinical cut-off in wpm exists:
  // operational default = roughly 150 wpm minus/plus a quarter (110-190) within normal; below
  // 90 wpm (slowed, Yamamoto et al. 2020; Cannizzaro et al. 2004 Brain Cogn 56:30-35) or above
  // 220 wpm (pressured) clinical attention.
  speechNormalMinWpm: 110,
  speechNormalMaxWpm: 190,
  speechClinicalBelowWpm: 90,
  speechClinicalAboveWpm: 220,
} satisfies Partial<DmseParams>;

function readSpeech(v: number, p: DmseParams): Reading {
  const referenceRange = `${fmt(p.speechNormalMinWpm)}-${fmt(p.speechNormalMaxWpm)} wpm typical; ${fmt(p.speechClinicalBelowWpm)} to < ${fmt(p.speechNormalMinWpm)} or > ${fmt(p.speechNormalMaxWpm)} to ${fmt(p.speechClinicalAboveWpm)} wpm subclinical; < ${fmt(p.speechClinicalBelowWpm)} or > ${fmt(p.speechClinicalAboveWpm)} wpm clinical attention`;
  const band = `${fmt(p.speechNormalMinWpm)}-${fmt(p.speechNormalMaxWpm)} wpm range used here`;
  const one = " (an expert-set threshold, not a validated norm)";
  const two = " (expert-set thresholds, not validated norms)";
  if (v < p.speechClinicalBelowWpm)
    return {
      interpretation: "clinical_attention",
      referenceRange,
      comparison: `below the ${fmt(p.speechClinicalBelowWpm)} wpm lower threshold used here`,
      caveat: one,
    };
  if (v > p.speechClinicalAboveWpm)
    return {
      interpretation: "clinical_attention",
      referenceRange,
      comparison: `above the ${fmt(p.speechClinicalAboveWpm)} wpm upper threshold used here`,
      caveat: one,
    };
  if (v < p.speechNormalMinWpm)
    return {
      interpretation: "subclinical",
      referenceRange,
      comparison: `below the ${band}, at or above its ${fmt(p.speechClinicalBelowWpm)} wpm lower threshold`,
      caveat: two,
    };
  if (v > p.speechNormalMaxWpm)
    return {
      interpretation: "subclinical",
      referenceRange,
      comparison: `above the ${band}, at or below its ${fmt(p.speechClinicalAboveWpm)} wpm upper threshold`,
      caveat: two,
    };
  return {
    interpretation: "within_normal",
    referenceRange,
    comparison: `inside the ${band}`,
    caveat: " (an expert-set range, not a validated norm)",
  };
}

const PSYCHOMOTOR_DEFAULTS = {
  // No published norm for camera-counted fidget episodes: operational default. Counts are
  // normalised to a 10-minute reference; 6 or more per 10 minutes (about one every 100 s) is
  // subclinical, 12 or more (one every 50 s) clinical attention. Calibrate per site with a model version.
  psychomotorReferenceSeconds: 600,
  // House rule: sessions shorter than a minute are too short to turn a count into a rate (one
  // episode in 5 s would read as 120 per 10 minutes); below 60 s the raw count is read instead.
  psychomotorMinNormaliseSeconds: 60,
  psychomotorSubclinicalMin: 6,
  psychomotorClinicalMin: 12,
} satisfies Partial<DmseParams>;

function readPsychomotor(v: number, unit: string, p: DmseParams): Reading {
  const referenceRange = `< ${fmt(p.psychomotorSubclinicalMin)} ${unit} typical; ${fmt(p.psychomotorSubclinicalMin)} to < ${fmt(p.psychomotorClinicalMin)} subclinical; >= ${fmt(p.psychomotorClinicalMin)} clinical attention`;
  const per = `per ${fmt(p.psychomotorReferenceSeconds / 60)} minutes`;
  const notObserved = "a device count, not an observation of restlessness";
  if (v >= p.psychomotorClinicalMin)
    return {
      interpretation: "clinical_attention",
      referenceRange,
      comparison: `at or above the threshold of ${fmt(p.psychomotorClinicalMin)} ${per} used here`,
      caveat: ` (an expert-set threshold; ${notObserved})`,
    };
  if (v >= p.psychomotorSubclinicalMin)
    return {
      interpretation: "subclinical",
      referenceRange,
      comparison: `at or above the threshold of ${fmt(p.psychomotorSubclinicalMin)} and below the threshold of ${fmt(p.psychomotorClinicalMin)} ${per} used here`,
      caveat: ` (expert-set thresholds; ${notObserved})`,
    };
  return {
    interpretation: "within_normal",
    referenceRange,
    comparison: `below the threshold of ${fmt(p.psychomotorSubclinicalMin)} ${per} used here`,
    caveat: ` (an expert-set threshold; ${notObserved})`,
  };
}

const ATTENTION_DEFAULTS = {
  // No published norm for share of session gaze on screen: operational default. 80 % or more
  // within normal; below 60 % (gaze off screen for more than two fifths of the session) clinical
  // attention.
  attentionNormalMinPct: 80,
  attentionClinicalBelowPct: 60,
} satisfies Partial<DmseParams>;

function readAttention(v: number, p: DmseParams): Reading {
  const referenceRange = `>= ${fmt(p.attentionNormalMinPct)} % typical; ${fmt(p.attentionClinicalBelowPct)} to < ${fmt(p.attentionNormalMinPct)} % subclinical; < ${fmt(p.attentionClinicalBelowPct)} % clinical attention`;
  const notAttention = "gaze share is a device measure, not a test of attention";
  if (v < p.attentionClinicalBelowPct)
    return {
      interpretation: "clinical_attention",
      referenceRange,
      comparison: `below the ${fmt(p.attentionClinicalBelowPct)} % threshold used here`,
      caveat: ` (an expert-set threshold; ${notAttention})`,
    };
  if (v < p.attentionNormalMinPct)
    return {
      interpretation: "subclinical",
      referenceRange,
      comparison: `below the ${fmt(p.attentionNormalMinPct)} % threshold and at or above the ${fmt(p.attentionClinicalBelowPct)} % threshold used here`,
      caveat: ` (expert-set thresholds; ${notAttention})`,
    };
  return {
    interpretation: "within_normal",
    referenceRange,
    comparison: `at or above the ${fmt(p.attentionNormalMinPct)} % threshold used here`,
    caveat: ` (an expert-set threshold; ${notAttention})`,
  };
}

const TREND_DEFAULTS = {
  // Trend rule (values up/down/stable): the current value differs from the baseline mean
  // by more than max(0.5 SD, 5 % of the mean). 0.5 SD is the common "medium" distribution-based
  // minimal important difference (Norman, Sloan & Wyrwich 2003, Med Care 41:582-592); the 5 %
  // floor is a house rule that stops tiny SDs from calling noise a trend.
  trendSdMultiplier: 0.5,
  trendRelativeMin: 0.05,
} satisfies Partial<DmseParams>;

/** Decision 41: up/down/stable from the current value against the baseline (see TREND_DEFAULTS). */
export function dmseTrend(
  current: number,
  baselineMean: number,
  baselineSd: number,
  p: DmseParams,
): DmseTrendDir {
  const diff = current - baselineMean;
  const threshold = Math.max(p.trendSdMultiplier * baselineSd, p.trendRelativeMin * Math.abs(baselineMean));
  if (diff > threshold) return "up";
  if (diff < -threshold) return "down";
  return "stable";
}

// ---------------------------------------------------------------------------------------------
// Plausibility: device values no human can produce are a capture-quality finding

/**
 * The physical plausibility bound of one device metric (every metric has one): below `floor` (or
 * at it, when `floorInclusive`) or above `ceiling` no person can
 * produce the value; `burst` is a higher ceiling that holds only in a session shorter than
 * `belowSeconds` (a record burst is not a session mean); `session` bounds the value by the sent
 * session: a duration no longer than the session, or a count of at most `maxPerSecond` a second.
 */
export interface DmsePlausibleBound {
  unit: string;
  floor: number;
  floorInclusive: boolean;
  floorSource: string;
  ceiling: number;
  ceilingSource: string;
  burst?: { ceiling: number; belowSeconds: number; source: string };
  session?: { kind: "duration"; source: string } | { kind: "count"; maxPerSecond: number; source: string };
}

/**
 * One table of the physical bounds of every dmse metric (sources in
 * docs/engines/dmse.md, "Implausible device values"). Not calibratable: a site's thresholds
 * decide what is typical, never whether a value is humanly possible.
 */
export const DMSE_PLAUSIBLE_BOUNDS: Readonly<Record<DmseSignalKey, DmsePlausibleBound>> = Object.freeze({
  response_latency: {
    unit: "s",
    floor: 0.1,
    floorInclusive: true,
    floorSource:
      "mean simple reaction time about 0.16-0.19 s (Kosinski's review of the reaction-time literature); a reaction under 0.1 s is anticipation (athletics false-start rule); conversational gaps average about 0.2 s (Stivers et al. 2009, PNAS 106:10587). Expert-set floor",
    ceiling: DMSE_METRIC_MAX.sessionDurationSeconds,
    ceilingSource: "logical: no longer than the longest session a request may describe (decision 40)",
    session: {
      kind: "duration",
      source: "logical: a mean latency within a session is no longer than the session",
    },
  },
  psychomotor: {
    unit: "episodes",
    floor: 0,
    floorInclusive: false,
    floorSource: "logical: a count is not negative",
    ceiling: DMSE_METRIC_MAX.sessionDurationSeconds,
    ceilingSource:
      "logical: one episode a second over the longest session a request may describe (decision 40)",
    session: {
      kind: "count",
      maxPerSecond: 1,
      source:
        "expert-set: an episode is a bout of movement with a start and an end; more bouts than seconds means the detector counted frames or single movements",
    },
  },
  speech_rate: {
    unit: "wpm",
    floor: 0,
    floorInclusive: false,
    floorSource: "logical: a rate is not negative (0 wpm, no speech, is possible)",
    ceiling: 500,
    ceilingSource:
      "expert-set from published data: no person sustains a mean above 500 wpm over a minute or more; the record talkers' 586-655 wpm were recitations under a minute (Guinness World Records, secondary sources) and competitive debaters' fastest delivery is reported at 350-500 wpm (secondary sources)",
    burst: {
      ceiling: 655,
      belowSeconds: 60,
      source:
        "the fastest recorded talker, 655 wpm reciting a 260-word text in 23.8 s (Guinness World Records 1995; secondary sources)",
    },
  },
  sustained_attention: {
    unit: "%",
    floor: 0,
    floorInclusive: false,
    floorSource: "logical: a share of the session is not negative",
    ceiling: 100,
    ceilingSource: "logical: a share of the session is at most all of it",
  },
});

/**
 * The bounds as flat numbers (decision 73's three limits and the rest of the table), for the
 * intelligence registry's table of the engine's constants.
 */
export const DMSE_PLAUSIBLE_LIMITS = Object.freeze({
  latencyMinSeconds: DMSE_PLAUSIBLE_BOUNDS.response_latency.floor,
  speechMaxWpm: DMSE_PLAUSIBLE_BOUNDS.speech_rate.burst?.ceiling ?? 655,
  psychomotorMaxPerSecond: 1,
  speechMaxSustainedWpm: DMSE_PLAUSIBLE_BOUNDS.speech_rate.ceiling,
  speechSustainedFromSeconds: DMSE_PLAUSIBLE_BOUNDS.speech_rate.burst?.belowSeconds ?? 60,
  attentionMaxPct: DMSE_PLAUSIBLE_BOUNDS.sustained_attention.ceiling,
  longestSessionSeconds: DMSE_METRIC_MAX.sessionDurationSeconds,
});

const METRIC_WORDS: Readonly<Record<DmseSignalKey, (v: number) => string>> = {
  response_latency: (v) => `a mean response latency of ${fmt(v, 3)} s`,
  psychomotor: (v) => `${fmt(v)} fidget episodes`,
  speech_rate: (v) => `${fmt(v)} words per minute`,
  sustained_attention: (v) => `a gaze-on-screen share of ${fmt(v)} %`,
};

/**
 * Why a sent value is physically implausible, or null when it is not: any
 * measurement in a session of 0 s, or a value outside its metric's bound in
 * `DMSE_PLAUSIBLE_BOUNDS` (floor, ceiling or short-session burst ceiling, session length). The
 * reason names the value and the limit. One rule for the engine and the MSE agent's telemetry.
 */
export function dmseImplausibleValue(
  key: DmseSignalKey,
  value: number,
  sessionDurationSeconds?: number | null,
): string | null {
  const b = DMSE_PLAUSIBLE_BOUNDS[key];
  const session = isFiniteNumber(sessionDurationSeconds) ? sessionDurationSeconds : null;
  if (session !== null && session <= 0)
    return `a measurement reported for a session of ${fmt(session)} s, which contains no time to measure in`;
  const what = METRIC_WORDS[key](value);
  if (!Number.isFinite(value)) return `${what} is not a finite number`;
  if (b.floorInclusive ? value <= b.floor : value < b.floor)
    return key === "response_latency"
      ? `${what} is at or below the ${fmt(b.floor)} s floor of any human response`
      : `${what} is below ${fmt(b.floor)} ${b.unit}, which no measurement can be`;
  if (key === "speech_rate" && b.burst) {
    const short = session !== null && session < b.burst.belowSeconds;
    if (value > b.burst.ceiling)
      return `${what} is above the ${fmt(b.burst.ceiling)} wpm of the fastest recorded talker`;
    if (!short && value > b.ceiling)
      return `${what} is above the ${fmt(b.ceiling)} wpm no person sustains over a minute or more${session === null ? " (session length not sent)" : ""}`;
  } else if (value > b.ceiling)
    return `${what} is above ${fmt(b.ceiling)} ${b.unit}, the most a session can hold`;
  if (b.session?.kind === "duration" && session !== null && value > session)
    return `${what} is longer than the ${fmt(session)} s session`;
  if (b.session?.kind === "count" && session !== null && value > session * b.session.maxPerSecond)
    return `${what} in a ${fmt(session)} s session is more than one episode per second`;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Measurements: the sent metric in the unit it is read in, with how the MSE line and `detail` state it

interface Measurement {
  /** The value compared with the thresholds (a fidget count may be turned into a rate). */
  value: number;
  unit: string;
  reading: Reading;
  /** The measurement as the MSE line states it. */
  measured: string;
  /** The measurement as `detail` states it (with how a fidget count was turned into a rate). */
  measuredDetail: string;
}

function latencyMeasurement(v: number, p: DmseParams): Measurement {
  const measured = `Mean response latency ${dmseShownValue(v, [p.latencySubclinicalMinSeconds, p.latencyClinicalMinSeconds])} s`;
  return { value: v, unit: "s", reading: readLatency(v, p), measured, measuredDetail: measured };
}

/**
 * Fidget episodes: a rate per reference period when the session is long enough to turn a count
 * into one; otherwise the raw count, read as if it were that rate (and the line says why).
 */
function psychomotorMeasurement(raw: number, duration: number | null, p: DmseParams): Measurement {
  const thresholds = [p.psychomotorSubclinicalMin, p.psychomotorClinicalMin];
  const refMinutes = fmt(p.psychomotorReferenceSeconds / 60);
  if (duration !== null && duration >= p.psychomotorMinNormaliseSeconds) {
    const value = (raw / duration) * p.psychomotorReferenceSeconds;
    const unit = `episodes/${refMinutes} min`;
    const shown = dmseShownValue(value, thresholds);
    return {
      value,
      unit,
      reading: readPsychomotor(value, unit, p),
      measured: `${shown} fidget episodes per ${refMinutes} minutes counted by the device`,
      measuredDetail: `${fmt(raw)} fidget episode(s) counted by the device in ${fmt(duration)} s, ${shown} per ${refMinutes} minutes`,
    };
  }
  const why =
    duration === null
      ? "no session duration was sent"
      : `the ${fmt(duration)} s session is shorter than the ${fmt(p.psychomotorMinNormaliseSeconds)} s needed for a rate`;
  const measured = `${dmseShownValue(raw, thresholds)} fidget episode(s) counted by the device, read as a count per ${refMinutes} minutes (${why})`;
  return {
    value: raw,
    unit: "episodes",
    reading: readPsychomotor(raw, "episodes", p),
    measured,
    measuredDetail: measured,
  };
}

function speechMeasurement(v: number, p: DmseParams): Measurement {
  const measured = `Speech rate ${dmseShownValue(v, [p.speechClinicalBelowWpm, p.speechNormalMinWpm, p.speechNormalMaxWpm, p.speechClinicalAboveWpm])} words per minute`;
  return { value: v, unit: "wpm", reading: readSpeech(v, p), measured, measuredDetail: measured };
}

function attentionMeasurement(v: number, p: DmseParams): Measurement {
  const measured = `Gaze on screen for ${dmseShownValue(v, [p.attentionClinicalBelowPct, p.attentionNormalMinPct])} % of the session`;
  return { value: v, unit: "%", reading: readAttention(v, p), measured, measuredDetail: measured };
}

function metricOf(input: DmseInput, key: DmseSignalKey): number | undefined {
  if (key === "response_latency") return input.responseLatencySeconds;
  if (key === "psychomotor") return input.psychomotorFidgetEpisodes;
  if (key === "speech_rate") return input.speechRateWpm;
  return input.sustainedAttentionPct;
}

function measure(key: DmseSignalKey, raw: number, duration: number | null, p: DmseParams): Measurement {
  if (key === "response_latency") return latencyMeasurement(raw, p);
  if (key === "psychomotor") return psychomotorMeasurement(raw, duration, p);
  if (key === "speech_rate") return speechMeasurement(raw, p);
  return attentionMeasurement(raw, p);
}

// ---------------------------------------------------------------------------------------------
// One signal per sent metric

/** The patient's own baseline from prior values, and how the current value relates to it. */
function baselineOf(
  m: Measurement,
  prior: readonly number[],
  line: string,
  p: DmseParams,
): {
  trendDir: DmseTrendDir;
  baseline: NonNullable<DmseSignal["baseline"]>;
  detail: string;
  mseLine: string;
} {
  const mn = mean(prior);
  const sd = sampleSd(prior);
  const trendDir = dmseTrend(m.value, mn, sd, p);
  const relation = trendDir === "up" ? "above" : trendDir === "down" ? "below" : "close to";
  return {
    trendDir,
    baseline: { mean: round(mn), sd: round(sd), n: prior.length },
    detail: ` Baseline from ${prior.length} prior value(s): mean ${fmt(mn)}, SD ${fmt(sd)}; the current value is ${relation} it (trend ${trendDir}: beyond max(${fmt(p.trendSdMultiplier)} SD, ${fmt(p.trendRelativeMin * 100)} % of the mean)).`,
    mseLine:
      trendDir === "stable"
        ? line
        : `${line} This is ${trendDir === "up" ? "higher" : "lower"} than the patient's baseline (mean ${fmt(mn)} ${m.unit} from ${prior.length} prior ${prior.length === 1 ? "value" : "values"}).`,
  };
}

/** Confidence of one signal: session length blended with history depth. */
function signalConfidenceScore(durationShare: number, depth: number, p: DmseParams): number {
  return clamp(p.confidenceDurationWeight * durationShare + (1 - p.confidenceDurationWeight) * depth, 0, 1);
}

interface SignalRun {
  signal: DmseSignal;
  /** The signal's confidence score (0..1) and history depth (0..1). */
  score: number;
  depth: number;
  hasBaseline: boolean;
  /** Why the sent value is physically implausible, or null. */
  implausible: string | null;
}

/**
 * An implausible value is never read as inside the range: its interpretation is at
 * least subclinical (a higher threshold reading stands), its confidence is low, and its line says
 * it was not read against the range and names the value and the limit.
 */
function implausibleReading(reading: Reading): DmseInterpretation {
  return RANK[reading.interpretation] >= RANK.subclinical ? reading.interpretation : "subclinical";
}

function dmseSignal(
  key: DmseSignalKey,
  m: Measurement,
  prior: readonly number[],
  durationShare: number,
  implausible: string | null,
  p: DmseParams,
): SignalRun {
  const { reading } = m;
  const interpretation = implausible === null ? reading.interpretation : implausibleReading(reading);
  const review = interpretation === "clinical_attention" ? REVIEW_SUFFIX : "";
  const line =
    implausible === null
      ? `${m.measured}, ${reading.comparison}${reading.caveat}${review}.`
      : `${m.measured}: implausible device value (${implausible}), so it is not read against the range used here; capture quality to be checked${review}.`;
  const base = prior.length > 0 ? baselineOf(m, prior, line, p) : null;
  const depth = Math.min(1, prior.length / p.confidenceHistoryFull);
  const score = implausible === null ? signalConfidenceScore(durationShare, depth, p) : 0;
  const readingText =
    implausible === null
      ? `${reading.comparison}${reading.caveat}; ${DETAIL_READING[interpretation]}`
      : `implausible device value (${implausible}); not read against the range used here (${reading.referenceRange}) and kept ${DETAIL_READING[interpretation].replace("read as ", "")} so it is never reported as inside it; capture quality to be checked`;
  const signal: DmseSignal = {
    signalKey: key,
    label: DMSE_SIGNAL_LABELS[key],
    present: true,
    metricValue: round(m.value),
    metricUnit: m.unit,
    interpretation,
    referenceRange: reading.referenceRange,
    detail: `${m.measuredDetail}: ${readingText}.${base ? base.detail : ""}`,
    confidence:
      implausible === null ? confidenceLevel(score, p.confidenceHighMin, p.confidenceModerateMin) : "low",
    // A baseline comparison of a value that could not be measured would read as a change.
    mseLine: base && implausible === null ? base.mseLine : line,
  };
  if (base) {
    signal.trendDir = base.trendDir;
    signal.baseline = base.baseline;
  }
  return { signal, score, depth, hasBaseline: base !== null, implausible };
}

/** One signal per sent metric, in the fixed signal order. */
function measureSignals(input: DmseInput, duration: number | null, p: DmseParams): SignalRun[] {
  const sentDuration = isFiniteNumber(input.sessionDurationSeconds) ? input.sessionDurationSeconds : null;
  const durationShare = duration === null ? 0 : Math.min(1, duration / p.confidenceDurationFullSeconds);
  const history = input.history ?? {};
  const runs: SignalRun[] = [];
  for (const key of DMSE_SIGNAL_ORDER) {
    const raw = metricOf(input, key);
    if (!isFiniteNumber(raw)) continue;
    const sent = (history[key] ?? []).filter(isFiniteNumber);
    // A prior value no human can produce is left out of the baseline.
    const prior = sent.filter((v) => dmseImplausibleValue(key, v) === null);
    const implausible = dmseImplausibleValue(key, raw, sentDuration);
    const run = dmseSignal(key, measure(key, raw, duration, p), prior, durationShare, implausible, p);
    const left = sent.length - prior.length;
    if (left > 0)
      run.signal.detail += ` ${left} prior value(s) left out of the baseline as implausible device values.`;
    runs.push(run);
  }
  return runs;
}

// ---------------------------------------------------------------------------------------------
// Summary, confidence and inputs

/** Signals outside the range, worst interpretation first; ties in the fixed signal order (signals are in that order). */
function rankedSignals(signals: readonly DmseSignal[]): DmseSignal[] {
  return signals
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => s.interpretation !== "within_normal")
    .sort((a, b) => RANK[b.s.interpretation] - RANK[a.s.interpretation] || a.i - b.i)
    .map(({ s }) => s);
}

/** The legend covers every status value shown: insufficient_data only when it is the status. */
function dmseLegend(status: DmseSummaryStatus): Record<string, string> {
  return status === "insufficient_data"
    ? { ...DMSE_INTERPRETATION_SCALE, insufficient_data: DMSE_INSUFFICIENT_DATA_LEGEND }
    : { ...DMSE_INTERPRETATION_SCALE };
}

function dmseHeadline(runs: readonly SignalRun[], ranked: readonly DmseSignal[]): string {
  const signals = runs.map((r) => r.signal);
  const n = signals.length;
  const implausible = runs.filter((r) => r.implausible !== null);
  const capture =
    implausible.length > 0
      ? ` Implausible device value(s), capture quality to be checked: ${implausible.map((r) => `${r.signal.label} (${r.implausible})`).join("; ")}.`
      : "";
  const missing = DMSE_SIGNAL_ORDER.filter((k) => !signals.some((s) => s.signalKey === k)).map(
    (k) => DMSE_SIGNAL_LABELS[k],
  );
  const notMeasured = n > 0 && missing.length > 0 ? ` Not measured: ${missing.join(", ")}.` : "";
  return n === 0
    ? DMSE_NO_METRIC_HEADLINE
    : ranked.length === 0
      ? `All ${n} measured signal(s) fall inside the ranges used here; device measurements, not a clinical examination.${notMeasured}`
      : `${ranked.length} of ${n} measured signal(s) outside the range used here: ${ranked.map((s) => `${s.label} (${s.interpretation === "clinical_attention" ? "clinical attention" : "subclinical"})`).join(", ")}.${capture}${notMeasured}`;
}

const CONFIDENCE_DEFAULTS = {
  // Confidence = 0.6 x min(session / 600 s, 1) + 0.4 x min(history n / 5, 1). House rule: a
  // 10-minute session and five prior values give full weight.
  confidenceDurationFullSeconds: 600,
  confidenceHistoryFull: 5,
  confidenceDurationWeight: 0.6,
  // Same cut-offs as the other engines.
  confidenceHighMin: 0.75,
  confidenceModerateMin: 0.45,
} satisfies Partial<DmseParams>;

/** Overall confidence: the mean of the signals' scores, with what limited it. */
function dmseConfidence(
  runs: readonly SignalRun[],
  duration: number | null,
  p: DmseParams,
): { level: ConfidenceLevel; score: number; reasons: string[] } {
  const n = runs.length;
  const historyUsed = runs.filter((r) => r.hasBaseline).length;
  let historyDepthSum = 0;
  for (const r of runs) historyDepthSum += r.depth;
  const implausible = runs.filter((r) => r.implausible !== null);
  const meanScore = n === 0 ? 0 : mean(runs.map((r) => r.score));
  // Any implausible value makes the whole reading low confidence: the score is kept
  // below the moderate cut-off so level and score agree.
  const score = round(
    implausible.length > 0 ? Math.min(meanScore, Math.max(0, p.confidenceModerateMin - 0.01)) : meanScore,
    3,
  );
  const reasons = [
    ...implausible.map(
      (r) =>
        `${r.signal.label}: implausible device value (${r.implausible}); capture quality to be checked, confidence low.`,
    ),
    ...(n === 0 ? ["No dmse metric was sent; nothing was measured."] : []),
    duration === null
      ? "No session duration was sent; session length adds nothing to confidence."
      : `Session of ${fmt(duration)} s; ${fmt(p.confidenceDurationFullSeconds)} s or more gives full session weight.`,
    historyUsed === 0
      ? "No history was sent for the present signals; no baseline."
      : `${historyUsed} of ${n} signal(s) have a baseline (mean history depth ${fmt((historyDepthSum / Math.max(1, n)) * 100, 0)} % of ${fmt(p.confidenceHistoryFull)} values).`,
  ];
  const level =
    implausible.length > 0 ? "low" : confidenceLevel(score, p.confidenceHighMin, p.confidenceModerateMin);
  return { level, score, reasons };
}

function dmseInputs(input: DmseInput, duration: number | null, runs: readonly SignalRun[]): EngineInput[] {
  const metric = (v: unknown) => (isFiniteNumber(v) ? v : null);
  const history = input.history ?? {};
  const historyCounts: Record<string, number> = {};
  let historySupplied = false;
  for (const key of DMSE_SIGNAL_ORDER) {
    const arr = history[key];
    if (Array.isArray(arr)) {
      historyCounts[key] = arr.length;
      historySupplied = true;
    }
  }
  const metricInput = (name: string, v: unknown): EngineInput => ({
    name,
    value: metric(v),
    observedAt: null,
    supplied: metric(v) !== null,
    contributed: metric(v) !== null,
  });
  return [
    metricInput("psychomotorFidgetEpisodes", input.psychomotorFidgetEpisodes),
    metricInput("responseLatencySeconds", input.responseLatencySeconds),
    metricInput("speechRateWpm", input.speechRateWpm),
    metricInput("sustainedAttentionPct", input.sustainedAttentionPct),
    {
      name: "sessionDurationSeconds",
      value: metric(input.sessionDurationSeconds),
      observedAt: null,
      supplied: metric(input.sessionDurationSeconds) !== null,
      contributed: duration !== null && runs.length > 0,
    },
    {
      name: "history",
      value: historySupplied ? historyCounts : null,
      observedAt: null,
      supplied: historySupplied,
      contributed: runs.some((r) => r.hasBaseline),
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Parameter set

/**
 * Every default, composed from the groups above (each beside the code that reads it); sources in
 * docs/engines/dmse.md. The spread order fixes the key order.
 */
export const DMSE_DEFAULT_PARAMS: Readonly<DmseParams> = Object.freeze({
  ...LATENCY_DEFAULTS,
  ...SPEECH_DEFAULTS,
  ...PSYCHOMOTOR_DEFAULTS,
  ...ATTENTION_DEFAULTS,
  ...TREND_DEFAULTS,
  ...CONFIDENCE_DEFAULTS,
});

/**
 * Validates a calibrated parameter set (every key known, every value a finite number, cut-offs
 * ordered) and merges it over the defaults. Throws an Error naming every problem otherwise.
 */
export function resolveDmseParams(overrides: unknown): DmseParams {
  const p = mergeNumericParams("dmse", DMSE_DEFAULT_PARAMS, overrides);
  const problems: string[] = [];
  if (!(p.latencySubclinicalMinSeconds > 0 && p.latencySubclinicalMinSeconds <= p.latencyClinicalMinSeconds))
    problems.push(
      "latency cut-offs must satisfy 0 < latencySubclinicalMinSeconds <= latencyClinicalMinSeconds",
    );
  if (
    !(
      p.speechClinicalBelowWpm >= 0 &&
      p.speechClinicalBelowWpm <= p.speechNormalMinWpm &&
      p.speechNormalMinWpm <= p.speechNormalMaxWpm &&
      p.speechNormalMaxWpm <= p.speechClinicalAboveWpm
    )
  )
    problems.push(
      "speech cut-offs must satisfy 0 <= speechClinicalBelowWpm <= speechNormalMinWpm <= speechNormalMaxWpm <= speechClinicalAboveWpm",
    );
  if (p.psychomotorReferenceSeconds <= 0) problems.push("psychomotorReferenceSeconds must be > 0");
  if (p.psychomotorMinNormaliseSeconds <= 0) problems.push("psychomotorMinNormaliseSeconds must be > 0");
  if (!(p.psychomotorSubclinicalMin > 0 && p.psychomotorSubclinicalMin <= p.psychomotorClinicalMin))
    problems.push(
      "psychomotor cut-offs must satisfy 0 < psychomotorSubclinicalMin <= psychomotorClinicalMin",
    );
  if (
    !(
      p.attentionClinicalBelowPct >= 0 &&
      p.attentionClinicalBelowPct <= p.attentionNormalMinPct &&
      p.attentionNormalMinPct <= 100
    )
  )
    problems.push(
      "attention cut-offs must satisfy 0 <= attentionClinicalBelowPct <= attentionNormalMinPct <= 100",
    );
  problems.push(...negativeProblems(p, ["trendSdMultiplier", "trendRelativeMin"]));
  if (p.confidenceDurationFullSeconds <= 0) problems.push("confidenceDurationFullSeconds must be > 0");
  if (p.confidenceHistoryFull < 1) problems.push("confidenceHistoryFull must be >= 1");
  if (p.confidenceDurationWeight < 0 || p.confidenceDurationWeight > 1)
    problems.push("confidenceDurationWeight must be in [0, 1]");
  if (
    !(
      p.confidenceModerateMin >= 0 &&
      p.confidenceModerateMin <= p.confidenceHighMin &&
      p.confidenceHighMin <= 1
    )
  )
    problems.push("confidence cut-offs must satisfy 0 <= confidenceModerateMin <= confidenceHighMin <= 1");
  assertNoProblems("dmse", problems);
  return p;
}

/** Runs the dmse engine. Never throws on in-bound input. */
export function analyzeDmse(input: DmseInput, options: EngineOptions<DmseParams>): EngineRun<DmseData> {
  const { params: p, model } = engineParams(DMSE_MODEL_KEY, DMSE_DEFAULT_PARAMS, options);
  const durationRaw = input.sessionDurationSeconds;
  const duration = isFiniteNumber(durationRaw) && durationRaw > 0 ? durationRaw : null;
  const runs = measureSignals(input, duration, p);
  const signals = runs.map((r) => r.signal);

  const ranked = rankedSignals(signals);
  // Nothing measured is not "within range": it is insufficient_data (library callers only; the
  // HTTP layer answers 400 without a metric).
  const status: DmseSummaryStatus =
    signals.length === 0 ? "insufficient_data" : (ranked[0]?.interpretation ?? "within_normal");
  const flagged = ranked.map((s) => s.label);
  const summary = {
    status,
    headline: dmseHeadline(runs, ranked),
    flagged,
    requiresClinicianReview: status === "clinical_attention",
  };
  const confidence = dmseConfidence(runs, duration, p);
  const interpretationScale = dmseLegend(status);
  const facts: EngineFacts = {
    summary: { ...summary, flagged: [...flagged] },
    confidence,
    inputs: dmseInputs(input, duration, runs),
    current: { score: null, status },
    // insufficient_data is deliberately not in the order: the intelligence core reads a status
    // outside the order as "unchanged" (packages/intelligence/src/core.ts, changeBlock).
    polarity: { kind: "status", order: DMSE_STATUS_ORDER },
    interpretationScale: { ...interpretationScale },
  };

  return {
    data: {
      generatedAt: options.now.toISOString(),
      summary,
      signalsPresent: signals.length,
      overallConfidence: confidence.level,
      signals,
      mseNarrative: signals.map((s) => s.mseLine),
      interpretationScale,
      disclaimer: DMSE_DISCLAIMER,
    },
    facts,
    model,
  };
}
