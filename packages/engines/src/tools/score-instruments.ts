/**
 * `scoreInstruments`: the outcome agent's deterministic tool. It checks each submitted
 * questionnaire against its definition (instrument-catalog.ts), totals it, bands it, compares it
 * with a prior total, and assigns risk. The engine alone assigns every band, flag and level; the
 * risk policy below is expert-set and explained in docs/engines/instruments.md.
 */

import {
  judgeScoreChange,
  RELIABLE_DETERIORATION_LEVEL as SCORE_CHANGE_DETERIORATION_LEVEL,
  UNKNOWN_SCALE_CHANGE_PP,
} from "../judgement.js";
import {
  findInstrument,
  type InstrumentDefinition,
  type InstrumentId,
} from "../knowledge/instrument-catalog.js";
import { ALERT_BANDS, maximumTotalWithout, totalOfResponses } from "../knowledge/instruments.js";
import {
  type AgentRisk,
  type AgentRiskLevel,
  combineRisks,
  type NotEvaluatedItem,
  riskWithNotEvaluated,
  ToolInputError,
  type ToolInputIssue,
} from "./types.js";

export interface InstrumentSubmission {
  instrument: string;
  responses?: readonly number[];
  total?: number;
  priorTotal?: number;
}

export type InstrumentTrajectory = "improved" | "worsened" | "unchanged" | "no_prior";

/** A risk item answered above 0 (1-based item number, its score, what it asks about). */
export interface InstrumentItemFlag {
  item: number;
  value: number;
  label: string;
}

export interface InstrumentResult {
  /** Display name, e.g. "PHQ-9". */
  instrument: string;
  instrumentId: InstrumentId;
  total: number;
  /** Band label, e.g. "moderately severe". */
  severity: string;
  severityKey: string;
  trajectory: InstrumentTrajectory;
  priorTotal?: number;
  /** total - priorTotal. */
  change?: number;
  /** Present only when a prior total was given and the instrument has sourced reliable-change points. */
  reliableChange?: boolean;
  reliableChangePoints: number | null;
  /** Whether the total was summed from item responses or given as a total. */
  source: "responses" | "total";
  itemFlags: InstrumentItemFlag[];
}

export interface InstrumentObservation {
  instrument: string;
  note: string;
}

export interface InstrumentScoring {
  results: InstrumentResult[];
  /** Instrument names that are not in the catalog; they were not scored. */
  unrecognized: string[];
  observations: InstrumentObservation[];
  risk: AgentRisk;
  warnings: string[];
}

// --- Risk policy (expert-set; reasons in docs/engines/instruments.md) -------------------------

/** A risk item (PHQ-9 item 9, EPDS item 10) answered 1: at least moderate. */
export const RISK_ITEM_ANY_LEVEL: AgentRiskLevel = "moderate";
/** Answered this or more ("more than half the days" / "sometimes" and above): high. */
export const RISK_ITEM_HIGH_FROM_VALUE = 2;
export const RISK_ITEM_HIGH_LEVEL: AgentRiskLevel = "high";
/** A risk item that could not be checked (total only): never none, as an incomplete C-SSRS screen. */
export const RISK_ITEM_NOT_AVAILABLE_LEVEL: AgentRiskLevel = "low";
/** A reliable change for the worse: the one judgement's level (decision 182). */
export const RELIABLE_DETERIORATION_LEVEL: AgentRiskLevel = SCORE_CHANGE_DETERIORATION_LEVEL;

/** A short form that leaves out its parent form's risk item (PHQ-8, PHQ-2): never none, as above. */
export const RISK_NOT_SCREENED_LEVEL: AgentRiskLevel = "low";

// --- Public entry point ------------------------------------------------------------------------

/**
 * Scores each recognised submission. Throws ToolInputError (one issue per problem, path relative
 * to the submissions array) for wrong item counts, answers outside an item's range, totals or
 * prior totals outside the instrument's range or not whole numbers (decision 63), or a total that
 * disagrees with its responses.
 * Unknown instrument names are listed in `unrecognized` with a warning, not thrown; they and
 * risk items given as a total only keep the risk at low or above with a "Not evaluated" label
 * (decision 80).
 */
export function scoreInstruments(submissions: readonly InstrumentSubmission[]): InstrumentScoring {
  if (submissions.length === 0) {
    return emptyScoring(["No instruments were submitted: nothing was scored."]);
  }
  const recognised = submissions.map((submission) => findInstrument(submission.instrument));
  const issues = submissions.flatMap((submission, index) => {
    const definition = recognised[index];
    return definition ? submissionIssues(submission, index, definition) : [];
  });
  if (issues.length > 0) throw new ToolInputError(issues);

  const scoring = emptyScoring([]);
  const risks: AgentRisk[] = [];
  const notEvaluated: NotEvaluatedItem[] = [];
  submissions.forEach((submission, index) => {
    const definition = recognised[index];
    if (!definition) {
      if (recordUnrecognised(scoring, submission.instrument))
        notEvaluated.push({
          what: `instrument "${submission.instrument}"`,
          why: "not recognised: not scored and its risk not assessed",
        });
      return;
    }
    const scored = scoreOne(submission, definition);
    scoring.results.push(scored.result);
    scoring.observations.push(...scored.observations);
    scoring.warnings.push(...scored.warnings);
    risks.push(...scored.risks);
    notEvaluated.push(...scored.notEvaluated);
  });
  scoring.risk = riskWithNotEvaluated(risks, notEvaluated);
  return scoring;
}

function emptyScoring(warnings: string[]): InstrumentScoring {
  return { results: [], unrecognized: [], observations: [], risk: combineRisks([]), warnings };
}

/** Lists an unrecognised name once; true the first time it is seen. */
function recordUnrecognised(scoring: InstrumentScoring, name: string): boolean {
  if (scoring.unrecognized.includes(name)) return false;
  scoring.unrecognized.push(name);
  scoring.warnings.push(
    `Instrument "${name}" is not recognised: it was not scored and its risk was not assessed.`,
  );
  return true;
}

// --- Input checks ------------------------------------------------------------------------------

function submissionIssues(
  submission: InstrumentSubmission,
  index: number,
  definition: InstrumentDefinition,
): ToolInputIssue[] {
  const name = definition.display;
  if (submission.responses === undefined && submission.total === undefined) {
    return [{ path: [index], message: `${name} needs responses or a total` }];
  }
  const issues: ToolInputIssue[] = [];
  if (submission.responses !== undefined)
    issues.push(...responseIssues(submission.responses, index, definition));
  if (submission.total !== undefined) {
    issues.push(...totalIssues(submission.total, [index, "total"], `${name} total`, definition));
  }
  if (submission.priorTotal !== undefined) {
    issues.push(
      ...totalIssues(submission.priorTotal, [index, "priorTotal"], `${name} prior total`, definition),
    );
  }
  if (issues.length === 0) issues.push(...totalMismatchIssues(submission, index, definition));
  return issues;
}

function responseIssues(
  responses: readonly number[],
  index: number,
  definition: InstrumentDefinition,
): ToolInputIssue[] {
  const issues: ToolInputIssue[] = [];
  if (responses.length !== definition.itemCount) {
    issues.push({
      path: [index, "responses"],
      message: `${definition.display} needs ${definition.itemCount} responses, got ${responses.length}`,
    });
  }
  responses.forEach((value, position) => {
    const item = position + 1;
    if (item > definition.itemCount || isAllowedItemValue(definition, item, value)) return;
    issues.push({
      path: [index, "responses", position],
      message: `${definition.display} item ${item} must be ${allowedItemText(definition, item)}, got ${value}`,
    });
  });
  return issues;
}

function isAllowedItemValue(definition: InstrumentDefinition, item: number, value: number): boolean {
  const listed = definition.allowedItemValues?.[item];
  if (listed) return listed.includes(value);
  return Number.isInteger(value) && value >= definition.itemMin && value <= definition.itemMax;
}

function allowedItemText(definition: InstrumentDefinition, item: number): string {
  const listed = definition.allowedItemValues?.[item];
  if (!listed) return `${definition.itemMin}-${definition.itemMax}`;
  return `${listed.slice(0, -1).join(", ")} or ${listed[listed.length - 1]}`;
}

function totalIssues(
  value: number,
  path: (string | number)[],
  what: string,
  definition: InstrumentDefinition,
): ToolInputIssue[] {
  if (!(Number.isFinite(value) && value >= definition.totalMin && value <= definition.totalMax))
    return [{ path, message: `${what} must be ${definition.totalMin}-${definition.totalMax}, got ${value}` }];
  // Decision 63: every item is scored in whole numbers, so a fractional total is no administration.
  if (definition.wholeNumberTotals && !Number.isInteger(value))
    return [
      {
        path,
        message: `${what} must be a whole number (${definition.display} items are scored in whole numbers), got ${value}`,
      },
    ];
  return [];
}

function totalMismatchIssues(
  submission: InstrumentSubmission,
  index: number,
  definition: InstrumentDefinition,
): ToolInputIssue[] {
  if (submission.responses === undefined || submission.total === undefined) return [];
  const summed = totalOfResponses(definition.id, submission.responses);
  if (summed === submission.total) return [];
  return [
    {
      path: [index, "total"],
      message: `${definition.display} total ${submission.total} does not match its responses, which ${definition.domains ? "score" : "sum"} to ${summed}`,
    },
  ];
}

// --- Scoring one instrument --------------------------------------------------------------------

interface ScoredInstrument {
  result: InstrumentResult;
  observations: InstrumentObservation[];
  warnings: string[];
  risks: AgentRisk[];
  notEvaluated: NotEvaluatedItem[];
}

function scoreOne(submission: InstrumentSubmission, definition: InstrumentDefinition): ScoredInstrument {
  const fromResponses = submission.responses !== undefined;
  const total =
    submission.responses !== undefined
      ? totalOfResponses(definition.id, submission.responses)
      : (submission.total ?? 0);
  const band = bandOf(definition, total);
  const comparison = compareWithPrior(definition, total, submission.priorTotal);
  const riskItems = readRiskItems(definition, submission.responses, total);
  const alert = ALERT_BANDS[definition.id];

  const result: InstrumentResult = {
    instrument: definition.display,
    instrumentId: definition.id,
    total,
    severity: band.label,
    severityKey: band.key,
    trajectory: comparison.trajectory,
    ...(submission.priorTotal !== undefined ? { priorTotal: submission.priorTotal } : {}),
    ...(comparison.change !== undefined ? { change: comparison.change } : {}),
    ...(comparison.reliableChange !== undefined ? { reliableChange: comparison.reliableChange } : {}),
    reliableChangePoints: definition.reliableChangePoints,
    source: fromResponses ? "responses" : "total",
    itemFlags: riskItems.itemFlags,
  };
  const risks = [...riskItems.risks];
  if (alert !== null && band.key === alert.bandKey) {
    risks.push(riskOf(alert.level, `${definition.display} total ${total}: ${band.label}`));
  }
  if (comparison.reliableDeterioration) {
    risks.push(
      riskOf(RELIABLE_DETERIORATION_LEVEL, deteriorationLabel(definition, submission.priorTotal, total)),
    );
  }
  return {
    result,
    observations: [
      { instrument: definition.display, note: totalNote(definition, total, band.label) },
      ...(comparison.note ? [{ instrument: definition.display, note: comparison.note }] : []),
      ...riskItems.notes.map((note) => ({ instrument: definition.display, note })),
    ],
    warnings: riskItems.warnings,
    risks,
    notEvaluated: riskItems.notEvaluated,
  };
}

/** The highest band whose lower cut-point the total has reached (the rule of `severityBand`). */
function bandOf(definition: InstrumentDefinition, total: number): InstrumentDefinition["bands"][number] {
  const [lowest, ...rest] = definition.bands;
  if (!lowest) throw new Error(`${definition.display} has no bands`);
  let found = lowest;
  for (const band of rest) if (total >= band.min) found = band;
  return found;
}

function totalNote(definition: InstrumentDefinition, total: number, bandLabel: string): string {
  const percent =
    definition.percentPerPoint === undefined ? "" : ` (${total * definition.percentPerPoint} %)`;
  return `${definition.display} total ${total} of ${definition.totalMax}${percent}: ${bandLabel}.`;
}

// --- Change against a prior total --------------------------------------------------------------

interface PriorComparison {
  trajectory: InstrumentTrajectory;
  change?: number;
  reliableChange?: boolean;
  reliableDeterioration: boolean;
  note?: string;
}

/**
 * The one judgement of a score change (decision 182, `judgeScoreChange`): direction from the
 * instrument table (a fall on the WHO-5 or WEMWBS is a worsening), reliable by the instrument's
 * sourced reliable-change points, else by the engines' percentage-point rule, so an instrument
 * without sourced points or severity bands still has a reliable deterioration, as in the relapse
 * and outcome engines.
 */
function compareWithPrior(
  definition: InstrumentDefinition,
  total: number,
  priorTotal: number | undefined,
): PriorComparison {
  if (priorTotal === undefined) return { trajectory: "no_prior", reliableDeterioration: false };
  const judged = judgeScoreChange(definition.id, priorTotal, total);
  return {
    trajectory: judged.trajectory,
    change: judged.change,
    reliableChange: judged.reliable,
    reliableDeterioration: judged.reliableDeterioration,
    note: changeNote(definition, priorTotal, total, judged),
  };
}

function changeNote(
  definition: InstrumentDefinition,
  priorTotal: number,
  total: number,
  judged: ReturnType<typeof judgeScoreChange>,
): string {
  const name = definition.display;
  const { trajectory, change, rule, reliable } = judged;
  if (trajectory === "unchanged") return `${name} unchanged at ${total}.`;
  const moved = `${name} ${trajectory} from ${priorTotal} to ${total} (${signed(change)} points)`;
  const threshold =
    rule.kind === "points"
      ? `threshold ${rule.threshold} points`
      : `no sourced reliable-change points, so by the ${rule.threshold}-percentage-point rule of the scale range (expert-set)`;
  if (reliable) return `${moved}: a reliable change (${threshold}).`;
  return `${moved}: below the reliable-change threshold (${threshold}), so it may be measurement error.`;
}

function deteriorationLabel(
  definition: InstrumentDefinition,
  priorTotal: number | undefined,
  total: number,
): string {
  const change = roundToHundredths(total - (priorTotal ?? total));
  const threshold =
    definition.reliableChangePoints === null
      ? `${UNKNOWN_SCALE_CHANGE_PP} percentage points of the scale range`
      : String(definition.reliableChangePoints);
  return `${definition.display} reliable deterioration: ${priorTotal} to ${total} (${signed(change)} points; threshold ${threshold})`;
}

// --- Risk items (PHQ-9 item 9, EPDS item 10) ---------------------------------------------------

interface RiskItemReading {
  itemFlags: InstrumentItemFlag[];
  risks: AgentRisk[];
  /** Risk items that could not be read (total only): never "no risk" (decision 80). */
  notEvaluated: NotEvaluatedItem[];
  notes: string[];
  warnings: string[];
}

/**
 * With responses: every risk item above 0 is flagged and raises risk, whatever the total. With a
 * total only: the item cannot be read, which is never "no risk" (low, with a warning), unless the
 * total settles it: 0 means every item is 0, and a total above what the other items can reach
 * means the risk item is at least the difference.
 */
function readRiskItems(
  definition: InstrumentDefinition,
  responses: readonly number[] | undefined,
  total: number,
): RiskItemReading {
  const reading: RiskItemReading = { itemFlags: [], risks: [], notEvaluated: [], notes: [], warnings: [] };
  for (const riskItem of definition.riskItems) {
    const name = `${definition.display} item ${riskItem.item}`;
    if (responses !== undefined) {
      const value = responses[riskItem.item - 1] ?? 0;
      if (value <= 0) continue;
      reading.itemFlags.push({ item: riskItem.item, value, label: riskItem.label });
      reading.risks.push(riskOf(riskItemLevel(value), `${name} (${riskItem.label}) = ${value}`));
      reading.notes.push(
        `${name} (${riskItem.label}) scored ${value} of ${definition.itemMax}: assess ${riskItem.screens} whatever the total.`,
      );
      continue;
    }
    if (total === 0) continue;
    reading.notEvaluated.push({
      what: name,
      why: `given as a total only: ${riskItem.screens} not screened`,
      level: RISK_ITEM_NOT_AVAILABLE_LEVEL,
    });
    const unscreened = `${definition.display} was given as a total only: ${name} (${riskItem.label}) could not be checked, so ${riskItem.screens} was not screened by this score.`;
    reading.warnings.push(unscreened);
    reading.notes.push(unscreened);
    const impliedMinimum = impliedItemMinimum(definition, riskItem.item, total);
    if (impliedMinimum > 0) {
      reading.risks.push(
        riskOf(
          riskItemLevel(impliedMinimum),
          `${name} (${riskItem.label}) at least ${impliedMinimum}, implied by total ${total}`,
        ),
      );
    }
  }
  if (definition.riskNotScreened) {
    const { screens, note } = definition.riskNotScreened;
    // Not evaluated, never none: the shared rule of the agent tools (decision 80).
    reading.notEvaluated.push({
      what: `${definition.display} ${screens}`,
      why: "the form has no item that screens it",
      level: RISK_NOT_SCREENED_LEVEL,
    });
    const text = `${definition.display}: ${note}; ask about it directly or use the full form.`;
    reading.warnings.push(text);
    reading.notes.push(text);
  }
  return reading;
}

function riskItemLevel(value: number): AgentRiskLevel {
  return value >= RISK_ITEM_HIGH_FROM_VALUE ? RISK_ITEM_HIGH_LEVEL : RISK_ITEM_ANY_LEVEL;
}

/**
 * The lowest score an item can have given the total: what the rest of the instrument cannot account
 * for (on QIDS-SR16 the other domains; risk items have a minimum of 0).
 */
function impliedItemMinimum(definition: InstrumentDefinition, item: number, total: number): number {
  return Math.max(0, Math.ceil(total - maximumTotalWithout(definition.id, item)));
}

// --- Small helpers -----------------------------------------------------------------------------

function riskOf(level: AgentRiskLevel, label: string): AgentRisk {
  return { flag: level !== "none", level, labels: [label] };
}

function roundToHundredths(value: number): number {
  return Math.round(value * 100) / 100;
}

function signed(value: number): string {
  return value > 0 ? `+${value}` : `${value}`;
}
