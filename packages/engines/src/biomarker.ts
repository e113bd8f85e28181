/**
 * Biomarker interpretation engine (POST /v1/biomarker/analyze). Maps lab readings flagged high,
 * low or critical to their psychiatric relevance (a signal only for those, as the contract says).
 * Every numeric reading of an analyte with a measurement row in the analyte table is also read
 * in its canonical unit: a value beyond a sourced critical limit is never silent
 * and never "elevated", and the newest reading of an analyte is the current one.
 * Pure and deterministic: the clock comes from `options.now`. Method, constants and LOINC
 * sources: docs/engines/biomarker.md.
 *
 * Decisions this module follows (docs/decisions.md): 64, one analyte table; 65, units before
 * values; 67, critical values and the current reading; 171, the biomarker answer is bounded
 * whatever the number of readings; 180, a value without a unit: one rule; 182, one judgement per
 * fact, every door reads it; 198, the JSON answers, the agents and MCP carry the patient review by
 * one rule.
 */

import {
  type ClinicalLevel,
  higherClinicalLevel,
  judgeLabReading,
  type LabJudgement,
  NOT_ASSESSED_LEVEL,
  TONE_LEVEL,
  toneOfLevel,
} from "./judgement.js";
import {
  type AnalyteEntry,
  type AnalyteEvaluation,
  type AnalyteNotEvaluated,
  chooseLoinc,
  clozapineAncText,
  criticalText,
  findAnalyte,
  findAnalyteByLoinc,
  formatAnalyteValue,
  measureRangeText,
  normaliseUnitSpelling,
  toneOfOutOfRange,
} from "./knowledge/analytes.js";
import { assertNoProblems, confidenceFractionProblems, engineParams, mergeNumericParams } from "./params.js";
import type { PatientContext } from "./patient/context.js";
import {
  doorPatientReview,
  medicinesOfPrescriptions,
  patientReviewSummary,
  readingsOfLabPanels,
} from "./patient/doors.js";
import type { PatientReview } from "./patient/types.js";
import { confidenceLevel, slugOf } from "./shared.js";
import type {
  Biomarker,
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
  type AnalyteEntry,
  BIOMARKER_MAP,
  chooseLoinc,
  findAnalyte,
  findAnalyteByLoinc,
  type LoincRef,
  normaliseAnalyteName,
} from "./knowledge/analytes.js";

export interface BiomarkerInput {
  labs: LabPanel[];
  /** Additive: who the patient is, read by the patient review. */
  patient?: PatientContext;
  /** Additive: the prescriptions, read by the patient review only (active ones, started at `prescribedAt`). */
  prescriptions?: Prescription[];
}

export interface BiomarkerData {
  generatedAt: string;
  signalsPresent: number;
  signals: ModuleSignal[];
  disclaimer: string;
  /**
   * Additive: readings beyond a sourced critical limit (current or history),
   * readings not evaluated for their unit, and implausible values, whatever their flag.
   */
  valueFindings: BiomarkerValueFinding[];
  /**
   * Additive: what the bounded lists above leave out, counted. Present only when
   * something was left out. Every current finding is kept; of earlier (non-current) findings, the
   * newest `EARLIER_FINDINGS_KEPT` per analyte and kind; of signals for analytes the table does
   * not know, the worst `UNRECOGNISED_SIGNALS_KEPT` (the status and review flag still count all).
   */
  omitted?: BiomarkerOmitted;
  /**
   * Additive: the patient-over-time review of the patient, the readings of every
   * panel (dated by the panel's `observedAt`) and the active prescriptions. Absent when the
   * request sent no patient facts and no prescriptions and the review of the readings found nothing.
   */
  patientReview?: PatientReview;
}

/** Counts of what `signals` and `valueFindings` leave out. */
export interface BiomarkerOmitted {
  /** Flagged analytes the table does not know, beyond the kept signals (all counted in the status). */
  unrecognisedSignals: number;
  /** Of those, how many the laboratory flagged critical. */
  unrecognisedCritical: number;
  /** Earlier (non-current) findings left out, by kind. */
  critical: number;
  notEvaluatedUnit: number;
  implausible: number;
}

/**
 * Bounds of the answer: no list or sentence grows with the number of readings.
 * Current findings are bounded by the analyte table (one newest reading per known analyte);
 * earlier findings keep the newest few per analyte and kind; signals of names the table does not
 * know keep the worst few; a sentence lists a few items and says how many more.
 */
export const EARLIER_FINDINGS_KEPT = 3;
export const UNRECOGNISED_SIGNALS_KEPT = 20;
export const REASON_ITEMS_LISTED = 5;

/** The first few of `total` items, "a; b; c" or "a; b; c; and N more". */
function listSome(items: readonly string[], total: number): string {
  const listed = items.slice(0, REASON_ITEMS_LISTED);
  const shown = listed.join("; ");
  return total > listed.length ? `${shown}; and ${total - listed.length} more` : shown;
}

/** Every number the engine uses; sources in docs/engines/biomarker.md. */
export interface BiomarkerParams {
  /** Confidence points of a signal (high / moderate / low), averaged into facts.confidence.score. */
  confidencePointsHigh: number;
  confidencePointsModerate: number;
  confidencePointsLow: number;
  /** facts.confidence.level cut-offs on the averaged score. */
  confidenceHighMin: number;
  confidenceModerateMin: number;
  /** A panel observed more than this many days before `now` lowers its signals' confidence one level. */
  staleAfterDays: number;
}

export const BIOMARKER_MODEL_KEY = "biomarker_interpretation";

/** Overall status, best to worst (facts.polarity). */
export const BIOMARKER_STATUS_ORDER = ["no_flags", "watch", "elevated", "critical"] as const;
export type BiomarkerStatus = (typeof BIOMARKER_STATUS_ORDER)[number];

export const BIOMARKER_INTERPRETATION_SCALE: Readonly<Record<BiomarkerStatus, string>> = {
  no_flags:
    "No reading was flagged high, low or critical, and no current value is outside the service's ranges or beyond a critical limit.",
  watch:
    "Abnormal readings worth noting in the psychiatric picture (flagged by the laboratory, or current values outside the service's range), or earlier flags the newest reading has since put in range; not urgent on their own.",
  elevated: "At least one abnormal reading with a direct psychiatric safety implication; review soon.",
  critical:
    "At least one current reading flagged critical by the laboratory or beyond a sourced critical limit; needs prompt clinician review.",
};

export const BIOMARKER_DISCLAIMER =
  "Decision support for clinician review only. Relevance is inferred from the laboratory's own flags and a fixed table; it does not interpret results against a patient's history, is not a diagnosis, and must not replace the laboratory's critical-result procedures.";

// ---------------------------------------------------------------------------------------------
// Value and range parsing

export interface ParsedValue {
  /** The number, or null when the value is not numeric. */
  value: number | null;
  /** Comparator of a censored result such as "<0.5". */
  comparator: "<" | ">" | "<=" | ">=" | null;
}

/**
 * Numbers are taken as they are; strings are numeric when they are a decimal number with a dot,
 * optionally preceded by <, >, <=, >=, ≤ or ≥ and optionally followed by a unit ("5.2",
 * "<0.5", "> 1000", "4.1 mmol/L"). Anything else ("positive", "1,2", "") is not numeric.
 */
export function parseBiomarkerValue(raw: Biomarker["value"]): ParsedValue {
  if (typeof raw === "number") return { value: Number.isFinite(raw) ? raw : null, comparator: null };
  if (typeof raw !== "string") return { value: null, comparator: null };
  const match = /^(<=|>=|<|>|≤|≥)?\s*([+-]?(?:\d+(?:\.\d+)?|\.\d+))(?:\s*[^\d\s.,][^,]*)?$/.exec(raw.trim());
  if (!match) return { value: null, comparator: null };
  const value = Number(match[2]);
  if (!Number.isFinite(value)) return { value: null, comparator: null };
  const sign = match[1];
  const comparator =
    sign === "≤" ? "<=" : sign === "≥" ? ">=" : ((sign as ParsedValue["comparator"]) ?? null);
  return { value, comparator };
}

/** "0.4-4.0", "135 – 145", "3.5 to 5.1", "<5", "≤ 200", ">40". Null bounds when unstated. */
export function parseReferenceRange(
  range: string | undefined,
): { low: number | null; high: number | null } | null {
  if (!range) return null;
  const text = range.trim();
  const num = "([+-]?(?:\\d+(?:\\.\\d+)?|\\.\\d+))";
  const between = new RegExp(`^${num}\\s*(?:-|–|—|to)\\s*${num}`, "i").exec(text);
  if (between) return { low: Number(between[1]), high: Number(between[2]) };
  const upper = new RegExp(`^(?:<=|<|≤)\\s*${num}`).exec(text);
  if (upper) return { low: null, high: Number(upper[1]) };
  const lower = new RegExp(`^(?:>=|>|≥)\\s*${num}`).exec(text);
  if (lower) return { low: Number(lower[1]), high: null };
  return null;
}

// ---------------------------------------------------------------------------------------------

/** The unit written after a numeric string value ("4.1 mmol/L" -> "mmol/L"), used when `unit` is absent. */
export function unitInValue(raw: Biomarker["value"]): string | null {
  if (typeof raw !== "string") return null;
  const match = /^(?:<=|>=|<|>|≤|≥)?\s*[+-]?(?:\d+(?:\.\d+)?|\.\d+)\s*([^\d\s.,][^,]*)$/.exec(raw.trim());
  const unit = match?.[1]?.trim();
  return unit ? unit : null;
}

type Flag = "high" | "low" | "critical";
type Tone = "watch" | "elevated" | "critical";

/** One reading with what the table says about it. */
interface Reading {
  key: string;
  entry: AnalyteEntry | null;
  reading: Biomarker;
  /** The laboratory's high/low/critical flag, or null (no flag, or flagged normal). */
  flag: Flag | null;
  panel: LabPanel;
  time: number | null;
  order: number;
  parsed: ParsedValue;
  /** The unit used: `unit`, else one written in the value string. */
  unit: string | undefined;
  /** The table's evaluation; null when the analyte has no measurement row or the value is not numeric. */
  check: AnalyteEvaluation | AnalyteNotEvaluated | null;
  /** The one judgement of the reading with its laboratory flag. */
  judgement: LabJudgement;
}

/** All readings, grouped by analyte key in first-seen order. */
interface Collected {
  byKey: Map<string, Reading[]>;
  readings: number;
  explicitlyFlagged: number;
}

/** What the response says about one reading beyond its signal (additive `valueFindings`). */
export interface BiomarkerValueFinding {
  /** Analyte key (table key, else a slug of the name). */
  analyte: string;
  panelId: string;
  observedAt: string | null;
  /**
   * `critical`: beyond a sourced critical limit; `not_evaluated_unit`: unit missing, unknown or
   * ambiguous; `implausible`: outside the plausible range; `out_of_range`: the
   * current reading, not flagged by the laboratory, outside the service's range (the agent tool
   * reads the same value as a finding; the contract's signals stay for flagged readings).
   */
  finding: "critical" | "not_evaluated_unit" | "implausible" | "out_of_range";
  /**
   * Additive: the one clinical level of the reading (`none` to `high`), as the
   * agent tool, CDS and FHIR read it; for a value not evaluated, the level it holds at the least.
   */
  level?: ClinicalLevel;
  /** True when this is the newest reading of the analyte (the current value). */
  current: boolean;
  /** The laboratory's flag as sent, or null. */
  labFlag: string | null;
  detail: string;
}

/** A signal with what the status, confidence and codes need to know about it. */
interface Built {
  signal: ModuleSignal;
  tone: Tone;
  order: number;
  code: { code: string; display: string } | null;
  mapped: boolean;
  numeric: boolean;
  stale: boolean;
}

const TONE_RANK: Record<Tone, number> = { critical: 3, elevated: 2, watch: 1 };
const LEVELS: ConfidenceLevel[] = ["low", "moderate", "high"];
const round = (value: number, digits = 4) => {
  const f = 10 ** digits;
  const r = Math.round(value * f) / f;
  return Object.is(r, -0) ? 0 : r;
};

function parseTime(value: string | undefined): number | null {
  if (value === undefined) return null;
  const t = Date.parse(value);
  return Number.isFinite(t) ? t : null;
}

/** Newer first: a known date beats an unknown one; equal dates fall back to input order (later wins). */
function isNewer(
  a: { time: number | null; order: number },
  b: { time: number | null; order: number },
): boolean {
  if (a.time !== null && b.time !== null && a.time !== b.time) return a.time > b.time;
  if (a.time !== null && b.time === null) return true;
  if (a.time === null && b.time !== null) return false;
  return a.order > b.order;
}

/**
 * The one judgement of a reading, the same function the panels tool, CDS and FHIR
 * read. A censored result ("<0.5") is read at its bound; a unitless value is read only
 * where the analyte has a single unit scale.
 */
function judgeReading(
  entry: AnalyteEntry | null,
  parsed: ParsedValue,
  unit: string | undefined,
  flag: Flag | null,
): LabJudgement {
  return judgeLabReading(entry, parsed.value, unit, flag);
}

/**
 * One pass over every reading: the analyte (by LOINC code, then by name, else a slug of the
 * name), the laboratory flag, and the table's evaluation in the canonical unit.
 */
function collectReadings(labs: readonly LabPanel[]): Collected {
  const byKey = new Map<string, Reading[]>();
  let readings = 0;
  let explicitlyFlagged = 0;
  let order = 0;
  for (const panel of labs) {
    const time = parseTime(panel.observedAt);
    for (const reading of panel.results?.biomarkers ?? []) {
      order += 1;
      readings += 1;
      if (reading.flag !== undefined) explicitlyFlagged += 1;
      const byLoinc = reading.loinc ? findAnalyteByLoinc(reading.loinc) : null;
      const entry = byLoinc ?? findAnalyte(reading.name);
      const key = entry ? entry.key : slugOf(reading.name);
      const labFlag = reading.flag;
      const flag = labFlag === "high" || labFlag === "low" || labFlag === "critical" ? labFlag : null;
      const parsed = parseBiomarkerValue(reading.value);
      const unit = reading.unit?.trim() ? reading.unit : (unitInValue(reading.value) ?? undefined);
      const judgement = judgeReading(entry, parsed, unit, flag);
      const item: Reading = {
        key,
        entry,
        reading,
        flag,
        panel,
        time,
        order,
        parsed,
        unit,
        check: entry?.measure && parsed.value !== null ? judgement.evaluation : null,
        judgement,
      };
      const list = byKey.get(key);
      if (list) list.push(item);
      else byKey.set(key, [item]);
    }
  }
  return { byKey, readings, explicitlyFlagged };
}

function newestOf<T extends { time: number | null; order: number }>(items: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const item of items) if (!best || isNewer(item, best)) best = item;
  return best;
}

const isCriticalCheck = (check: Reading["check"]): boolean =>
  check?.evaluated === true && (check.flag === "critical_high" || check.flag === "critical_low");

// ---------------------------------------------------------------------------------------------
// One signal per flagged analyte

/** Direction of a reading: its flag, or for a critical flag the side of the reference range the value is on. */
function readingDirection(
  flag: Flag,
  parsed: ParsedValue,
  range: ReturnType<typeof parseReferenceRange>,
  check: Reading["check"],
) {
  let direction: "high" | "low" | null = flag === "critical" ? null : flag;
  if (flag === "critical" && check?.evaluated) {
    if (check.flag === "critical_high" || check.flag === "high") direction = "high";
    else if (check.flag === "critical_low" || check.flag === "low") direction = "low";
  }
  if (direction === null && parsed.value !== null && range) {
    if (range.high !== null && parsed.value > range.high) direction = "high";
    else if (range.low !== null && parsed.value < range.low) direction = "low";
  }
  return direction;
}

/** What the reading means psychiatrically, from the analyte table; unmapped analytes are referred to clinical context. */
function relevanceText(c: Reading, flag: Flag, direction: "high" | "low" | null): string {
  const { entry, reading } = c;
  return entry
    ? direction === "high"
      ? entry.high
      : direction === "low"
        ? entry.low
        : `Flagged critical; the direction could not be read from the value and reference range. High: ${entry.high} Low: ${entry.low}`
    : `No psychiatric-relevance entry exists for "${reading.name}". It was flagged ${flag} by the laboratory; review it in clinical context.`;
}

function valueText(reading: Biomarker, parsed: ParsedValue, unit: string | undefined): string {
  return parsed.value === null
    ? `Value ${reading.value === null ? "missing" : JSON.stringify(reading.value)} is not numeric; metricValue is 0.`
    : `Value ${parsed.comparator ?? ""}${parsed.value}${unit ? ` ${unit}` : ""}${reading.referenceRange ? ` (reference ${reading.referenceRange})` : ""}${parsed.comparator ? "; a censored result, metricValue is the bound" : ""}.`;
}

/** What the service's table says about the reading. */
function tableText(c: Reading): string[] {
  const { check, entry } = c;
  if (!check || !entry?.measure) return [];
  if (!check.evaluated)
    return [
      check.reason === "unit"
        ? `Not evaluated against the service's ranges: unit (${check.detail}).`
        : `Data quality: ${check.detail}.`,
    ];
  const value = `${formatAnalyteValue(check.canonicalValue)} ${check.unit}`;
  const converted =
    c.unit !== undefined && normaliseUnitSpelling(c.unit) !== normaliseUnitSpelling(check.unit);
  const texts: string[] = [];
  if (isCriticalCheck(check)) texts.push(`${criticalText(entry, check)}.`);
  else
    texts.push(
      `${converted ? `In ${check.unit}: ${value}. ` : ""}Against the service's range ${measureRangeText(entry.measure)}: ${check.flag === "normal" ? "within range" : check.flag}.`,
    );
  texts.push(...check.notes);
  if (entry.key === "anc" && check.flag !== "normal" && check.flag !== "high")
    texts.push(clozapineAncText(check.canonicalValue));
  return texts;
}

const STALENESS_DEFAULTS = {
  // House rule (no guideline fixes how old a result may be): about six months, the usual outer
  // interval of routine psychotropic monitoring bloods.
  staleAfterDays: 180,
} satisfies Partial<BiomarkerParams>;

/** A panel older than `staleAfterDays` before `now` (an undated panel is not stale). */
function isStale(time: number | null, now: number, params: BiomarkerParams): boolean {
  const staleDays = time === null ? null : (now - time) / 86_400_000;
  return staleDays !== null && staleDays > params.staleAfterDays;
}

/** High when the analyte is mapped and the value numeric, moderate with one of the two, low with neither; a stale panel lowers it one level. */
function signalConfidence(mapped: boolean, numeric: boolean, stale: boolean): ConfidenceLevel {
  let levelIndex = mapped && numeric ? 2 : mapped || numeric ? 1 : 0;
  if (stale) levelIndex = Math.max(0, levelIndex - 1);
  return LEVELS[levelIndex] as ConfidenceLevel;
}

/**
 * How a newer reading than the flagged one changes what is current: beyond a
 * critical limit makes the signal critical; still outside the range keeps it at least as
 * serious; within the reference range by the table turns the flag into history (watch); a
 * newer reading the table cannot check is never read as a return to normal.
 */
function newerReadingEffect(
  flagged: Reading,
  newer: Reading,
  tone: Tone,
): { tone: Tone; note: string; history?: true } {
  const when = newer.panel.observedAt ? ` (${newer.panel.observedAt})` : "";
  const { check, entry } = newer;
  const shown =
    newer.parsed.value === null
      ? JSON.stringify(newer.reading.value)
      : `${newer.parsed.value}${newer.unit ? ` ${newer.unit}` : ""}`;
  const labWord =
    newer.reading.flag === "normal" ? "flagged normal by the laboratory" : "not flagged by the laboratory";
  const intro = `A newer reading${when} in panel ${newer.panel.id}, ${shown}, ${labWord},`;
  if (check?.evaluated && entry?.measure) {
    if (isCriticalCheck(check))
      return {
        tone: "critical",
        note: `${intro} is the current value and is beyond a critical limit: ${criticalText(entry, check)}.`,
      };
    if (check.flag === "high" || check.flag === "low") {
      const higher =
        flagged.check?.evaluated && check.canonicalValue > flagged.check.canonicalValue
          ? " and higher than this one"
          : flagged.check?.evaluated && check.canonicalValue < flagged.check.canonicalValue
            ? " and lower than this one"
            : "";
      const own = toneOfOutOfRange(entry, check) ?? "watch";
      const side = check.flag === "high" ? "above" : "below";
      // "still" only when the flagged reading was on the same side; a swing across the range is "now".
      const flaggedSide = flagged.flag === "critical" ? null : flagged.flag;
      return {
        tone: TONE_RANK[own] > TONE_RANK[tone] ? own : tone,
        note: `${intro} is the current value and is ${flaggedSide === check.flag ? "still" : "now"} ${side} the service's range (${measureRangeText(entry.measure)})${higher}.`,
      };
    }
    return {
      tone: "watch",
      note: `${intro} is within the service's range (${measureRangeText(entry.measure)}); this flag is history.`,
      history: true,
    };
  }
  const why =
    check && !check.evaluated
      ? check.detail
      : entry?.measure
        ? "the value is not numeric"
        : "the service has no range for it";
  return {
    tone,
    note: `${intro} could not be checked against the service's ranges (${why}); it is not evidence that the level returned to normal.`,
  };
}

/** Repeated flags, a stale or undated panel. */
function signalNotes(flaggedCount: number, c: Reading, stale: boolean, params: BiomarkerParams): string[] {
  const notes: string[] = [];
  if (flaggedCount > 1)
    notes.push(`Flagged in ${flaggedCount} readings across the panels; the newest is shown.`);
  if (stale) notes.push(`The panel is older than ${params.staleAfterDays} days; confidence lowered.`);
  if (c.time === null) notes.push("The panel has no observedAt date.");
  return notes;
}

/**
 * The tone of a flagged reading: the one judgement's level. Critical when the
 * laboratory says so or the value is beyond a sourced critical limit. When the
 * table can read the value, its side decides the tone (a value within the table's reference or
 * therapeutic range, such as valproate 110 mg/L within the acute mania target, is only watch:
 * the laboratory's own range differs); otherwise the laboratory's flag does, and an implausible
 * value (a wrong unit or entry can hide a critical one) is at least elevated.
 */
function flaggedTone(c: Reading): Tone {
  const level = c.judgement.level;
  return level === "none" ? "watch" : toneOfLevel(level);
}

function biomarkerSignal(
  readings: readonly Reading[],
  params: BiomarkerParams,
  now: number,
  nowIso: string,
): Built | null {
  const flaggedReadings = readings.filter((r) => r.flag !== null);
  const c = newestOf(flaggedReadings);
  if (!c || c.flag === null) return null;
  const flag = c.flag;
  const { entry, reading, parsed } = c;
  const direction = readingDirection(flag, parsed, parseReferenceRange(reading.referenceRange), c.check);
  let tone = flaggedTone(c);
  const notes: string[] = [];
  let history = false;
  // Only a strictly later date counts; order within the same date says nothing about time.
  const newest = newestOf(readings);
  if (newest && newest !== c && newest.time !== null && (c.time === null || newest.time > c.time)) {
    if (newest.flag === null) {
      const effect = newerReadingEffect(c, newest, tone);
      tone = effect.tone;
      history = effect.history === true;
      notes.push(effect.note);
    }
  }
  const name = entry ? entry.display : reading.name;
  const stale = isStale(c.time, now, params);
  const code = entry ? chooseLoinc(entry, c.unit, reading.loinc) : null;
  const criticalByTable = flag !== "critical" && isCriticalCheck(c.check);
  // A flag the newest reading has put back in range is named as history, never as current.
  const label = `${name} ${flag}${criticalByTable ? ", beyond a critical limit" : ""}${history ? " (earlier; newest reading within range)" : ""}`;
  return {
    signal: {
      module: "biomarker",
      signalKey: `bio_${c.key}`,
      label,
      detail: [
        relevanceText(c, flag, direction),
        valueText(reading, parsed, c.unit),
        ...tableText(c),
        ...notes,
        ...signalNotes(flaggedReadings.length, c, stale, params),
      ].join(" "),
      tone,
      // `+ 0` turns a -0 reading into 0 (JSON has no negative zero).
      metricValue: (parsed.value ?? 0) + 0,
      metricUnit: c.unit ?? "",
      confidence: signalConfidence(entry !== null, parsed.value !== null, stale),
      summaryLine: `${name} flagged ${flag}${criticalByTable ? ", beyond a critical limit" : ""} (${c.panel.labName}): ${tone === "critical" ? "prompt review" : tone === "elevated" ? "review soon" : "note"}.`,
      sourceRef: c.panel.id,
      observedAt: c.time === null ? nowIso : new Date(c.time).toISOString(),
    },
    tone,
    order: c.order,
    code: code ? { code: code.code, display: code.display } : null,
    mapped: entry !== null,
    numeric: parsed.value !== null,
    stale,
  };
}

/**
 * What the response says beyond signals: every reading beyond a critical limit
 * (current or history), every reading the table could not evaluate for its unit, and every
 * implausible value. `all` counts every one; `kept` is bounded: each current
 * finding, and of earlier ones the newest `EARLIER_FINDINGS_KEPT` per analyte and kind, the rest
 * counted in `omitted`. Kept findings stay in input order.
 */
interface Findings {
  kept: BiomarkerValueFinding[];
  /** Every finding's kind and currency, for counts (no detail text is built for these). */
  counts: { notEvaluated: number; earlierCritical: number };
  /** Details of earlier critical findings, newest first, at most REASON_ITEMS_LISTED. */
  earlierCriticalListed: string[];
  notEvaluatedListed: string[];
  omitted: Pick<BiomarkerOmitted, "critical" | "notEvaluatedUnit" | "implausible">;
}

type FindingKind = BiomarkerValueFinding["finding"];

function findingKind(check: Reading["check"]): FindingKind | null {
  if (!check) return null;
  if (isCriticalCheck(check)) return "critical";
  if (!check.evaluated) return check.reason === "unit" ? "not_evaluated_unit" : "implausible";
  return null;
}

/** The level of a finding: the judgement's, or the not-assessed floor of its kind. */
function findingLevel(r: Reading, kind: FindingKind): ClinicalLevel {
  if (kind === "critical") return TONE_LEVEL.critical;
  // Not assessed: the kind's floor, or the one judgement's level when higher (a unit-less value
  // refused though one plausible reading is critical is moderate).
  if (kind === "not_evaluated_unit") return higherClinicalLevel(NOT_ASSESSED_LEVEL.unit, r.judgement.level);
  if (kind === "implausible") return higherClinicalLevel(NOT_ASSESSED_LEVEL.implausible, r.judgement.level);
  return r.judgement.assessed ? r.judgement.tableLevel : r.judgement.level;
}

/** "HbA1c 7.64 %: above the service's reference range <= 5.6 % (not flagged by the laboratory)". */
function outOfRangeText(entry: AnalyteEntry, check: AnalyteEvaluation, labFlag: string | undefined): string {
  const side = check.flag === "high" ? "above" : "below";
  const measure = entry.measure;
  const range = measure ? measureRangeText(measure).split(" (")[0] : "";
  const lab =
    labFlag === "normal"
      ? "within the laboratory's own range by its flag; check that range"
      : "not flagged by the laboratory";
  return `${entry.display} ${formatAnalyteValue(check.canonicalValue)} ${check.unit}: ${side} the service's ${measure?.rangeKind ?? "reference"} range ${range} (${lab})`;
}

function findingOf(r: Reading, kind: FindingKind, current: boolean): BiomarkerValueFinding {
  const entry = r.entry as AnalyteEntry;
  const check = r.check as AnalyteEvaluation | AnalyteNotEvaluated;
  const detail =
    kind === "out_of_range" && check.evaluated
      ? outOfRangeText(entry, check, r.reading.flag)
      : kind === "critical" || check.evaluated
        ? criticalText(entry, check as AnalyteEvaluation)
        : `${entry.display}: ${check.reason === "unit" ? "not evaluated: unit" : "data quality"} (${check.detail})`;
  return {
    analyte: r.key,
    panelId: r.panel.id,
    observedAt: r.time === null ? null : new Date(r.time).toISOString(),
    finding: kind,
    current,
    labFlag: r.reading.flag ?? null,
    detail,
    level: findingLevel(r, kind),
  };
}

/**
 * The current reading of an analyte no reading of which the laboratory flagged (so no signal
 * carries it), judged outside the service's range but not beyond a critical limit.
 */
function isUnflaggedOutOfRange(readings: readonly Reading[], newest: Reading): boolean {
  if (readings.some((r) => r.flag !== null)) return false;
  const j = newest.judgement;
  return (
    newest.entry !== null &&
    j.assessed &&
    j.tableLevel !== "none" &&
    (j.evaluation.flag === "high" || j.evaluation.flag === "low")
  );
}

const newerFirst = (a: Reading, b: Reading) => (isNewer(a, b) ? -1 : isNewer(b, a) ? 1 : 0);

function valueFindings(collected: Collected): Findings {
  type Chosen = { r: Reading; kind: FindingKind; current: boolean };
  const chosen: Chosen[] = [];
  const counts = { notEvaluated: 0, earlierCritical: 0 };
  const omitted = { critical: 0, notEvaluatedUnit: 0, implausible: 0 };
  const earlierCriticals: Reading[] = [];
  const notEvaluated: Reading[] = [];
  for (const readings of collected.byKey.values()) {
    const newest = newestOf(readings);
    const group: Chosen[] = [];
    const earlier: Record<FindingKind, Reading[]> = {
      critical: [],
      not_evaluated_unit: [],
      implausible: [],
      out_of_range: [],
    };
    if (newest && isUnflaggedOutOfRange(readings, newest))
      group.push({ r: newest, kind: "out_of_range", current: true });
    for (const r of readings) {
      if (!r.entry) continue;
      const kind = findingKind(r.check);
      if (kind === null) continue;
      if (kind !== "critical") {
        counts.notEvaluated += 1;
        if (notEvaluated.length < REASON_ITEMS_LISTED) notEvaluated.push(r);
      }
      if (r === newest) group.push({ r, kind, current: true });
      else earlier[kind].push(r);
    }
    for (const kind of ["critical", "not_evaluated_unit", "implausible"] as const) {
      const list = earlier[kind].sort(newerFirst);
      if (kind === "critical") {
        counts.earlierCritical += list.length;
        earlierCriticals.push(...list.slice(0, REASON_ITEMS_LISTED));
      }
      for (const r of list.slice(0, EARLIER_FINDINGS_KEPT)) group.push({ r, kind, current: false });
      const left = Math.max(0, list.length - EARLIER_FINDINGS_KEPT);
      if (kind === "critical") omitted.critical += left;
      else if (kind === "not_evaluated_unit") omitted.notEvaluatedUnit += left;
      else omitted.implausible += left;
    }
    // Analytes in first-seen order, each one's findings in input order (as before the bound).
    chosen.push(...group.sort((a, b) => a.r.order - b.r.order));
  }
  const dated = (r: Reading) => {
    const f = findingOf(r, "critical", false);
    return `${f.detail}${f.observedAt ? ` (${f.observedAt.slice(0, 10)})` : ""}`;
  };
  return {
    kept: chosen.map(({ r, kind, current }) => findingOf(r, kind, current)),
    counts,
    earlierCriticalListed: earlierCriticals.sort(newerFirst).slice(0, REASON_ITEMS_LISTED).map(dated),
    notEvaluatedListed: notEvaluated.slice(0, REASON_ITEMS_LISTED).map((r) => {
      const kind = findingKind(r.check) as FindingKind;
      return findingOf(r, kind, false).detail;
    }),
    omitted,
  };
}

/**
 * Current values beyond a critical limit that the laboratory did not flag: no signal (the
 * contract emits signals only for flagged readings), but never silent: they are named in
 * `summary.flagged`, set `requiresClinicianReview` and make the status critical.
 */
function unflaggedCurrentCriticals(collected: Collected): string[] {
  const named: string[] = [];
  for (const readings of collected.byKey.values()) {
    const newest = newestOf(readings);
    if (!newest || newest.flag !== null || !newest.entry || !isCriticalCheck(newest.check)) continue;
    // A flagged reading of the same analyte already carries it in its signal when it is older;
    // the name here still says the laboratory did not flag the current value.
    named.push(
      `${criticalText(newest.entry, newest.check as AnalyteEvaluation)} (not flagged by the laboratory)`,
    );
  }
  return named;
}

/**
 * Current values outside the plausible range of their unit: not a result, but a unit or entry
 * error can hide a critical value (400 "x10^9/L" neutrophils may be 400 cells/µL, a severe
 * neutropenia), so they are named in `summary.flagged` and set `requiresClinicianReview`; the
 * status is left alone because nothing was read.
 */
function currentImplausibles(collected: Collected): string[] {
  const named: string[] = [];
  for (const readings of collected.byKey.values()) {
    const newest = newestOf(readings);
    const check = newest?.check;
    if (!newest?.entry || !check || check.evaluated) continue;
    // A value refused for its unit (one plausible reading critical or not) is named
    // with the other current values not evaluated for their unit, once.
    if (check.reason === "implausible")
      named.push(`${newest.entry.display}: data quality, not evaluated (${check.detail})`);
  }
  return named;
}

// ---------------------------------------------------------------------------------------------
// Summary, confidence, inputs and codes

function biomarkerHeadline(
  built: readonly Built[],
  collected: Collected,
  panels: number,
  unflaggedCritical: readonly string[],
  unitCount: number,
): string {
  const { readings, explicitlyFlagged } = collected;
  const counts = { critical: 0, elevated: 0, watch: 0 };
  for (const b of built) counts[b.tone] += 1;
  const unflagged = readings - explicitlyFlagged;
  const base =
    built.length === 0
      ? readings === 0
        ? `No readings were sent in ${panels} panel(s); nothing was reviewed.`
        : `No reading was flagged high, low or critical in ${readings} reading(s) across ${panels} panel(s)${unflagged > 0 ? `; ${unflagged} carried no flag at all, which is not evidence of a normal result` : ""}.`
      : `${built.length} flagged result(s): ${counts.critical} critical, ${counts.elevated} elevated, ${counts.watch} watch. Worst: ${(built[0] as Built).signal.label}.`;
  const extra: string[] = [];
  if (unflaggedCritical.length > 0)
    extra.push(
      `Beyond a critical limit though not flagged by the laboratory: ${unflaggedCritical.join("; ")}; needs prompt clinician review.`,
    );
  if (unitCount > 0)
    extra.push(`${unitCount} reading(s) not evaluated against the service's ranges (unit or data quality).`);
  return [base, ...extra].join(" ");
}

const CONFIDENCE_DEFAULTS = {
  // House rule, the same evenly spaced points as the medication engine.
  confidencePointsHigh: 0.9,
  confidencePointsModerate: 0.6,
  confidencePointsLow: 0.3,
  confidenceHighMin: 0.75,
  confidenceModerateMin: 0.45,
} satisfies Partial<BiomarkerParams>;

/**
 * The mean of the signals' confidence points; without signals, how much of the input carried a
 * flag at all (an unflagged reading is not evidence of a normal result).
 */
function biomarkerConfidence(
  built: readonly Built[],
  collected: Collected,
  params: BiomarkerParams,
): { level: ConfidenceLevel; score: number; reasons: string[] } {
  const { readings, explicitlyFlagged } = collected;
  const pointsOf: Record<ConfidenceLevel, number> = {
    high: params.confidencePointsHigh,
    moderate: params.confidencePointsModerate,
    low: params.confidencePointsLow,
  };
  const reasons: string[] = [];
  let score: number;
  if (built.length > 0) {
    score = built.reduce((sum, b) => sum + pointsOf[b.signal.confidence], 0) / built.length;
    const mapped = built.filter((b) => b.mapped).length;
    reasons.push(`${mapped} of ${built.length} flagged analyte(s) are in the psychiatric-relevance map.`);
    const numeric = built.filter((b) => b.numeric).length;
    reasons.push(`${numeric} of ${built.length} flagged reading(s) have a numeric value.`);
    const stale = built.filter((b) => b.stale).length;
    if (stale > 0)
      reasons.push(`${stale} flagged reading(s) come from panels older than ${params.staleAfterDays} days.`);
  } else if (readings === 0) {
    score = params.confidencePointsLow;
    reasons.push("No readings were sent.");
  } else {
    const share = explicitlyFlagged / readings;
    score = Math.max(params.confidencePointsLow, share * params.confidencePointsHigh);
    reasons.push(
      `${explicitlyFlagged} of ${readings} reading(s) carry a flag; a reading without a flag is not evidence of a normal result.`,
    );
  }
  score = Math.min(1, Math.max(0, score));
  const level = confidenceLevel(score, params.confidenceHighMin, params.confidenceModerateMin);
  return { level, score: round(score, 3), reasons };
}

function biomarkerInputs(labs: readonly LabPanel[], readings: number): EngineInput[] {
  let newest: number | null = null;
  for (const panel of labs) {
    const t = parseTime(panel.observedAt);
    if (t !== null && (newest === null || t > newest)) newest = t;
  }
  return [
    {
      name: "labs",
      value: labs.length,
      observedAt: newest === null ? null : new Date(newest).toISOString(),
      supplied: labs.length > 0,
      contributed: readings > 0,
    },
  ];
}

/** The LOINC code of each mapped signal, pointing at its place in `signals`. */
function loincCodes(built: readonly Built[]): NonNullable<EngineFacts["codes"]> {
  const codes: NonNullable<EngineFacts["codes"]> = [];
  built.forEach((b, i) => {
    if (b.code)
      codes.push({
        system: "http://loinc.org",
        code: b.code.code,
        display: b.code.display,
        mapsTo: `signals.${i}`,
      });
  });
  return codes;
}

// ---------------------------------------------------------------------------------------------
// Parameter set

/**
 * Every default, composed from the groups above (each beside the code that reads it); sources in
 * docs/engines/biomarker.md. The spread order fixes the key order.
 */
export const BIOMARKER_DEFAULT_PARAMS: Readonly<BiomarkerParams> = Object.freeze({
  ...CONFIDENCE_DEFAULTS,
  ...STALENESS_DEFAULTS,
});

/** Validates a calibrated parameter set and merges it over the defaults; throws a clear Error otherwise. */
export function resolveBiomarkerParams(overrides: unknown): BiomarkerParams {
  const merged = mergeNumericParams("biomarker", BIOMARKER_DEFAULT_PARAMS, overrides);
  const problems: string[] = [];
  problems.push(...confidenceFractionProblems(merged));
  if (merged.staleAfterDays <= 0) problems.push("staleAfterDays must be > 0");
  assertNoProblems("biomarker", problems);
  return merged;
}

/** One signal per analyte read; worst tone first, ties in input order. */
function builtSignals(collected: Collected, params: BiomarkerParams, now: number, nowIso: string): Built[] {
  const built: Built[] = [];
  for (const readings of collected.byKey.values()) {
    const b = biomarkerSignal(readings, params, now, nowIso);
    if (b) built.push(b);
  }
  built.sort((a, b) => TONE_RANK[b.tone] - TONE_RANK[a.tone] || a.order - b.order);
  return built;
}

/**
 * Decision 171: signals of names the table does not know keep the worst few (the order of `built`);
 * the status, the headline's counts and the review flag still count every one.
 */
function shownSignals(built: readonly Built[]): { shown: Built[]; left: number; criticalLeft: number } {
  const shown: Built[] = [];
  let left = 0;
  let criticalLeft = 0;
  let unrecognisedShown = 0;
  for (const b of built) {
    if (b.mapped) shown.push(b);
    else if (unrecognisedShown < UNRECOGNISED_SIGNALS_KEPT) {
      unrecognisedShown += 1;
      shown.push(b);
    } else {
      left += 1;
      if (b.tone === "critical") criticalLeft += 1;
    }
  }
  return { shown, left, criticalLeft };
}

/**
 * The status: the worst signal, raised by a current unflagged value outside the service's range
 * (decision 182), and critical whenever a current value is beyond a critical limit (decision 67).
 */
function biomarkerStatus(
  built: readonly Built[],
  outOfRange: readonly BiomarkerValueFinding[],
  unflaggedCritical: readonly string[],
): BiomarkerStatus {
  const worstSignal: BiomarkerStatus = built.length === 0 ? "no_flags" : (built[0] as Built).tone;
  const worstOutOfRange = outOfRange.reduce<BiomarkerStatus>((worst, f) => {
    const tone = f.level === undefined || f.level === "none" ? "no_flags" : toneOfLevel(f.level);
    return BIOMARKER_STATUS_ORDER.indexOf(tone) > BIOMARKER_STATUS_ORDER.indexOf(worst) ? tone : worst;
  }, worstSignal);
  return unflaggedCritical.length > 0 ? "critical" : worstOutOfRange;
}

/** Earlier criticals and readings not evaluated lower the confidence: each is named as a reason. */
function findingReasons(findings: Findings): string[] {
  const reasons: string[] = [];
  if (findings.counts.earlierCritical > 0)
    reasons.push(
      `Earlier reading(s) beyond a critical limit, no longer the current value: ${listSome(findings.earlierCriticalListed, findings.counts.earlierCritical)}.`,
    );
  if (findings.counts.notEvaluated > 0)
    reasons.push(
      `${findings.counts.notEvaluated} reading(s) not evaluated against the service's ranges: ${listSome(findings.notEvaluatedListed, findings.counts.notEvaluated)}.`,
    );
  return reasons;
}

/**
 * The patient-over-time review: named and reviewed as the JSON door maps its levels; the status
 * keeps describing the readings.
 */
function biomarkerPatientReview(
  input: BiomarkerInput,
  labs: readonly LabPanel[],
  now: Date,
): PatientReview | null {
  return doorPatientReview({
    ...(input.patient === undefined ? {} : { patient: input.patient }),
    medicines: medicinesOfPrescriptions(input.prescriptions ?? []),
    readings: readingsOfLabPanels(labs),
    now,
  });
}

/** Everything the summary of a biomarker run is built from. */
interface BiomarkerReading {
  status: BiomarkerStatus;
  built: readonly Built[];
  collected: Collected;
  labCount: number;
  findings: Findings;
  signals: readonly ModuleSignal[];
  unflaggedCritical: readonly string[];
  implausible: readonly string[];
  outOfRange: readonly BiomarkerValueFinding[];
  unitUnread: readonly BiomarkerValueFinding[];
  unrecognisedLine: readonly string[];
  reviewed: ReturnType<typeof patientReviewSummary>;
}

function biomarkerSummary(r: BiomarkerReading): EngineFacts["summary"] {
  return {
    status: r.status,
    headline: [
      biomarkerHeadline(
        r.built,
        r.collected,
        r.labCount,
        r.unflaggedCritical,
        r.findings.counts.notEvaluated,
      ),
      ...(r.outOfRange.length > 0
        ? [
            `Outside the service's range though not flagged by the laboratory: ${listSome(
              r.outOfRange.map((f) => f.detail),
              r.outOfRange.length,
            )}.`,
          ]
        : []),
      ...r.unrecognisedLine,
      ...(r.reviewed.headline === null ? [] : [r.reviewed.headline]),
    ].join(" "),
    flagged: [
      ...r.signals.map((s) => s.label),
      ...r.unrecognisedLine,
      ...r.unflaggedCritical,
      ...r.outOfRange.map((f) => f.detail),
      ...r.implausible,
      ...r.unitUnread.map((f) => f.detail),
      ...r.reviewed.flagged,
    ],
    requiresClinicianReview:
      r.unflaggedCritical.length > 0 ||
      r.implausible.length > 0 ||
      r.unitUnread.length > 0 ||
      r.outOfRange.some((f) => f.level === "moderate" || f.level === "high") ||
      r.built.some((b) => b.tone === "critical" || b.tone === "elevated") ||
      r.reviewed.requiresClinicianReview,
  };
}

/** Runs the biomarker engine. Never throws on in-bound input. */
export function analyzeBiomarkers(
  input: BiomarkerInput,
  options: EngineOptions<BiomarkerParams>,
): EngineRun<BiomarkerData> {
  const { params, model } = engineParams(BIOMARKER_MODEL_KEY, BIOMARKER_DEFAULT_PARAMS, options);
  const nowIso = options.now.toISOString();
  const labs = input.labs ?? [];

  const collected = collectReadings(labs);
  const built = builtSignals(collected, params, options.now.getTime(), nowIso);
  const { shown, left: unrecognisedLeft, criticalLeft: unrecognisedCriticalLeft } = shownSignals(built);
  const signals = shown.map((b) => b.signal);
  const findings = valueFindings(collected);
  const unflaggedCritical = unflaggedCurrentCriticals(collected);
  // Decision 182: the current reading of an analyte the laboratory did not flag, outside the
  // service's range, is the same finding the agent tool gives: named, and raising the status to
  // its level (review from moderate), as a signal of that tone would.
  const outOfRange = findings.kept.filter((f) => f.finding === "out_of_range");
  // Decision 182: a current value not evaluated for its unit is "not assessed": named and
  // reviewed, as the agent tool flags it, without raising the status (nothing was read).
  const unitUnread = findings.kept.filter((f) => f.finding === "not_evaluated_unit" && f.current);
  const status = biomarkerStatus(built, outOfRange, unflaggedCritical);
  const confidence = biomarkerConfidence(built, collected, params);
  confidence.reasons.push(...findingReasons(findings));
  const omitted: BiomarkerOmitted = {
    unrecognisedSignals: unrecognisedLeft,
    unrecognisedCritical: unrecognisedCriticalLeft,
    ...findings.omitted,
  };
  const omittedAny =
    omitted.unrecognisedSignals + omitted.critical + omitted.notEvaluatedUnit + omitted.implausible > 0;
  const unrecognisedLine =
    unrecognisedLeft > 0
      ? [
          `${unrecognisedLeft} more flagged analyte(s) not in the psychiatric-relevance map, ${unrecognisedCriticalLeft} of them flagged critical, are not listed one by one; review them in the laboratory report.`,
        ]
      : [];
  const patientReview = biomarkerPatientReview(input, labs, options.now);

  const facts: EngineFacts = {
    summary: biomarkerSummary({
      status,
      built,
      collected,
      labCount: labs.length,
      findings,
      signals,
      unflaggedCritical,
      implausible: currentImplausibles(collected),
      outOfRange,
      unitUnread,
      unrecognisedLine,
      reviewed: patientReviewSummary(patientReview),
    }),
    confidence,
    inputs: biomarkerInputs(labs, collected.readings),
    current: { score: null, status },
    polarity: { kind: "status", order: BIOMARKER_STATUS_ORDER },
    interpretationScale: { ...BIOMARKER_INTERPRETATION_SCALE },
    codes: loincCodes(shown),
  };

  return {
    data: {
      generatedAt: nowIso,
      signalsPresent: signals.length,
      signals,
      disclaimer: BIOMARKER_DISCLAIMER,
      valueFindings: findings.kept,
      ...(omittedAny ? { omitted } : {}),
      ...(patientReview === null ? {} : { patientReview }),
    },
    facts,
    model,
  };
}
