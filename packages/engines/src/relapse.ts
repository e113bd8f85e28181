/**
 * Relapse early-warning engine (POST /v1/relapse/predict). An additive 0-100 score of five
 * factors, each with its own points and maximum: symptom-scale velocity weighted by the recency of
 * the last administration, short sleep, response-latency worsening, the medication-change window
 * and visit cadence. The weights are an expert-set operational default, not a validated
 * prediction model. Pure and deterministic: the clock comes from `options.now`. Method, constants
 * and sources: docs/engines/relapse.md.
 */
import { capStaleConfidence, isStale, SYMPTOM_SCORE_STALE_AFTER_DAYS } from "./knowledge/staleness.js";
import { assertNoProblems, engineParams, mergeNumericParams, negativeProblems } from "./params.js";
import {
  assessmentTimes,
  clamp,
  confidenceLevel,
  daysBetween,
  fmt,
  isFiniteNumber,
  isoOf,
  MS_PER_DAY,
  ramp,
  readTrajectory,
  round,
  type SlopeFit,
  signed,
  slopePer30Days,
  type TrajectoryRead,
} from "./shared.js";
import {
  capForUnreadScales,
  PP_EPSILON,
  readSymptomFindings,
  type SymptomFindings,
} from "./symptom-findings.js";
import type {
  Assessment,
  ConfidenceLevel,
  EngineFacts,
  EngineInput,
  EngineOptions,
  EngineRun,
} from "./types.js";

export interface RelapseInput {
  assessments: Assessment[];
  /** Percent change of response latency from the dmse engine (-100..1000); positive = slower. */
  dmseLatencyPctChange?: number;
  /** Average nightly sleep, hours (0-24). */
  avgSleepHours?: number;
  /** Days since the last medication change (start, stop, dose change), 0-3650. */
  daysSinceMedChange?: number;
  /** Whether any medication is currently active (contract default false). */
  hasActiveMedication?: boolean;
  /** Days since the last clinical visit, 0-3650. */
  daysSinceLastVisit?: number;
}

export type RelapseFactorKey = "symptoms" | "sleep" | "dmse" | "medication" | "cadence";
export type RelapseLevel = "low" | "moderate" | "elevated" | "high";
export type RelapseTrend = "rising" | "stable" | "falling" | "unknown";
export type RelapseTone = "neutral" | "watch" | "elevated";

export interface RelapseFactor {
  key: RelapseFactorKey;
  label: string;
  points: number;
  maxPoints: number;
  tone: RelapseTone;
  available: boolean;
  detail: string;
}

export interface RelapseData {
  generatedAt: string;
  score: number;
  level: RelapseLevel;
  trend: RelapseTrend;
  confidence: "high" | "moderate" | "low";
  topDriver: string;
  factors: RelapseFactor[];
  summaryLine: string;
  recommendation: string;
  sourceCount: number;
  disclaimer: string;
}

/** Every threshold, weight and cut-off of the engine; sources in docs/engines/relapse.md. */
export interface RelapseParams {
  symptomsMaxPoints: number;
  sleepMaxPoints: number;
  dmseMaxPoints: number;
  medicationRecentChangePoints: number;
  medicationOffPoints: number;
  cadenceMaxPoints: number;
  symptomWindowDays: number;
  symptomSlopeZeroPp: number;
  symptomSlopeFullPp: number;
  symptomFindingShare: number;
  recencyFullWeightDays: number;
  recencyMidWeightDays: number;
  recencyMidWeight: number;
  recencyStaleWeight: number;
  sleepZeroHours: number;
  sleepFullHours: number;
  latencyZeroPct: number;
  latencyFullPct: number;
  medChangeWindowDays: number;
  cadenceZeroDays: number;
  cadenceFullDays: number;
  levelModerateMin: number;
  levelElevatedMin: number;
  levelHighMin: number;
  trendSlopePp: number;
  confidenceCoverageWeight: number;
  confidenceDepthFullAdministrations: number;
  confidenceHighMin: number;
  confidenceModerateMin: number;
}

export const RELAPSE_MODEL_KEY = "relapse_risk";

/** Fixed factor order: output order and the tie-break of topDriver and flagged. */
export const RELAPSE_FACTOR_ORDER: readonly RelapseFactorKey[] = [
  "symptoms",
  "sleep",
  "dmse",
  "medication",
  "cadence",
];

export const RELAPSE_FACTOR_LABELS: Readonly<Record<RelapseFactorKey, string>> = {
  symptoms: "Symptom trajectory",
  sleep: "Sleep",
  dmse: "Response latency change",
  medication: "Medication change",
  cadence: "Visit cadence",
};

/** Levels, best to worst. */
export const RELAPSE_LEVELS: readonly RelapseLevel[] = ["low", "moderate", "elevated", "high"];

export const RELAPSE_INTERPRETATION_SCALE: Readonly<Record<RelapseLevel, string>> = {
  low: "Routine monitoring.",
  moderate: "Monitor and review at the next visit.",
  elevated: "Consider proactive outreach.",
  high: "Flag for prompt clinician review.",
};

export const RELAPSE_RECOMMENDATIONS: Readonly<Record<RelapseLevel, string>> = {
  low: "Continue routine monitoring and review these factors at the next scheduled contact; a low score does not rule out relapse.",
  moderate: "Keep monitoring and review the contributing factors at the next scheduled visit.",
  elevated:
    "Consider proactive outreach before the next scheduled visit and review the contributing factors with the patient.",
  high: "Flag for prompt clinician review; consider contacting the patient and reviewing the care plan. The score does not replace a clinical assessment.",
};

export const RELAPSE_NO_DRIVER = "No contributing factor";

/**
 * Said instead of the level's recommendation when the score stands on too little: no symptom
 * scale could be read (neither a change over two dates nor a severe score), so a low score reflects
 * missing data, not low risk.
 */
export const RELAPSE_INSUFFICIENT_DATA_RECOMMENDATION =
  "Not enough data to judge relapse risk: no symptom-scale trajectory was available, so a low score here reflects missing data, not low risk. Obtain a current symptom-scale score (for example PHQ-9) and review the factors with the patient.";

/**
 * Said instead of the low level's recommendation when the newest symptom score is older than the
 * staleness limit (decision 62): a low score from old scores is not a current picture.
 */
export const RELAPSE_STALE_DATA_RECOMMENDATION = `Not enough current data to judge relapse risk: the newest symptom-scale score is older than ${SYMPTOM_SCORE_STALE_AFTER_DAYS} days, so a low score here reflects an old picture, not low risk now. Obtain a current symptom-scale score (for example PHQ-9) and review the factors with the patient.`;

/** Levels a severe score or a reliable deterioration cannot fall below (expert-set; evidence.md). */
export const RELAPSE_FINDING_LEVEL_FLOOR: RelapseLevel = "elevated";

/**
 * Off medication after a recent change, with short sleep (decision 75): a recognised relapse
 * prodrome (decreased need for sleep before mania, Jackson et al. 2003; early recurrence after a
 * mood stabiliser is stopped, Suppes et al. 1991). It is a flag that floors the level at
 * RELAPSE_FINDING_LEVEL_FLOOR, never only the medication factor's points. Fixed constants, not
 * calibratable parameters: a calibrated set cannot switch a safety floor off. Sources and
 * levels in evidence.md ("Relapse: off medication with short sleep").
 */
export const OFF_MEDICATION_PRODROME = Object.freeze({
  /** Suppes et al. 1991: more than half of new episodes came within 10 weeks of stopping lithium. */
  windowDays: 70,
  /** Half the sleep factor's range (7 h -> 5 h): a night an hour short of the recommendation. */
  shortSleepHours: 6,
});

export const RELAPSE_DISCLAIMER =
  "Early-warning decision support for clinician review only. The score adds expert-set points for five factors; it is not a validated prediction model, does not estimate a probability of relapse, is not a diagnosis and triggers no action.";

// ---------------------------------------------------------------------------------------------
// Factors: each reads one input and returns its factor; points are clamped to [0, maxPoints] and
// are 0 when the factor has no data.

const FACTOR_MAXIMA = {
  // Factor maxima: expert-set operational default (not fitted to outcome data); they sum to 100.
  // Symptoms carry the most weight because a worsening self-report is the most direct warning sign
  // (Barnett et al. 2018; Cohen et al. 2023: anomalies cluster in the weeks before relapse).
  symptomsMaxPoints: 35,
  sleepMaxPoints: 15,
  dmseMaxPoints: 15,
  medicationRecentChangePoints: 10,
  medicationOffPoints: 5,
  cadenceMaxPoints: 20,
} satisfies Partial<RelapseParams>;

function toneOf(points: number, maxPoints: number): RelapseTone {
  if (points <= 0 || maxPoints <= 0) return "neutral";
  return points / maxPoints >= 0.5 ? "elevated" : "watch";
}

function relapseFactor(
  key: RelapseFactorKey,
  available: boolean,
  rawPoints: number,
  maxPoints: number,
  detail: string,
): RelapseFactor {
  const points = available ? round(clamp(rawPoints, 0, maxPoints)) : 0;
  return {
    key,
    label: RELAPSE_FACTOR_LABELS[key],
    points,
    maxPoints,
    tone: toneOf(points, maxPoints),
    available,
    detail,
  };
}

// Symptoms ------------------------------------------------------------------------------------

const SYMPTOM_DEFAULTS = {
  // Adler et al. 2020 (JMIR mHealth uHealth 8:e19962): 30-day near-relapse window; Cohen et al.
  // 2023 (npj Schizophrenia): anomalies 2.12x as frequent in the month before relapse.
  symptomWindowDays: 30,
  // Velocity ramp in percentage points of the scale maximum per 30 days (expert-set). Full points
  // at 15 pp, below the PHQ-9 reliable change (6 of 27 = 22 %), so a reliable worsening within one
  // month gets full points. Any rise counts.
  symptomSlopeZeroPp: 0,
  symptomSlopeFullPp: 15,
  // Expert-set: a latest score in a severe band (Kroenke 2001; Spitzer 2006) or a reliable
  // deterioration (NHS Talking Therapies: 6 PHQ-9 / 4 GAD-7 points) gives the symptom factor this
  // share of its maximum whatever the velocity, so a persistently severe score is never invisible.
  symptomFindingShare: 1,
} satisfies Partial<RelapseParams>;

const RECENCY_DEFAULTS = {
  // Barnett et al. 2018 (Neuropsychopharmacology 43:1660-1666): anomalies 71 % more frequent in
  // the 2 weeks before relapse -> full weight when the last administration is at most 14 days old;
  // half weight up to the 30-day window of Adler et al. 2020; a quarter beyond (house rule).
  recencyFullWeightDays: 14,
  recencyMidWeightDays: 30,
  recencyMidWeight: 0.5,
  recencyStaleWeight: 0.25,
} satisfies Partial<RelapseParams>;

const TREND_DEFAULTS = {
  // Trend: symptom slope beyond +/- 5 pp per 30 days (a third of the full-velocity slope; house rule).
  trendSlopePp: 5,
} satisfies Partial<RelapseParams>;

/** Weight of the velocity by the age of the last administration: the newest weeks matter most. */
function recencyWeight(ageDays: number, p: RelapseParams): number {
  return ageDays <= p.recencyFullWeightDays
    ? 1
    : ageDays <= p.recencyMidWeightDays
      ? p.recencyMidWeight
      : p.recencyStaleWeight;
}

/**
 * The cut-offs allow PP_EPSILON of rounding: percentages of a maximum (and their mirror on a
 * higher-is-better scale, 100 - pct) do not subtract exactly, so a slope of exactly the cut-off
 * must read the same on a scale and on its mirror.
 */
function symptomTrend(slope: number, p: RelapseParams): RelapseTrend {
  if (slope >= p.trendSlopePp - PP_EPSILON) return "rising";
  return slope <= -p.trendSlopePp + PP_EPSILON ? "falling" : "stable";
}

/** The least the symptom factor gives for a severe latest score or a reliable deterioration. */
function findingFloor(findings: SymptomFindings, p: RelapseParams): { points: number; text: string } {
  const points = findings.flags.length > 0 ? p.symptomsMaxPoints * p.symptomFindingShare : 0;
  const text =
    findings.flags.length > 0
      ? ` ${findings.flags.join("; ")}: at least ${fmt(points)} points (expert-set) whatever the velocity.`
      : "";
  return { points, text };
}

/** Which administrations the slope used: the window, or back to the previous date when it held fewer than two. */
function slopeWindowText(fit: SlopeFit, lastAt: number, p: RelapseParams): string {
  return fit.fromAt < lastAt - p.symptomWindowDays * MS_PER_DAY
    ? `since ${new Date(fit.fromAt).toISOString().slice(0, 10)} (fewer than two fell in the ${fmt(p.symptomWindowDays)} days up to the latest, so the window reaches back to the previous one)`
    : `in the ${fmt(p.symptomWindowDays)} days up to the latest`;
}

/**
 * Symptoms: velocity over the recent window, weighted by the recency of the last administration;
 * a severe latest score or a reliable deterioration on any scale gives at least the finding share.
 */
function symptomFactor(
  assessments: readonly Assessment[],
  read: TrajectoryRead | null,
  findings: SymptomFindings,
  nowMs: number,
  p: RelapseParams,
): { factor: RelapseFactor; trend: RelapseTrend; validReading?: boolean } {
  const floor = findingFloor(findings, p);
  if (read === null) {
    const detail =
      assessments.length === 0
        ? "No symptom-scale administrations were sent."
        : "No administration had a readable date and score.";
    return { factor: relapseFactor("symptoms", false, 0, p.symptomsMaxPoints, detail), trend: "unknown" };
  }
  const tr = read.trajectory;
  if (tr.direction === null) {
    // Decision 60: a scale whose direction is not known gives no velocity (a rise may be better).
    const detail = `${tr.instrumentName}: change not evaluated: direction unknown (not a recognised instrument, so whether a higher score is better or worse is not known).${floor.text}`;
    return {
      factor: relapseFactor("symptoms", floor.points > 0, floor.points, p.symptomsMaxPoints, detail),
      trend: "unknown",
    };
  }
  if (tr.invalid > 0) return invalidTotalsVelocity(read, floor, nowMs, p);
  const fit = slopePer30Days(read.times, read.pcts, p.symptomWindowDays);
  const slope = fit.slopePer30Days;
  const ageDays = daysBetween(tr.lastAt, nowMs);
  if (slope === null) {
    const detail = `${tr.instrumentName} (the most administered scale) has ${tr.n} administration(s) at one point in time; a velocity needs two dates.${floor.text}`;
    return {
      factor: relapseFactor("symptoms", floor.points > 0, floor.points, p.symptomsMaxPoints, detail),
      trend: "unknown",
    };
  }
  const weight = recencyWeight(ageDays, p);
  const velocityShare = ramp(slope, p.symptomSlopeZeroPp, p.symptomSlopeFullPp);
  const raw = p.symptomsMaxPoints * velocityShare * weight;
  const toward =
    tr.direction === "higher_is_better" ? " toward its worse end (higher is better on this scale)" : "";
  const detail = `${tr.instrumentName} (the most administered of ${tr.instruments} scale(s), ${tr.n} administrations): slope ${signed(slope)} percentage points of the scale maximum${toward} per 30 days over ${fit.used} administration(s) ${slopeWindowText(fit, tr.lastAt, p)} (full points from ${signed(p.symptomSlopeFullPp)}); latest ${fmt(tr.lastPct)}% on ${new Date(tr.lastAt).toISOString().slice(0, 10)}, ${fmt(ageDays, 1)} days ago, recency weight ${fmt(weight)}.${floor.text}`;
  return {
    factor: relapseFactor("symptoms", true, Math.max(raw, floor.points), p.symptomsMaxPoints, detail),
    trend: symptomTrend(slope, p),
  };
}

/**
 * Decision 81: with invalid totals the velocity is the steepest rise of three readings (the valid
 * administrations alone, and every administration at its nearest total toward the worse end and
 * toward the better end), so an invalid total never lowers the velocity; a fall counts as
 * `falling` only when the valid administrations show it too, and without a valid velocity a
 * trend that is not rising is `unknown` and a flat or falling velocity is not a reading.
 */
function invalidTotalsVelocity(
  read: TrajectoryRead,
  floor: { points: number; text: string },
  nowMs: number,
  p: RelapseParams,
): { factor: RelapseFactor; trend: RelapseTrend; validReading?: boolean } {
  const tr = read.trajectory;
  const validTimes = read.times.filter((_, i) => read.valid[i]);
  const validPcts = read.pcts.filter((_, i) => read.valid[i]);
  const valid = validTimes.length > 0 ? slopePer30Days(validTimes, validPcts, p.symptomWindowDays) : null;
  const fits = [
    valid,
    slopePer30Days(read.times, read.worsePcts, p.symptomWindowDays),
    slopePer30Days(read.times, read.betterPcts, p.symptomWindowDays),
  ];
  let slope: number | null = null;
  for (const f of fits)
    if (f?.slopePer30Days != null && (slope === null || f.slopePer30Days > slope)) slope = f.slopePer30Days;
  const validSlope = valid?.slopePer30Days ?? null;
  const why = `${tr.invalid} of ${tr.n} administration(s) have invalid totals and were not evaluated as improvement`;
  if (slope === null) {
    const detail = `${tr.instrumentName}: ${why}; no velocity could be read (fewer than two dates).${floor.text}`;
    return {
      factor: relapseFactor("symptoms", floor.points > 0, floor.points, p.symptomsMaxPoints, detail),
      trend: "unknown",
    };
  }
  const weight = recencyWeight(daysBetween(tr.lastAt, nowMs), p);
  const raw = p.symptomsMaxPoints * ramp(slope, p.symptomSlopeZeroPp, p.symptomSlopeFullPp) * weight;
  const points = Math.max(raw, floor.points);
  const trend: RelapseTrend =
    validSlope === null
      ? symptomTrend(slope, p) === "rising"
        ? "rising"
        : "unknown"
      : symptomTrend(slope, p);
  const toward =
    tr.direction === "higher_is_better" ? " toward its worse end (higher is better on this scale)" : "";
  const detail = `${tr.instrumentName} (the most administered of ${tr.instruments} scale(s)): ${why}; steepest slope of the valid administrations and of every administration read at its nearest total either side ${signed(slope)} percentage points of the scale maximum${toward} per 30 days${validSlope === null ? " (the valid administrations alone give no velocity)" : ""}; recency weight ${fmt(weight)}.${floor.text}`;
  return {
    // Without a valid velocity the factor is a reading only when it gives points (a rise or a finding).
    factor: relapseFactor(
      "symptoms",
      validSlope !== null || round(points) > 0,
      points,
      p.symptomsMaxPoints,
      detail,
    ),
    trend,
    // Points from invalid totals alone are a concern, not a reading: a low level still says insufficient data.
    validReading: validSlope !== null || floor.points > 0,
  };
}

// Sleep ---------------------------------------------------------------------------------------

const SLEEP_DEFAULTS = {
  // Watson et al. 2015 (J Clin Sleep Med 11:591-592): adults need at least 7 h; points start
  // below 7 h. Full points at 5 h: house rule (two hours short of the recommendation).
  sleepZeroHours: 7,
  sleepFullHours: 5,
} satisfies Partial<RelapseParams>;

/** Sleep: short sleep below the adult recommendation. */
function sleepFactor(sleep: number | undefined, p: RelapseParams): RelapseFactor {
  if (!isFiniteNumber(sleep))
    return relapseFactor("sleep", false, 0, p.sleepMaxPoints, "avgSleepHours was not sent.");
  const share = ramp(sleep, p.sleepZeroHours, p.sleepFullHours);
  return relapseFactor(
    "sleep",
    true,
    p.sleepMaxPoints * share,
    p.sleepMaxPoints,
    `Average sleep ${fmt(sleep)} h against the adult recommendation of at least ${fmt(p.sleepZeroHours)} h; full points at ${fmt(p.sleepFullHours)} h or less.`,
  );
}

// Response latency (dmse) ---------------------------------------------------------------------

const LATENCY_DEFAULTS = {
  // House rule, as the medication engine: a 10 % latency change is the smallest counted; full
  // points at 50 % slower (no published minimal important change for this measure).
  latencyZeroPct: 10,
  latencyFullPct: 50,
} satisfies Partial<RelapseParams>;

/** dmse: response latency worsening (slower). */
function latencyFactor(latency: number | undefined, p: RelapseParams): RelapseFactor {
  if (!isFiniteNumber(latency))
    return relapseFactor("dmse", false, 0, p.dmseMaxPoints, "dmseLatencyPctChange was not sent.");
  const share = ramp(latency, p.latencyZeroPct, p.latencyFullPct);
  return relapseFactor(
    "dmse",
    true,
    p.dmseMaxPoints * share,
    p.dmseMaxPoints,
    `Response latency changed by ${signed(latency)}% (positive = slower); points from ${signed(p.latencyZeroPct)}%, full at ${signed(p.latencyFullPct)}%.`,
  );
}

// Medication change ---------------------------------------------------------------------------

const MEDICATION_DEFAULTS = {
  // Adler et al. 2020: 30-day window, used here for the period after a medication change.
  medChangeWindowDays: 30,
} satisfies Partial<RelapseParams>;

/** Medication: a recent change, and being off medication after a change. */
function medicationFactor(days: number | undefined, active: boolean | null, p: RelapseParams): RelapseFactor {
  const medMax = p.medicationRecentChangePoints + p.medicationOffPoints;
  if (!isFiniteNumber(days))
    return relapseFactor(
      "medication",
      false,
      0,
      medMax,
      "daysSinceMedChange was not sent; without a change date, being on or off medication is not scored.",
    );
  const recent = days <= p.medChangeWindowDays;
  const off = active === false;
  const raw = (recent ? p.medicationRecentChangePoints : 0) + (off ? p.medicationOffPoints : 0);
  const change = recent
    ? `the last medication change was ${fmt(days)} days ago, within the ${fmt(p.medChangeWindowDays)}-day window (${fmt(p.medicationRecentChangePoints)} points)`
    : `the last medication change was ${fmt(days)} days ago, outside the ${fmt(p.medChangeWindowDays)}-day window`;
  const onOff = off
    ? `no medication is active after that change (${fmt(p.medicationOffPoints)} points)`
    : active === true
      ? "a medication is active"
      : "whether a medication is active was not sent";
  return relapseFactor(
    "medication",
    true,
    raw,
    medMax,
    `${change}; ${onOff}.`.replace(/^./, (c) => c.toUpperCase()),
  );
}

// Visit cadence -------------------------------------------------------------------------------

const CADENCE_DEFAULTS = {
  // House rule: no points for a visit within the 30-day window (Adler et al. 2020); full points at
  // 90 days (a quarter without contact, the longest routine follow-up interval we assume).
  cadenceZeroDays: 30,
  cadenceFullDays: 90,
} satisfies Partial<RelapseParams>;

/** Cadence: days since the last visit. */
function cadenceFactor(visit: number | undefined, p: RelapseParams): RelapseFactor {
  if (!isFiniteNumber(visit))
    return relapseFactor("cadence", false, 0, p.cadenceMaxPoints, "daysSinceLastVisit was not sent.");
  return relapseFactor(
    "cadence",
    true,
    p.cadenceMaxPoints * ramp(visit, p.cadenceZeroDays, p.cadenceFullDays),
    p.cadenceMaxPoints,
    `Last visit ${fmt(visit)} days ago; points after ${fmt(p.cadenceZeroDays)} days, full at ${fmt(p.cadenceFullDays)} days.`,
  );
}

// ---------------------------------------------------------------------------------------------
// Score, level and drivers

const LEVEL_DEFAULTS = {
  // Level bands on the 0-100 score: house rule, equal 20-point steps above the low band.
  levelModerateMin: 20,
  levelElevatedMin: 40,
  levelHighMin: 60,
} satisfies Partial<RelapseParams>;

function relapseScore(factors: readonly RelapseFactor[]): number {
  let sum = 0;
  for (const f of factors) sum += f.points;
  return round(clamp(sum, 0, 100));
}

function levelOf(score: number, p: RelapseParams): RelapseLevel {
  if (score >= p.levelHighMin) return "high";
  if (score >= p.levelElevatedMin) return "elevated";
  if (score >= p.levelModerateMin) return "moderate";
  return "low";
}

/** A severe score or a reliable deterioration is never outweighed: the level has a floor then. */
/**
 * The off-medication prodrome flag (decision 75), or null: no medication active after a change
 * within OFF_MEDICATION_PRODROME.windowDays, with average sleep at or below its short-sleep hours.
 * The input does not say which medicine stopped, so the flag names the pattern, not a drug.
 */
function offMedicationProdromeFlag(input: RelapseInput, active: boolean | null): string | null {
  const days = input.daysSinceMedChange;
  const sleep = input.avgSleepHours;
  if (active !== false || !isFiniteNumber(days) || !isFiniteNumber(sleep)) return null;
  if (days > OFF_MEDICATION_PRODROME.windowDays || sleep > OFF_MEDICATION_PRODROME.shortSleepHours)
    return null;
  return `No medication active ${fmt(days)} days after a change, with average sleep ${fmt(sleep)} h: short sleep after stopping treatment (for example a mood stabiliser) can precede relapse, mania especially; review`;
}

function flooredLevel(
  score: number,
  flags: readonly string[],
  p: RelapseParams,
): { scoredLevel: RelapseLevel; level: RelapseLevel; floored: boolean } {
  const scoredLevel = levelOf(score, p);
  const floored =
    flags.length > 0 &&
    RELAPSE_LEVELS.indexOf(scoredLevel) < RELAPSE_LEVELS.indexOf(RELAPSE_FINDING_LEVEL_FLOOR);
  return { scoredLevel, level: floored ? RELAPSE_FINDING_LEVEL_FLOOR : scoredLevel, floored };
}

/** Factors that added points, largest first; ties in the fixed factor order (factors are already in that order). */
function rankedDrivers(factors: readonly RelapseFactor[]): RelapseFactor[] {
  return factors
    .map((f, i) => ({ f, i }))
    .filter(({ f }) => f.points > 0)
    .sort((a, b) => b.f.points - a.f.points || a.i - b.i)
    .map(({ f }) => f);
}

// ---------------------------------------------------------------------------------------------
// Confidence

const CONFIDENCE_DEFAULTS = {
  // Confidence = 0.6 x (factors with data / 5) + 0.4 x history depth; depth is full at 6
  // administrations (about six weeks of weekly scores). House rule.
  confidenceCoverageWeight: 0.6,
  confidenceDepthFullAdministrations: 6,
  // Same cut-offs as the medication engine (midpoints of evenly spaced levels).
  confidenceHighMin: 0.75,
  confidenceModerateMin: 0.45,
} satisfies Partial<RelapseParams>;

/** Confidence: coverage of the five factors blended with symptom-history depth. */
function relapseConfidence(
  factors: readonly RelapseFactor[],
  read: TrajectoryRead | null,
  symptomsRead: boolean,
  nowMs: number,
  staleText: string,
  p: RelapseParams,
): { level: ConfidenceLevel; score: number; reasons: string[] } {
  // Decision 81: invalid totals add no history depth.
  const n = read === null ? 0 : read.trajectory.n - read.trajectory.invalid;
  const sourceCount = factors.filter((f) => f.available).length;
  const coverage = sourceCount / factors.length;
  const depth = Math.min(1, n / p.confidenceDepthFullAdministrations);
  const blended = clamp(
    p.confidenceCoverageWeight * coverage + (1 - p.confidenceCoverageWeight) * depth,
    0,
    1,
  );
  // No symptom factor: confidence is low whatever the other factors cover.
  const score = round(symptomsRead ? blended : Math.min(blended, p.confidenceModerateMin / 2), 3);
  const level = symptomsRead ? confidenceLevel(score, p.confidenceHighMin, p.confidenceModerateMin) : "low";
  const missing = factors.filter((f) => !f.available).map((f) => f.key);
  const reasons = [
    ...(symptomsRead
      ? []
      : [
          "No symptom-scale trajectory or severe score could be read: the score cannot show low risk, so confidence is low.",
        ]),
    `${sourceCount} of ${factors.length} factors had data${missing.length > 0 ? ` (missing: ${missing.join(", ")})` : ""}.`,
    n === 0
      ? "No readable symptom-scale history."
      : `${n} administration(s) of the most administered scale; ${fmt(p.confidenceDepthFullAdministrations)} or more give full history depth.`,
  ];
  if (read !== null && staleText === "") {
    const age = daysBetween(read.trajectory.newestAt, nowMs);
    if (age > p.recencyMidWeightDays) reasons.push(`The newest administration is ${fmt(age, 0)} days old.`);
  }
  // Decision 62: a stale symptom picture caps confidence at low.
  return capStaleConfidence({ level, score, reasons }, staleText !== "", staleText);
}

// ---------------------------------------------------------------------------------------------
// Wording

/** What the narrative lines say: the score, its level (and any floor), the trend and the largest factor. */
interface Verdict {
  score: number;
  level: RelapseLevel;
  scoredLevel: RelapseLevel;
  floored: boolean;
  trend: RelapseTrend;
  top: RelapseFactor | undefined;
  flags: readonly string[];
  /** Whether the symptom factor had data; without it a low score reflects missing data, not low risk. */
  symptomsRead: boolean;
  /** "Not current: ..." when the newest symptom score is stale (decision 62), else "". */
  staleText: string;
  /** Data-quality notes of the symptom findings (direction unknown, totals not valid). */
  notes: readonly string[];
}

/** A current symptom picture: read, and not stale. Without one a low score is not evidence of low risk. */
const currentSymptoms = (v: Verdict): boolean => v.symptomsRead && v.staleText === "";

function floorText(v: Verdict): string {
  return v.floored
    ? ` Level raised from ${v.scoredLevel} to ${v.level}: ${v.flags.join("; ")}.`
    : v.flags.length > 0
      ? ` ${v.flags.join("; ")}.`
      : "";
}

function relapseSummaryLine(v: Verdict): string {
  const dataText = v.symptomsRead
    ? ""
    : " Insufficient data: no symptom-scale trajectory was available, so this score cannot show low risk.";
  return `${
    v.top
      ? `Relapse early-warning score ${fmt(v.score)} of 100 (${v.level}), symptom trend ${v.trend}; largest factor: ${v.top.label} (${fmt(v.top.points)} of ${fmt(v.top.maxPoints)} points).`
      : `Relapse early-warning score ${fmt(v.score)} of 100 (${v.level}), symptom trend ${v.trend}; no factor added points.`
  }${floorText(v)}${dataText}${v.notes.map((n) => ` ${n}.`).join("")}${v.staleText === "" ? "" : ` ${v.staleText}`}`;
}

function relapseHeadline(v: Verdict): string {
  return `Relapse early-warning score ${fmt(v.score)} of 100: ${v.level}. ${
    currentSymptoms(v) || v.level !== "low"
      ? RELAPSE_INTERPRETATION_SCALE[v.level]
      : v.symptomsRead
        ? "Insufficient current data: the symptom scores are old, so a low score is not evidence of low risk."
        : "Insufficient data: no symptom-scale trajectory, so a low score is not evidence of low risk."
  }${floorText(v)}${v.staleText === "" ? "" : ` ${v.staleText}`}`;
}

function relapseRecommendation(v: Verdict): string {
  if (currentSymptoms(v) || v.level !== "low") return RELAPSE_RECOMMENDATIONS[v.level];
  return v.symptomsRead ? RELAPSE_STALE_DATA_RECOMMENDATION : RELAPSE_INSUFFICIENT_DATA_RECOMMENDATION;
}

// ---------------------------------------------------------------------------------------------
// Inputs and facts

function scalarInput(name: string, v: number | undefined): EngineInput {
  const supplied = isFiniteNumber(v);
  return { name, value: supplied ? v : null, observedAt: null, supplied, contributed: supplied };
}

function relapseInputs(
  input: RelapseInput,
  assessments: readonly Assessment[],
  read: TrajectoryRead | null,
  symptomsRead: boolean,
  active: boolean | null,
): EngineInput[] {
  return [
    {
      name: "assessments",
      value: assessments.length,
      observedAt: isoOf(read === null ? null : read.trajectory.newestAt),
      supplied: assessments.length > 0,
      contributed: symptomsRead,
      staleAfterDays: SYMPTOM_SCORE_STALE_AFTER_DAYS,
    },
    scalarInput("dmseLatencyPctChange", input.dmseLatencyPctChange),
    scalarInput("avgSleepHours", input.avgSleepHours),
    scalarInput("daysSinceMedChange", input.daysSinceMedChange),
    {
      name: "hasActiveMedication",
      value: active,
      observedAt: null,
      supplied: active !== null,
      // Being on or off medication is scored only with a change date.
      contributed: active !== null && isFiniteNumber(input.daysSinceMedChange),
    },
    scalarInput("daysSinceLastVisit", input.daysSinceLastVisit),
  ];
}

function relapseFacts(
  v: Verdict,
  ranked: readonly RelapseFactor[],
  confidence: EngineFacts["confidence"],
  inputs: EngineInput[],
): EngineFacts {
  return {
    summary: {
      status: v.level,
      headline: relapseHeadline(v),
      flagged: [...v.flags, ...ranked.map((f) => f.label)],
      requiresClinicianReview: v.level === "elevated" || v.level === "high" || v.flags.length > 0,
    },
    confidence,
    inputs,
    current: { score: v.score, status: v.level },
    polarity: { kind: "score", higherIs: "worse" },
    interpretationScale: { ...RELAPSE_INTERPRETATION_SCALE },
  };
}

// ---------------------------------------------------------------------------------------------
// Parameter set

/**
 * Every default, composed from the groups above (each beside the code that reads it); sources in
 * docs/engines/relapse.md. The spread order fixes the key order.
 */
export const RELAPSE_DEFAULT_PARAMS: Readonly<RelapseParams> = Object.freeze({
  ...FACTOR_MAXIMA,
  ...SYMPTOM_DEFAULTS,
  ...RECENCY_DEFAULTS,
  ...SLEEP_DEFAULTS,
  ...LATENCY_DEFAULTS,
  ...MEDICATION_DEFAULTS,
  ...CADENCE_DEFAULTS,
  ...LEVEL_DEFAULTS,
  ...TREND_DEFAULTS,
  ...CONFIDENCE_DEFAULTS,
});

/**
 * Validates a calibrated parameter set (every key known, every value a finite number, ranges
 * coherent, factor maxima summing to 100) and merges it over the defaults. Throws an Error naming
 * every problem otherwise.
 */
export function resolveRelapseParams(overrides: unknown): RelapseParams {
  const p = mergeNumericParams("relapse", RELAPSE_DEFAULT_PARAMS, overrides);
  const problems = negativeProblems(p, [
    "symptomsMaxPoints",
    "sleepMaxPoints",
    "dmseMaxPoints",
    "medicationRecentChangePoints",
    "medicationOffPoints",
    "cadenceMaxPoints",
    "symptomWindowDays",
    "recencyFullWeightDays",
    "medChangeWindowDays",
    "trendSlopePp",
  ] as const);
  const total =
    p.symptomsMaxPoints +
    p.sleepMaxPoints +
    p.dmseMaxPoints +
    p.medicationRecentChangePoints +
    p.medicationOffPoints +
    p.cadenceMaxPoints;
  if (Math.abs(total - 100) > 1e-9) problems.push(`factor maxima must sum to 100 (got ${total})`);
  if (p.symptomSlopeFullPp <= p.symptomSlopeZeroPp)
    problems.push("symptomSlopeFullPp must be > symptomSlopeZeroPp");
  if (p.recencyMidWeightDays < p.recencyFullWeightDays)
    problems.push("recencyMidWeightDays must be >= recencyFullWeightDays");
  for (const key of [
    "recencyMidWeight",
    "recencyStaleWeight",
    "confidenceCoverageWeight",
    "symptomFindingShare",
  ] as const)
    if (p[key] < 0 || p[key] > 1) problems.push(`${key} must be in [0, 1]`);
  if (p.sleepFullHours >= p.sleepZeroHours) problems.push("sleepFullHours must be < sleepZeroHours");
  if (p.latencyFullPct <= p.latencyZeroPct) problems.push("latencyFullPct must be > latencyZeroPct");
  if (p.cadenceFullDays <= p.cadenceZeroDays) problems.push("cadenceFullDays must be > cadenceZeroDays");
  if (
    !(
      p.levelModerateMin > 0 &&
      p.levelModerateMin < p.levelElevatedMin &&
      p.levelElevatedMin < p.levelHighMin
    )
  )
    problems.push("level cut-offs must satisfy 0 < levelModerateMin < levelElevatedMin < levelHighMin");
  if (p.levelHighMin > 100) problems.push("levelHighMin must be <= 100");
  if (p.confidenceDepthFullAdministrations < 1)
    problems.push("confidenceDepthFullAdministrations must be >= 1");
  if (
    !(
      p.confidenceModerateMin >= 0 &&
      p.confidenceModerateMin <= p.confidenceHighMin &&
      p.confidenceHighMin <= 1
    )
  )
    problems.push("confidence cut-offs must satisfy 0 <= confidenceModerateMin <= confidenceHighMin <= 1");
  assertNoProblems("relapse", problems);
  return p;
}

/** Runs the relapse early-warning engine. Never throws on in-bound input. */
export function predictRelapse(
  input: RelapseInput,
  options: EngineOptions<RelapseParams>,
): EngineRun<RelapseData> {
  const { params: p, model } = engineParams(RELAPSE_MODEL_KEY, RELAPSE_DEFAULT_PARAMS, options);
  const nowMs = options.now.getTime();
  const assessments = input.assessments ?? [];
  const active = typeof input.hasActiveMedication === "boolean" ? input.hasActiveMedication : null;

  const times = assessmentTimes(assessments);
  const findings = readSymptomFindings(assessments, undefined, times);
  const read = readTrajectory(assessments, times);
  const symptoms = symptomFactor(assessments, read, findings, nowMs, p);
  const factors: RelapseFactor[] = [
    symptoms.factor,
    sleepFactor(input.avgSleepHours, p),
    latencyFactor(input.dmseLatencyPctChange, p),
    medicationFactor(input.daysSinceMedChange, active, p),
    cadenceFactor(input.daysSinceLastVisit, p),
  ];

  const score = relapseScore(factors);
  const ranked = rankedDrivers(factors);
  // Without a readable symptom factor the score stands on too little to be read as low risk.
  const symptomsRead = symptoms.factor.available && symptoms.validReading !== false;
  const stale = read !== null && isStale(read.trajectory.newestAt, nowMs);
  const staleText =
    read !== null && stale
      ? `Not current: the newest symptom score is ${fmt(daysBetween(read.trajectory.newestAt, nowMs), 0)} days old (older than ${SYMPTOM_SCORE_STALE_AFTER_DAYS} days).`
      : "";
  const scored = relapseConfidence(factors, read, symptomsRead, nowMs, staleText, p);
  scored.reasons.push(...findings.notes);
  const confidence = capForUnreadScales(scored, findings);
  const prodrome = offMedicationProdromeFlag(input, active);
  const flags = prodrome === null ? findings.flags : [...findings.flags, prodrome];
  const v: Verdict = {
    score,
    ...flooredLevel(score, flags, p),
    // A stale falling or stable trend is not a current one (decision 62); a rise stays visible.
    trend: stale && symptoms.trend !== "rising" ? "unknown" : symptoms.trend,
    top: ranked[0],
    flags,
    symptomsRead,
    staleText,
    notes: findings.notes,
  };
  const inputs = relapseInputs(input, assessments, read, symptomsRead, active);

  return {
    data: {
      generatedAt: options.now.toISOString(),
      score,
      level: v.level,
      trend: v.trend,
      confidence: confidence.level,
      topDriver: v.top ? v.top.label : RELAPSE_NO_DRIVER,
      factors,
      summaryLine: relapseSummaryLine(v),
      recommendation: relapseRecommendation(v),
      sourceCount: factors.filter((f) => f.available).length,
      disclaimer: RELAPSE_DISCLAIMER,
    },
    facts: relapseFacts(v, ranked, confidence, inputs),
    model,
  };
}
