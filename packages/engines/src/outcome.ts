/**
 * Treatment-response composite (POST /v1/outcome/score). Up to five sources (symptom trajectory,
 * response-latency change, active medication, biomarker watch items, sleep) each give a signed,
 * capped contribution; the contributions sum to the score, from -100 (worsening) to +100 (strong
 * improvement). Pure and deterministic: the clock comes from `options.now`. Method, constants and
 * sources: docs/engines/outcome.md.
 */
import {
  assertNoProblems,
  clamp,
  dateOf,
  fmt,
  isFiniteNumber,
  isoOf,
  mergeNumericParams,
  readTrajectory,
  round,
  signed,
} from "./shared.js";
import type {
  Assessment,
  ConfidenceLevel,
  EngineFacts,
  EngineInput,
  EngineOptions,
  EngineRun,
  ModelRef,
} from "./types.js";

export interface OutcomeInput {
  assessments: Assessment[];
  /** Percent change of response latency from the dmse engine (-100..1000); negative = faster = improving. */
  dmseLatencyPctChange?: number;
  /** Number of active medications, 0-100 (contract default 0). */
  activeMedications?: number;
  /** Number of biomarker watch items (e.g. flagged readings from the biomarker engine), 0-100 (default 0). */
  biomarkerWatchCount?: number;
  /** Average nightly sleep, hours (0-24). */
  avgSleepHours?: number;
}

export type OutcomeComponentKey = "symptoms" | "dmse" | "medication" | "biomarker" | "sleep";
export type OutcomeDirection = "improving" | "stable" | "worsening" | "insufficient_data";

export interface OutcomeComponent {
  key: OutcomeComponentKey;
  label: string;
  contribution: number;
  detail: string;
  available: boolean;
}

export interface OutcomeData {
  generatedAt: string;
  score: number;
  direction: OutcomeDirection;
  confidence: ConfidenceLevel;
  components: OutcomeComponent[];
  summaryLine: string;
  sourceCount: number;
  disclaimer: string;
}

/** Every threshold, weight and cut-off of the engine; sources in docs/engines/outcome.md. */
export interface OutcomeParams {
  symptomsWeight: number;
  dmseWeight: number;
  medicationWeight: number;
  biomarkerWeight: number;
  sleepWeight: number;
  symptomsFullChangePp: number;
  dmseFullPct: number;
  polypharmacyMin: number;
  biomarkerFullCount: number;
  sleepRecommendedHours: number;
  sleepLongHours: number;
  sleepShortFullHours: number;
  sleepAdequateShare: number;
  directionThreshold: number;
  confidenceAgreeHigh: number;
  confidenceAgreeModerate: number;
  confidenceAgreementWeight: number;
  confidenceCoverageWeight: number;
  confidenceDepthFullAdministrations: number;
}

export const OUTCOME_MODEL_KEY = "outcome_score";

export const OUTCOME_DEFAULT_PARAMS: Readonly<OutcomeParams> = Object.freeze({
  // Caps of each component (absolute value): expert-set operational default, summing to 100 so the
  // contributions always add up to the score without clamping. Symptom scales carry the most
  // weight: they are the validated measure of treatment response (Kroenke et al. 2001).
  symptomsWeight: 45,
  dmseWeight: 15,
  medicationWeight: 5,
  biomarkerWeight: 15,
  sleepWeight: 20,
  // Full symptom contribution at a 30-point change in percent of the scale maximum: about twice the
  // Jacobson-Truax reliable change of the PHQ-9 (3.88 of 27 = 14.4 %, docs/engines/medication.md).
  symptomsFullChangePp: 30,
  // House rule: full latency contribution at a 30 % change (three times the 10 % the medication
  // engine counts as a change; no published minimal important change for this measure).
  dmseFullPct: 30,
  // Masnoon et al. 2017 (BMC Geriatr 17:230): five or more medicines is the most common definition
  // of polypharmacy.
  polypharmacyMin: 5,
  // House rule: each watch item takes a third of the biomarker cap; three or more take all of it.
  biomarkerFullCount: 3,
  // Watson et al. 2015 (J Clin Sleep Med 11:591-592): adults need at least 7 h; more than 9 h may
  // suit some groups but its benefit is uncertain, so it adds nothing.
  sleepRecommendedHours: 7,
  sleepLongHours: 9,
  // House rule: full negative sleep contribution at 5 h (two hours short of the recommendation).
  sleepShortFullHours: 5,
  // House rule: sleep within the recommendation adds half the sleep cap (supportive, not proof).
  sleepAdequateShare: 0.5,
  // House rule: |score| below 10 of 100 is read as stable.
  directionThreshold: 10,
  // Contract: confidence scales with the number of independent sources that agree in sign.
  // House rule: three agreeing sources = high, two = moderate.
  confidenceAgreeHigh: 3,
  confidenceAgreeModerate: 2,
  // facts.confidence.score = 0.5 x agreement + 0.3 x coverage + 0.2 x history depth (house rule);
  // depth is full at six administrations (about six weeks of weekly scores).
  confidenceAgreementWeight: 0.5,
  confidenceCoverageWeight: 0.3,
  confidenceDepthFullAdministrations: 6,
});

/** Fixed component order: output order and tie-break of `flagged` and the largest contribution. */
export const OUTCOME_COMPONENT_ORDER: readonly OutcomeComponentKey[] = [
  "symptoms",
  "dmse",
  "medication",
  "biomarker",
  "sleep",
];

export const OUTCOME_COMPONENT_LABELS: Readonly<Record<OutcomeComponentKey, string>> = {
  symptoms: "Symptom trajectory",
  dmse: "Response latency",
  medication: "Active medication",
  biomarker: "Biomarker watch items",
  sleep: "Sleep",
};

/** Legend of the direction values for a parameter set (the cut-off is a parameter). */
export function outcomeInterpretationScale(
  p: Pick<OutcomeParams, "directionThreshold">,
): Record<OutcomeDirection, string> {
  const t = fmt(p.directionThreshold);
  return {
    improving: `The composite is +${t} or more: the available sources point to improvement on balance.`,
    stable: `The composite is between -${t} and +${t}: no clear change on balance.`,
    worsening: `The composite is -${t} or less: the available sources point to worsening; flag for clinician review.`,
    insufficient_data: "No source had data; no composite could be formed.",
  };
}

export const OUTCOME_INTERPRETATION_SCALE: Readonly<Record<OutcomeDirection, string>> =
  outcomeInterpretationScale(OUTCOME_DEFAULT_PARAMS);

export const OUTCOME_DISCLAIMER =
  "Decision support for clinician review only. The composite adds expert-set, capped contributions of up to five sources; it is not a validated outcome measure, cannot show what caused a change, and is neither a diagnosis nor a treatment recommendation.";

/**
 * Validates a calibrated parameter set (every key known, every value a finite number, caps
 * non-negative and summing to at most 100, ranges coherent) and merges it over the defaults.
 * Throws an Error naming every problem otherwise.
 */
export function resolveOutcomeParams(overrides: unknown): OutcomeParams {
  const p = mergeNumericParams("outcome", OUTCOME_DEFAULT_PARAMS, overrides);
  const problems: string[] = [];
  const weights = [
    "symptomsWeight",
    "dmseWeight",
    "medicationWeight",
    "biomarkerWeight",
    "sleepWeight",
  ] as const;
  let total = 0;
  for (const key of weights) {
    if (p[key] < 0) problems.push(`${key} must be >= 0`);
    total += p[key];
  }
  if (total > 100 + 1e-9) problems.push(`component weights must sum to at most 100 (got ${total})`);
  for (const key of ["symptomsFullChangePp", "dmseFullPct", "biomarkerFullCount"] as const)
    if (p[key] <= 0) problems.push(`${key} must be > 0`);
  if (p.polypharmacyMin < 1) problems.push("polypharmacyMin must be >= 1");
  if (!(p.sleepShortFullHours < p.sleepRecommendedHours && p.sleepRecommendedHours <= p.sleepLongHours))
    problems.push("sleep hours must satisfy sleepShortFullHours < sleepRecommendedHours <= sleepLongHours");
  if (p.sleepAdequateShare < 0 || p.sleepAdequateShare > 1)
    problems.push("sleepAdequateShare must be in [0, 1]");
  if (p.directionThreshold < 0 || p.directionThreshold > 100)
    problems.push("directionThreshold must be in [0, 100]");
  if (!(p.confidenceAgreeModerate >= 1 && p.confidenceAgreeModerate <= p.confidenceAgreeHigh))
    problems.push(
      "confidence agreement counts must satisfy 1 <= confidenceAgreeModerate <= confidenceAgreeHigh",
    );
  if (
    p.confidenceAgreementWeight < 0 ||
    p.confidenceCoverageWeight < 0 ||
    p.confidenceAgreementWeight + p.confidenceCoverageWeight > 1
  )
    problems.push("confidenceAgreementWeight and confidenceCoverageWeight must be >= 0 and sum to at most 1");
  if (p.confidenceDepthFullAdministrations < 1)
    problems.push("confidenceDepthFullAdministrations must be >= 1");
  assertNoProblems("outcome", problems);
  return p;
}

/** Runs the outcome composite. Never throws on in-bound input. */
export function scoreOutcome(
  input: OutcomeInput,
  options: EngineOptions<OutcomeParams>,
): EngineRun<OutcomeData> {
  const p: OutcomeParams = options.model
    ? { ...OUTCOME_DEFAULT_PARAMS, ...options.model.params }
    : OUTCOME_DEFAULT_PARAMS;
  const model: ModelRef = options.model
    ? { key: OUTCOME_MODEL_KEY, version: options.model.version, source: "calibrated" }
    : { key: OUTCOME_MODEL_KEY, version: null, source: "default" };
  const nowIso = options.now.toISOString();
  const assessments = input.assessments ?? [];

  const components: OutcomeComponent[] = [];
  const add = (key: OutcomeComponentKey, available: boolean, raw: number, cap: number, detail: string) => {
    components.push({
      key,
      label: OUTCOME_COMPONENT_LABELS[key],
      contribution: available ? round(clamp(raw, -cap, cap)) : 0,
      detail,
      available,
    });
  };

  // Symptoms: first vs last administration of the most administered scale; a fall is improvement.
  const read = readTrajectory(assessments);
  const tr = read?.trajectory ?? null;
  if (tr === null) {
    add(
      "symptoms",
      false,
      0,
      p.symptomsWeight,
      assessments.length === 0
        ? "No symptom-scale administrations were sent."
        : "No administration had a readable date and score.",
    );
  } else if (tr.lastAt === tr.firstAt) {
    add(
      "symptoms",
      false,
      0,
      p.symptomsWeight,
      `${tr.instrumentName} (the most administered scale) has ${tr.n} administration(s) at one point in time; a change needs two dates.`,
    );
  } else {
    const share = clamp(tr.change / p.symptomsFullChangePp, -1, 1);
    add(
      "symptoms",
      true,
      -p.symptomsWeight * share,
      p.symptomsWeight,
      `${tr.instrumentName} (the most administered of ${tr.instruments} scale(s), ${tr.n} administrations): ${fmt(tr.firstPct)}% of the scale maximum on ${dateOf(tr.firstAt)} to ${fmt(tr.lastPct)}% on ${dateOf(tr.lastAt)}, ${signed(tr.change)} percentage points (higher is worse); full contribution at ${fmt(p.symptomsFullChangePp)} points.`,
    );
  }

  // dmse: response latency change; faster (negative) is improvement.
  const latency = input.dmseLatencyPctChange;
  if (isFiniteNumber(latency)) {
    add(
      "dmse",
      true,
      -p.dmseWeight * clamp(latency / p.dmseFullPct, -1, 1),
      p.dmseWeight,
      `Response latency changed by ${signed(latency)}% (negative = faster = improving); full contribution at ${fmt(p.dmseFullPct)}% either way.`,
    );
  } else {
    add("dmse", false, 0, p.dmseWeight, "dmseLatencyPctChange was not sent.");
  }

  // Medication: on treatment adds a little; polypharmacy subtracts a little; none is no source.
  const meds = input.activeMedications;
  if (isFiniteNumber(meds) && meds > 0) {
    const poly = meds >= p.polypharmacyMin;
    add(
      "medication",
      true,
      poly ? -p.medicationWeight : p.medicationWeight,
      p.medicationWeight,
      poly
        ? `${fmt(meds)} active medications: at or above the polypharmacy threshold of ${fmt(p.polypharmacyMin)}.`
        : `${fmt(meds)} active medication(s): on treatment, below the polypharmacy threshold of ${fmt(p.polypharmacyMin)}.`,
    );
  } else {
    add("medication", false, 0, p.medicationWeight, "No active medications were reported.");
  }

  // Biomarker: each watch item counts against the composite.
  const watch = input.biomarkerWatchCount;
  if (isFiniteNumber(watch) && watch > 0) {
    add(
      "biomarker",
      true,
      -p.biomarkerWeight * Math.min(1, watch / p.biomarkerFullCount),
      p.biomarkerWeight,
      `${fmt(watch)} biomarker watch item(s); the full negative contribution is reached at ${fmt(p.biomarkerFullCount)}.`,
    );
  } else {
    add("biomarker", false, 0, p.biomarkerWeight, "No biomarker watch items were reported.");
  }

  // Sleep: against the adult recommendation of at least 7 hours.
  const sleep = input.avgSleepHours;
  if (isFiniteNumber(sleep)) {
    let raw: number;
    let reading: string;
    if (sleep < p.sleepRecommendedHours) {
      raw =
        -p.sleepWeight *
        clamp((p.sleepRecommendedHours - sleep) / (p.sleepRecommendedHours - p.sleepShortFullHours), 0, 1);
      reading = `below the adult recommendation of at least ${fmt(p.sleepRecommendedHours)} h (full negative contribution at ${fmt(p.sleepShortFullHours)} h)`;
    } else if (sleep <= p.sleepLongHours) {
      raw = p.sleepWeight * p.sleepAdequateShare;
      reading = `within the recommended ${fmt(p.sleepRecommendedHours)}-${fmt(p.sleepLongHours)} h`;
    } else {
      raw = 0;
      reading = `above ${fmt(p.sleepLongHours)} h, where benefit is uncertain; no contribution`;
    }
    add("sleep", true, raw, p.sleepWeight, `Average sleep ${fmt(sleep)} h, ${reading}.`);
  } else {
    add("sleep", false, 0, p.sleepWeight, "avgSleepHours was not sent.");
  }

  let sum = 0;
  for (const c of components) sum += c.contribution;
  const score = round(clamp(sum, -100, 100));
  const available = components.filter((c) => c.available);
  const sourceCount = available.length;
  const direction: OutcomeDirection =
    sourceCount === 0
      ? "insufficient_data"
      : score >= p.directionThreshold
        ? "improving"
        : score <= -p.directionThreshold
          ? "worsening"
          : "stable";

  // Confidence: independent sources agreeing in sign with the composite.
  const sign = Math.sign(score);
  const agreeing = sign === 0 ? 0 : available.filter((c) => Math.sign(c.contribution) === sign).length;
  const confidence: ConfidenceLevel =
    agreeing >= p.confidenceAgreeHigh ? "high" : agreeing >= p.confidenceAgreeModerate ? "moderate" : "low";
  const n = tr?.n ?? 0;
  const depthWeight = Math.max(0, 1 - p.confidenceAgreementWeight - p.confidenceCoverageWeight);
  const confScore = round(
    clamp(
      p.confidenceAgreementWeight * Math.min(1, agreeing / p.confidenceAgreeHigh) +
        p.confidenceCoverageWeight * (sourceCount / components.length) +
        depthWeight * Math.min(1, n / p.confidenceDepthFullAdministrations),
      0,
      1,
    ),
    3,
  );
  const missing = components.filter((c) => !c.available).map((c) => c.key);
  const reasons = [
    `${agreeing} of ${sourceCount} available source(s) agree in sign with the composite; ${fmt(p.confidenceAgreeHigh)} or more give high confidence.`,
    `${sourceCount} of ${components.length} sources had data${missing.length > 0 ? ` (missing: ${missing.join(", ")})` : ""}.`,
    n === 0
      ? "No readable symptom-scale history."
      : `${n} administration(s) of the most administered scale; ${fmt(p.confidenceDepthFullAdministrations)} or more give full history depth.`,
  ];

  // Largest contribution by magnitude; ties in the fixed order.
  let largest: OutcomeComponent | null = null;
  for (const c of available)
    if (
      c.contribution !== 0 &&
      (largest === null || Math.abs(c.contribution) > Math.abs(largest.contribution))
    )
      largest = c;
  const summaryLine =
    sourceCount === 0
      ? "No source had data; no outcome composite was formed."
      : `Outcome composite ${signed(score)} of ±100 (${direction}) from ${sourceCount} source(s)${largest ? `; largest contribution: ${largest.label} (${signed(largest.contribution)})` : ""}.`;
  const headline =
    sourceCount === 0
      ? "No source had data for the outcome composite."
      : `Treatment-response composite ${signed(score)}: ${direction === "insufficient_data" ? "insufficient data" : direction}.`;

  const flagged = components
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => c.contribution < 0)
    .sort((a, b) => a.c.contribution - b.c.contribution || a.i - b.i)
    .map(({ c }) => c.label);

  const byKey = (key: OutcomeComponentKey) => components.find((c) => c.key === key)?.available === true;
  const num = (v: unknown) => (isFiniteNumber(v) ? v : null);
  const inputs: EngineInput[] = [
    {
      name: "assessments",
      value: assessments.length,
      observedAt: isoOf(tr === null ? null : tr.newestAt),
      supplied: assessments.length > 0,
      contributed: byKey("symptoms"),
    },
    {
      name: "dmseLatencyPctChange",
      value: num(latency),
      observedAt: null,
      supplied: num(latency) !== null,
      contributed: byKey("dmse"),
    },
    {
      name: "activeMedications",
      value: num(meds),
      observedAt: null,
      supplied: num(meds) !== null,
      contributed: byKey("medication"),
    },
    {
      name: "biomarkerWatchCount",
      value: num(watch),
      observedAt: null,
      supplied: num(watch) !== null,
      contributed: byKey("biomarker"),
    },
    {
      name: "avgSleepHours",
      value: num(sleep),
      observedAt: null,
      supplied: num(sleep) !== null,
      contributed: byKey("sleep"),
    },
  ];

  const facts: EngineFacts = {
    summary: { status: direction, headline, flagged, requiresClinicianReview: direction === "worsening" },
    confidence: { level: confidence, score: confScore, reasons },
    inputs,
    current: { score, status: direction },
    polarity: { kind: "score", higherIs: "better" },
    interpretationScale: outcomeInterpretationScale(p),
  };

  return {
    data: {
      generatedAt: nowIso,
      score,
      direction,
      confidence,
      components,
      summaryLine,
      sourceCount,
      disclaimer: OUTCOME_DISCLAIMER,
    },
    facts,
    model,
  };
}
