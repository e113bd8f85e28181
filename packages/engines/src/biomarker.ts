/**
 * Biomarker interpretation engine (POST /v1/biomarker/analyze). Maps lab readings flagged high,
 * low or critical to their psychiatric relevance; readings flagged normal or without a flag are
 * ignored. Pure and deterministic: the clock comes from `options.now`. Method, constants and
 * LOINC sources: docs/engines/biomarker.md.
 */
import { type AnalyteEntry, chooseLoinc, findAnalyte, findAnalyteByLoinc } from "./biomarker-map.js";
import { assertNoProblems, confidenceFractionProblems, engineParams, mergeNumericParams } from "./params.js";
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
} from "./types.js";

export {
  type AnalyteEntry,
  BIOMARKER_MAP,
  chooseLoinc,
  findAnalyte,
  findAnalyteByLoinc,
  type LoincRef,
  normaliseAnalyteName,
} from "./biomarker-map.js";

export interface BiomarkerInput {
  labs: LabPanel[];
}

export interface BiomarkerData {
  generatedAt: string;
  signalsPresent: number;
  signals: ModuleSignal[];
  disclaimer: string;
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
  no_flags: "No reading was flagged high, low or critical.",
  watch: "Abnormal readings worth noting in the psychiatric picture; not urgent on their own.",
  elevated: "At least one abnormal reading with a direct psychiatric safety implication; review soon.",
  critical: "At least one reading the laboratory flagged critical; needs prompt clinician review.",
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

type Flag = "high" | "low" | "critical";
type Tone = "watch" | "elevated" | "critical";

interface Candidate {
  key: string;
  entry: AnalyteEntry | null;
  reading: Biomarker;
  flag: Flag;
  panel: LabPanel;
  time: number | null;
  order: number;
  /** How many flagged readings of this analyte were seen across panels. */
  flaggedCount: number;
}

/** The newest reading of an analyte that carried no high/low/critical flag. */
interface Unflagged {
  time: number | null;
  order: number;
  panel: LabPanel;
}

/** One pass over every reading of every panel. */
interface Collected {
  /** The newest flagged reading per analyte key, in first-seen order. */
  chosen: Map<string, Candidate>;
  /** The newest unflagged reading per analyte key, to say when a flag has since normalised. */
  newestUnflagged: Map<string, Unflagged>;
  readings: number;
  explicitlyFlagged: number;
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
 * One pass over every reading: keep the newest flagged reading per analyte key, count flags, and
 * remember the newest unflagged reading per key to say when a flag has since normalised. The key
 * is the mapped analyte (by LOINC code, then by name), else a slug of the name.
 */
function collectReadings(labs: readonly LabPanel[]): Collected {
  const chosen = new Map<string, Candidate>();
  const newestUnflagged = new Map<string, Unflagged>();
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
      const flag = reading.flag;
      if (flag !== "high" && flag !== "low" && flag !== "critical") {
        const prev = newestUnflagged.get(key);
        const here = { time, order, panel };
        if (!prev || isNewer(here, prev)) newestUnflagged.set(key, here);
        continue;
      }
      const candidate: Candidate = { key, entry, reading, flag, panel, time, order, flaggedCount: 1 };
      const prev = chosen.get(key);
      if (!prev) chosen.set(key, candidate);
      else {
        candidate.flaggedCount = prev.flaggedCount + 1;
        if (isNewer(candidate, prev)) chosen.set(key, candidate);
        else prev.flaggedCount = candidate.flaggedCount;
      }
    }
  }
  return { chosen, newestUnflagged, readings, explicitlyFlagged };
}

// ---------------------------------------------------------------------------------------------
// One signal per flagged analyte

/** Direction of a reading: its flag, or for a critical flag the side of the reference range the value is on. */
function readingDirection(flag: Flag, parsed: ParsedValue, range: ReturnType<typeof parseReferenceRange>) {
  let direction: "high" | "low" | null = flag === "critical" ? null : flag;
  if (flag === "critical" && parsed.value !== null && range) {
    if (range.high !== null && parsed.value > range.high) direction = "high";
    else if (range.low !== null && parsed.value < range.low) direction = "low";
  }
  return direction;
}

/** What the reading means psychiatrically, from the relevance map; unmapped analytes are referred to clinical context. */
function relevanceText(c: Candidate, direction: "high" | "low" | null): string {
  const { entry, reading, flag } = c;
  return entry
    ? direction === "high"
      ? entry.high
      : direction === "low"
        ? entry.low
        : `Flagged critical; the direction could not be read from the value and reference range. High: ${entry.high} Low: ${entry.low}`
    : `No psychiatric-relevance entry exists for "${reading.name}". It was flagged ${flag} by the laboratory; review it in clinical context.`;
}

function valueText(reading: Biomarker, parsed: ParsedValue): string {
  return parsed.value === null
    ? `Value ${reading.value === null ? "missing" : JSON.stringify(reading.value)} is not numeric; metricValue is 0.`
    : `Value ${parsed.comparator ?? ""}${parsed.value}${reading.unit ? ` ${reading.unit}` : ""}${reading.referenceRange ? ` (reference ${reading.referenceRange})` : ""}${parsed.comparator ? "; a censored result, metricValue is the bound" : ""}.`;
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

/** Repeated flags, a newer unflagged reading, a stale or undated panel. */
function signalNotes(
  c: Candidate,
  later: Unflagged | undefined,
  stale: boolean,
  params: BiomarkerParams,
): string[] {
  const notes: string[] = [];
  if (c.flaggedCount > 1)
    notes.push(`Flagged in ${c.flaggedCount} readings across the panels; the newest is shown.`);
  // Only a strictly later date counts; order within the same date says nothing about time.
  if (later && later.time !== null && (c.time === null || later.time > c.time)) {
    notes.push(
      `A newer reading${later.panel.observedAt ? ` (${later.panel.observedAt})` : ""} in panel ${later.panel.id} was not flagged.`,
    );
  }
  if (stale) notes.push(`The panel is older than ${params.staleAfterDays} days; confidence lowered.`);
  if (c.time === null) notes.push("The panel has no observedAt date.");
  return notes;
}

function biomarkerSignal(
  c: Candidate,
  later: Unflagged | undefined,
  params: BiomarkerParams,
  now: number,
  nowIso: string,
): Built {
  const { entry, reading, flag } = c;
  const parsed = parseBiomarkerValue(reading.value);
  const direction = readingDirection(flag, parsed, parseReferenceRange(reading.referenceRange));
  const tone: Tone =
    flag === "critical" ? "critical" : entry ? (flag === "high" ? entry.toneHigh : entry.toneLow) : "watch";
  const name = entry ? entry.display : reading.name;
  const stale = isStale(c.time, now, params);
  const code = entry ? chooseLoinc(entry, reading.unit, reading.loinc) : null;
  const flagWord = flag === "critical" ? "critical" : flag;
  return {
    signal: {
      module: "biomarker",
      signalKey: `bio_${c.key}`,
      label: `${name} ${flagWord}`,
      detail: [
        relevanceText(c, direction),
        valueText(reading, parsed),
        ...signalNotes(c, later, stale, params),
      ].join(" "),
      tone,
      // `+ 0` turns a -0 reading into 0 (JSON has no negative zero).
      metricValue: (parsed.value ?? 0) + 0,
      metricUnit: reading.unit ?? "",
      confidence: signalConfidence(entry !== null, parsed.value !== null, stale),
      summaryLine: `${name} flagged ${flagWord} (${c.panel.labName}): ${tone === "critical" ? "prompt review" : tone === "elevated" ? "review soon" : "note"}.`,
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

// ---------------------------------------------------------------------------------------------
// Summary, confidence, inputs and codes

function biomarkerHeadline(built: readonly Built[], collected: Collected, panels: number): string {
  const { readings, explicitlyFlagged } = collected;
  const counts = { critical: 0, elevated: 0, watch: 0 };
  for (const b of built) counts[b.tone] += 1;
  const unflagged = readings - explicitlyFlagged;
  return built.length === 0
    ? readings === 0
      ? `No readings were sent in ${panels} panel(s); nothing was reviewed.`
      : `No reading was flagged high, low or critical in ${readings} reading(s) across ${panels} panel(s)${unflagged > 0 ? `; ${unflagged} carried no flag at all, which is not evidence of a normal result` : ""}.`
    : `${built.length} flagged result(s): ${counts.critical} critical, ${counts.elevated} elevated, ${counts.watch} watch. Worst: ${(built[0] as Built).signal.label}.`;
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

/** Runs the biomarker engine. Never throws on in-bound input. */
export function analyzeBiomarkers(
  input: BiomarkerInput,
  options: EngineOptions<BiomarkerParams>,
): EngineRun<BiomarkerData> {
  const { params, model } = engineParams(BIOMARKER_MODEL_KEY, BIOMARKER_DEFAULT_PARAMS, options);
  const now = options.now.getTime();
  const nowIso = options.now.toISOString();
  const labs = input.labs ?? [];

  const collected = collectReadings(labs);
  const built: Built[] = [];
  for (const c of collected.chosen.values())
    built.push(biomarkerSignal(c, collected.newestUnflagged.get(c.key), params, now, nowIso));
  // Worst tone first; ties in input order.
  built.sort((a, b) => TONE_RANK[b.tone] - TONE_RANK[a.tone] || a.order - b.order);
  const signals = built.map((b) => b.signal);
  const status: BiomarkerStatus = built.length === 0 ? "no_flags" : (built[0] as Built).tone;

  const facts: EngineFacts = {
    summary: {
      status,
      headline: biomarkerHeadline(built, collected, labs.length),
      flagged: signals.map((s) => s.label),
      requiresClinicianReview: built.some((b) => b.tone === "critical" || b.tone === "elevated"),
    },
    confidence: biomarkerConfidence(built, collected, params),
    inputs: biomarkerInputs(labs, collected.readings),
    current: { score: null, status },
    polarity: { kind: "status", order: BIOMARKER_STATUS_ORDER },
    interpretationScale: { ...BIOMARKER_INTERPRETATION_SCALE },
    codes: loincCodes(built),
  };

  return {
    data: { generatedAt: nowIso, signalsPresent: signals.length, signals, disclaimer: BIOMARKER_DISCLAIMER },
    facts,
    model,
  };
}
