/**
 * Medication response engine (POST /v1/medication/analyze). For each active prescription it
 * compares the trajectory of the most administered symptom scale before and after the start date;
 * an optional response-latency change from the dmse engine adds one corroboration signal.
 * Pure and deterministic: the clock comes from `options.now`. Method, constants and sources:
 * docs/engines/medication.md.
 *
 * Decisions this module follows (docs/decisions.md): 61, deterioration from the best score; 62,
 * staleness: one rule; 63, fractional totals; 81, invalid totals are not evaluated; 176, the JSON
 * medication answer carries the interaction and dose check; 198, the JSON answers, the agents and
 * MCP carry the patient review by one rule.
 */
import {
  classifyScaleChange,
  INSTRUMENTS,
  invalidTotalReason,
  isPublishedTotal,
  type KnownInstrument,
  nearestFormTotals,
  recogniseInstrument,
  type ScaleChange,
  type ScaleDirection,
  severityBand,
  totalValidity,
} from "./instruments.js";
import { percentOfScale } from "./knowledge/instruments.js";
import {
  ageInDays,
  capStaleConfidence,
  isStale,
  SYMPTOM_SCORE_STALE_AFTER_DAYS,
} from "./knowledge/staleness.js";
import { type MedicationListCheck, medicationListCheck } from "./medication-list.js";
import {
  assertNoProblems,
  confidenceFractionProblems,
  engineParams,
  mergeNumericParams,
  negativeProblems,
} from "./params.js";
import type { PatientContext } from "./patient/context.js";
import {
  doorPatientReview,
  medicinesOfPrescriptions,
  type PatientReviewSummary,
  patientReviewSummary,
  readingsOfLabPanels,
} from "./patient/doors.js";
import { doseCheckOptions } from "./patient/factors.js";
import type { PatientReview } from "./patient/types.js";
import { assessmentTimes, confidenceLevel, parseTime as parseSharedTime, slugOf } from "./shared.js";
import {
  burdenPctOf,
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
  LabPanel,
  ModuleSignal,
  Prescription,
} from "./types.js";

export {
  type CasenessInstrument,
  classifyScaleChange,
  INSTRUMENT_PROFILES,
  type InstrumentProfile,
  type KnownInstrument,
  normaliseInstrumentText,
  type ReliableChange,
  recogniseInstrument,
  reliableChange,
  type ScaleChange,
  type ScaleChangeCategory,
  type SeverityBand,
  type SeverityKey,
  severityBand,
} from "./instruments.js";
export {
  type Administration,
  burdenPctOf,
  callerSaysSevere,
  capForUnreadScales,
  type InstrumentFinding,
  readSymptomFindings,
  type SymptomFindings,
  UNKNOWN_SCALE_CHANGE_PP,
  UNREAD_SCALE_CONFIDENCE_CAP,
  UNREAD_SCALE_CONFIDENCE_SCORE_CAP,
} from "./symptom-findings.js";

export interface MedicationInput {
  prescriptions: Prescription[];
  assessments: Assessment[];
  /** Percent change of response latency from the dmse engine (-100..1000); negative = faster. */
  dmseLatencyPctChange?: number;
  /** Additive: who the patient is; its age is used by the dose check. */
  patient?: PatientContext;
  /** Additive: lab panels, read by the patient review only. */
  labs?: LabPanel[];
}

export interface MedicationData {
  generatedAt: string;
  signalsPresent: number;
  signals: ModuleSignal[];
  disclaimer: string;
  /**
   * Additive: the interaction and dose check of the active prescriptions, the same
   * result the FHIR answer turns into DetectedIssues. Absent only when no prescription was sent.
   */
  interactionCheck?: MedicationListCheck;
  /**
   * Additive: the patient-over-time review of the patient, the active
   * prescriptions (started at `prescribedAt`) and the lab panels. Absent when the request sent no
   * patient facts and no lab readings and the review of the prescriptions found nothing.
   */
  patientReview?: PatientReview;
}

/** Every threshold and weight of the engine; sources in docs/engines/medication.md. */
export interface MedicationParams {
  /** Fall (percentage points of the scale maximum) that counts as improvement on a scale without published reliability. */
  improvementPctPoints: number;
  /** Rise (percentage points of the scale maximum) that counts as worsening on a scale without published reliability. */
  worseningPctPoints: number;
  /** Change in PHQ-9 points, either way, that counts as reliable. */
  phq9ReliableChangePoints: number;
  /** Change in GAD-7 points, either way, that counts as reliable. */
  gad7ReliableChangePoints: number;
  /** Administrations needed on each side of the start date for high confidence. */
  highConfidenceMinPerSide: number;
  /** Administrations needed on each side of the start date for moderate confidence. */
  moderateConfidenceMinPerSide: number;
  /** Fall of response latency (percent) read as corroborating improvement. */
  latencyImprovementPct: number;
  /** Rise of response latency (percent) read as corroborating worsening. */
  latencyWorseningPct: number;
  /** Confidence points of a signal, averaged into facts.confidence.score. */
  confidencePointsHigh: number;
  confidencePointsModerate: number;
  confidencePointsLow: number;
  /** facts.confidence.level cut-offs on the averaged score. */
  confidenceHighMin: number;
  confidenceModerateMin: number;
}

export const MEDICATION_MODEL_KEY = "medication_response";

/** Overall status, best to worst (facts.polarity). */
export const MEDICATION_STATUS_ORDER = [
  "no_active_prescriptions",
  "responding",
  "insufficient_data",
  "no_clear_change",
  "worsening",
] as const;
export type MedicationStatus = (typeof MEDICATION_STATUS_ORDER)[number];

export const MEDICATION_INTERPRETATION_SCALE: Readonly<Record<MedicationStatus, string>> = {
  no_active_prescriptions: "No prescription with status active was sent; nothing to compare.",
  responding:
    "Symptom scores fell beyond the change threshold after the start date for every active prescription.",
  insufficient_data:
    "At least one active prescription lacks a start date or administrations on one side of it; no comparison.",
  no_clear_change: "At least one active prescription shows no change beyond the threshold; keep monitoring.",
  worsening: "Symptom scores rose beyond the change threshold after a start date; flag for clinician review.",
};

export const MEDICATION_CORROBORATION_SIGNAL_KEY = "med_dmse_latency_corroboration";
export const MEDICATION_CORROBORATION_SOURCE_REF = "dmse";

export const MEDICATION_DISCLAIMER =
  "Decision support for clinician review only. The engine compares symptom-scale scores before and after each active prescription's start date; it cannot show that a medication caused a change, and it is neither a diagnosis nor a prescribing recommendation.";

/**
 * Signal-key suffix of a medication name: Unicode-decomposed, accents dropped, lower-cased, every
 * run of characters other than a-z and 0-9 turned into one "_", leading/trailing "_" removed
 * ("Sertraline HCl 50mg" -> "sertraline_hcl_50mg"); an empty result becomes "unnamed".
 */
export function medicationSlug(name: string): string {
  return slugOf(name);
}

// ---------------------------------------------------------------------------------------------
// Module-local helpers

interface Point {
  time: number;
  /** Percent of maxScore toward the worse end of the scale (100 - percent on higher-is-better scales). */
  pct: number;
  score: number;
  maxScore: number;
  /** A valid administration of the published instrument (recognised instruments only). */
  published: boolean;
  /** Not an invalid total for its instrument. */
  valid: boolean;
  /** The nearest totals the form can produce toward the worse / better end, and their pct (the score itself when valid). */
  worseScore: number;
  betterScore: number;
  worsePct: number;
  betterPct: number;
}

interface Series {
  key: string;
  display: string;
  known: KnownInstrument | null;
  direction: ScaleDirection | null;
  points: Point[];
  /** Prefix sums of betterPct and betterScore for O(1) baseline means. */
  pctSums: number[];
  scoreSums: number[];
  /** Prefix count of points not on the published maximum (known scales: another form). */
  offScaleCounts: number[];
  /** Points with invalid totals. */
  invalid: number;
}

const round = (value: number, digits = 1): number => {
  const factor = 10 ** digits;
  const r = Math.round(value * factor) / factor;
  return Object.is(r, -0) ? 0 : r;
};
const fmt = (value: number, digits = 1): string => String(round(value, digits));
const signed = (value: number, digits = 1): string => {
  const r = round(value, digits);
  return r > 0 ? `+${r}` : String(r);
};

/** Milliseconds since the epoch, or null (the shared fast ISO reader, Date.parse otherwise). */
const parseTime = (value: string | undefined): number | null => parseSharedTime(value);

const isoOf = (time: number): string => new Date(time).toISOString();

/** A date-only start ("2026-06-20") covers that whole UTC day, so same-day administrations are baseline. */
function anchorTime(prescribedAt: string | undefined): number | null {
  const t = parseTime(prescribedAt);
  if (t === null || prescribedAt === undefined) return null;
  return /^\d{4}-\d{2}-\d{2}$/.test(prescribedAt.trim()) ? t + 86_400_000 - 1 : t;
}

const dateOnly = (iso: string): string => iso.slice(0, 10);

// ---------------------------------------------------------------------------------------------
// The symptom series compared around each start date

interface InstrumentGroup {
  known: KnownInstrument | null;
  display: string;
  points: Point[];
}

function instrumentKey(a: Assessment): { key: string; known: KnownInstrument | null } {
  const known = recogniseInstrument(a.instrumentId, a.instrumentName);
  if (known) return { key: known, known };
  const id = a.instrumentId.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (id !== "") return { key: id, known: null };
  const name = a.instrumentName.toLowerCase().replace(/[^a-z0-9]/g, "");
  return { key: name === "" ? "unknown" : name, known: null };
}

/** Administrations with a valid createdAt and score, grouped by instrument key in first-seen order. */
function groupByInstrument(
  assessments: readonly Assessment[],
  times: readonly (number | null)[],
): Map<string, InstrumentGroup> {
  const groups = new Map<string, InstrumentGroup>();
  // Most calls repeat one or two instrument id/name pairs: recognise each pair once (keyed by id,
  // then name, so no string is built per assessment).
  const keyCache = new Map<string, Map<string, { key: string; known: KnownInstrument | null }>>();
  for (let i = 0; i < assessments.length; i++) {
    const a = assessments[i] as Assessment;
    const time = times[i] ?? null;
    if (time === null || !Number.isFinite(a.score) || !Number.isFinite(a.maxScore) || a.maxScore <= 0)
      continue;
    let byName = keyCache.get(a.instrumentId);
    if (!byName) {
      byName = new Map();
      keyCache.set(a.instrumentId, byName);
    }
    let resolved = byName.get(a.instrumentName);
    if (!resolved) {
      resolved = instrumentKey(a);
      byName.set(a.instrumentName, resolved);
    }
    const { key, known } = resolved;
    let group = groups.get(key);
    if (!group) {
      group = { known, display: known ? INSTRUMENTS[known].display : a.instrumentName, points: [] };
      groups.set(key, group);
    }
    const burden = (score: number) =>
      burdenPctOf(known ? INSTRUMENTS[known].direction : null, percentOfScale(known, score, a.maxScore));
    const pct = burden(a.score);
    const valid = known === null || totalValidity(known, a.score, a.maxScore) !== "invalid";
    const near = valid ? null : nearestFormTotals(known as KnownInstrument, a.score, a.maxScore);
    group.points.push({
      time,
      pct,
      score: a.score,
      maxScore: a.maxScore,
      published: known !== null && isPublishedTotal(known, a.score, a.maxScore),
      valid,
      worseScore: near ? near.worse : a.score,
      betterScore: near ? near.better : a.score,
      worsePct: near ? burden(near.worse) : pct,
      betterPct: near ? burden(near.better) : pct,
    });
  }
  return groups;
}

/**
 * The instrument with the most administrations among those whose direction is known, else among
 * all. Ties: the one whose latest administration is newest, then the alphabetically first key.
 * Null when there is none.
 */
function mostAdministered(groups: ReadonlyMap<string, InstrumentGroup>): string | null {
  let bestKey: string | null = null;
  let bestCount = -1;
  let bestLatest = Number.NEGATIVE_INFINITY;
  const anyKnown = [...groups.values()].some((g) => g.known !== null);
  for (const [key, group] of groups) {
    if (anyKnown && group.known === null) continue;
    let latest = Number.NEGATIVE_INFINITY;
    for (const p of group.points) if (p.time > latest) latest = p.time;
    const count = group.points.length;
    const better =
      count > bestCount ||
      (count === bestCount && latest > bestLatest) ||
      (count === bestCount && latest === bestLatest && bestKey !== null && key < bestKey);
    if (better) {
      bestKey = key;
      bestCount = count;
      bestLatest = latest;
    }
  }
  return bestKey;
}

/** The group's points in time order, with the prefix sums the baseline means read. */
function toSeries(key: string, group: InstrumentGroup): Series {
  // Array.prototype.sort is stable, so equal timestamps keep input order; sorted input is O(n).
  const points = group.points.sort((a, b) => a.time - b.time);
  const pctSums: number[] = [0];
  const scoreSums: number[] = [0];
  const offScaleCounts: number[] = [0];
  let pct = 0;
  let score = 0;
  let off = 0;
  let invalid = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i] as Point;
    pct += p.betterPct;
    score += p.betterScore;
    if (group.known !== null && p.maxScore !== INSTRUMENTS[group.known].totalMax) off += 1;
    if (!p.valid) invalid += 1;
    pctSums.push(pct);
    scoreSums.push(score);
    offScaleCounts.push(off);
  }
  return {
    key,
    display: group.display,
    known: group.known,
    direction: group.known ? INSTRUMENTS[group.known].direction : null,
    points,
    pctSums,
    scoreSums,
    offScaleCounts,
    invalid,
  };
}

/** The series of the most administered instrument (with a valid createdAt), and how many instruments there were. */
function selectSeries(
  assessments: readonly Assessment[],
  times: readonly (number | null)[],
): { series: Series | null; instruments: number } {
  const groups = groupByInstrument(assessments, times);
  const bestKey = mostAdministered(groups);
  if (bestKey === null) return { series: null, instruments: groups.size };
  return { series: toSeries(bestKey, groups.get(bestKey) as InstrumentGroup), instruments: groups.size };
}

/** Number of points with time <= anchor (binary search over the sorted series). */
function countAtOrBefore(points: readonly Point[], anchor: number): number {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((points[mid] as Point).time <= anchor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// ---------------------------------------------------------------------------------------------
// One response signal per active prescription

type Outcome = "responding" | "no_clear_change" | "worsening" | "insufficient_data";

interface Evaluated {
  signal: ModuleSignal;
  outcome: Outcome;
  before: number;
  after: number;
}

/** The prescription a signal is about, and its signal key. */
interface Subject {
  rx: Prescription;
  signalKey: string;
}

const TONE_OF: Record<Outcome, ModuleSignal["tone"]> = {
  responding: "positive",
  no_clear_change: "watch",
  insufficient_data: "watch",
  worsening: "elevated",
};

const PER_SIDE_DEFAULTS = {
  // House rule: three points per side make a baseline and a trend distinguishable from one
  // noisy administration; two points give a minimal comparison.
  highConfidenceMinPerSide: 3,
  moderateConfidenceMinPerSide: 2,
} satisfies Partial<MedicationParams>;

function confidenceFor(before: number, after: number, params: MedicationParams): ConfidenceLevel {
  const least = Math.min(before, after);
  if (least >= params.highConfidenceMinPerSide) return "high";
  if (least >= params.moderateConfidenceMinPerSide) return "moderate";
  return "low";
}

/** Fields in the contract's order, so the JSON reads like the specification. */
function responseSignal(
  { rx, signalKey }: Subject,
  body: Pick<ModuleSignal, "detail" | "tone" | "metricValue" | "confidence" | "summaryLine" | "observedAt">,
): ModuleSignal {
  return {
    module: "medication",
    signalKey,
    label: `Response to ${rx.medicationName}`,
    detail: body.detail,
    tone: body.tone,
    metricValue: body.metricValue,
    metricUnit: "score",
    confidence: body.confidence,
    summaryLine: body.summaryLine,
    sourceRef: rx.id,
    observedAt: body.observedAt,
  };
}

function insufficientData(
  subject: Subject,
  detail: string,
  observedAt: string,
  before: number,
  after: number,
): Evaluated {
  return {
    signal: responseSignal(subject, {
      detail,
      tone: TONE_OF.insufficient_data,
      metricValue: 0,
      confidence: "low",
      summaryLine: `${subject.rx.medicationName}: not enough data to compare symptom scores around the start date.`,
      observedAt,
    }),
    outcome: "insufficient_data",
    before,
    after,
  };
}

const RELIABLE_CHANGE_DEFAULTS = {
  // NHS Talking Therapies outcome definitions (Clark et al. 2018, Lancet 391:679-686): a change of
  // 6 or more PHQ-9 points and 4 or more GAD-7 points is reliable (docs/engines/evidence.md).
  phq9ReliableChangePoints: INSTRUMENTS.phq9.reliableChangePoints as number,
  gad7ReliableChangePoints: INSTRUMENTS.gad7.reliableChangePoints as number,
} satisfies Partial<MedicationParams>;

/** The reliable change in the instrument's points (calibrated for the PHQ-9 and GAD-7), or null when none is sourced. */
function pointsThreshold(known: KnownInstrument, params: MedicationParams): number | null {
  if (known === "phq9") return params.phq9ReliableChangePoints;
  if (known === "gad7") return params.gad7ReliableChangePoints;
  return INSTRUMENTS[known].reliableChangePoints;
}

/**
 * What the latest score is compared with: the mean of the administrations on or
 * before the start, the best of them (a pre-start low is not averaged away), and the best after
 * the start before the latest (a rise since the best response is a deterioration).
 */
interface Reference {
  label: string;
  score: number;
  pct: number;
}

function referencesOf(series: Series, nBefore: number): Reference[] {
  const { points } = series;
  const best = (from: number, to: number): Point | null => {
    let found: Point | null = null;
    for (let i = from; i < to; i++) {
      const p = points[i] as Point;
      if (found === null || p.betterPct < found.betterPct) found = p;
    }
    return found;
  };
  const refs: Reference[] = [
    {
      label: `the mean of ${nBefore} administration(s) on or before the start`,
      score: (series.scoreSums[nBefore] as number) / nBefore,
      pct: (series.pctSums[nBefore] as number) / nBefore,
    },
  ];
  const bestPre = best(0, nBefore) as Point;
  if (nBefore > 1)
    refs.push({
      label: `the best score before the start (${dateOnly(isoOf(bestPre.time))})`,
      score: bestPre.betterScore,
      pct: bestPre.betterPct,
    });
  const bestPost = best(nBefore, points.length - 1);
  if (bestPost !== null)
    refs.push({
      label: `the best score since the start (${dateOnly(isoOf(bestPost.time))})`,
      score: bestPost.betterScore,
      pct: bestPost.betterPct,
    });
  return refs;
}

/**
 * Any reliable deterioration of the latest score from a reference is worsening; otherwise a
 * reliable improvement from the baseline mean is responding; otherwise no clear change.
 */
function verdictOf(
  worsenings: readonly number[],
  deteriorationAt: number,
  improvementAt: number,
): { outcome: Outcome; worst: number } {
  let worst = 0;
  for (let i = 1; i < worsenings.length; i++)
    if ((worsenings[i] as number) > (worsenings[worst] as number)) worst = i;
  if ((worsenings[worst] as number) >= deteriorationAt) return { outcome: "worsening", worst };
  return {
    outcome: (worsenings[0] as number) <= -improvementAt ? "responding" : "no_clear_change",
    worst: 0,
  };
}

/** A recognised instrument on its published scale with a sourced reliable change, in its own points. */
function reliableChangeRule(
  known: KnownInstrument,
  refs: readonly Reference[],
  latestScore: number,
  threshold: number,
): { outcome: Outcome; rule: string } {
  const changes: ScaleChange[] = refs.map((r) => classifyScaleChange(known, r.score, latestScore, threshold));
  const { outcome, worst } = verdictOf(
    changes.map((c) => c.worsening),
    threshold,
    threshold,
  );
  const verdict = changes[worst] as ScaleChange;
  const ref = refs[worst] as Reference;
  const words = {
    reliable_improvement: "Reliable improvement",
    reliable_deterioration: "Reliable deterioration",
    no_reliable_change: "Not a reliable change",
  }[verdict.category];
  const band = severityBand(known, latestScore);
  const scale = INSTRUMENTS[known].direction === "higher_is_better" ? " Higher is better on this scale." : "";
  const rule = `${words} from ${ref.label}: ${fmt(verdict.before, 2)} -> ${fmt(latestScore, 2)} points (${signed(verdict.change, 2)}); a change of ${fmt(threshold, 2)} points or more either way is reliable (NHS Talking Therapies definition); the latest is also compared with the best score before and since the start.${scale} The latest score is in the ${band.label} band (${band.min}-${band.max}).${outcome === "responding" && verdict.reliableRecovery ? " It moved from a clinical case to below the caseness cut-off with a reliable improvement (reliable recovery)." : ""}`;
  return { outcome, rule };
}

const UNKNOWN_SCALE_DEFAULTS = {
  // Expert-set (no published reliable change, or a recognised scale read off its published
  // scale): 15 points of 100, below the PHQ-9 (6/27 = 22 %) and GAD-7 (4/21 = 19 %) reliable
  // changes, so such a reading is never held to a stricter standard.
  improvementPctPoints: 15,
  worseningPctPoints: 15,
} satisfies Partial<MedicationParams>;

/**
 * A recognised scale read off its published scale or without a sourced reliable change: the
 * change toward the worse end, in percentage points of the scale maximum, against the expert-set
 * thresholds.
 */
function percentPointRule(
  series: Series,
  refs: readonly Reference[],
  latestPct: number,
  offScale: number,
  params: MedicationParams,
): { outcome: Outcome; rule: string } {
  const { outcome, worst } = verdictOf(
    refs.map((r) => latestPct - r.pct),
    params.worseningPctPoints - PP_EPSILON,
    params.improvementPctPoints - PP_EPSILON,
  );
  const k = series.known ? INSTRUMENTS[series.known] : null;
  const why =
    offScale > 0 && k
      ? `Reliable change not assessed: ${offScale} administration(s) are not valid ${k.display} administrations (a maxScore other than the published ${k.totalMax}: another form, decision 63)`
      : "No published reliable change for this scale";
  const rule = `${why}; improvement is a fall of at least ${fmt(params.improvementPctPoints)} and worsening a rise of at least ${fmt(params.worseningPctPoints)} percentage points toward the worse end, from ${(refs[worst] as Reference).label}.`;
  return { outcome, rule };
}

/** Why there is nothing on one side of the start date to compare. */
function oneSidedSeries(
  subject: Subject,
  series: Series,
  startText: string,
  nBefore: number,
  nAfter: number,
): Evaluated {
  const latest = series.points.at(-1) as Point;
  const why =
    nBefore === 0
      ? `no ${series.display} administration on or before the start on ${startText} (${nAfter} after)`
      : `no ${series.display} administration after the start on ${startText} (${nBefore} before)`;
  return insufficientData(
    subject,
    `Cannot compare: ${why}. metricValue is 0 (no comparison).`,
    isoOf(latest.time),
    nBefore,
    nAfter,
  );
}

const VERB: Record<Outcome, string> = {
  responding: "improved",
  worsening: "worsened",
  no_clear_change: "no clear change",
  insufficient_data: "not assessed",
};

interface Judged {
  outcome: Outcome;
  rule: string;
  baselinePct: number;
  latestPct: number;
  change: number;
}

/**
 * The latest administration (at its nearest total toward the worse end, when invalid) against
 * the references (at theirs toward the better end).
 */
function judge(series: Series, nBefore: number, params: MedicationParams): Judged {
  const latest = series.points.at(-1) as Point;
  const refs = referencesOf(series, nBefore);
  const baselinePct = (refs[0] as Reference).pct;
  const offScale = series.offScaleCounts[series.points.length] as number;
  const threshold = series.known && offScale === 0 ? pointsThreshold(series.known, params) : null;
  const compared =
    series.known && threshold !== null
      ? reliableChangeRule(series.known, refs, latest.worseScore, threshold)
      : percentPointRule(series, refs, latest.worsePct, offScale, params);
  return { ...compared, baselinePct, latestPct: latest.worsePct, change: latest.worsePct - baselinePct };
}

/**
 * Decision 81: with invalid totals, the valid administrations alone and all of them read toward
 * the worse end are both judged; a worsening shown by either counts, a response only when both
 * show it, and without valid administrations on both sides of the start there is no comparison.
 */
function judgeWithInvalidTotals(
  series: Series,
  nBefore: number,
  anchor: number,
  params: MedicationParams,
): Judged {
  const all = judge(series, nBefore, params);
  const validPoints = series.points.filter((pt) => pt.valid);
  const validSeries = toSeries(series.key, {
    known: series.known,
    display: series.display,
    points: validPoints,
  });
  const nValidBefore = countAtOrBefore(validSeries.points, anchor);
  const valid =
    nValidBefore > 0 && nValidBefore < validPoints.length ? judge(validSeries, nValidBefore, params) : null;
  const outcome: Outcome =
    all.outcome === "worsening" || valid?.outcome === "worsening"
      ? "worsening"
      : valid?.outcome === "responding" && all.outcome === "responding"
        ? "responding"
        : valid !== null
          ? "no_clear_change"
          : "insufficient_data";
  const from = valid !== null && (valid.outcome === "worsening" || outcome !== "worsening") ? valid : all;
  const note = `Not evaluated: ${series.invalid} ${series.display} administration(s) with an invalid total (${invalidReasons(series)}); an invalid total is never read as a response, only as a worsening at the nearest total the form can produce toward the worse end${valid === null ? "; the valid administrations do not fall on both sides of the start" : ""}.`;
  return { ...from, outcome, rule: outcome === "insufficient_data" ? note : `${note} ${from.rule}` };
}

function invalidReasons(series: Series): string {
  if (series.known === null) return "";
  const known = series.known;
  return [
    ...new Set(
      series.points.filter((pt) => !pt.valid).map((pt) => invalidTotalReason(known, pt.score, pt.maxScore)),
    ),
  ].join("; ");
}

/** The latest administration after the start against the references before and since it. */
function compareAroundStart(
  subject: Subject,
  series: Series,
  startText: string,
  nBefore: number,
  nAfter: number,
  params: MedicationParams,
  nowMs: number,
  anchor: number,
): Evaluated {
  const { points } = series;
  const latest = points.at(-1) as Point;
  const latestIso = isoOf(latest.time);
  if (series.direction === null)
    return insufficientData(
      subject,
      `${series.display} (the most administered scale): change not evaluated: direction unknown (not a recognised instrument, so whether a higher score is better or worse is not known). metricValue is 0 (no comparison).`,
      latestIso,
      nBefore,
      nAfter,
    );
  const compared =
    series.invalid > 0
      ? judgeWithInvalidTotals(series, nBefore, anchor, params)
      : judge(series, nBefore, params);
  const { baselinePct, change } = compared;
  if (compared.outcome === "insufficient_data")
    return insufficientData(
      subject,
      `${compared.rule} metricValue is 0 (no comparison).`,
      latestIso,
      nBefore,
      nAfter,
    );
  const name = subject.rx.medicationName;
  const age = ageInDays(latest.time, nowMs) ?? 0;
  if (compared.outcome === "responding" && isStale(latest.time, nowMs))
    return insufficientData(
      subject,
      `${compared.rule} But the latest ${series.display} is ${fmt(age, 0)} days old (older than ${SYMPTOM_SCORE_STALE_AFTER_DAYS} days): an old improvement is not a current response, so it is not reported as one. metricValue is 0 (no current comparison).`,
      latestIso,
      nBefore,
      nAfter,
    );
  const { outcome, rule } = compared;
  const summaryLine =
    outcome === "no_clear_change"
      ? `${name}: ${series.display} shows no clear change since the start (${signed(change)} points of 100).`
      : `${name}: ${series.display} ${VERB[outcome]} by ${fmt(Math.abs(change))} points of 100 since the start.`;
  const scale =
    series.direction === "higher_is_better"
      ? "percent toward the worse end, 100 minus the percentage of the maximum, as higher is better on this scale"
      : "higher scores are worse";
  return {
    signal: responseSignal(subject, {
      detail: `${series.display} (the most administered scale): mean of ${nBefore} administration(s) on or before the start on ${startText} was ${fmt(baselinePct)}% of the scale maximum; the latest of ${nAfter} after it (${dateOnly(latestIso)}) was ${fmt(compared.latestPct)}%; change ${signed(change)} percentage points (${scale}). ${rule}`,
      tone: TONE_OF[outcome],
      metricValue: round(change),
      confidence: isStale(latest.time, nowMs) ? "low" : confidenceFor(nBefore, nAfter, params),
      summaryLine: isStale(latest.time, nowMs)
        ? `${summaryLine} Not current: the latest score is ${fmt(age, 0)} days old.`
        : summaryLine,
      observedAt: latestIso,
    }),
    outcome,
    before: nBefore,
    after: nAfter,
  };
}

function evaluatePrescription(
  rx: Prescription,
  signalKey: string,
  series: Series | null,
  params: MedicationParams,
  nowIso: string,
): Evaluated {
  const subject: Subject = { rx, signalKey };
  const anchor = anchorTime(rx.prescribedAt);
  if (anchor === null) {
    return insufficientData(
      subject,
      rx.prescribedAt === undefined
        ? "No prescribedAt was sent, so there is no start date to compare symptom scores around. metricValue is 0 (no comparison)."
        : `prescribedAt "${rx.prescribedAt}" is not a readable date, so there is no start date to compare around. metricValue is 0 (no comparison).`,
      nowIso,
      0,
      0,
    );
  }
  const startText = dateOnly(new Date(anchor).toISOString());
  if (series === null) {
    return insufficientData(
      subject,
      `No symptom-scale administrations were sent, so the course since the start on ${startText} cannot be assessed. metricValue is 0 (no comparison).`,
      nowIso,
      0,
      0,
    );
  }
  const nBefore = countAtOrBefore(series.points, anchor);
  const nAfter = series.points.length - nBefore;
  if (nBefore === 0 || nAfter === 0) return oneSidedSeries(subject, series, startText, nBefore, nAfter);
  return compareAroundStart(subject, series, startText, nBefore, nAfter, params, Date.parse(nowIso), anchor);
}

/** One evaluation per active prescription; repeated names get numbered signal keys (`_2`, `_3`, ...). */
function evaluatePrescriptions(
  active: readonly Prescription[],
  series: Series | null,
  params: MedicationParams,
  nowIso: string,
): Evaluated[] {
  const usedKeys = new Map<string, number>();
  return active.map((rx) => {
    const slug = medicationSlug(rx.medicationName);
    const seen = (usedKeys.get(slug) ?? 0) + 1;
    usedKeys.set(slug, seen);
    const key = `med_response_${slug}${seen > 1 ? `_${seen}` : ""}`;
    return evaluatePrescription(rx, key, series, params, nowIso);
  });
}

// ---------------------------------------------------------------------------------------------
// Response-latency corroboration

const LATENCY_DEFAULTS = {
  // House rule (no published minimal important change for this latency measure): 10 % either way.
  latencyImprovementPct: 10,
  latencyWorseningPct: 10,
} satisfies Partial<MedicationParams>;

function corroborationSignal(pct: number, params: MedicationParams, nowIso: string): ModuleSignal {
  const tone: ModuleSignal["tone"] =
    pct <= -params.latencyImprovementPct
      ? "positive"
      : pct >= params.latencyWorseningPct
        ? "elevated"
        : "watch";
  const reading =
    tone === "positive"
      ? "faster responses than before (a device measurement)"
      : tone === "elevated"
        ? "slower responses than before (a device measurement)"
        : `no change beyond the expert-set thresholds (a fall of ${fmt(params.latencyImprovementPct)} % or a rise of ${fmt(params.latencyWorseningPct)} %)`;
  return {
    module: "medication",
    signalKey: MEDICATION_CORROBORATION_SIGNAL_KEY,
    label: "Response latency change (corroboration)",
    detail: `Response latency changed by ${signed(pct)}% (dmse). A fall of at least ${fmt(params.latencyImprovementPct)}% reads as faster and a rise of at least ${fmt(params.latencyWorseningPct)}% as slower: ${reading}. Corroborates, never replaces, the symptom-scale comparison.`,
    tone,
    metricValue: round(pct),
    metricUnit: "%",
    confidence: "moderate",
    summaryLine: `Response latency ${signed(pct)}%: ${reading}.`,
    sourceRef: MEDICATION_CORROBORATION_SOURCE_REF,
    observedAt: nowIso,
  };
}

// ---------------------------------------------------------------------------------------------
// Status, flags, confidence and inputs

const TONE_RANK: Record<ModuleSignal["tone"], number> = {
  critical: 4,
  elevated: 3,
  watch: 2,
  neutral: 1,
  positive: 0,
};

/** Overall status: the worst outcome among the response signals. */
function overallStatus(evaluated: readonly Evaluated[]): MedicationStatus {
  let status: MedicationStatus = "no_active_prescriptions";
  for (const e of evaluated) {
    if (
      status === "no_active_prescriptions" ||
      MEDICATION_STATUS_ORDER.indexOf(e.outcome) > MEDICATION_STATUS_ORDER.indexOf(status)
    ) {
      status = e.outcome;
    }
  }
  return status;
}

/** Symptom findings first, then signals of tone watch or worse, worst first (ties in signal order). */
function flaggedLabels(findings: SymptomFindings, signals: readonly ModuleSignal[]): string[] {
  return [
    ...findings.flags,
    ...signals
      .map((s, i) => ({ s, i }))
      .filter(({ s }) => TONE_RANK[s.tone] >= TONE_RANK.watch)
      .sort((a, b) => TONE_RANK[b.s.tone] - TONE_RANK[a.s.tone] || a.i - b.i)
      .map(({ s }) => s.label),
  ];
}

/** The high interaction and dose findings, named in summary.flagged. */
function interactionFlags(check: MedicationListCheck | undefined): string[] {
  if (check === undefined) return [];
  return [
    ...check.interactions
      .filter((i) => i.severity === "high")
      .map((i) => `Interaction (high): ${i.a} + ${i.b} (${i.id})`),
    ...check.doseAlerts.filter((d) => d.severity === "high").map((d) => `Dose (high): ${d.label}`),
  ];
}

function medicationHeadline(
  evaluated: readonly Evaluated[],
  status: MedicationStatus,
  findings: SymptomFindings,
  staleText: string,
): string {
  const counts: Record<Outcome, number> = {
    responding: 0,
    no_clear_change: 0,
    insufficient_data: 0,
    worsening: 0,
  };
  for (const e of evaluated) counts[e.outcome] += 1;
  const total = evaluated.length;
  const statusHeadline =
    total === 0
      ? "No active prescriptions to assess."
      : {
          responding: `Symptom scores improved after the start of all ${total} active prescription(s).`,
          insufficient_data: `Not enough data around the start date for ${counts.insufficient_data} of ${total} active prescription(s).`,
          no_clear_change: `No clear change after the start of ${counts.no_clear_change} of ${total} active prescription(s).`,
          worsening: `Symptom scores worsened after the start of ${counts.worsening} of ${total} active prescription(s).`,
          no_active_prescriptions: "No active prescriptions to assess.",
        }[status];
  const review = findings.flags.length > 0 ? ` Needs clinician review: ${findings.flags.join("; ")}.` : "";
  const notes = findings.notes.map((n) => ` ${n}.`).join("");
  return `${statusHeadline}${review}${notes}${staleText}`;
}

const CONFIDENCE_DEFAULTS = {
  // House rule: evenly spaced points for high / moderate / low, and the midpoints between them.
  confidencePointsHigh: 0.9,
  confidencePointsModerate: 0.6,
  confidencePointsLow: 0.3,
  confidenceHighMin: 0.75,
  confidenceModerateMin: 0.45,
} satisfies Partial<MedicationParams>;

/** Which scale was compared and how many prescriptions reached each confidence level. */
function comparisonReasons(
  evaluated: readonly Evaluated[],
  series: Series | null,
  instruments: number,
  params: MedicationParams,
): string[] {
  const reasons: string[] = [];
  const byLevel = { high: 0, moderate: 0, low: 0 };
  for (const e of evaluated) byLevel[e.signal.confidence] += 1;
  if (series) {
    reasons.push(
      `${series.display} is the most administered of ${instruments} scale(s) (${series.points.length} administrations).`,
    );
  } else {
    reasons.push("No usable symptom-scale administrations were sent.");
  }
  if (byLevel.high > 0)
    reasons.push(
      `${byLevel.high} prescription(s) compared with at least ${params.highConfidenceMinPerSide} administrations on each side of the start.`,
    );
  if (byLevel.moderate > 0)
    reasons.push(
      `${byLevel.moderate} prescription(s) compared with at least ${params.moderateConfidenceMinPerSide} administrations on each side.`,
    );
  if (byLevel.low > 0)
    reasons.push(`${byLevel.low} prescription(s) had too few administrations on a side, or no start date.`);
  return reasons;
}

/** Confidence: the mean of the response signals' confidence points. */
function medicationConfidence(
  evaluated: readonly Evaluated[],
  prescriptions: readonly Prescription[],
  selected: { series: Series | null; instruments: number },
  latencySupplied: boolean,
  params: MedicationParams,
): { level: ConfidenceLevel; score: number; reasons: string[] } {
  const pointsOf: Record<ConfidenceLevel, number> = {
    high: params.confidencePointsHigh,
    moderate: params.confidencePointsModerate,
    low: params.confidencePointsLow,
  };
  const total = evaluated.length;
  let reasons: string[];
  let score: number;
  if (total === 0) {
    score = params.confidencePointsLow;
    reasons = [
      prescriptions.length === 0
        ? "No prescriptions were sent."
        : `None of the ${prescriptions.length} prescription(s) has status active.`,
    ];
  } else {
    score = evaluated.reduce((sum, e) => sum + pointsOf[e.signal.confidence], 0) / total;
    reasons = comparisonReasons(evaluated, selected.series, selected.instruments, params);
  }
  if (latencySupplied) reasons.push("A response-latency change was sent as corroboration.");
  score = Math.min(1, Math.max(0, score));
  const level = confidenceLevel(score, params.confidenceHighMin, params.confidenceModerateMin);
  return { level, score: Math.round(score * 1000) / 1000, reasons };
}

function newestIso(times: (number | null)[]): string | null {
  let best: number | null = null;
  for (const t of times) if (t !== null && (best === null || t > best)) best = t;
  return best === null ? null : new Date(best).toISOString();
}

function medicationInputs(
  input: MedicationInput,
  times: (number | null)[],
  evaluated: readonly Evaluated[],
  latencySupplied: boolean,
): EngineInput[] {
  const prescriptions = input.prescriptions ?? [];
  const assessments = input.assessments ?? [];
  return [
    {
      name: "prescriptions",
      value: prescriptions.length,
      observedAt: newestIso(prescriptions.map((p) => parseTime(p.prescribedAt))),
      supplied: prescriptions.length > 0,
      contributed: evaluated.length > 0,
    },
    {
      name: "assessments",
      value: assessments.length,
      observedAt: newestIso(times),
      supplied: assessments.length > 0,
      contributed: evaluated.some((e) => e.before + e.after > 0),
      staleAfterDays: SYMPTOM_SCORE_STALE_AFTER_DAYS,
    },
    {
      name: "dmseLatencyPctChange",
      value: latencySupplied ? input.dmseLatencyPctChange : null,
      observedAt: null,
      supplied: latencySupplied,
      contributed: latencySupplied,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Parameter set

/**
 * Every default, composed from the groups above (each beside the code that reads it); sources in
 * docs/engines/medication.md. The spread order fixes the key order.
 */
export const MEDICATION_DEFAULT_PARAMS: Readonly<MedicationParams> = Object.freeze({
  ...UNKNOWN_SCALE_DEFAULTS,
  ...RELIABLE_CHANGE_DEFAULTS,
  ...PER_SIDE_DEFAULTS,
  ...LATENCY_DEFAULTS,
  ...CONFIDENCE_DEFAULTS,
});

/**
 * Validates a calibrated parameter set and merges it over the defaults. Throws an Error naming the
 * problem when a key is unknown, a value is not a finite number, or a value is out of its range.
 */
export function resolveMedicationParams(overrides: unknown): MedicationParams {
  const merged = mergeNumericParams("medication", MEDICATION_DEFAULT_PARAMS, overrides);
  const problems = negativeProblems(merged, [
    "improvementPctPoints",
    "worseningPctPoints",
    "latencyImprovementPct",
    "latencyWorseningPct",
  ] as const);
  for (const key of ["phq9ReliableChangePoints", "gad7ReliableChangePoints"] as const)
    if (merged[key] <= 0) problems.push(`${key} must be > 0`);
  if (merged.moderateConfidenceMinPerSide < 1) problems.push("moderateConfidenceMinPerSide must be >= 1");
  if (merged.highConfidenceMinPerSide < merged.moderateConfidenceMinPerSide) {
    problems.push("highConfidenceMinPerSide must be >= moderateConfidenceMinPerSide");
  }
  problems.push(...confidenceFractionProblems(merged));
  assertNoProblems("medication", problems);
  return merged;
}

/** Every signal of the run: one per active prescription, then the latency corroboration when supplied. */
function medicationSignals(
  evaluated: readonly Evaluated[],
  latency: number | undefined,
  params: MedicationParams,
  nowIso: string,
): { signals: ModuleSignal[]; latencySupplied: boolean } {
  const signals = evaluated.map((e) => e.signal);
  const latencySupplied = typeof latency === "number" && Number.isFinite(latency);
  if (latencySupplied) signals.push(corroborationSignal(latency, params, nowIso));
  return { signals, latencySupplied };
}

/** The checks of the prescriptions themselves, beside their response: the list check and the patient review. */
interface PrescriptionChecks {
  listCheck: MedicationListCheck | undefined;
  patientReview: PatientReview | null;
  reviewed: PatientReviewSummary;
}

function prescriptionChecks(
  input: MedicationInput,
  prescriptions: readonly Prescription[],
  now: Date,
): PrescriptionChecks {
  // The interaction and dose check of the active prescriptions: a high finding
  // needs a clinician whatever the symptom scores show.
  // Age- and liver-dependent label limits read the patient facts through the one helper.
  const listCheck =
    prescriptions.length > 0
      ? medicationListCheck(prescriptions, doseCheckOptions(input.patient, now))
      : undefined;
  // The patient-over-time review: its findings set review and are flagged as the
  // JSON door maps their level, whatever the symptom scores show.
  const patientReview = doorPatientReview({
    ...(input.patient === undefined ? {} : { patient: input.patient }),
    medicines: medicinesOfPrescriptions(prescriptions),
    readings: readingsOfLabPanels(input.labs ?? []),
    now,
  });
  return { listCheck, patientReview, reviewed: patientReviewSummary(patientReview) };
}

/**
 * Staleness: the newest symptom score older than the limit lowers confidence and the headline
 * says the picture is not current.
 */
function symptomStaleness(
  times: readonly (number | null)[],
  now: Date,
): { stale: boolean; staleText: string } {
  let newest: number | null = null;
  for (const t of times) if (t !== null && (newest === null || t > newest)) newest = t;
  const nowMs = now.getTime();
  const stale = isStale(newest, nowMs);
  const staleText = stale
    ? ` Not current: the newest symptom score is ${fmt(ageInDays(newest, nowMs) ?? 0, 0)} days old (older than ${SYMPTOM_SCORE_STALE_AFTER_DAYS} days).`
    : "";
  return { stale, staleText };
}

/** The summary: status, headline (response, then the patient review), flagged labels and the review decision. */
function medicationSummary(
  evaluated: readonly Evaluated[],
  status: MedicationStatus,
  findings: SymptomFindings,
  signals: readonly ModuleSignal[],
  checks: PrescriptionChecks,
  staleText: string,
): EngineFacts["summary"] {
  const { listCheck, reviewed } = checks;
  return {
    status,
    headline: [medicationHeadline(evaluated, status, findings, staleText), reviewed.headline]
      .filter((line) => line !== null)
      .join(" "),
    flagged: [...flaggedLabels(findings, signals), ...interactionFlags(listCheck), ...reviewed.flagged],
    requiresClinicianReview:
      findings.flags.length > 0 ||
      signals.some((s) => TONE_RANK[s.tone] >= TONE_RANK.elevated) ||
      listCheck?.requiresClinicianReview === true ||
      reviewed.requiresClinicianReview,
  };
}

/** Runs the medication response engine. Never throws on in-bound input. */
export function analyzeMedication(
  input: MedicationInput,
  options: EngineOptions<MedicationParams>,
): EngineRun<MedicationData> {
  const { params, model } = engineParams(MEDICATION_MODEL_KEY, MEDICATION_DEFAULT_PARAMS, options);
  const nowIso = options.now.toISOString();
  const prescriptions = input.prescriptions ?? [];
  const assessments = input.assessments ?? [];

  const active = prescriptions.filter((p) => p.status.trim().toLowerCase() === "active");
  const times = assessmentTimes(assessments);
  const selected = active.length > 0 ? selectSeries(assessments, times) : { series: null, instruments: 0 };
  const evaluated = evaluatePrescriptions(active, selected.series, params, nowIso);
  const { signals, latencySupplied } = medicationSignals(
    evaluated,
    input.dmseLatencyPctChange,
    params,
    nowIso,
  );

  const status = overallStatus(evaluated);
  // A severe score or a reliable deterioration on any scale is never hidden, whatever the
  // prescriptions show (the same reading as the outcome and relapse engines).
  const findings: SymptomFindings = readSymptomFindings(assessments, params.worseningPctPoints, times);
  const checks = prescriptionChecks(input, prescriptions, options.now);
  const { stale, staleText } = symptomStaleness(times, options.now);
  const confidence = medicationConfidence(evaluated, prescriptions, selected, latencySupplied, params);
  confidence.reasons.push(...findings.notes);
  const facts: EngineFacts = {
    summary: medicationSummary(evaluated, status, findings, signals, checks, staleText),
    confidence: capStaleConfidence(capForUnreadScales(confidence, findings), stale, staleText.trim()),
    inputs: medicationInputs(input, times, evaluated, latencySupplied),
    current: { score: null, status },
    polarity: { kind: "status", order: MEDICATION_STATUS_ORDER },
    interpretationScale: { ...MEDICATION_INTERPRETATION_SCALE },
  };

  return {
    data: {
      generatedAt: nowIso,
      signalsPresent: signals.length,
      signals,
      disclaimer: MEDICATION_DISCLAIMER,
      ...(checks.listCheck === undefined ? {} : { interactionCheck: checks.listCheck }),
      ...(checks.patientReview === null ? {} : { patientReview: checks.patientReview }),
    },
    facts,
    model,
  };
}
