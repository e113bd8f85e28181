/**
 * Biomarker agent tools `getPanels` and `evaluatePanel`: the panels of the lab catalog with the
 * ranges, critical limits and accepted units of their analytes, and a deterministic flag,
 * observation and risk for each reading. Every fact (names, units and conversions, plausible,
 * reference, therapeutic and critical ranges, LOINC codes, panel ids) comes from the analyte table
 * in `knowledge/analytes.ts`; a reading is converted to its analyte's canonical unit
 * before it is read, and a missing, unknown or ambiguous unit is never read as another unit.
 * Sources: docs/engines/panels.md.
 *
 * Decisions this module follows (docs/decisions.md): 64, one analyte table; 65, units before
 * values; 66, clozapine neutrophil categories; 80, not evaluated is never `none`; 182, one
 * judgement per fact, every door reads it.
 */

import { judgeLabReading, tableLevelOf } from "../judgement.js";
import {
  ANALYTES,
  type AnalyteEntry,
  type AnalyteEvaluation,
  type AnalyteMeasure,
  acceptedUnitCodes,
  type CriticalLimit,
  chooseLoinc,
  clozapineAncText,
  findAnalyte,
  flagCanonicalValue,
  formatAnalyteValue,
  measureRangeText,
} from "../knowledge/analytes.js";
import { PANEL_DEFINITIONS } from "../knowledge/lab-panels.js";
import {
  type AgentRisk,
  type AgentRiskLevel,
  type NotEvaluatedItem,
  riskWithNotEvaluated,
  ToolInputError,
  type ToolInputIssue,
} from "./types.js";

export interface PanelAnalyte {
  /** Key of the analyte table. */
  analyte: string;
  display: string;
  /** The canonical unit values are read in (SI where usual), as people write it. */
  unit: string;
  /** The canonical unit as a UCUM code (additive). */
  ucum: string;
  /** Every unit a reading may be sent in, as UCUM codes (additive). */
  acceptedUnits: string[];
  /** The primary range: normal when low <= value <= high (both ends inclusive); null: no bound on that side. */
  low: number | null;
  high: number | null;
  criticalLow: number | null;
  criticalHigh: number | null;
  /** True: a value equal to criticalLow is critical ("at or below"); false: only below it. */
  criticalLowInclusive: boolean;
  /** True: a value equal to criticalHigh is critical ("at or above"); false: only above it. */
  criticalHighInclusive: boolean;
  /** What crossing the limit means, for the risk label ("toxicity threshold"). */
  criticalLowName: string;
  criticalHighName: string;
  rangeKind: "reference" | "therapeutic";
  /** Only from the table's verified codes, chosen for the canonical unit. */
  loinc: string | null;
  source: string;
}

export interface ReferencePanel {
  id: string;
  display: string;
  analytes: PanelAnalyte[];
}

export type PanelFlag = "low" | "normal" | "high" | "critical_low" | "critical_high";

export interface PanelResult {
  /** Display name. */
  analyte: string;
  analyteKey: string;
  value: number;
  unit: string;
  flag: PanelFlag;
  /** E.g. "0.6-1.0 mmol/L (therapeutic, maintenance); critical >= 1.5", in the canonical unit. */
  range: string;
  critical: boolean;
  /** The value in the canonical unit (additive; equal to `value` when sent in it). */
  canonicalValue: number;
  canonicalUnit: string;
}

export interface PanelObservation {
  analyte: string;
  note: string;
}

export interface PanelEvaluation {
  results: PanelResult[];
  unrecognized: string[];
  observations: PanelObservation[];
  risk: AgentRisk;
  warnings: string[];
}

// ---------------------------------------------------------------------------------------------
// Panel analytes: a view of the analyte table (knowledge/analytes.ts)

function panelAnalyteOf(entry: AnalyteEntry, measure: AnalyteMeasure): PanelAnalyte {
  const primary =
    measure.rangeKind === "therapeutic" ? (measure.therapeutic?.[0] ?? null) : (measure.reference ?? null);
  const sources = [
    ...(measure.rangeKind === "therapeutic"
      ? (measure.therapeutic ?? []).map((r) => `${r.indication} ${r.low ?? ""}-${r.high ?? ""}: ${r.source}`)
      : measure.reference
        ? [measure.reference.source]
        : []),
    ...(measure.criticalLow ? [`critical low: ${measure.criticalLow.source}`] : []),
    ...(measure.criticalHigh ? [`critical high: ${measure.criticalHigh.source}`] : []),
  ];
  return {
    analyte: entry.key,
    display: entry.display,
    unit: measure.displayUnit,
    ucum: measure.canonicalUnit,
    acceptedUnits: acceptedUnitCodes(measure),
    low: primary?.low ?? null,
    high: primary?.high ?? null,
    criticalLow: measure.criticalLow?.value ?? null,
    criticalHigh: measure.criticalHigh?.value ?? null,
    criticalLowInclusive: measure.criticalLow?.inclusive ?? false,
    criticalHighInclusive: measure.criticalHigh?.inclusive ?? true,
    criticalLowName: measure.criticalLow?.name ?? "critical limit",
    criticalHighName: measure.criticalHigh?.name ?? "critical limit",
    rangeKind: measure.rangeKind,
    loinc: chooseLoinc(entry, measure.canonicalUnit)?.code ?? null,
    source: sources.join("; "),
  };
}

/** Every analyte of the table with a measurement row, by key. */
const PANEL_ANALYTES: ReadonlyMap<string, { entry: AnalyteEntry; analyte: PanelAnalyte }> = new Map(
  ANALYTES.flatMap((entry) =>
    entry.measure ? [[entry.key, { entry, analyte: panelAnalyteOf(entry, entry.measure) }] as const] : [],
  ),
);

/**
 * Every catalog panel with at least one analyte that has a sourced range, listing only those
 * analytes: ranges, critical limits, accepted units, verified LOINC codes and sources.
 */
export function getPanels(): ReferencePanel[] {
  return PANEL_DEFINITIONS.flatMap((panel) => {
    const analytes = panel.analytes.flatMap((key) => {
      const found = PANEL_ANALYTES.get(key);
      return found ? [{ ...found.analyte, acceptedUnits: [...found.analyte.acceptedUnits] }] : [];
    });
    return analytes.length === 0 ? [] : [{ id: panel.id, display: panel.display, analytes }];
  });
}

// ---------------------------------------------------------------------------------------------
// Flag, range text and risk of one reading

/** The table row behind a panel analyte; a missing key is a programming error. */
function rowOf(a: PanelAnalyte): { entry: AnalyteEntry; measure: AnalyteMeasure } {
  const found = PANEL_ANALYTES.get(a.analyte);
  if (!found?.entry.measure) throw new Error(`panels: no measurement row "${a.analyte}"`);
  return { entry: found.entry, measure: found.entry.measure };
}

/** A value in the analyte's canonical unit: critical limits first, then outside every normal range. */
export function panelFlagOf(a: PanelAnalyte, value: number): PanelFlag {
  return flagCanonicalValue(rowOf(a).measure, value).flag;
}

/** "0.6-1.0 mmol/L (therapeutic, maintenance); critical >= 1.5". */
export function panelRangeTextOf(a: PanelAnalyte): string {
  return measureRangeText(rowOf(a).measure);
}

/** "Valproate 700 umol/L (101 mg/L)": the value as sent and, when converted, in the canonical unit. */
function readingText(entry: AnalyteEntry, reading: PanelReading, evaluation: AnalyteEvaluation): string {
  // Decision 180: a value read by the unit-less rule says it came without one.
  if (evaluation.unitNotGiven?.rule === "critical_every_reading")
    return `${entry.display} ${reading.value} (no unit; every plausible reading: ${evaluation.unitNotGiven.readings.join("; ")})`;
  if (evaluation.unitNotGiven)
    return `${entry.display} ${reading.value} (no unit; read as ${evaluation.unitNotGiven.readings[0]})`;
  const sentUnit = reading.unit?.trim() ? reading.unit.trim() : evaluation.unit;
  const canonical = formatAnalyteValue(evaluation.canonicalValue);
  const converted = sentUnit === evaluation.unit || String(reading.value) === canonical;
  return `${entry.display} ${reading.value} ${sentUnit}${converted ? "" : ` (${canonical} ${evaluation.unit})`}`;
}

function readingRisk(
  entry: AnalyteEntry,
  measure: AnalyteMeasure,
  reading: PanelReading,
  evaluation: AnalyteEvaluation,
): AgentRisk {
  const { flag } = evaluation;
  if (flag === "normal") return { flag: false, level: "none", labels: [] };
  if (flag === "critical_high" || flag === "critical_low") {
    const limit = evaluation.critical as CriticalLimit;
    const high = flag === "critical_high";
    const side = high
      ? limit.inclusive
        ? "at or above"
        : "above"
      : limit.inclusive
        ? "at or below"
        : "below";
    return {
      flag: true,
      level: "high",
      labels: [
        `${readingText(entry, reading, evaluation)}: ${side} the ${limit.value} ${evaluation.unit} ${limit.name}`,
      ],
    };
  }
  // The one judgement's level: the analyte table's tone of the side crossed.
  const level: AgentRiskLevel = tableLevelOf(entry, evaluation);
  const side = flag === "high" ? "above" : "below";
  return {
    flag: true,
    level,
    labels: [
      `${readingText(entry, reading, evaluation)}: ${side} the ${measure.rangeKind} range ${measureRangeText(measure).split(" (")[0]}`,
    ],
  };
}

const CRITICAL_REVIEW_NOTE =
  "Critical value: needs prompt clinician review; follow the laboratory's critical-result procedure and confirm the result.";

function readingObservations(
  entry: AnalyteEntry,
  evaluation: AnalyteEvaluation,
  options: PanelOptions,
): PanelObservation[] {
  const { flag } = evaluation;
  const notes: PanelObservation[] = evaluation.notes.map((note) => ({ analyte: entry.display, note }));
  if (entry.key === "anc" && flag !== "normal" && flag !== "high")
    notes.push({
      analyte: entry.display,
      note: clozapineAncText(evaluation.canonicalValue, options.benignEthnicNeutropenia === true),
    });
  if (flag === "normal") return notes;
  const relevance = flag === "high" || flag === "critical_high" ? entry.high : entry.low;
  notes.unshift({ analyte: entry.display, note: relevance });
  if (flag === "critical_high" || flag === "critical_low")
    notes.unshift({ analyte: entry.display, note: CRITICAL_REVIEW_NOTE });
  return notes;
}

// ---------------------------------------------------------------------------------------------
// Evaluation

/** Said in every evaluation: ranges are typical adult ones, not the reporting laboratory's. */
export const PANEL_UNIT_OBSERVATION: PanelObservation = Object.freeze({
  analyte: "All readings",
  note: "Reference intervals vary by laboratory, assay, age, sex and pregnancy. Each value was converted to its analyte's canonical unit before it was read; a value without a unit was read only in the one accepted unit that makes it plausible, or as critical when it is beyond a critical limit in every unit that does. Check it against the reporting laboratory's own range.",
});

export interface PanelReading {
  analyte: string;
  value: number;
  /** Optional unit (UCUM or a common spelling); without one, see decision 65. */
  unit?: string;
}

export interface PanelOptions {
  /** Benign ethnic neutropenia documented by a clinician: the US-label BEN table is named. */
  benignEthnicNeutropenia?: boolean;
}

/** Values must be finite numbers, names strings and units strings; anything else cannot be read at all. */
function assertReadable(readings: readonly PanelReading[]): void {
  const issues: ToolInputIssue[] = [];
  readings.forEach((reading, i) => {
    if (typeof reading.analyte !== "string")
      issues.push({ path: [i, "analyte"], message: `reading ${i}: analyte must be a string` });
    if (typeof reading.value !== "number" || !Number.isFinite(reading.value))
      issues.push({
        path: [i, "value"],
        message: `reading ${i} (${String(reading.analyte)}): value must be a finite number`,
      });
    if (reading.unit !== undefined && typeof reading.unit !== "string")
      issues.push({ path: [i, "unit"], message: `reading ${i}: unit must be a string` });
  });
  if (issues.length > 0) throw new ToolInputError(issues);
}

interface Evaluated {
  result: PanelResult;
  risk: AgentRisk;
  observations: PanelObservation[];
}

function evaluateReading(
  entry: AnalyteEntry,
  measure: AnalyteMeasure,
  reading: PanelReading,
  evaluation: AnalyteEvaluation,
  options: PanelOptions,
): Evaluated {
  const { flag } = evaluation;
  return {
    result: {
      analyte: entry.display,
      analyteKey: entry.key,
      value: reading.value,
      unit: reading.unit?.trim() ? reading.unit.trim() : measure.displayUnit,
      flag,
      range: measureRangeText(measure),
      critical: flag === "critical_high" || flag === "critical_low",
      canonicalValue: Number(formatAnalyteValue(evaluation.canonicalValue)),
      canonicalUnit: measure.displayUnit,
    },
    risk: readingRisk(entry, measure, reading, evaluation),
    observations: readingObservations(entry, evaluation, options),
  };
}

/** A reading that could not be evaluated: the warning, and the item for the risk. */
interface NotEvaluatedReading {
  warning: string;
  item: NotEvaluatedItem;
}

/** Why a reading cannot be evaluated, or its table row and evaluation. */
function classify(
  reading: PanelReading,
):
  | { entry: AnalyteEntry; measure: AnalyteMeasure; evaluation: AnalyteEvaluation }
  | { notEvaluated: NotEvaluatedReading } {
  const unit = reading.unit?.trim() ? reading.unit.trim() : undefined;
  const sent = `${reading.value}${unit ? ` ${unit}` : ""}`;
  const entry = findAnalyte(reading.analyte);
  if (!entry)
    return {
      notEvaluated: {
        warning: `"${reading.analyte}" is not a recognised analyte; it was not evaluated.`,
        item: { what: `"${reading.analyte}" ${sent}`, why: "not a recognised analyte" },
      },
    };
  const measure = entry.measure;
  if (!measure)
    return {
      notEvaluated: {
        warning: `"${reading.analyte}" (${entry.display}) has no sourced range in this tool; it was not evaluated.`,
        item: { what: `${entry.display} ${sent}`, why: "no sourced range in this tool" },
      },
    };
  // The one judgement of a reading, as the biomarker engine, CDS and FHIR read it.
  const judged = judgeLabReading(entry, reading.value, unit);
  const evaluation = judged.evaluation;
  if (evaluation === null || !evaluation.evaluated) {
    const implausible = evaluation?.reason === "implausible";
    const detail = evaluation?.detail ?? "no measurement row";
    const warning = `${entry.display} "${reading.analyte}" ${sent}: not evaluated: ${implausible ? "data quality" : "unit"} (${detail}). Accepted units: ${acceptedUnitCodes(measure).join(", ")}.`;
    // Decision 67: a wrong unit or entry can hide a critical value, so an implausible value is a
    // moderate risk that asks for review, never a silent gap.
    // Decision 180: a unit-less value one of whose plausible readings is critical is moderate too.
    const item: NotEvaluatedItem = implausible
      ? {
          what: `${entry.display} ${sent}`,
          why: "implausible for its unit; check the unit and the result",
          level: judged.level,
        }
      : { what: `${entry.display} ${sent}`, why: `unit: ${detail}`, level: judged.level };
    return { notEvaluated: { warning, item } };
  }
  return { entry, measure, evaluation };
}

function duplicateWarnings(results: readonly PanelResult[]): string[] {
  const counts = new Map<string, { display: string; count: number }>();
  for (const r of results) {
    const seen = counts.get(r.analyteKey);
    counts.set(r.analyteKey, { display: r.analyte, count: (seen?.count ?? 0) + 1 });
  }
  return [...counts.values()]
    .filter((c) => c.count > 1)
    .map((c) => `${c.display} was sent ${c.count} times; each reading was evaluated separately.`);
}

/**
 * A panel with no readings has not been assessed; the label says so rather than staying silent.
 * Readings that were sent but not evaluated are each named by the not-evaluated rule instead.
 */
const NO_READINGS_RISK: AgentRisk = Object.freeze({
  flag: false,
  level: "none",
  labels: ["Panel not assessed: no readings were sent"],
}) as AgentRisk;

/**
 * Flags each reading against its analyte's row in the analyte table, in input order, after
 * converting it to the canonical unit. Unknown analytes, analytes without a sourced range, a
 * missing, unknown or ambiguous unit and values outside the plausible range go to `unrecognized`
 * with a warning that says "not evaluated" and why (never read as normal), and keep the risk at
 * low or above with a "Not evaluated" label (moderate for an implausible value).
 * Any critical value makes the risk high.
 */
export function evaluatePanel(
  readings: readonly PanelReading[],
  options: PanelOptions = {},
): PanelEvaluation {
  assertReadable(readings);
  const evaluated: Evaluated[] = [];
  const unrecognized: string[] = [];
  const warnings: string[] = [];
  const notEvaluated: NotEvaluatedItem[] = [];
  for (const reading of readings) {
    const found = classify(reading);
    if ("notEvaluated" in found) {
      unrecognized.push(reading.analyte);
      warnings.push(found.notEvaluated.warning);
      notEvaluated.push(found.notEvaluated.item);
    } else evaluated.push(evaluateReading(found.entry, found.measure, reading, found.evaluation, options));
  }
  const results = evaluated.map((e) => e.result);
  warnings.push(...duplicateWarnings(results));
  if (readings.length === 0) warnings.push("No readings were sent; nothing was evaluated.");
  const risks = readings.length === 0 ? [NO_READINGS_RISK] : evaluated.map((e) => e.risk);
  return {
    results,
    unrecognized,
    observations: [...evaluated.flatMap((e) => e.observations), PANEL_UNIT_OBSERVATION],
    risk: riskWithNotEvaluated(risks, notEvaluated),
    warnings,
  };
}
