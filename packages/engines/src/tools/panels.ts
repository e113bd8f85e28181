/**
 * Biomarker agent tools `getPanels` and `evaluatePanel`: typical adult reference or therapeutic
 * ranges and critical limits for the analytes of common psychiatric monitoring panels, and a
 * deterministic flag, observation and risk for each reading. The caller sends no unit and no
 * range, so every value is read in the unit of its analyte below. Names, display names, relevance
 * notes and LOINC codes come from `biomarker-map.ts` (one definition). Every range, limit and
 * source, with how far it was checked: docs/engines/panels.md.
 */

import { type AnalyteEntry, BIOMARKER_MAP, chooseLoinc, findAnalyte } from "../biomarker-map.js";
import {
  type AgentRisk,
  type AgentRiskLevel,
  combineRisks,
  ToolInputError,
  type ToolInputIssue,
} from "./types.js";

export interface PanelAnalyte {
  /** Key from BIOMARKER_MAP. */
  analyte: string;
  display: string;
  /** The unit values are read in (SI where usual), because the caller sends none. */
  unit: string;
  /** Normal when low <= value <= high (both ends inclusive); null: no bound on that side. */
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
  /** Only from biomarker-map's verified codes, chosen for this unit. */
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
  /** E.g. "0.6-1.0 mmol/L (therapeutic); critical >= 1.5". */
  range: string;
  critical: boolean;
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
// Analyte ranges (one definition per analyte; panels list keys)

/** What a range row states; display, LOINC and relevance come from the biomarker map. */
type AnalyteRange = Omit<PanelAnalyte, "display" | "loinc" | "criticalLowName" | "criticalHighName"> & {
  criticalLowName?: string;
  criticalHighName?: string;
};

const NO_CRITICAL = {
  criticalLow: null,
  criticalHigh: null,
  criticalLowInclusive: false,
  criticalHighInclusive: true,
} as const;

/** RCPath 2017, "The communication of critical and unexpected pathology results", alert thresholds as tabulated by UK labs (SWL Pathology; Princess Charlotte/PCH pathology 2019 review). */
const RCPATH_2017 =
  "RCPath 2017 critical-result alert thresholds (as tabulated by SWL Pathology and PCH Pathology)";

const ANALYTE_RANGES: readonly AnalyteRange[] = [
  {
    // NICE CG185 / QS95: 0.6-0.8 mmol/L usual, up to 1.0 after relapse; toxicity >= 1.5 (SWL Pathology phone limit; Stockley's: toxicity usually at 1.5-2).
    analyte: "lithium",
    unit: "mmol/L",
    low: 0.6,
    high: 1.0,
    ...NO_CRITICAL,
    criticalHigh: 1.5,
    criticalHighName: "toxicity threshold",
    rangeKind: "therapeutic",
    source:
      "NICE QS95 (0.6-0.8 mmol/L) and CG185 (0.8-1.0 after relapse, not re-read); critical >= 1.5 mmol/L: SWL Pathology phone limit and the issue; BNF UK range 0.4-1.0 is wider",
  },
  {
    // Profound hyponatraemia < 125 (Spasovski et al. 2014 Eur J Endocrinol 170:G1); RCPath 2017 high >= 160.
    analyte: "sodium",
    unit: "mmol/L",
    low: 135,
    high: 145,
    criticalLow: 125,
    criticalLowInclusive: false,
    criticalLowName: "profound hyponatraemia threshold",
    criticalHigh: 160,
    criticalHighInclusive: true,
    rangeKind: "reference",
    source: `135-145 mmol/L (Ramrakha, Moore & Sam 2020, Oxford Handbook of Acute Medicine 4th ed., reference intervals); critical < 125 (issue; Spasovski et al. 2014 "profound", not checked; Homerton GP limit); critical >= 160: ${RCPATH_2017}`,
  },
  {
    analyte: "potassium",
    unit: "mmol/L",
    low: 3.5,
    high: 5.0,
    criticalLow: 2.5,
    criticalLowInclusive: true,
    criticalHigh: 6.5,
    criticalHighInclusive: true,
    rangeKind: "reference",
    source: `3.5-5.0 mmol/L (Ramrakha, Moore & Sam 2020, Oxford Handbook of Acute Medicine 4th ed., reference intervals); critical <= 2.5 and >= 6.5: ${RCPATH_2017}`,
  },
  {
    // Albumin-adjusted calcium.
    analyte: "calcium",
    unit: "mmol/L",
    low: 2.12,
    high: 2.65,
    criticalLow: 1.8,
    criticalLowInclusive: true,
    criticalHigh: 3.5,
    criticalHighInclusive: true,
    rangeKind: "reference",
    source: `total calcium 2.12-2.65 mmol/L (Ramrakha, Moore & Sam 2020, Oxford Handbook of Acute Medicine 4th ed., reference intervals); albumin-adjusted calcium critical <= 1.8 and >= 3.5: ${RCPATH_2017}`,
  },
  {
    // Sex-specific reference ranges differ; the upper limit used here is the broad adult one.
    analyte: "creatinine",
    unit: "µmol/L",
    low: null,
    high: 130,
    ...NO_CRITICAL,
    criticalHigh: 354,
    criticalHighName: "critical limit",
    rangeKind: "reference",
    source: `upper limit 130 µmol/L (Ramrakha, Moore & Sam 2020, Oxford Handbook of Acute Medicine 4th ed., reference intervals, 70-130); lower bound not used (sex- and muscle-dependent); critical >= 354: ${RCPATH_2017}`,
  },
  {
    // KDIGO 2012 GFR categories: below 60 is G3a or worse.
    analyte: "egfr",
    unit: "mL/min/1.73m2",
    low: 60,
    high: null,
    ...NO_CRITICAL,
    rangeKind: "reference",
    source:
      "KDIGO 2012 CKD guideline GFR categories (G3a starts below 60); no critical limit: RCPath flags creatinine and AKI stage instead",
  },
  {
    analyte: "tsh",
    unit: "mIU/L",
    low: 0.45,
    high: 4.5,
    ...NO_CRITICAL,
    rangeKind: "reference",
    source:
      "0.45-4.5 mIU/L (2.5th-97.5th percentile of disease-free US adults as quoted in secondary summaries; not checked in a primary source)",
  },
  {
    analyte: "free_t4",
    unit: "pmol/L",
    low: 9,
    high: 19,
    ...NO_CRITICAL,
    rangeKind: "reference",
    source: "9-19 pmol/L typical (assay-specific; secondary summary, not checked in a primary source)",
  },
  {
    // ACG 2017: healthy ALT up to 33 IU/L in men (25 in women); critical = 15 x ULN (RCPath 2017) = 495.
    analyte: "alt",
    unit: "U/L",
    low: null,
    high: 33,
    ...NO_CRITICAL,
    criticalHigh: 495,
    criticalHighName: "15 x upper-limit critical limit",
    rangeKind: "reference",
    source:
      "upper limit 33 U/L (Kwo et al. 2017, Am J Gastroenterol 112:18-35, healthy men; 25 in women); critical >= 15 x ULN (RCPath 2017) = 495, derived",
  },
  {
    // UK clozapine monitoring: red result when WBC < 3.0 x10^9/L (stop clozapine).
    analyte: "wbc",
    unit: "x10^9/L",
    low: 4.0,
    high: 11.0,
    criticalLow: 3.0,
    criticalLowInclusive: false,
    criticalLowName: "clozapine red-range threshold",
    criticalHigh: null,
    criticalHighInclusive: true,
    rangeKind: "reference",
    source:
      "4.0-11.0 x10^9/L (most UK NHS labs, tabulated in PMC7082321 table 6; Cancer Research UK); critical < 3.0: UK clozapine monitoring red range (NHS Borders clozapine red alert guideline)",
  },
  {
    // UK clozapine monitoring: green >= 2.0, amber 1.5-2.0, red < 1.5 x10^9/L (stop clozapine).
    analyte: "anc",
    unit: "x10^9/L",
    low: 2.0,
    high: 7.5,
    criticalLow: 1.5,
    criticalLowInclusive: false,
    criticalLowName: "clozapine red-range threshold",
    criticalHigh: null,
    criticalHighInclusive: true,
    rangeKind: "reference",
    source:
      "2.0-7.5 x10^9/L (most UK NHS labs, PMC7082321 table 6); critical < 1.5: UK clozapine red range (NHS Borders guideline); Clozaril label: start only with ANC >= 2.0",
  },
  {
    // ADA: fasting 5.6-6.9 impaired, so normal up to 5.5; level 1 hypoglycaemia < 3.9, level 2 < 3.0.
    analyte: "glucose",
    unit: "mmol/L",
    low: 3.9,
    high: 5.5,
    criticalLow: 3.0,
    criticalLowInclusive: false,
    criticalLowName: "level 2 hypoglycaemia threshold",
    criticalHigh: 25,
    criticalHighInclusive: true,
    rangeKind: "reference",
    source: `fasting: ADA Standards of Care (impaired fasting glucose from 5.6 mmol/L; hypoglycaemia level 1 < 3.9, level 2 < 3.0, these two not re-read this pass); critical >= 25: ${RCPATH_2017}`,
  },
  {
    // ADA: 5.7-6.4 % prediabetes, >= 6.5 % diabetes; read in % (NGSP/DCCT), not mmol/mol.
    analyte: "hba1c",
    unit: "%",
    low: null,
    high: 5.6,
    ...NO_CRITICAL,
    rangeKind: "reference",
    source: "ADA Standards of Care: 5.7-6.4 % prediabetes, >= 6.5 % diabetes (NGSP %); no critical limit",
  },
  {
    analyte: "valproate",
    unit: "mg/L",
    low: 50,
    high: 100,
    ...NO_CRITICAL,
    criticalHigh: 150,
    criticalHighName: "critical limit",
    rangeKind: "therapeutic",
    source:
      "50-100 mg/L (US label via secondary summaries; UHNM Pathology target range); critical >= 150 mg/L (Quest/Nichols Institute adult critical value)",
  },
  {
    analyte: "carbamazepine",
    unit: "mg/L",
    low: 4,
    high: 12,
    ...NO_CRITICAL,
    criticalHigh: 15,
    criticalHighName: "critical limit",
    rangeKind: "therapeutic",
    source:
      "4-12 mg/L (CMMC and St Luke's Cedar Rapids lab pages); critical >= 15 mg/L (St Luke's; CMMC uses > 20, HEFT > 25)",
  },
  {
    analyte: "clozapine",
    unit: "ng/mL",
    low: 350,
    high: 600,
    ...NO_CRITICAL,
    criticalHigh: 1000,
    criticalHighName: "toxicity threshold",
    rangeKind: "therapeutic",
    source: "350-600 ng/mL, toxic >= 1000 ng/mL (ARUP clozapine test, University of Iowa pathology handbook)",
  },
];

/** A biomarker-map entry by key; a missing key is a programming error in the table above. */
function mapEntryOf(key: string): AnalyteEntry {
  const entry = BIOMARKER_MAP.find((candidate) => candidate.key === key);
  if (!entry) throw new Error(`panels: no biomarker-map entry "${key}"`);
  return entry;
}

function panelAnalyteOf(row: AnalyteRange): PanelAnalyte {
  const entry = mapEntryOf(row.analyte);
  return {
    ...row,
    display: entry.display,
    criticalLowName: row.criticalLowName ?? "critical limit",
    criticalHighName: row.criticalHighName ?? "critical limit",
    loinc: chooseLoinc(entry, row.unit)?.code ?? null,
  };
}

const PANEL_ANALYTES: ReadonlyMap<string, PanelAnalyte> = new Map(
  ANALYTE_RANGES.map((row) => [row.analyte, panelAnalyteOf(row)]),
);

/** Panels by monitoring purpose; an analyte in several panels has one definition. */
const PANEL_KEYS: readonly { id: string; display: string; analytes: readonly string[] }[] = [
  // NICE CG185: lithium level, renal and thyroid function, calcium.
  {
    id: "lithium_monitoring",
    display: "Lithium monitoring",
    analytes: ["lithium", "sodium", "creatinine", "egfr", "tsh", "calcium"],
  },
  { id: "renal", display: "Renal function", analytes: ["creatinine", "egfr", "sodium", "potassium"] },
  { id: "thyroid", display: "Thyroid function", analytes: ["tsh", "free_t4"] },
  { id: "electrolytes", display: "Electrolytes", analytes: ["sodium", "potassium", "calcium"] },
  { id: "liver", display: "Liver function", analytes: ["alt"] },
  { id: "full_blood_count", display: "Full blood count (clozapine monitoring)", analytes: ["wbc", "anc"] },
  { id: "metabolic", display: "Metabolic (antipsychotic monitoring)", analytes: ["glucose", "hba1c"] },
  {
    id: "drug_levels",
    display: "Psychotropic drug levels",
    analytes: ["lithium", "valproate", "carbamazepine", "clozapine"],
  },
];

function panelAnalyte(key: string): PanelAnalyte {
  const analyte = PANEL_ANALYTES.get(key);
  if (!analyte) throw new Error(`panels: no range row "${key}"`);
  return analyte;
}

/** Every panel with its analytes, ranges, critical limits, verified LOINC codes and sources. */
export function getPanels(): ReferencePanel[] {
  return PANEL_KEYS.map((panel) => ({
    id: panel.id,
    display: panel.display,
    analytes: panel.analytes.map((key) => ({ ...panelAnalyte(key) })),
  }));
}

// ---------------------------------------------------------------------------------------------
// Unit plausibility (house rule): values impossible in the analyte's unit but typical of another
// common unit are not evaluated, so a mg/dL creatinine never reads as normal in µmol/L.

const PLAUSIBLE_VALUES: Readonly<Record<string, { min: number; max: number; otherUnit: string }>> = {
  sodium: { min: 80, max: 200, otherUnit: "another unit" },
  potassium: { min: 1, max: 12, otherUnit: "another unit" },
  calcium: { min: 0.5, max: 5, otherUnit: "mg/dL" },
  creatinine: { min: 15, max: 3000, otherUnit: "mg/dL" },
  free_t4: { min: 2, max: 150, otherUnit: "ng/dL" },
  wbc: { min: 0, max: 500, otherUnit: "cells/µL" },
  anc: { min: 0, max: 200, otherUnit: "cells/µL" },
  glucose: { min: 0.5, max: 60, otherUnit: "mg/dL" },
  hba1c: { min: 3, max: 20, otherUnit: "mmol/mol" },
};

function implausibleReason(analyte: PanelAnalyte, value: number): string | null {
  if (value < 0) return `a negative value is not a concentration in ${analyte.unit}`;
  const bounds = PLAUSIBLE_VALUES[analyte.analyte];
  if (!bounds || (value >= bounds.min && value <= bounds.max)) return null;
  return `${value} is implausible in ${analyte.unit} (plausible ${bounds.min}-${bounds.max}); it may be in ${bounds.otherUnit}`;
}

// ---------------------------------------------------------------------------------------------
// Flag, range text and risk of one reading

function isCriticalLow(a: PanelAnalyte, value: number): boolean {
  if (a.criticalLow === null) return false;
  return a.criticalLowInclusive ? value <= a.criticalLow : value < a.criticalLow;
}

function isCriticalHigh(a: PanelAnalyte, value: number): boolean {
  if (a.criticalHigh === null) return false;
  return a.criticalHighInclusive ? value >= a.criticalHigh : value > a.criticalHigh;
}

/** Critical limits first; otherwise the [low, high] range, both ends inclusive. */
export function panelFlagOf(a: PanelAnalyte, value: number): PanelFlag {
  if (isCriticalLow(a, value)) return "critical_low";
  if (isCriticalHigh(a, value)) return "critical_high";
  if (a.low !== null && value < a.low) return "low";
  if (a.high !== null && value > a.high) return "high";
  return "normal";
}

/** Decimals of the most precise of the numbers, so "0.6-1.0" keeps its trailing zero. */
function formatBounds(values: readonly number[]): string[] {
  const decimals = Math.max(0, ...values.map((v) => (String(v).split(".")[1] ?? "").length));
  return values.map((v) => v.toFixed(decimals));
}

function normalRangeText(a: PanelAnalyte): string {
  if (a.low !== null && a.high !== null) {
    const [low, high] = formatBounds([a.low, a.high]);
    return `${low}-${high} ${a.unit}`;
  }
  if (a.high !== null) return `<= ${a.high} ${a.unit}`;
  return a.low !== null ? `>= ${a.low} ${a.unit}` : `no range in ${a.unit}`;
}

function criticalText(a: PanelAnalyte): string {
  const parts: string[] = [];
  if (a.criticalLow !== null) parts.push(`${a.criticalLowInclusive ? "<=" : "<"} ${a.criticalLow}`);
  if (a.criticalHigh !== null) parts.push(`${a.criticalHighInclusive ? ">=" : ">"} ${a.criticalHigh}`);
  return parts.length === 0 ? "" : `; critical ${parts.join(" or ")}`;
}

/** "0.6-1.0 mmol/L (therapeutic); critical >= 1.5". */
export function panelRangeTextOf(a: PanelAnalyte): string {
  return `${normalRangeText(a)} (${a.rangeKind})${criticalText(a)}`;
}

const TONE_RISK: Readonly<Record<"watch" | "elevated", AgentRiskLevel>> = {
  // Reuses the biomarker map's per-analyte tone: a result with a direct psychiatric safety
  // implication ("elevated") is a moderate risk, one worth noting ("watch") a low one.
  watch: "low",
  elevated: "moderate",
};

function criticalLabel(a: PanelAnalyte, value: number, flag: PanelFlag): string {
  const reading = `${a.display} ${value} ${a.unit}`;
  if (flag === "critical_high") {
    const side = a.criticalHighInclusive ? "at or above" : "above";
    return `${reading}: ${side} the ${a.criticalHigh} ${a.unit} ${a.criticalHighName}`;
  }
  const side = a.criticalLowInclusive ? "at or below" : "below";
  return `${reading}: ${side} the ${a.criticalLow} ${a.unit} ${a.criticalLowName}`;
}

function readingRisk(a: PanelAnalyte, entry: AnalyteEntry, value: number, flag: PanelFlag): AgentRisk {
  if (flag === "normal") return { flag: false, level: "none", labels: [] };
  if (flag === "critical_high" || flag === "critical_low") {
    return { flag: true, level: "high", labels: [criticalLabel(a, value, flag)] };
  }
  const level = TONE_RISK[flag === "high" ? entry.toneHigh : entry.toneLow];
  const side = flag === "high" ? "above" : "below";
  return {
    flag: true,
    level,
    labels: [`${a.display} ${value} ${a.unit}: ${side} the ${a.rangeKind} range ${normalRangeText(a)}`],
  };
}

const CRITICAL_REVIEW_NOTE =
  "Critical value: needs prompt clinician review; follow the laboratory's critical-result procedure and confirm the result.";

function readingObservations(a: PanelAnalyte, entry: AnalyteEntry, flag: PanelFlag): PanelObservation[] {
  if (flag === "normal") return [];
  const relevance = flag === "high" || flag === "critical_high" ? entry.high : entry.low;
  const notes = [{ analyte: a.display, note: relevance }];
  if (flag === "critical_high" || flag === "critical_low")
    notes.unshift({ analyte: a.display, note: CRITICAL_REVIEW_NOTE });
  return notes;
}

// ---------------------------------------------------------------------------------------------
// Evaluation

/** Said in every evaluation: the caller sends no unit or range. */
export const PANEL_UNIT_OBSERVATION: PanelObservation = Object.freeze({
  analyte: "All readings",
  note: "Reference intervals vary by laboratory, assay, age, sex and pregnancy. No unit or range was sent, so each value was read in the unit shown for its analyte; check it against the reporting laboratory's own range.",
});

export interface PanelReading {
  analyte: string;
  value: number;
}

/** Values must be finite numbers and names strings; anything else cannot be read at all. */
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
  });
  if (issues.length > 0) throw new ToolInputError(issues);
}

interface Evaluated {
  result: PanelResult;
  risk: AgentRisk;
  observations: PanelObservation[];
}

function evaluateReading(a: PanelAnalyte, entry: AnalyteEntry, value: number): Evaluated {
  const flag = panelFlagOf(a, value);
  const critical = flag === "critical_high" || flag === "critical_low";
  return {
    result: {
      analyte: a.display,
      analyteKey: a.analyte,
      value,
      unit: a.unit,
      flag,
      range: panelRangeTextOf(a),
      critical,
    },
    risk: readingRisk(a, entry, value, flag),
    observations: readingObservations(a, entry, flag),
  };
}

/** Why a reading cannot be evaluated, or its map entry and panel analyte. */
function classify(
  reading: PanelReading,
): { entry: AnalyteEntry; analyte: PanelAnalyte } | { notEvaluated: string } {
  const entry = findAnalyte(reading.analyte);
  if (!entry)
    return { notEvaluated: `"${reading.analyte}" is not a recognised analyte; it was not evaluated.` };
  const analyte = PANEL_ANALYTES.get(entry.key);
  if (!analyte)
    return {
      notEvaluated: `"${reading.analyte}" (${entry.display}) has no sourced range in this tool; it was not evaluated.`,
    };
  const implausible = implausibleReason(analyte, reading.value);
  if (implausible)
    return {
      notEvaluated: `${analyte.display} "${reading.analyte}": ${implausible}. It was not evaluated; re-send it in ${analyte.unit}.`,
    };
  return { entry, analyte };
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

/** A panel with nothing evaluated has not been assessed; the risk says so rather than staying silent. */
function notAssessedRisk(readings: number): AgentRisk {
  return {
    flag: false,
    level: "none",
    labels: [
      readings === 0
        ? "Panel not assessed: no readings were sent"
        : "Panel not assessed: no reading could be evaluated",
    ],
  };
}

/**
 * Flags each reading against its analyte's range and critical limits, in input order. Unknown
 * analytes, analytes without a sourced range and values implausible in the analyte's unit go to
 * `unrecognized` with a warning (never read as normal). Any critical value makes the risk high.
 */
export function evaluatePanel(readings: readonly PanelReading[]): PanelEvaluation {
  assertReadable(readings);
  const evaluated: Evaluated[] = [];
  const unrecognized: string[] = [];
  const warnings: string[] = [];
  for (const reading of readings) {
    const found = classify(reading);
    if ("notEvaluated" in found) {
      unrecognized.push(reading.analyte);
      warnings.push(found.notEvaluated);
    } else evaluated.push(evaluateReading(found.analyte, found.entry, reading.value));
  }
  const results = evaluated.map((e) => e.result);
  warnings.push(...duplicateWarnings(results));
  if (readings.length === 0) warnings.push("No readings were sent; nothing was evaluated.");
  return {
    results,
    unrecognized,
    observations: [...evaluated.flatMap((e) => e.observations), PANEL_UNIT_OBSERVATION],
    risk:
      results.length === 0 ? notAssessedRisk(readings.length) : combineRisks(evaluated.map((e) => e.risk)),
    warnings,
  };
}
