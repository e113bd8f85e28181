/**
 * One clinical judgement per fact: a laboratory reading against its analyte's
 * ranges and critical limits, and a change between two scores of an instrument against the
 * instrument's direction and reliable change, are each judged here, once, and every door (the
 * JSON engines, the agent tools, MCP, the CDS cards, the FHIR answers) presents that result
 * through its own documented mapping (`DOOR_LEVELS`, docs/engines/door-parity.md).
 *
 * The clinical level is the agent tools' scale (`none`, `low`, `moderate`, `high`); a fact that
 * was given but could not be judged is "not assessed": `assessed: false` with a level of at least
 * `low`, never `none`.
 *
 * Decisions this module follows (docs/decisions.md): 60, scale direction from one instrument table;
 * 64, one analyte table; 65, units before values; 67, critical values and the current reading; 80,
 * not evaluated is never `none`; 182, one judgement per fact, every door reads it.
 */
import {
  type AnalyteEntry,
  type AnalyteEvaluation,
  type AnalyteNotEvaluated,
  evaluateAnalyteValue,
  type FlagTone,
  toneOfOutOfRange,
} from "./knowledge/analytes.js";
import { INSTRUMENTS, type InstrumentId, percentOfScale } from "./knowledge/instruments.js";

/** The one clinical level, lowest first (the agent tools' risk levels). */
export const CLINICAL_LEVELS = ["none", "low", "moderate", "high"] as const;
export type ClinicalLevel = (typeof CLINICAL_LEVELS)[number];

export function higherClinicalLevel(a: ClinicalLevel, b: ClinicalLevel): ClinicalLevel {
  return CLINICAL_LEVELS.indexOf(a) >= CLINICAL_LEVELS.indexOf(b) ? a : b;
}

/** The biomarker engine's tone of a reading, as a clinical level (and back). */
export const TONE_LEVEL: Readonly<Record<FlagTone | "critical", Exclude<ClinicalLevel, "none">>> = {
  // A result worth noting ("watch") is low; one with a direct psychiatric safety implication
  // ("elevated") is moderate; beyond a sourced critical limit is high.
  watch: "low",
  elevated: "moderate",
  critical: "high",
};

export function toneOfLevel(level: Exclude<ClinicalLevel, "none">): FlagTone | "critical" {
  return level === "high" ? "critical" : level === "moderate" ? "elevated" : "watch";
}

/**
 * An implausible value is not a result, but a wrong unit or entry can hide a critical one:
 * not assessed at moderate. A missing, unknown or ambiguous unit: not assessed at
 * the floor, low.
 */
export const NOT_ASSESSED_LEVEL: Readonly<Record<AnalyteNotEvaluated["reason"], ClinicalLevel>> = {
  unit: "low",
  implausible: "moderate",
};

/** A laboratory flag as the biomarker contract reads it (`normal` and others are no flag). */
export type LabFlag = "high" | "low" | "critical";

export type LabJudgement =
  | {
      assessed: true;
      level: ClinicalLevel;
      evaluation: AnalyteEvaluation;
      /** The table's level before the laboratory's flag was considered. */
      tableLevel: ClinicalLevel;
    }
  | {
      assessed: false;
      level: ClinicalLevel;
      /** Null when the analyte has no measurement row or the value is not numeric. */
      evaluation: AnalyteNotEvaluated | null;
    };

/** The table's level of an evaluated reading: normal none, outside the range by the row's tone, critical high. */
export function tableLevelOf(entry: AnalyteEntry, evaluation: AnalyteEvaluation): ClinicalLevel {
  switch (evaluation.flag) {
    case "normal":
      return "none";
    case "critical_high":
    case "critical_low":
      return "high";
    case "high":
    case "low":
      return TONE_LEVEL[toneOfOutOfRange(entry, evaluation) ?? "watch"];
  }
}

/**
 * The one judgement of a laboratory reading. The table decides when it can read
 * the value (converted to the canonical unit): a value within the table's range is
 * `none`, outside it the analyte's tone, beyond a sourced critical limit `high`, whether or not
 * the laboratory flagged it. The laboratory's flag can only raise that: a `critical` flag is
 * `high`, a `high` or `low` flag at least `low` (the laboratory's own range may differ), and when
 * the table cannot read the value, the tone of the flagged side. A value the table cannot read
 * and nobody flagged is not assessed (`low`, an implausible one `moderate`), never `none`.
 * `entry` null: an analyte the table does not know.
 */
export function judgeLabReading(
  entry: AnalyteEntry | null,
  value: number | null,
  unit: string | undefined,
  labFlag: LabFlag | null = null,
): LabJudgement {
  const flagLevel: ClinicalLevel =
    labFlag === "critical"
      ? "high"
      : labFlag === null
        ? "none"
        : entry
          ? TONE_LEVEL[labFlag === "high" ? entry.toneHigh : entry.toneLow]
          : "low";
  const evaluation =
    entry?.measure && value !== null
      ? evaluateAnalyteValue(entry, value, unit, { unitlessMeansCanonical: true })
      : null;
  if (entry && evaluation?.evaluated) {
    const tableLevel = tableLevelOf(entry, evaluation);
    const flagFloor: ClinicalLevel = labFlag === "critical" ? "high" : labFlag === null ? "none" : "low";
    return { assessed: true, level: higherClinicalLevel(tableLevel, flagFloor), evaluation, tableLevel };
  }
  const unread = evaluation && !evaluation.evaluated ? evaluation : null;
  // Decision 180: a unit-less value refused as ambiguous though one plausible reading is beyond a
  // critical limit is raised for review above a plain unit gap.
  const notAssessed = unread
    ? higherClinicalLevel(NOT_ASSESSED_LEVEL[unread.reason], unread.criticalPossible ? "moderate" : "none")
    : "low";
  return { assessed: false, level: higherClinicalLevel(notAssessed, flagLevel), evaluation: unread };
}

// ---------------------------------------------------------------------------------------------
// A change between two scores of an instrument

/**
 * Expert-set: without a sourced reliable change (or off the published scale), a
 * change of at least this many percentage points of the scale, toward its worse (better) end, is
 * a deterioration (improvement). Between the PHQ-9 (6/27 = 22 %) and GAD-7 (4/21 = 19 %) reliable
 * changes rounded down, so no such scale is held to a stricter standard than the known ones.
 */
export const UNKNOWN_SCALE_CHANGE_PP = 15;

/** Percentages of different maxima do not subtract exactly; comparisons allow this much. */
export const PP_EPSILON = 1e-9;

export interface ScoreChangeJudgement {
  trajectory: "worsened" | "improved" | "unchanged";
  /** after - before, in points. */
  change: number;
  /** How reliability was judged: the instrument's sourced points, or the percentage-point rule. */
  rule: { kind: "points"; threshold: number } | { kind: "percentage_points"; threshold: number };
  /** The change toward the worse end, in the rule's unit (negative: toward the better end). */
  worsening: number;
  reliable: boolean;
  reliableDeterioration: boolean;
  reliableImprovement: boolean;
  /** The clinical level of the change alone: a reliable deterioration is `low`. */
  level: ClinicalLevel;
}

/** A reliable deterioration on any instrument, in every door: a finding at low (expert-set). */
export const RELIABLE_DETERIORATION_LEVEL: ClinicalLevel = "low";

/**
 * The one judgement of a change between two totals of a recognised instrument:
 * direction from the instrument table (a fall on a higher-is-better scale such as the WHO-5 or
 * WEMWBS is a worsening), reliable by the instrument's sourced reliable-change points when it
 * has them and both totals are on the published scale (`maxScore` its maximum), else by
 * `UNKNOWN_SCALE_CHANGE_PP` percentage points of the scale. Severity bands play no part: an
 * instrument without bands still has a reliable deterioration.
 */
export function judgeScoreChange(
  id: InstrumentId,
  before: number,
  after: number,
  maxScore: number = INSTRUMENTS[id].totalMax,
): ScoreChangeJudgement {
  const k = INSTRUMENTS[id];
  const higherIsWorse = k.direction === "higher_is_worse";
  const change = Math.round((after - before) * 100) / 100;
  const trajectory = change === 0 ? "unchanged" : change > 0 === higherIsWorse ? "worsened" : "improved";
  const sign = higherIsWorse ? 1 : -1;
  const byPoints = k.reliableChangePoints !== null && maxScore === k.totalMax;
  let rule: ScoreChangeJudgement["rule"];
  let worsening: number;
  let reliable: boolean;
  if (byPoints) {
    const threshold = k.reliableChangePoints as number;
    rule = { kind: "points", threshold };
    worsening = sign * change;
    reliable = Math.abs(change) >= threshold;
  } else {
    rule = { kind: "percentage_points", threshold: UNKNOWN_SCALE_CHANGE_PP };
    worsening = sign * (percentOfScale(id, after, maxScore) - percentOfScale(id, before, maxScore));
    reliable = Math.abs(worsening) >= UNKNOWN_SCALE_CHANGE_PP - PP_EPSILON;
  }
  const reliableDeterioration = reliable && trajectory === "worsened";
  return {
    trajectory,
    change,
    rule,
    worsening,
    reliable,
    reliableDeterioration,
    reliableImprovement: reliable && trajectory === "improved",
    level: reliableDeterioration ? RELIABLE_DETERIORATION_LEVEL : "none",
  };
}
