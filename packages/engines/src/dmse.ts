/**
 * Digital mental-status-exam signals (POST /v1/dmse/analyze). Up to four derived timing numbers
 * (response latency, psychomotor fidget episodes, speech rate, sustained attention) are each
 * compared with a reference range and read as within_normal, subclinical or clinical_attention;
 * an optional per-signal history gives a baseline and a trend direction. Each signal gets an
 * MSE-style sentence. Pure and deterministic: the clock comes from `options.now`. Method,
 * constants and sources: docs/engines/dmse.md.
 */
import {
  assertNoProblems,
  clamp,
  confidenceLevel,
  fmt,
  isFiniteNumber,
  mean,
  mergeNumericParams,
  round,
  sampleSd,
} from "./shared.js";
import type {
  ConfidenceLevel,
  EngineFacts,
  EngineInput,
  EngineOptions,
  EngineRun,
  ModelRef,
} from "./types.js";

export type DmseSignalKey = "response_latency" | "psychomotor" | "speech_rate" | "sustained_attention";
export type DmseInterpretation = "within_normal" | "subclinical" | "clinical_attention";
export type DmseTrendDir = "up" | "down" | "stable";

export interface DmseInput {
  psychomotorFidgetEpisodes?: number;
  responseLatencySeconds?: number;
  speechRateWpm?: number;
  /** Share of the session with gaze on screen, 0-100. */
  sustainedAttentionPct?: number;
  /** 0-14400 (ruling 12); longer sessions raise confidence and normalise fidget episodes. */
  sessionDurationSeconds?: number;
  /** Prior values per signal, each array up to 100 numbers (ruling 12), in the signal's metric unit. */
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
    status: DmseInterpretation;
    headline: string;
    flagged: string[];
    requiresClinicianReview: boolean;
  };
  signalsPresent: number;
  overallConfidence: ConfidenceLevel;
  signals: DmseSignal[];
  mseNarrative: string[];
  interpretationScale: Record<DmseInterpretation, string>;
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

export const DMSE_DEFAULT_PARAMS: Readonly<DmseParams> = Object.freeze({
  // Contract (interface spec, dmse.analysis): under 1.8 s typical; 1.8 to 2.4 s subclinical;
  // 2.5 s or more clinical attention. Longer response times in depression: Yamamoto et al. 2020
  // (PLoS One 15:e0238726).
  latencySubclinicalMinSeconds: 1.8,
  latencyClinicalMinSeconds: 2.5,
  // Conversational English is usually quoted at about 150 wpm (120-180); Amir 2016 (Ann Behav Sci)
  // measured 154 wpm in broadcast interviews. No published clinical cut-off in wpm exists:
  // operational default = roughly 150 wpm minus/plus a quarter (110-190) within normal; below
  // 90 wpm (slowed, Yamamoto et al. 2020; Cannizzaro et al. 2004 Brain Cogn 56:30-35) or above
  // 220 wpm (pressured) clinical attention.
  speechNormalMinWpm: 110,
  speechNormalMaxWpm: 190,
  speechClinicalBelowWpm: 90,
  speechClinicalAboveWpm: 220,
  // No published norm for camera-counted fidget episodes: operational default. Counts are
  // normalised to a 10-minute reference; 6 or more per 10 minutes (about one every 100 s) is
  // subclinical, 12 or more (one every 50 s) clinical attention. Calibrate per site (ruling 16).
  psychomotorReferenceSeconds: 600,
  // House rule: sessions shorter than a minute are too short to turn a count into a rate (one
  // episode in 5 s would read as 120 per 10 minutes); below 60 s the raw count is read instead.
  psychomotorMinNormaliseSeconds: 60,
  psychomotorSubclinicalMin: 6,
  psychomotorClinicalMin: 12,
  // No published norm for share of session gaze on screen: operational default. 80 % or more
  // within normal; below 60 % (gaze off screen for more than two fifths of the session) clinical
  // attention.
  attentionNormalMinPct: 80,
  attentionClinicalBelowPct: 60,
  // Trend rule (ruling 13 values up/down/stable): the current value differs from the baseline mean
  // by more than max(0.5 SD, 5 % of the mean). 0.5 SD is the common "medium" distribution-based
  // minimal important difference (Norman, Sloan & Wyrwich 2003, Med Care 41:582-592); the 5 %
  // floor is a house rule that stops tiny SDs from calling noise a trend.
  trendSdMultiplier: 0.5,
  trendRelativeMin: 0.05,
  // Confidence = 0.6 x min(session / 600 s, 1) + 0.4 x min(history n / 5, 1). House rule: a
  // 10-minute session and five prior values give full weight.
  confidenceDurationFullSeconds: 600,
  confidenceHistoryFull: 5,
  confidenceDurationWeight: 0.6,
  // Same cut-offs as the other engines.
  confidenceHighMin: 0.75,
  confidenceModerateMin: 0.45,
});

/** Fixed signal order: output order and tie-break of `flagged`. */
export const DMSE_SIGNAL_ORDER: readonly DmseSignalKey[] = [
  "response_latency",
  "psychomotor",
  "speech_rate",
  "sustained_attention",
];

export const DMSE_SIGNAL_LABELS: Readonly<Record<DmseSignalKey, string>> = {
  response_latency: "Response latency",
  psychomotor: "Psychomotor activity",
  speech_rate: "Speech rate",
  sustained_attention: "Sustained attention",
};

/** Status values, best to worst (facts.polarity). */
export const DMSE_STATUS_ORDER: readonly DmseInterpretation[] = [
  "within_normal",
  "subclinical",
  "clinical_attention",
];

export const DMSE_INTERPRETATION_SCALE: Readonly<Record<DmseInterpretation, string>> = {
  within_normal: "Within typical range, no action suggested.",
  subclinical: "Mildly outside the typical range; worth noting, not urgent.",
  clinical_attention: "Clearly outside the typical range; flag for clinician review.",
};

export const DMSE_DISCLAIMER =
  "Decision support for clinician review only. Derived timing numbers are compared with reference ranges; the signals are observations, not a diagnosis, not emotion or affect recognition and not a validated biometric measure.";

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
  if (p.trendSdMultiplier < 0) problems.push("trendSdMultiplier must be >= 0");
  if (p.trendRelativeMin < 0) problems.push("trendRelativeMin must be >= 0");
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

// ---------------------------------------------------------------------------------------------

const RANK: Record<DmseInterpretation, number> = { within_normal: 0, subclinical: 1, clinical_attention: 2 };

interface Reading {
  interpretation: DmseInterpretation;
  referenceRange: string;
  rule: string;
  mse: string;
}

function readLatency(v: number, p: DmseParams): Reading {
  const lo = p.latencySubclinicalMinSeconds;
  const hi = p.latencyClinicalMinSeconds;
  const referenceRange = `< ${fmt(lo)} s typical; ${fmt(lo)} to < ${fmt(hi)} s subclinical; >= ${fmt(hi)} s clinical attention`;
  const value = `${fmt(v)} s`;
  if (v >= hi)
    return {
      interpretation: "clinical_attention",
      referenceRange,
      rule: `at or above ${fmt(hi)} s`,
      mse: `Responses were markedly delayed (mean latency ${value}), consistent with slowed processing; review clinically.`,
    };
  if (v >= lo)
    return {
      interpretation: "subclinical",
      referenceRange,
      rule: `between ${fmt(lo)} and ${fmt(hi)} s`,
      mse: `Responses were mildly delayed (mean latency ${value}).`,
    };
  return {
    interpretation: "within_normal",
    referenceRange,
    rule: `below ${fmt(lo)} s`,
    mse: `Responses followed questions without notable delay (mean latency ${value}).`,
  };
}

function readSpeech(v: number, p: DmseParams): Reading {
  const referenceRange = `${fmt(p.speechNormalMinWpm)}-${fmt(p.speechNormalMaxWpm)} wpm typical; ${fmt(p.speechClinicalBelowWpm)} to < ${fmt(p.speechNormalMinWpm)} or > ${fmt(p.speechNormalMaxWpm)} to ${fmt(p.speechClinicalAboveWpm)} wpm subclinical; < ${fmt(p.speechClinicalBelowWpm)} or > ${fmt(p.speechClinicalAboveWpm)} wpm clinical attention`;
  const value = `${fmt(v, 0)} words per minute`;
  if (v < p.speechClinicalBelowWpm)
    return {
      interpretation: "clinical_attention",
      referenceRange,
      rule: `below ${fmt(p.speechClinicalBelowWpm)} wpm (slowed)`,
      mse: `Speech was markedly slowed (${value}), which can accompany psychomotor retardation; review clinically.`,
    };
  if (v > p.speechClinicalAboveWpm)
    return {
      interpretation: "clinical_attention",
      referenceRange,
      rule: `above ${fmt(p.speechClinicalAboveWpm)} wpm (rapid)`,
      mse: `Speech was markedly rapid (${value}); consider whether it is pressured.`,
    };
  if (v < p.speechNormalMinWpm)
    return {
      interpretation: "subclinical",
      referenceRange,
      rule: `below ${fmt(p.speechNormalMinWpm)} wpm (mildly slow)`,
      mse: `Speech was mildly slow (${value}).`,
    };
  if (v > p.speechNormalMaxWpm)
    return {
      interpretation: "subclinical",
      referenceRange,
      rule: `above ${fmt(p.speechNormalMaxWpm)} wpm (mildly rapid)`,
      mse: `Speech was mildly rapid (${value}).`,
    };
  return {
    interpretation: "within_normal",
    referenceRange,
    rule: "within the typical range",
    mse: `Speech was of normal rate (${value}).`,
  };
}

function readPsychomotor(v: number, unit: string, p: DmseParams): Reading {
  const referenceRange = `< ${fmt(p.psychomotorSubclinicalMin)} ${unit} typical; ${fmt(p.psychomotorSubclinicalMin)} to < ${fmt(p.psychomotorClinicalMin)} subclinical; >= ${fmt(p.psychomotorClinicalMin)} clinical attention`;
  const value = `${fmt(v)} ${unit}`;
  if (v >= p.psychomotorClinicalMin)
    return {
      interpretation: "clinical_attention",
      referenceRange,
      rule: `at or above ${fmt(p.psychomotorClinicalMin)}`,
      mse: `Marked motor restlessness was observed (${value}), which can accompany psychomotor agitation; review clinically.`,
    };
  if (v >= p.psychomotorSubclinicalMin)
    return {
      interpretation: "subclinical",
      referenceRange,
      rule: `between ${fmt(p.psychomotorSubclinicalMin)} and ${fmt(p.psychomotorClinicalMin)}`,
      mse: `Some motor restlessness was observed (${value}).`,
    };
  return {
    interpretation: "within_normal",
    referenceRange,
    rule: `below ${fmt(p.psychomotorSubclinicalMin)}`,
    mse: `No excess motor restlessness was observed (${value}).`,
  };
}

function readAttention(v: number, p: DmseParams): Reading {
  const referenceRange = `>= ${fmt(p.attentionNormalMinPct)} % typical; ${fmt(p.attentionClinicalBelowPct)} to < ${fmt(p.attentionNormalMinPct)} % subclinical; < ${fmt(p.attentionClinicalBelowPct)} % clinical attention`;
  const value = `${fmt(v)} % of the session`;
  if (v < p.attentionClinicalBelowPct)
    return {
      interpretation: "clinical_attention",
      referenceRange,
      rule: `below ${fmt(p.attentionClinicalBelowPct)} %`,
      mse: `Attention was poorly sustained (gaze on screen ${value}); review clinically.`,
    };
  if (v < p.attentionNormalMinPct)
    return {
      interpretation: "subclinical",
      referenceRange,
      rule: `between ${fmt(p.attentionClinicalBelowPct)} and ${fmt(p.attentionNormalMinPct)} %`,
      mse: `Attention was intermittently diverted (gaze on screen ${value}).`,
    };
  return {
    interpretation: "within_normal",
    referenceRange,
    rule: `at or above ${fmt(p.attentionNormalMinPct)} %`,
    mse: `Attention was sustained (gaze on screen ${value}).`,
  };
}

/** Ruling 13: up/down/stable from the current value against the baseline (see DMSE_DEFAULT_PARAMS). */
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

/** Runs the dmse engine. Never throws on in-bound input. */
export function analyzeDmse(input: DmseInput, options: EngineOptions<DmseParams>): EngineRun<DmseData> {
  const p: DmseParams = options.model
    ? { ...DMSE_DEFAULT_PARAMS, ...options.model.params }
    : DMSE_DEFAULT_PARAMS;
  const model: ModelRef = options.model
    ? { key: DMSE_MODEL_KEY, version: options.model.version, source: "calibrated" }
    : { key: DMSE_MODEL_KEY, version: null, source: "default" };
  const nowIso = options.now.toISOString();

  const durationRaw = input.sessionDurationSeconds;
  const duration = isFiniteNumber(durationRaw) && durationRaw > 0 ? durationRaw : null;
  const durationShare = duration === null ? 0 : Math.min(1, duration / p.confidenceDurationFullSeconds);
  const history = input.history ?? {};

  const signals: DmseSignal[] = [];
  const scores: number[] = [];
  let historyUsed = 0;
  let historyDepthSum = 0;

  for (const key of DMSE_SIGNAL_ORDER) {
    let raw: number | undefined;
    if (key === "response_latency") raw = input.responseLatencySeconds;
    else if (key === "psychomotor") raw = input.psychomotorFidgetEpisodes;
    else if (key === "speech_rate") raw = input.speechRateWpm;
    else raw = input.sustainedAttentionPct;
    if (!isFiniteNumber(raw)) continue;

    let value = raw;
    let unit: string;
    let reading: Reading;
    let measured: string;
    if (key === "response_latency") {
      unit = "s";
      reading = readLatency(value, p);
      measured = `Mean response latency ${fmt(value)} s`;
    } else if (key === "psychomotor") {
      if (duration !== null && duration >= p.psychomotorMinNormaliseSeconds) {
        value = (raw / duration) * p.psychomotorReferenceSeconds;
        unit = `episodes/${fmt(p.psychomotorReferenceSeconds / 60)} min`;
        measured = `${fmt(raw)} fidget episode(s) in ${fmt(duration)} s, ${fmt(value)} per ${fmt(p.psychomotorReferenceSeconds / 60)} minutes`;
      } else {
        unit = "episodes";
        measured =
          duration === null
            ? `${fmt(raw)} fidget episode(s); no session duration was sent, so the count is read as if over ${fmt(p.psychomotorReferenceSeconds / 60)} minutes`
            : `${fmt(raw)} fidget episode(s) in ${fmt(duration)} s, shorter than the ${fmt(p.psychomotorMinNormaliseSeconds)} s needed for a rate, so the count is read as if over ${fmt(p.psychomotorReferenceSeconds / 60)} minutes`;
      }
      reading = readPsychomotor(value, unit, p);
    } else if (key === "speech_rate") {
      unit = "wpm";
      reading = readSpeech(value, p);
      measured = `Speech rate ${fmt(value)} words per minute`;
    } else {
      unit = "%";
      reading = readAttention(value, p);
      measured = `Gaze on screen for ${fmt(value)} % of the session`;
    }

    const prior = (history[key] ?? []).filter(isFiniteNumber);
    const signal: DmseSignal = {
      signalKey: key,
      label: DMSE_SIGNAL_LABELS[key],
      present: true,
      metricValue: round(value),
      metricUnit: unit,
      interpretation: reading.interpretation,
      referenceRange: reading.referenceRange,
      detail: "",
      confidence: "low",
      mseLine: reading.mse,
    };
    let detail = `${measured}: ${reading.rule}, read as ${reading.interpretation}.`;
    if (prior.length > 0) {
      const m = mean(prior);
      const sd = sampleSd(prior);
      const trendDir = dmseTrend(value, m, sd, p);
      signal.trendDir = trendDir;
      signal.baseline = { mean: round(m), sd: round(sd), n: prior.length };
      historyUsed += 1;
      const relation = trendDir === "up" ? "above" : trendDir === "down" ? "below" : "close to";
      detail += ` Baseline from ${prior.length} prior value(s): mean ${fmt(m)}, SD ${fmt(sd)}; the current value is ${relation} it (trend ${trendDir}: beyond max(${fmt(p.trendSdMultiplier)} SD, ${fmt(p.trendRelativeMin * 100)} % of the mean)).`;
      if (trendDir !== "stable")
        signal.mseLine = `${reading.mse} This is ${trendDir === "up" ? "higher" : "lower"} than the patient's baseline (${fmt(m)} ${unit}).`;
    }
    const depth = Math.min(1, prior.length / p.confidenceHistoryFull);
    historyDepthSum += depth;
    const score = clamp(
      p.confidenceDurationWeight * durationShare + (1 - p.confidenceDurationWeight) * depth,
      0,
      1,
    );
    scores.push(score);
    signal.confidence = confidenceLevel(score, p.confidenceHighMin, p.confidenceModerateMin);
    signal.detail = detail;
    signals.push(signal);
  }

  // Worst interpretation first; ties in the fixed signal order (signals are in that order).
  const ranked = signals
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => s.interpretation !== "within_normal")
    .sort((a, b) => RANK[b.s.interpretation] - RANK[a.s.interpretation] || a.i - b.i)
    .map(({ s }) => s);
  const status: DmseInterpretation = ranked[0]?.interpretation ?? "within_normal";
  const flagged = ranked.map((s) => s.label);
  const requiresClinicianReview = status === "clinical_attention";
  const n = signals.length;
  const headline =
    n === 0
      ? "No dmse metric was sent."
      : ranked.length === 0
        ? `All ${n} signal(s) are within the typical range.`
        : `${ranked.length} of ${n} signal(s) outside the typical range: ${ranked.map((s) => `${s.label} (${s.interpretation === "clinical_attention" ? "clinical attention" : "subclinical"})`).join(", ")}.`;

  const overallScore = round(scores.length === 0 ? 0 : mean(scores), 3);
  const overallConfidence = confidenceLevel(overallScore, p.confidenceHighMin, p.confidenceModerateMin);
  const reasons = [
    duration === null
      ? "No session duration was sent; session length adds nothing to confidence."
      : `Session of ${fmt(duration)} s; ${fmt(p.confidenceDurationFullSeconds)} s or more gives full session weight.`,
    historyUsed === 0
      ? "No history was sent for the present signals; no baseline."
      : `${historyUsed} of ${n} signal(s) have a baseline (mean history depth ${fmt((historyDepthSum / Math.max(1, n)) * 100, 0)} % of ${fmt(p.confidenceHistoryFull)} values).`,
  ];

  const metric = (v: unknown) => (isFiniteNumber(v) ? v : null);
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
  const inputs: EngineInput[] = [
    metricInput("psychomotorFidgetEpisodes", input.psychomotorFidgetEpisodes),
    metricInput("responseLatencySeconds", input.responseLatencySeconds),
    metricInput("speechRateWpm", input.speechRateWpm),
    metricInput("sustainedAttentionPct", input.sustainedAttentionPct),
    {
      name: "sessionDurationSeconds",
      value: metric(durationRaw),
      observedAt: null,
      supplied: metric(durationRaw) !== null,
      contributed: duration !== null && n > 0,
    },
    {
      name: "history",
      value: historySupplied ? historyCounts : null,
      observedAt: null,
      supplied: historySupplied,
      contributed: historyUsed > 0,
    },
  ];

  const summary = { status, headline, flagged, requiresClinicianReview };
  const facts: EngineFacts = {
    summary: { ...summary, flagged: [...flagged] },
    confidence: { level: overallConfidence, score: overallScore, reasons },
    inputs,
    current: { score: null, status },
    polarity: { kind: "status", order: DMSE_STATUS_ORDER },
    interpretationScale: { ...DMSE_INTERPRETATION_SCALE },
  };

  return {
    data: {
      generatedAt: nowIso,
      summary,
      signalsPresent: n,
      overallConfidence,
      signals,
      mseNarrative: signals.map((s) => s.mseLine),
      interpretationScale: { ...DMSE_INTERPRETATION_SCALE },
      disclaimer: DMSE_DISCLAIMER,
    },
    facts,
    model,
  };
}
