/**
 * Treatment-response composite (POST /v1/outcome/score). Up to five sources (symptom trajectory,
 * response-latency change, active medication, biomarker watch items, sleep) each give a signed,
 * capped contribution; the contributions sum to the score, from -100 (worsening) to +100 (strong
 * improvement). Pure and deterministic: the clock comes from `options.now`. Method, constants and
 * sources: docs/engines/outcome.md.
 */

import { recogniseInstrument } from "./instruments.js";
import {
  ageInDays,
  capStaleConfidence,
  isStale,
  SYMPTOM_SCORE_STALE_AFTER_DAYS,
} from "./knowledge/staleness.js";
import { assertNoProblems, engineParams, mergeNumericParams, negativeProblems } from "./params.js";
import {
  assessmentTimes,
  clamp,
  dateOf,
  fmt,
  isFiniteNumber,
  isoOf,
  readTrajectory,
  round,
  signed,
  type Trajectory,
} from "./shared.js";
import {
  capForUnreadScales,
  type InstrumentFinding,
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
export type OutcomeDirection =
  | "improving"
  | "stable"
  | "severe_symptoms"
  | "worsening"
  | "insufficient_data"
  | "not_current";

/** Directions with a symptom anchor, best to worst: the final direction is never better than the symptoms'. */
const DIRECTION_RANK: Readonly<
  Record<Exclude<OutcomeDirection, "insufficient_data" | "not_current">, number>
> = {
  improving: 0,
  stable: 1,
  severe_symptoms: 2,
  worsening: 3,
};

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
    improving: `A symptom scale improved (a reliable improvement in the scale's own direction, with no reliable deterioration since its best score) and the composite is +${t} or more; other sources only corroborate it.`,
    stable: `No reliable symptom-scale change, or a composite between -${t} and +${t}: no clear change on balance; keep monitoring.`,
    severe_symptoms:
      "The latest score of a symptom scale is in its severe band without a reliable improvement; flag for clinician review whatever the other sources show.",
    worsening: `A reliable symptom-scale deterioration (from the first, the previous or the best score), or a composite of -${t} or less; flag for clinician review.`,
    not_current: `The newest symptom score is older than ${SYMPTOM_SCORE_STALE_AFTER_DAYS} days: an old improvement or an old absence of change is not a current picture; obtain a current score.`,
    insufficient_data:
      "No symptom scale with a known direction was given twice (or at all): without a symptom-scale change there is no anchor for a direction, and non-symptom sources alone never show improvement.",
  };
}

export const OUTCOME_DISCLAIMER =
  "Decision support for clinician review only. The composite adds expert-set, capped contributions of up to five sources; it is not a validated outcome measure, cannot show what caused a change, and is neither a diagnosis nor a treatment recommendation.";

/** What the symptom scales alone say: the anchor every other source can only corroborate or temper. */
type SymptomVerdict = Exclude<OutcomeDirection, "insufficient_data" | "not_current"> | null;

/**
 * The symptom anchor: a reliable deterioration on any scale is `worsening`; a latest score in a
 * severe band without a reliable improvement is `severe_symptoms`; otherwise the scale the
 * symptom component describes (the most administered one, `tr`) decides between `improving`
 * (reliable improvement) and `stable`. Null when that scale was not given on two dates, or its
 * direction is not known (decision 60), and nothing is severe: there is nothing to anchor a
 * direction to.
 */
function symptomVerdict(findings: SymptomFindings, tr: Trajectory | null): SymptomVerdict {
  if (findings.deteriorated.length > 0) return "worsening";
  if (findings.severe.some((f) => !f.improved)) return "severe_symptoms";
  if (tr === null || tr.lastAt === tr.firstAt || tr.direction === null) return null;
  const main = mainFinding(findings, tr);
  // Decision 81: a change shown only with invalid totals is no anchor (valid administrations on two dates are).
  if (main !== undefined && !main.changeRead) return null;
  return main?.improved === true ? "improving" : "stable";
}

/** The finding of the scale the symptom component describes (the trajectory's instrument). */
function mainFinding(findings: SymptomFindings, tr: Trajectory | null): InstrumentFinding | undefined {
  if (tr === null) return undefined;
  // The findings reader pools a recognised scale under its known key; the trajectory under its id.
  const key = recogniseInstrument(tr.instrumentKey, tr.instrumentName) ?? tr.instrumentKey;
  return findings.instruments.find((f) => f.key === key);
}

const DIRECTION_DEFAULTS = {
  // House rule: |score| below 10 of 100 is read as stable.
  directionThreshold: 10,
} satisfies Partial<OutcomeParams>;

/** The composite alone, by the direction threshold. */
function compositeDirection(
  score: number,
  p: OutcomeParams,
): Exclude<OutcomeDirection, "insufficient_data" | "severe_symptoms" | "not_current"> {
  return score >= p.directionThreshold
    ? "improving"
    : score <= -p.directionThreshold
      ? "worsening"
      : "stable";
}

/**
 * Final direction: never better than the symptom anchor (non-symptom sources cannot lift it), and
 * lowered when the composite is worse (they may temper it). Without an anchor, only a worsening
 * composite is reported; anything else is `insufficient_data`. When the newest symptom score is
 * stale (decision 62), an `improving` or `stable` reading is `not_current`: an old improvement is
 * never reported as a current one; worsening and severe readings stay, as they need review.
 */
function finalDirection(
  anchor: SymptomVerdict,
  score: number,
  sourceCount: number,
  anySevere: boolean,
  stale: boolean,
  p: OutcomeParams,
): OutcomeDirection {
  const composite = compositeDirection(score, p);
  if (anchor === null)
    return sourceCount > 0 && composite === "worsening" ? "worsening" : "insufficient_data";
  const tempered = DIRECTION_RANK[composite] > DIRECTION_RANK[anchor] ? composite : anchor;
  // A severe score is never read as "stable": an improvement tempered by other sources falls back
  // to severe_symptoms, not to a reassuring "no clear change".
  const direction = tempered === "stable" && anySevere ? "severe_symptoms" : tempered;
  return stale && (direction === "improving" || direction === "stable") ? "not_current" : direction;
}

// ---------------------------------------------------------------------------------------------
// Components: each reads one source and returns its capped, signed contribution (0 without data).

const COMPONENT_CAPS = {
  // Caps of each component (absolute value): expert-set operational default, summing to 100 so the
  // contributions always add up to the score without clamping. Symptom scales carry the most
  // weight: they are the validated measure of treatment response (Kroenke et al. 2001).
  symptomsWeight: 45,
  dmseWeight: 15,
  medicationWeight: 5,
  biomarkerWeight: 15,
  sleepWeight: 20,
} satisfies Partial<OutcomeParams>;

function outcomeComponent(
  key: OutcomeComponentKey,
  available: boolean,
  raw: number,
  cap: number,
  detail: string,
): OutcomeComponent {
  return {
    key,
    label: OUTCOME_COMPONENT_LABELS[key],
    contribution: available ? round(clamp(raw, -cap, cap)) : 0,
    detail,
    available,
  };
}

const CORROBORATION_ONLY =
  "not counted: a non-symptom source only corroborates a reliable symptom-scale improvement and never shows improvement on its own";

const SYMPTOM_DEFAULTS = {
  // Expert-set: full symptom contribution at a 30-point change in percent of the scale maximum,
  // somewhat above the PHQ-9 reliable change (6 of 27 = 22 %, NHS Talking Therapies).
  symptomsFullChangePp: 30,
} satisfies Partial<OutcomeParams>;

/**
 * Symptoms: first vs last administration of the most administered scale with a known direction,
 * in percent toward the scale's worse end (a fall is improvement on every scale); a scale whose
 * direction is not known is not read (decision 60).
 */
function symptomsComponent(
  tr: Trajectory | null,
  main: InstrumentFinding | undefined,
  assessments: readonly Assessment[],
  staleText: string,
  p: OutcomeParams,
): OutcomeComponent {
  if (tr === null)
    return outcomeComponent(
      "symptoms",
      false,
      0,
      p.symptomsWeight,
      assessments.length === 0
        ? "No symptom-scale administrations were sent."
        : "No administration had a readable date and score.",
    );
  if (tr.lastAt === tr.firstAt)
    return outcomeComponent(
      "symptoms",
      false,
      0,
      p.symptomsWeight,
      `${tr.instrumentName} (the most administered scale) has ${tr.n} administration(s) at one point in time; a change needs two dates.`,
    );
  if (tr.direction === null)
    return outcomeComponent(
      "symptoms",
      false,
      0,
      p.symptomsWeight,
      `${tr.instrumentName}: change not evaluated: direction unknown (not a recognised instrument, so whether a higher score is better or worse is not known).`,
    );
  // Decision 81: with invalid totals the change is the worse of the valid reading and the reading
  // of every administration toward the worse end; an invalid total's fall is never credited.
  const invalid = main !== undefined && main.invalid > 0;
  const base = invalid ? main.overallPp : tr.change;
  if (base === null || (invalid && !main.changeRead && base <= 0))
    return outcomeComponent(
      "symptoms",
      false,
      0,
      p.symptomsWeight,
      `${tr.instrumentName}: change not evaluated: ${main?.invalid ?? 0} administration(s) have invalid totals and the valid ones were not given on two dates (an invalid total is never read as improvement).`,
    );
  // Decision 61: a deterioration since the best score is read from the best score, so a fall
  // from the first score cannot hide a rise since remission.
  const sinceBest = main?.deteriorated === true && main.fromBestPp !== null ? main.fromBestPp : null;
  const change = sinceBest !== null && sinceBest > base ? sinceBest : base;
  const invalidText = invalid
    ? ` Read with ${main.invalid} invalid total(s) not evaluated as improvement: ${signed(base)} percentage points counted (the worse of the valid administrations alone and of every administration read toward the worse end).`
    : "";
  const bestText =
    change === base || main?.best == null
      ? ""
      : ` Read from the best score (${fmt(main.best.betterBurdenPct)}% on ${dateOf(main.best.at)}): ${signed(change)} percentage points since then, a deterioration.`;
  const share = clamp(change / p.symptomsFullChangePp, -1, 1);
  const scale =
    tr.direction === "higher_is_better"
      ? "of the way to the worse end (100 minus the percentage of the maximum; higher is better on this scale)"
      : "of the scale maximum";
  // A stale improvement is not counted (decision 62); a stale worsening still counts against.
  const raw = -p.symptomsWeight * share;
  const staleNote = staleText !== "" && raw > 0 ? ` Improvement not counted: ${staleText}` : "";
  return outcomeComponent(
    "symptoms",
    true,
    staleNote === "" ? raw : 0,
    p.symptomsWeight,
    `${tr.instrumentName} (the most administered of ${tr.instruments} scale(s), ${tr.n} administrations): ${fmt(tr.firstPct)}% ${scale} on ${dateOf(tr.firstAt)} to ${fmt(tr.lastPct)}% on ${dateOf(tr.lastAt)}, ${signed(tr.change)} percentage points (a rise is worse); full contribution at ${fmt(p.symptomsFullChangePp)} points.${invalidText}${bestText}${staleNote}`,
  );
}

const LATENCY_DEFAULTS = {
  // House rule: full latency contribution at a 30 % change (three times the 10 % the medication
  // engine counts as a change; no published minimal important change for this measure).
  dmseFullPct: 30,
} satisfies Partial<OutcomeParams>;

/** Latency: slower always counts against; faster only corroborates a symptom improvement. */
function latencyComponent(
  latency: number | undefined,
  corroborate: boolean,
  p: OutcomeParams,
): OutcomeComponent {
  if (!isFiniteNumber(latency))
    return outcomeComponent("dmse", false, 0, p.dmseWeight, "dmseLatencyPctChange was not sent.");
  const raw = -p.dmseWeight * clamp(latency / p.dmseFullPct, -1, 1);
  const counted = raw < 0 || corroborate;
  return outcomeComponent(
    "dmse",
    true,
    counted ? raw : 0,
    p.dmseWeight,
    `Response latency changed by ${signed(latency)}% (negative = faster); full contribution at ${fmt(p.dmseFullPct)}% either way (an expert-set scale)${counted ? "" : `; ${CORROBORATION_ONLY}`}.`,
  );
}

const MEDICATION_DEFAULTS = {
  // Masnoon et al. 2017 (BMC Geriatr 17:230): five or more medicines is the most common definition
  // of polypharmacy.
  polypharmacyMin: 5,
} satisfies Partial<OutcomeParams>;

/** Medication: being on treatment is context, not evidence of response; polypharmacy counts against. */
function medicationComponent(meds: number | undefined, p: OutcomeParams): OutcomeComponent {
  if (!isFiniteNumber(meds) || meds <= 0)
    return outcomeComponent(
      "medication",
      false,
      0,
      p.medicationWeight,
      "No active medications were reported.",
    );
  const poly = meds >= p.polypharmacyMin;
  return outcomeComponent(
    "medication",
    true,
    poly ? -p.medicationWeight : 0,
    p.medicationWeight,
    poly
      ? `${fmt(meds)} active medications: at or above the polypharmacy threshold of ${fmt(p.polypharmacyMin)}.`
      : `${fmt(meds)} active medication(s), below the polypharmacy threshold of ${fmt(p.polypharmacyMin)}: context only; being on treatment is not evidence of response.`,
  );
}

const BIOMARKER_DEFAULTS = {
  // House rule: each watch item takes a third of the biomarker cap; three or more take all of it.
  biomarkerFullCount: 3,
} satisfies Partial<OutcomeParams>;

/** Biomarker watch items: each counts against, up to the cap. */
function biomarkerComponent(watch: number | undefined, p: OutcomeParams): OutcomeComponent {
  if (!isFiniteNumber(watch) || watch <= 0)
    return outcomeComponent(
      "biomarker",
      false,
      0,
      p.biomarkerWeight,
      "No biomarker watch items were reported.",
    );
  return outcomeComponent(
    "biomarker",
    true,
    -p.biomarkerWeight * Math.min(1, watch / p.biomarkerFullCount),
    p.biomarkerWeight,
    `${fmt(watch)} biomarker watch item(s); the full negative contribution is reached at ${fmt(p.biomarkerFullCount)}.`,
  );
}

const SLEEP_DEFAULTS = {
  // Watson et al. 2015 (J Clin Sleep Med 11:591-592): adults need at least 7 h; more than 9 h may
  // suit some groups but its benefit is uncertain, so it adds nothing.
  sleepRecommendedHours: 7,
  sleepLongHours: 9,
  // House rule: full negative sleep contribution at 5 h (two hours short of the recommendation).
  sleepShortFullHours: 5,
  // House rule: sleep within the recommendation adds half the sleep cap (supportive, not proof).
  sleepAdequateShare: 0.5,
} satisfies Partial<OutcomeParams>;

/** Sleep against the adult recommendation: short sleep counts against; adequate sleep only corroborates. */
function sleepComponent(sleep: number | undefined, corroborate: boolean, p: OutcomeParams): OutcomeComponent {
  if (!isFiniteNumber(sleep))
    return outcomeComponent("sleep", false, 0, p.sleepWeight, "avgSleepHours was not sent.");
  let raw: number;
  let reading: string;
  if (sleep < p.sleepRecommendedHours) {
    raw =
      -p.sleepWeight *
      clamp((p.sleepRecommendedHours - sleep) / (p.sleepRecommendedHours - p.sleepShortFullHours), 0, 1);
    reading = `below the adult recommendation of at least ${fmt(p.sleepRecommendedHours)} h (full negative contribution at ${fmt(p.sleepShortFullHours)} h)`;
  } else if (sleep <= p.sleepLongHours) {
    raw = corroborate ? p.sleepWeight * p.sleepAdequateShare : 0;
    reading = `within the recommended ${fmt(p.sleepRecommendedHours)}-${fmt(p.sleepLongHours)} h${corroborate ? "" : `; ${CORROBORATION_ONLY}`}`;
  } else {
    raw = 0;
    reading = `above ${fmt(p.sleepLongHours)} h, where benefit is uncertain; no contribution`;
  }
  return outcomeComponent("sleep", true, raw, p.sleepWeight, `Average sleep ${fmt(sleep)} h, ${reading}.`);
}

// ---------------------------------------------------------------------------------------------
// Score, confidence and wording

function compositeScore(components: readonly OutcomeComponent[]): number {
  let sum = 0;
  for (const c of components) sum += c.contribution;
  return round(clamp(sum, -100, 100));
}

/** A worsening or severe direction, or any severe score or reliable deterioration on a scale. */
function needsClinicianReview(direction: OutcomeDirection, findings: SymptomFindings): boolean {
  return (
    direction === "worsening" ||
    direction === "severe_symptoms" ||
    findings.severe.length > 0 ||
    findings.deteriorated.length > 0
  );
}

/** Components that count against, most negative first; ties in the fixed component order. */
function negativeDrivers(components: readonly OutcomeComponent[]): string[] {
  return components
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => c.contribution < 0)
    .sort((x, y) => x.c.contribution - y.c.contribution || x.i - y.i)
    .map(({ c }) => c.label);
}

const CONFIDENCE_DEFAULTS = {
  // Contract: confidence scales with the number of independent sources that agree in sign.
  // House rule: three agreeing sources = high, two = moderate.
  confidenceAgreeHigh: 3,
  confidenceAgreeModerate: 2,
  // facts.confidence.score = 0.5 x agreement + 0.3 x coverage + 0.2 x history depth (house rule);
  // depth is full at six administrations (about six weeks of weekly scores).
  confidenceAgreementWeight: 0.5,
  confidenceCoverageWeight: 0.3,
  confidenceDepthFullAdministrations: 6,
} satisfies Partial<OutcomeParams>;

/** Confidence: agreeing sources, coverage and history depth; low whenever there is no symptom anchor. */
function outcomeConfidence(
  components: readonly OutcomeComponent[],
  score: number,
  n: number,
  anchored: boolean,
  p: OutcomeParams,
): { level: ConfidenceLevel; score: number; reasons: string[] } {
  const available = components.filter((c) => c.available);
  const sourceCount = available.length;
  const sign = Math.sign(score);
  const agreeing = sign === 0 ? 0 : available.filter((c) => Math.sign(c.contribution) === sign).length;
  const byAgreement: ConfidenceLevel =
    agreeing >= p.confidenceAgreeHigh ? "high" : agreeing >= p.confidenceAgreeModerate ? "moderate" : "low";
  const depthWeight = Math.max(0, 1 - p.confidenceAgreementWeight - p.confidenceCoverageWeight);
  const raw = clamp(
    p.confidenceAgreementWeight * Math.min(1, agreeing / p.confidenceAgreeHigh) +
      p.confidenceCoverageWeight * (sourceCount / components.length) +
      depthWeight * Math.min(1, n / p.confidenceDepthFullAdministrations),
    0,
    1,
  );
  const missing = components.filter((c) => !c.available).map((c) => c.key);
  const reasons = [
    `${agreeing} of ${sourceCount} available source(s) agree in sign with the composite; ${fmt(p.confidenceAgreeHigh)} or more give high confidence.`,
    `${sourceCount} of ${components.length} sources had data${missing.length > 0 ? ` (missing: ${missing.join(", ")})` : ""}.`,
    n === 0
      ? "No readable symptom-scale history."
      : `${n} administration(s) of the most administered scale; ${fmt(p.confidenceDepthFullAdministrations)} or more give full history depth.`,
  ];
  if (!anchored) {
    reasons.unshift(
      "No symptom scale was given on two dates: there is no symptom change to anchor the direction, so confidence is low.",
    );
    return { level: "low", score: round(Math.min(raw, 0.3), 3), reasons };
  }
  return { level: byAgreement, score: round(raw, 3), reasons };
}

function outcomeInputs(
  input: OutcomeInput,
  components: readonly OutcomeComponent[],
  newestAt: number | null,
): EngineInput[] {
  const byKey = (key: OutcomeComponentKey) => components.find((c) => c.key === key)?.available === true;
  const num = (v: unknown) => (isFiniteNumber(v) ? v : null);
  const assessments = input.assessments ?? [];
  const scalar = (name: keyof OutcomeInput, key: OutcomeComponentKey): EngineInput => ({
    name,
    value: num(input[name]),
    observedAt: null,
    supplied: num(input[name]) !== null,
    contributed: byKey(key),
  });
  return [
    {
      name: "assessments",
      value: assessments.length,
      observedAt: isoOf(newestAt),
      supplied: assessments.length > 0,
      contributed: byKey("symptoms"),
      staleAfterDays: SYMPTOM_SCORE_STALE_AFTER_DAYS,
    },
    scalar("dmseLatencyPctChange", "dmse"),
    scalar("activeMedications", "medication"),
    scalar("biomarkerWatchCount", "biomarker"),
    scalar("avgSleepHours", "sleep"),
  ];
}

function outcomeLines(
  direction: OutcomeDirection,
  score: number,
  components: readonly OutcomeComponent[],
  findings: SymptomFindings,
  staleText: string,
): { summaryLine: string; headline: string } {
  const available = components.filter((c) => c.available);
  let largest: OutcomeComponent | null = null;
  for (const c of available)
    if (
      c.contribution !== 0 &&
      (largest === null || Math.abs(c.contribution) > Math.abs(largest.contribution))
    )
      largest = c;
  const flags = findings.flags.length > 0 ? ` ${findings.flags.join("; ")}.` : "";
  const notes = findings.notes.length > 0 ? ` ${findings.notes.join("; ")}.` : "";
  const warnings = `${flags}${notes}${staleText === "" ? "" : ` ${staleText}`}`;
  if (available.length === 0)
    return findings.notes.length > 0
      ? {
          summaryLine: `No source could be read; no outcome composite was formed.${warnings}`,
          headline: `No source could be read for the outcome composite, so nothing can be concluded about a change.${warnings}`,
        }
      : {
          summaryLine: `No source had data; no outcome composite was formed.${warnings}`,
          headline: `No source had data for the outcome composite: nothing was measured, so nothing can be concluded about a change.${warnings}`,
        };
  const composite = `Outcome composite ${signed(score)} of ±100 (${direction}) from ${available.length} source(s)${largest ? `; largest contribution: ${largest.label} (${signed(largest.contribution)})` : ""}.`;
  if (direction === "insufficient_data")
    return {
      summaryLine: `${composite} No symptom scale was given on two dates, so there is no symptom change to anchor a direction; the other sources alone cannot show improvement.${warnings}`,
      headline: `Insufficient data for a treatment-response direction: no symptom-scale change was available (composite ${signed(score)}).${warnings}`,
    };
  const words: Record<Exclude<OutcomeDirection, "insufficient_data">, string> = {
    not_current: "not a current picture (the newest symptom score is too old); obtain a current score",
    improving: "improving",
    stable: "no clear change",
    severe_symptoms: "severe symptoms without reliable improvement; clinician review",
    worsening: "worsening; clinician review",
  };
  return {
    summaryLine: `${composite}${warnings}`,
    headline: `Treatment-response composite ${signed(score)}: ${words[direction]}.${warnings}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Parameter set

/**
 * Every default, composed from the groups above (each beside the code that reads it); sources in
 * docs/engines/outcome.md. The spread order fixes the key order.
 */
export const OUTCOME_DEFAULT_PARAMS: Readonly<OutcomeParams> = Object.freeze({
  ...COMPONENT_CAPS,
  ...SYMPTOM_DEFAULTS,
  ...LATENCY_DEFAULTS,
  ...MEDICATION_DEFAULTS,
  ...BIOMARKER_DEFAULTS,
  ...SLEEP_DEFAULTS,
  ...DIRECTION_DEFAULTS,
  ...CONFIDENCE_DEFAULTS,
});

export const OUTCOME_INTERPRETATION_SCALE: Readonly<Record<OutcomeDirection, string>> =
  outcomeInterpretationScale(OUTCOME_DEFAULT_PARAMS);

/**
 * Validates a calibrated parameter set (every key known, every value a finite number, caps
 * non-negative and summing to at most 100, ranges coherent) and merges it over the defaults.
 * Throws an Error naming every problem otherwise.
 */
export function resolveOutcomeParams(overrides: unknown): OutcomeParams {
  const p = mergeNumericParams("outcome", OUTCOME_DEFAULT_PARAMS, overrides);
  const weights = [
    "symptomsWeight",
    "dmseWeight",
    "medicationWeight",
    "biomarkerWeight",
    "sleepWeight",
  ] as const;
  const problems = negativeProblems(p, weights);
  const total = weights.reduce((sum, key) => sum + p[key], 0);
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
  const { params: p, model } = engineParams(OUTCOME_MODEL_KEY, OUTCOME_DEFAULT_PARAMS, options);
  const assessments = input.assessments ?? [];

  const times = assessmentTimes(assessments);
  const findings = readSymptomFindings(assessments, undefined, times);
  const tr = readTrajectory(assessments, times)?.trajectory ?? null;
  const anchor = symptomVerdict(findings, tr);
  // Staleness (decision 62): the newest symptom score older than the limit.
  const nowMs = options.now.getTime();
  const newestAt = tr === null ? null : tr.newestAt;
  const stale = isStale(newestAt, nowMs);
  const staleText = stale
    ? `Not current: the newest symptom score is ${fmt(ageInDays(newestAt, nowMs) ?? 0, 0)} days old (older than ${SYMPTOM_SCORE_STALE_AFTER_DAYS} days).`
    : "";
  const componentsFor = (asOfStale: boolean, text: string): OutcomeComponent[] => {
    const corroborate = anchor === "improving" && !asOfStale;
    return [
      symptomsComponent(tr, mainFinding(findings, tr), assessments, text, p),
      latencyComponent(input.dmseLatencyPctChange, corroborate, p),
      medicationComponent(input.activeMedications, p),
      biomarkerComponent(input.biomarkerWatchCount, p),
      sleepComponent(input.avgSleepHours, corroborate, p),
    ];
  };
  const components = componentsFor(stale, staleText);

  const score = compositeScore(components);
  const sourceCount = components.filter((c) => c.available).length;
  const direction = finalDirection(anchor, score, sourceCount, findings.severe.length > 0, stale, p);
  // Confidence is scored on the reading as if it were current, then capped when stale, so ageing
  // never raises it (decision 62).
  const current = stale ? componentsFor(false, "") : components;
  const scored = outcomeConfidence(current, compositeScore(current), tr?.n ?? 0, anchor !== null, p);
  scored.reasons.push(...findings.notes);
  const confidence = capStaleConfidence(capForUnreadScales(scored, findings), stale, staleText);
  const { summaryLine, headline } = outcomeLines(direction, score, components, findings, staleText);

  const facts: EngineFacts = {
    summary: {
      status: direction,
      headline,
      flagged: [...findings.flags, ...negativeDrivers(components)],
      requiresClinicianReview: needsClinicianReview(direction, findings),
    },
    confidence,
    inputs: outcomeInputs(input, components, tr === null ? null : tr.newestAt),
    current: { score, status: direction },
    polarity: { kind: "score", higherIs: "better" },
    interpretationScale: outcomeInterpretationScale(p),
  };

  return {
    data: {
      generatedAt: options.now.toISOString(),
      score,
      direction,
      confidence: confidence.level,
      components,
      summaryLine,
      sourceCount,
      disclaimer: OUTCOME_DISCLAIMER,
    },
    facts,
    model,
  };
}
