/**
 * Relapse early-warning engine (POST /v1/relapse/predict). An additive 0-100 score of five
 * factors, each with its own points and maximum: symptom-scale velocity weighted by the recency of
 * the last administration, short sleep, response-latency worsening, the medication-change window
 * and visit cadence. The weights are an expert-set operational default, not a validated
 * prediction model. Pure and deterministic: the clock comes from `options.now`. Method, constants
 * and sources: docs/engines/relapse.md.
 */
import {
  assertNoProblems,
  clamp,
  confidenceLevel,
  daysBetween,
  fmt,
  isFiniteNumber,
  isoOf,
  MS_PER_DAY,
  mergeNumericParams,
  ramp,
  readTrajectory,
  round,
  signed,
  slopePer30Days,
} from "./shared.js";
import { readSymptomFindings } from "./symptom-findings.js";
import type { Assessment, EngineFacts, EngineInput, EngineOptions, EngineRun, ModelRef } from "./types.js";

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

export const RELAPSE_DEFAULT_PARAMS: Readonly<RelapseParams> = Object.freeze({
  // Factor maxima: expert-set operational default (not fitted to outcome data); they sum to 100.
  // Symptoms carry the most weight because a worsening self-report is the most direct warning sign
  // (Barnett et al. 2018; Cohen et al. 2023: anomalies cluster in the weeks before relapse).
  symptomsMaxPoints: 35,
  sleepMaxPoints: 15,
  dmseMaxPoints: 15,
  medicationRecentChangePoints: 10,
  medicationOffPoints: 5,
  cadenceMaxPoints: 20,
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
  // Barnett et al. 2018 (Neuropsychopharmacology 43:1660-1666): anomalies 71 % more frequent in
  // the 2 weeks before relapse -> full weight when the last administration is at most 14 days old;
  // half weight up to the 30-day window of Adler et al. 2020; a quarter beyond (house rule).
  recencyFullWeightDays: 14,
  recencyMidWeightDays: 30,
  recencyMidWeight: 0.5,
  recencyStaleWeight: 0.25,
  // Watson et al. 2015 (J Clin Sleep Med 11:591-592): adults need at least 7 h; points start
  // below 7 h. Full points at 5 h: house rule (two hours short of the recommendation).
  sleepZeroHours: 7,
  sleepFullHours: 5,
  // House rule, as the medication engine: a 10 % latency change is the smallest counted; full
  // points at 50 % slower (no published minimal important change for this measure).
  latencyZeroPct: 10,
  latencyFullPct: 50,
  // Adler et al. 2020: 30-day window, used here for the period after a medication change.
  medChangeWindowDays: 30,
  // House rule: no points for a visit within the 30-day window (Adler et al. 2020); full points at
  // 90 days (a quarter without contact, the longest routine follow-up interval we assume).
  cadenceZeroDays: 30,
  cadenceFullDays: 90,
  // Level bands on the 0-100 score: house rule, equal 20-point steps above the low band.
  levelModerateMin: 20,
  levelElevatedMin: 40,
  levelHighMin: 60,
  // Trend: symptom slope beyond +/- 5 pp per 30 days (a third of the full-velocity slope; house rule).
  trendSlopePp: 5,
  // Confidence = 0.6 x (factors with data / 5) + 0.4 x history depth; depth is full at 6
  // administrations (about six weeks of weekly scores). House rule.
  confidenceCoverageWeight: 0.6,
  confidenceDepthFullAdministrations: 6,
  // Same cut-offs as the medication engine (midpoints of evenly spaced levels).
  confidenceHighMin: 0.75,
  confidenceModerateMin: 0.45,
});

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

/** Levels a severe score or a reliable deterioration cannot fall below (expert-set; evidence.md). */
export const RELAPSE_FINDING_LEVEL_FLOOR: RelapseLevel = "elevated";

export const RELAPSE_DISCLAIMER =
  "Early-warning decision support for clinician review only. The score adds expert-set points for five factors; it is not a validated prediction model, does not estimate a probability of relapse, is not a diagnosis and triggers no action.";

/**
 * Validates a calibrated parameter set (every key known, every value a finite number, ranges
 * coherent, factor maxima summing to 100) and merges it over the defaults. Throws an Error naming
 * every problem otherwise.
 */
export function resolveRelapseParams(overrides: unknown): RelapseParams {
  const p = mergeNumericParams("relapse", RELAPSE_DEFAULT_PARAMS, overrides);
  const problems: string[] = [];
  const nonNegative: (keyof RelapseParams)[] = [
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
  ];
  for (const key of nonNegative) if (p[key] < 0) problems.push(`${key} must be >= 0`);
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

function toneOf(points: number, maxPoints: number): RelapseTone {
  if (points <= 0 || maxPoints <= 0) return "neutral";
  return points / maxPoints >= 0.5 ? "elevated" : "watch";
}

function levelOf(score: number, p: RelapseParams): RelapseLevel {
  if (score >= p.levelHighMin) return "high";
  if (score >= p.levelElevatedMin) return "elevated";
  if (score >= p.levelModerateMin) return "moderate";
  return "low";
}

/** Runs the relapse early-warning engine. Never throws on in-bound input. */
export function predictRelapse(
  input: RelapseInput,
  options: EngineOptions<RelapseParams>,
): EngineRun<RelapseData> {
  const p: RelapseParams = options.model
    ? { ...RELAPSE_DEFAULT_PARAMS, ...options.model.params }
    : RELAPSE_DEFAULT_PARAMS;
  const model: ModelRef = options.model
    ? { key: RELAPSE_MODEL_KEY, version: options.model.version, source: "calibrated" }
    : { key: RELAPSE_MODEL_KEY, version: null, source: "default" };
  const nowMs = options.now.getTime();
  const nowIso = options.now.toISOString();
  const assessments = input.assessments ?? [];

  const factors: RelapseFactor[] = [];
  const factor = (
    key: RelapseFactorKey,
    available: boolean,
    rawPoints: number,
    maxPoints: number,
    detail: string,
  ) => {
    const points = available ? round(clamp(rawPoints, 0, maxPoints)) : 0;
    factors.push({
      key,
      label: RELAPSE_FACTOR_LABELS[key],
      points,
      maxPoints,
      tone: toneOf(points, maxPoints),
      available,
      detail,
    });
  };

  // Symptoms: velocity over the recent window, weighted by the recency of the last administration;
  // a severe latest score or a reliable deterioration on any scale gives at least the finding share.
  const findings = readSymptomFindings(assessments);
  const findingPoints = findings.flags.length > 0 ? p.symptomsMaxPoints * p.symptomFindingShare : 0;
  const findingText =
    findings.flags.length > 0
      ? ` ${findings.flags.join("; ")}: at least ${fmt(findingPoints)} points (expert-set) whatever the velocity.`
      : "";
  const read = readTrajectory(assessments);
  let slope: number | null = null;
  let trend: RelapseTrend = "unknown";
  if (read === null) {
    factor(
      "symptoms",
      false,
      0,
      p.symptomsMaxPoints,
      assessments.length === 0
        ? "No symptom-scale administrations were sent."
        : "No administration had a readable date and score.",
    );
  } else {
    const tr = read.trajectory;
    const fit = slopePer30Days(read.times, read.pcts, p.symptomWindowDays);
    slope = fit.slopePer30Days;
    const ageDays = daysBetween(tr.lastAt, nowMs);
    if (slope === null) {
      factor(
        "symptoms",
        findingPoints > 0,
        findingPoints,
        p.symptomsMaxPoints,
        `${tr.instrumentName} (the most administered scale) has ${tr.n} administration(s) at one point in time; a velocity needs two dates.${findingText}`,
      );
    } else {
      const weight =
        ageDays <= p.recencyFullWeightDays
          ? 1
          : ageDays <= p.recencyMidWeightDays
            ? p.recencyMidWeight
            : p.recencyStaleWeight;
      const velocityShare = ramp(slope, p.symptomSlopeZeroPp, p.symptomSlopeFullPp);
      const raw = p.symptomsMaxPoints * velocityShare * weight;
      trend = slope >= p.trendSlopePp ? "rising" : slope <= -p.trendSlopePp ? "falling" : "stable";
      factor(
        "symptoms",
        true,
        Math.max(raw, findingPoints),
        p.symptomsMaxPoints,
        `${tr.instrumentName} (the most administered of ${tr.instruments} scale(s), ${tr.n} administrations): slope ${signed(slope)} percentage points of the scale maximum per 30 days over ${fit.used} administration(s) ${fit.fromAt < tr.lastAt - p.symptomWindowDays * MS_PER_DAY ? `since ${new Date(fit.fromAt).toISOString().slice(0, 10)} (fewer than two fell in the ${fmt(p.symptomWindowDays)} days up to the latest, so the window reaches back to the previous one)` : `in the ${fmt(p.symptomWindowDays)} days up to the latest`} (full points from ${signed(p.symptomSlopeFullPp)}); latest ${fmt(tr.lastPct)}% on ${new Date(tr.lastAt).toISOString().slice(0, 10)}, ${fmt(ageDays, 1)} days ago, recency weight ${fmt(weight)}.${findingText}`,
      );
    }
  }

  // Sleep: short sleep below the adult recommendation.
  const sleep = input.avgSleepHours;
  if (isFiniteNumber(sleep)) {
    const share = ramp(sleep, p.sleepZeroHours, p.sleepFullHours);
    factor(
      "sleep",
      true,
      p.sleepMaxPoints * share,
      p.sleepMaxPoints,
      `Average sleep ${fmt(sleep)} h against the adult recommendation of at least ${fmt(p.sleepZeroHours)} h; full points at ${fmt(p.sleepFullHours)} h or less.`,
    );
  } else {
    factor("sleep", false, 0, p.sleepMaxPoints, "avgSleepHours was not sent.");
  }

  // dmse: response latency worsening (slower).
  const latency = input.dmseLatencyPctChange;
  if (isFiniteNumber(latency)) {
    const share = ramp(latency, p.latencyZeroPct, p.latencyFullPct);
    factor(
      "dmse",
      true,
      p.dmseMaxPoints * share,
      p.dmseMaxPoints,
      `Response latency changed by ${signed(latency)}% (positive = slower); points from ${signed(p.latencyZeroPct)}%, full at ${signed(p.latencyFullPct)}%.`,
    );
  } else {
    factor("dmse", false, 0, p.dmseMaxPoints, "dmseLatencyPctChange was not sent.");
  }

  // Medication: a recent change, and being off medication after a change.
  const medMax = p.medicationRecentChangePoints + p.medicationOffPoints;
  const days = input.daysSinceMedChange;
  const active = typeof input.hasActiveMedication === "boolean" ? input.hasActiveMedication : null;
  if (isFiniteNumber(days)) {
    const recent = days <= p.medChangeWindowDays;
    const off = active === false;
    const raw = (recent ? p.medicationRecentChangePoints : 0) + (off ? p.medicationOffPoints : 0);
    const parts = [
      recent
        ? `the last medication change was ${fmt(days)} days ago, within the ${fmt(p.medChangeWindowDays)}-day window (${fmt(p.medicationRecentChangePoints)} points)`
        : `the last medication change was ${fmt(days)} days ago, outside the ${fmt(p.medChangeWindowDays)}-day window`,
      off
        ? `no medication is active after that change (${fmt(p.medicationOffPoints)} points)`
        : active === true
          ? "a medication is active"
          : "whether a medication is active was not sent",
    ];
    factor(
      "medication",
      true,
      raw,
      medMax,
      `${parts[0]}; ${parts[1]}.`.replace(/^./, (c) => c.toUpperCase()),
    );
  } else {
    factor(
      "medication",
      false,
      0,
      medMax,
      "daysSinceMedChange was not sent; without a change date, being on or off medication is not scored.",
    );
  }

  // Cadence: days since the last visit.
  const visit = input.daysSinceLastVisit;
  if (isFiniteNumber(visit)) {
    factor(
      "cadence",
      true,
      p.cadenceMaxPoints * ramp(visit, p.cadenceZeroDays, p.cadenceFullDays),
      p.cadenceMaxPoints,
      `Last visit ${fmt(visit)} days ago; points after ${fmt(p.cadenceZeroDays)} days, full at ${fmt(p.cadenceFullDays)} days.`,
    );
  } else {
    factor("cadence", false, 0, p.cadenceMaxPoints, "daysSinceLastVisit was not sent.");
  }

  let sum = 0;
  for (const f of factors) sum += f.points;
  const score = round(clamp(sum, 0, 100));
  // A severe score or a reliable deterioration is never outweighed: the level has a floor then.
  const scoredLevel = levelOf(score, p);
  const floored =
    findings.flags.length > 0 &&
    RELAPSE_LEVELS.indexOf(scoredLevel) < RELAPSE_LEVELS.indexOf(RELAPSE_FINDING_LEVEL_FLOOR);
  const level: RelapseLevel = floored ? RELAPSE_FINDING_LEVEL_FLOOR : scoredLevel;
  // Without a readable symptom factor the score stands on too little to be read as low risk.
  const symptomsRead = factors[0]?.available === true;

  // Largest factor first; ties in the fixed factor order (factors are already in that order).
  const ranked = factors
    .map((f, i) => ({ f, i }))
    .filter(({ f }) => f.points > 0)
    .sort((a, b) => b.f.points - a.f.points || a.i - b.i)
    .map(({ f }) => f);
  const top = ranked[0];
  const topDriver = top ? top.label : RELAPSE_NO_DRIVER;
  const sourceCount = factors.filter((f) => f.available).length;

  // Confidence: coverage of the five factors blended with symptom-history depth.
  const n = read?.trajectory.n ?? 0;
  const coverage = sourceCount / factors.length;
  const depth = Math.min(1, n / p.confidenceDepthFullAdministrations);
  const blended = clamp(
    p.confidenceCoverageWeight * coverage + (1 - p.confidenceCoverageWeight) * depth,
    0,
    1,
  );
  // No symptom factor: confidence is low whatever the other factors cover.
  const confScore = round(symptomsRead ? blended : Math.min(blended, p.confidenceModerateMin / 2), 3);
  const confidence = symptomsRead
    ? confidenceLevel(confScore, p.confidenceHighMin, p.confidenceModerateMin)
    : "low";
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
  if (read !== null) {
    const age = daysBetween(read.trajectory.newestAt, nowMs);
    if (age > p.recencyMidWeightDays) reasons.push(`The newest administration is ${fmt(age, 0)} days old.`);
  }

  const floorText = floored
    ? ` Level raised from ${scoredLevel} to ${level}: ${findings.flags.join("; ")}.`
    : findings.flags.length > 0
      ? ` ${findings.flags.join("; ")}.`
      : "";
  const dataText = symptomsRead
    ? ""
    : " Insufficient data: no symptom-scale trajectory was available, so this score cannot show low risk.";
  const summaryLine = `${
    top
      ? `Relapse early-warning score ${fmt(score)} of 100 (${level}), symptom trend ${trend}; largest factor: ${top.label} (${fmt(top.points)} of ${fmt(top.maxPoints)} points).`
      : `Relapse early-warning score ${fmt(score)} of 100 (${level}), symptom trend ${trend}; no factor added points.`
  }${floorText}${dataText}`;
  const headline = `Relapse early-warning score ${fmt(score)} of 100: ${level}. ${
    symptomsRead || level !== "low"
      ? RELAPSE_INTERPRETATION_SCALE[level]
      : "Insufficient data: no symptom-scale trajectory, so a low score is not evidence of low risk."
  }${floorText}`;
  const recommendation =
    !symptomsRead && level === "low"
      ? RELAPSE_INSUFFICIENT_DATA_RECOMMENDATION
      : RELAPSE_RECOMMENDATIONS[level];

  const supplied = (v: unknown) => isFiniteNumber(v);
  const inputs: EngineInput[] = [
    {
      name: "assessments",
      value: assessments.length,
      observedAt: isoOf(read === null ? null : read.trajectory.newestAt),
      supplied: assessments.length > 0,
      contributed: factors[0]?.available === true,
    },
    {
      name: "dmseLatencyPctChange",
      value: supplied(latency) ? latency : null,
      observedAt: null,
      supplied: supplied(latency),
      contributed: supplied(latency),
    },
    {
      name: "avgSleepHours",
      value: supplied(sleep) ? sleep : null,
      observedAt: null,
      supplied: supplied(sleep),
      contributed: supplied(sleep),
    },
    {
      name: "daysSinceMedChange",
      value: supplied(days) ? days : null,
      observedAt: null,
      supplied: supplied(days),
      contributed: supplied(days),
    },
    {
      name: "hasActiveMedication",
      value: active,
      observedAt: null,
      supplied: active !== null,
      contributed: active !== null && supplied(days),
    },
    {
      name: "daysSinceLastVisit",
      value: supplied(visit) ? visit : null,
      observedAt: null,
      supplied: supplied(visit),
      contributed: supplied(visit),
    },
  ];

  const facts: EngineFacts = {
    summary: {
      status: level,
      headline,
      flagged: [...findings.flags, ...ranked.map((f) => f.label)],
      requiresClinicianReview: level === "elevated" || level === "high" || findings.flags.length > 0,
    },
    confidence: { level: confidence, score: confScore, reasons },
    inputs,
    current: { score, status: level },
    polarity: { kind: "score", higherIs: "worse" },
    interpretationScale: { ...RELAPSE_INTERPRETATION_SCALE },
  };

  return {
    data: {
      generatedAt: nowIso,
      score,
      level,
      trend,
      confidence,
      topDriver,
      factors,
      summaryLine,
      recommendation,
      sourceCount,
      disclaimer: RELAPSE_DISCLAIMER,
    },
    facts,
    model,
  };
}
