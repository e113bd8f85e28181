/**
 * Trends in laboratory series (decision 189, part four; decision 195): readings of one analyte
 * over time, read against sourced rules, so a series that says act is a finding even when every
 * reading sits inside its range. The rules live in one table, `TREND_RULES`; each row names the
 * analytes it reads, its test (one of a few kinds, each read by one function below), its level,
 * the medicines it needs or names, and its source (docs/engines/evidence.md, "Trends").
 *
 * A series is built from readings the analyte table can read (`evaluateAnalyteValue`): values are
 * compared in the canonical unit, so µmol/L and mg/dL, kg and lb read the same. A reading whose
 * unit or value cannot be read, or that has no usable date, is not part of the series and is
 * named in a not-assessed finding (decision 80), never dropped in silence. Every test looks at
 * every earlier-later pair (or run) in the series, not only at the newest reading, so a normal
 * newest value never outweighs a deterioration, and adding a reading never removes a finding.
 */

import {
  CLINICAL_LEVELS,
  type ClinicalLevel,
  higherClinicalLevel,
  judgeLabReading,
  NOT_ASSESSED_LEVEL,
} from "../judgement.js";
import {
  type AnalyteEntry,
  evaluateAnalyteValue,
  findAnalyte,
  findAnalyteByLoinc,
  formatAnalyteValue,
} from "../knowledge/analytes.js";
import type { DrugClass } from "../knowledge/medicines.js";
import { parseTime } from "../shared.js";
import { ingredientEntry, normaliseMedicationText, readEntry } from "../tools/drug-names.js";
import type { DatedReading, PatientFinding, PatientReviewInput, ReviewMedicine } from "./types.js";

const DAY_MS = 86_400_000;
const YEAR_DAYS = 365.25;
/** Conversions are floating point: thresholds are met within this relative slack (the safe side). */
export const SLACK = 1e-9;

/** A medicine a rule needs or names: an ingredient, or a class of the medicine model. */
export interface MedicineSelector {
  ingredient?: string;
  drugClass?: DrugClass;
}

/** One category of a banded scale, from its lower bound (inclusive) up to the next one. */
export interface TrendCategory {
  name: string;
  /** Lower bound in the analyte's canonical unit; null: no lower bound (the last category). */
  from: number | null;
}

/** What a rule looks for in a series (values in the analyte's canonical unit). */
export type TrendTest =
  /** A later reading at least `ratio` times an earlier one, within `withinDays` (null: any span) and over more than `overDays`. */
  | { kind: "rise_ratio"; ratio: number; withinDays: number | null; overDays: number }
  /** A later reading at least `amount` above an earlier one within `withinDays`. */
  | { kind: "rise_absolute"; amount: number; withinDays: number }
  /** A later reading in a worse category than an earlier one, having fallen by at least `minFall` (a fraction). */
  | { kind: "category_fall"; categories: readonly TrendCategory[]; minFall: number }
  /** A fall of more than `perYear` canonical units a year between readings at least `minDays` apart. */
  | { kind: "decline_rate"; perYear: number; minDays: number }
  /** At least `falls` falls in a row, each reading lower than the one before and at most `maxGapDays` after it, by `minFall` in all. */
  | { kind: "consecutive_falls"; falls: number; maxGapDays: number; minFall: number }
  /** A gain of at least `fraction` over the baseline: the last reading at or before the needed medicine started. */
  | { kind: "gain_since_start"; fraction: number }
  /** A later reading above the analyte table's reference range that is higher than an earlier reading within it. */
  | { kind: "rise_above_range" };

export type TrendEvidenceLevel = "published cut-off" | "derived" | "expert-set";

export interface TrendRule {
  /** Stable machine id, the finding's `rule`. */
  id: string;
  /** Analyte table keys the rule reads, each as its own series. */
  analytes: readonly string[];
  test: TrendTest;
  level: ClinicalLevel;
  /** The rule applies only when one of these is taken (the weight rule: an antipsychotic). */
  requires?: readonly MedicineSelector[];
  /** Medicines the finding names when taken; `levelWhenNamed` then replaces `level` (never lower). */
  names?: readonly MedicineSelector[];
  levelWhenNamed?: ClinicalLevel;
  /** The level when every reading of the span bears the trend out (a sustained decline); never lower. */
  levelWhenSustained?: ClinicalLevel;
  /** Findings of rules in one group on one analyte: only the highest is kept (table order breaks ties). */
  group?: string;
  /** Short clinician-facing label, after the analyte's name ("Creatinine: risen to ..."). */
  title: string;
  /** What the rule asks, one sentence. */
  action: string;
  source: string;
  evidence: TrendEvidenceLevel;
}

const KDIGO_AKI =
  "KDIGO 2012 Clinical Practice Guideline for Acute Kidney Injury, definition: serum creatinine up by >= 26.5 µmol/L (0.3 mg/dL) within 48 hours, or to >= 1.5 times baseline known or presumed to have occurred within the prior 7 days (as quoted by BMJ Best Practice and NICE NG148 detection criteria)";
const KDIGO_CKD =
  "KDIGO 2012 CKD guideline, recommendation 2.1.3 (as reproduced in the guideline's summary of recommendations): a certain drop in eGFR is a drop in GFR category (G1 >= 90, G2 60-89, G3a 45-59, G3b 30-44, G4 15-29, G5 < 15 mL/min/1.73 m2) with a 25 % or greater drop from baseline; rapid progression a sustained decline of more than 5 mL/min/1.73 m2 a year; 2.1.2 small fluctuations are common";
const CKD_EPI_2021 =
  "derived: in the 2021 CKD-EPI creatinine equation (Inker et al. 2021, N Engl J Med 385:1737-1749) eGFR falls with creatinine to the power -1.200 above the sex threshold, so creatinine at 1.5 times baseline is an eGFR about 39 % lower (1.5^-1.2 = 0.615), past the 25 % of a KDIGO certain drop (KDIGO 2012 CKD guideline 2.1.3); the KDIGO AKI guideline's acute kidney disease criterion uses the same 50 % creatinine rise over up to 3 months";
const CLOZAPINE_BANDS =
  "UK clozapine monitoring bands (green neutrophils >= 2.0, amber 1.5-2.0, red < 1.5 x10^9/L; white cells green >= 3.5, amber 3.0-3.5, red < 3.0: Clozaril prescribing information as quoted by MIMS, NHS Borders clozapine red-alert guidance) and the US clozapine label's ANC categories (mild 1000-1499, moderate 500-999, severe < 500 /µL)";
const FALLING_COUNT =
  "expert-set: three falls in a row, each test at most 28 days after the one before, by 25 % or more in all; no label or guideline sets a number for a falling count within the range (the clozapine labels act on the bands)";
const WEIGHT_LABELS =
  "antipsychotic labels define clinically significant weight gain as >= 7 % over baseline (e.g. the aripiprazole EU SmPC section 5.1, 26-week olanzapine-controlled study: at least 7 % weight gain over baseline; US second-generation antipsychotic labels tabulate the same threshold, not re-read this pass)";
const ADA_APA_2004 =
  "ADA/APA/AACE/NAASO consensus on antipsychotic drugs and obesity and diabetes, Diabetes Care 2004;27:596-601: consider switching to another antipsychotic if the patient gains >= 5 % of initial weight (monitoring table as reproduced in secondary sources; the paper itself not opened)";
const PROLACTIN_RISE =
  "expert-set: a reading above the analyte table's prolactin range that is higher than an earlier reading within it; NICE CG178 asks for prolactin at baseline and when symptoms suggest hyperprolactinaemia on an antipsychotic (range source: the analyte table)";

const LITHIUM: MedicineSelector = { ingredient: "lithium" };
const CLOZAPINE: MedicineSelector = { ingredient: "clozapine" };
const ANTIPSYCHOTIC: MedicineSelector = { drugClass: "antipsychotic" };

const EGFR_CATEGORIES: readonly TrendCategory[] = [
  { name: "G1", from: 90 },
  { name: "G2", from: 60 },
  { name: "G3a", from: 45 },
  { name: "G3b", from: 30 },
  { name: "G4", from: 15 },
  { name: "G5", from: null },
];
const NEUTROPHIL_BANDS: readonly TrendCategory[] = [
  { name: "UK green", from: 2.0 },
  { name: "UK amber", from: 1.5 },
  { name: "UK red, US mild neutropenia", from: 1.0 },
  { name: "UK red, US moderate neutropenia", from: 0.5 },
  { name: "UK red, US severe neutropenia", from: null },
];
const WHITE_CELL_BANDS: readonly TrendCategory[] = [
  { name: "UK green", from: 3.5 },
  { name: "UK amber", from: 3.0 },
  { name: "UK red", from: null },
];

/** The trend rules, in the order a prescriber reads them. Sources: docs/engines/evidence.md, "Trends". */
export const TREND_RULES: readonly TrendRule[] = [
  {
    id: "creatinine_aki_ratio",
    analytes: ["creatinine"],
    test: { kind: "rise_ratio", ratio: 1.5, withinDays: 7, overDays: 0 },
    level: "high",
    names: [LITHIUM],
    group: "creatinine_rise",
    title: "risen to 1.5 times baseline or more within 7 days: acute kidney injury",
    action:
      "KDIGO acute kidney injury: review now (hydration, nephrotoxic and renally cleared drugs such as lithium).",
    source: KDIGO_AKI,
    evidence: "published cut-off",
  },
  {
    id: "creatinine_aki_absolute",
    analytes: ["creatinine"],
    test: { kind: "rise_absolute", amount: 26.5, withinDays: 2 },
    level: "high",
    names: [LITHIUM],
    group: "creatinine_rise",
    title: "up by 26.5 µmol/L (0.3 mg/dL) or more within 48 hours: acute kidney injury",
    action:
      "KDIGO acute kidney injury: review now (hydration, nephrotoxic and renally cleared drugs such as lithium).",
    source: KDIGO_AKI,
    evidence: "published cut-off",
  },
  {
    id: "creatinine_sustained_rise",
    analytes: ["creatinine"],
    test: { kind: "rise_ratio", ratio: 1.5, withinDays: null, overDays: 7 },
    level: "moderate",
    names: [LITHIUM],
    group: "creatinine_rise",
    title: "risen to 1.5 times an earlier value or more: falling kidney function",
    action:
      "A fall in eGFR beyond a KDIGO certain drop: review renal function and renally cleared drugs (lithium: NICE CG185 renal monitoring).",
    source: CKD_EPI_2021,
    evidence: "derived",
  },
  {
    id: "egfr_certain_drop",
    analytes: ["egfr"],
    test: { kind: "category_fall", categories: EGFR_CATEGORIES, minFall: 0.25 },
    level: "moderate",
    names: [LITHIUM],
    title: "fallen a KDIGO category with a drop of 25 % or more",
    action:
      "KDIGO CKD progression: review management, look for reversible causes, consider referral; review renally cleared drugs.",
    source: KDIGO_CKD,
    evidence: "published cut-off",
  },
  {
    id: "egfr_rapid_decline",
    analytes: ["egfr"],
    test: { kind: "decline_rate", perYear: 5, minDays: 365 },
    level: "low",
    levelWhenSustained: "moderate",
    names: [LITHIUM],
    title: "falling by more than 5 mL/min/1.73 m2 a year",
    action:
      "KDIGO rapid progression if sustained: repeat, and review renal function and renally cleared drugs.",
    source: `${KDIGO_CKD}; over at least a year; low on one pair of readings (a fluctuation), moderate when three or more readings fall in turn, KDIGO's sustained decline (expert-set reading of "sustained")`,
    evidence: "published cut-off",
  },
  {
    id: "neutrophil_band_fall",
    analytes: ["anc"],
    test: { kind: "category_fall", categories: NEUTROPHIL_BANDS, minFall: 0 },
    level: "moderate",
    requires: [CLOZAPINE],
    title: "fallen into a lower clozapine monitoring band",
    action:
      "Follow the clozapine monitoring band now reached (more frequent counts; stop at red) and watch for infection.",
    source: CLOZAPINE_BANDS,
    evidence: "published cut-off",
  },
  {
    id: "white_cell_band_fall",
    analytes: ["wbc"],
    test: { kind: "category_fall", categories: WHITE_CELL_BANDS, minFall: 0 },
    level: "moderate",
    requires: [CLOZAPINE],
    title: "fallen into a lower clozapine monitoring band",
    action: "Follow the clozapine monitoring band now reached and check the neutrophil count.",
    source: CLOZAPINE_BANDS,
    evidence: "published cut-off",
  },
  {
    id: "neutrophils_falling",
    analytes: ["anc", "wbc"],
    test: { kind: "consecutive_falls", falls: 3, maxGapDays: 28, minFall: 0.25 },
    level: "low",
    names: [CLOZAPINE, { ingredient: "carbamazepine" }, { ingredient: "mirtazapine" }],
    levelWhenNamed: "moderate",
    title: "falling test after test",
    action:
      "A count falling towards the neutropenia thresholds: repeat sooner and look for a cause (on clozapine, before the amber band is reached).",
    source: FALLING_COUNT,
    evidence: "expert-set",
  },
  {
    id: "antipsychotic_weight_gain_7",
    analytes: ["weight", "bmi"],
    test: { kind: "gain_since_start", fraction: 0.07 },
    level: "moderate",
    requires: [ANTIPSYCHOTIC],
    group: "antipsychotic_weight_gain",
    title: "up 7 % or more since the antipsychotic started",
    action:
      "Clinically significant weight gain: review diet and activity, glucose and lipids, and the choice of antipsychotic.",
    source: WEIGHT_LABELS,
    evidence: "published cut-off",
  },
  {
    id: "antipsychotic_weight_gain_5",
    analytes: ["weight", "bmi"],
    test: { kind: "gain_since_start", fraction: 0.05 },
    level: "low",
    requires: [ANTIPSYCHOTIC],
    group: "antipsychotic_weight_gain",
    title: "up 5 % or more since the antipsychotic started",
    action: "The ADA/APA consensus asks to consider switching antipsychotic at a 5 % gain.",
    source: ADA_APA_2004,
    evidence: "published cut-off",
  },
  {
    id: "prolactin_rising_above_range",
    analytes: ["prolactin"],
    test: { kind: "rise_above_range" },
    level: "low",
    names: [ANTIPSYCHOTIC],
    title: "risen above the range",
    action:
      "Ask about sexual dysfunction, galactorrhoea, menstrual change; on an antipsychotic, consider the dose or a prolactin-sparing choice.",
    source: PROLACTIN_RISE,
    evidence: "expert-set",
  },
];

// ---------------------------------------------------------------------------------------------
// Series

interface SeriesPoint {
  t: number;
  /** Canonical unit. */
  value: number;
}

interface AnalyteSeries {
  entry: AnalyteEntry;
  /** Readable, dated readings, by time then value (input order plays no part). */
  points: SeriesPoint[];
  /** Readings that could not be read, with why, as the caller sent them. */
  unread: { what: string; why: string; level: ClinicalLevel }[];
  /** Readings without a usable date. */
  undated: string[];
}

/** Code-point order: the same in every locale. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const ANALYTES_READ: ReadonlySet<string> = new Set(TREND_RULES.flatMap((r) => r.analytes));

function readingText(reading: DatedReading): string {
  const unit = reading.unit && reading.unit.trim() !== "" ? ` ${reading.unit}` : "";
  const at = reading.observedAt ? ` (${reading.observedAt})` : "";
  return `${reading.analyte} ${String(reading.value)}${unit}${at}`;
}

function numericValue(value: DatedReading["value"]): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string" || !/^\s*[+-]?\d+(\.\d+)?\s*$/.test(value)) return null;
  return Number(value);
}

/** The analyte table row of a reading: its LOINC code when the table knows it, else its name. */
function entryOf(reading: DatedReading): AnalyteEntry | null {
  const byCode = reading.loinc ? findAnalyteByLoinc(reading.loinc) : null;
  return byCode ?? findAnalyte(reading.analyte);
}

/** The series of every analyte a rule reads, each reading placed, or named as unread or undated. */
function buildSeries(readings: readonly DatedReading[], now: Date): Map<string, AnalyteSeries> {
  const series = new Map<string, AnalyteSeries>();
  for (const reading of readings) {
    const entry = entryOf(reading);
    if (!entry || !ANALYTES_READ.has(entry.key)) continue;
    let s = series.get(entry.key);
    if (!s) {
      s = { entry, points: [], unread: [], undated: [] };
      series.set(entry.key, s);
    }
    const t = parseTime(reading.observedAt);
    // A reading dated after the review's clock is a data error: not part of the series.
    if (t === null || t > now.getTime() + DAY_MS) {
      s.undated.push(readingText(reading));
      continue;
    }
    const value = numericValue(reading.value);
    if (value === null) {
      s.unread.push({ what: readingText(reading), why: "the value is not a number", level: "low" });
      continue;
    }
    const evaluation = evaluateAnalyteValue(entry, value, reading.unit, { unitlessMeansCanonical: true });
    if (evaluation === null) continue;
    if (!evaluation.evaluated) {
      s.unread.push({
        what: readingText(reading),
        why: evaluation.detail,
        level: NOT_ASSESSED_LEVEL[evaluation.reason],
      });
      continue;
    }
    // Critical under every plausible unit is not one value: it cannot be placed in a series.
    if (evaluation.unitNotGiven?.rule === "critical_every_reading") {
      s.unread.push({
        what: readingText(reading),
        why: "unit missing and more than one unit is plausible",
        level: "moderate",
      });
      continue;
    }
    s.points.push({ t, value: evaluation.canonicalValue });
  }
  for (const s of series.values()) s.points.sort((a, b) => a.t - b.t || a.value - b.value);
  return series;
}

// ---------------------------------------------------------------------------------------------
// Medicines

interface TakenMedicine {
  medicine: ReviewMedicine;
  ingredients: string[];
  classes: Set<DrugClass>;
}

/** The medicines read against the model, by name then start (input order plays no part). */
function readMedicines(medicines: readonly ReviewMedicine[]): TakenMedicine[] {
  const ordered = [...medicines].sort(
    (a, b) => byText(a.name, b.name) || byText(String(a.startedAt ?? ""), String(b.startedAt ?? "")),
  );
  return ordered.map((medicine) => {
    const ingredients = readEntry(normaliseMedicationText(medicine.name)).ingredients;
    const classes = new Set<DrugClass>(ingredients.flatMap((i) => ingredientEntry(i)?.classes ?? []));
    return { medicine, ingredients, classes };
  });
}

function matches(taken: TakenMedicine, selectors: readonly MedicineSelector[]): boolean {
  return selectors.some(
    (s) =>
      (s.ingredient === undefined || taken.ingredients.includes(s.ingredient)) &&
      (s.drugClass === undefined || taken.classes.has(s.drugClass)) &&
      (s.ingredient !== undefined || s.drugClass !== undefined),
  );
}

// ---------------------------------------------------------------------------------------------
// Tests: each finds the strongest evidence in a series, or null

interface TrendEvidence {
  from: SeriesPoint;
  to: SeriesPoint;
  /** How far the rule is met; the strongest evidence is reported (ties: the earliest). */
  strength: number;
  /** What was found, in words (values in the canonical unit). */
  text: string;
  /** The medicine whose start was the baseline (weight rule). */
  medicine?: string;
  /** A decline borne out by every reading between `from` and `to` (three or more readings). */
  sustained?: boolean;
}

/** At or above (above) a threshold within the slack: the same answer in every accepted unit. */
const atLeast = (value: number, threshold: number) =>
  value >= threshold - SLACK * Math.max(1, Math.abs(threshold));
const above = (value: number, threshold: number) =>
  value > threshold + SLACK * Math.max(1, Math.abs(threshold));
const days = (a: SeriesPoint, b: SeriesPoint) => (b.t - a.t) / DAY_MS;
const dateOf = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * The evidence a rule reports: the one that makes the more serious finding (its end reading's own
 * judgement counts, decision 197), then the larger change. Choosing by the change alone let a new,
 * milder reading displace the pair ending on a reading beyond a critical limit and lower the level.
 */
function stronger(best: TrendEvidence | null, next: TrendEvidence, c: TestContext): TrendEvidence {
  if (best === null) return next;
  const bySeriousness = c.seriousness(next) - c.seriousness(best);
  if (bySeriousness !== 0) return bySeriousness > 0 ? next : best;
  return next.strength > best.strength ? next : best;
}

/** Every earlier-later pair with the later strictly after the earlier. */
function* pairs(points: readonly SeriesPoint[]): Generator<[SeriesPoint, SeriesPoint]> {
  for (let i = 0; i < points.length; i++)
    for (let j = i + 1; j < points.length; j++) {
      const a = points[i] as SeriesPoint;
      const b = points[j] as SeriesPoint;
      if (b.t > a.t) yield [a, b];
    }
}

function categoryIndex(categories: readonly TrendCategory[], value: number): number {
  const i = categories.findIndex((c) => c.from === null || atLeast(value, c.from));
  return i === -1 ? categories.length - 1 : i;
}

/** A medicine's start, the baseline of a gain (null: unknown). */
interface Baseline {
  medicine: string;
  startedAt: number | null;
}

/** What a test reads besides the series. */
interface TestContext {
  points: readonly SeriesPoint[];
  /** The canonical unit as people write it. */
  unit: string;
  /** The analyte table's upper reference bound (canonical unit), where it has one. */
  upper: number | null;
  /** The starts of the medicines the rule needs (the weight rule). */
  baselines: readonly Baseline[];
  /** How serious the finding this evidence would make is (a rank of its level). */
  seriousness: (evidence: TrendEvidence) => number;
}

const show = (value: number, unit: string) => `${formatAnalyteValue(value)} ${unit}`;
const span = (a: SeriesPoint, b: SeriesPoint) =>
  `from ${dateOf(a.t)} to ${dateOf(b.t)} (${Math.round(days(a, b))} days)`;

function riseRatio(test: Extract<TrendTest, { kind: "rise_ratio" }>, c: TestContext): TrendEvidence | null {
  let best: TrendEvidence | null = null;
  for (const [a, b] of pairs(c.points)) {
    const d = days(a, b);
    if ((test.withinDays !== null && d > test.withinDays) || d <= test.overDays || a.value <= 0) continue;
    const ratio = b.value / a.value;
    if (!atLeast(ratio, test.ratio)) continue;
    best = stronger(
      best,
      {
        from: a,
        to: b,
        strength: ratio,
        text: `rose from ${show(a.value, c.unit)} to ${show(b.value, c.unit)}, ${formatAnalyteValue(ratio)} times, ${span(a, b)}`,
      },
      c,
    );
  }
  return best;
}

function riseAbsolute(
  test: Extract<TrendTest, { kind: "rise_absolute" }>,
  c: TestContext,
): TrendEvidence | null {
  let best: TrendEvidence | null = null;
  for (const [a, b] of pairs(c.points)) {
    const rise = b.value - a.value;
    if (days(a, b) > test.withinDays || !atLeast(rise, test.amount)) continue;
    best = stronger(
      best,
      {
        from: a,
        to: b,
        strength: rise,
        text: `rose by ${show(rise, c.unit)}, from ${show(a.value, c.unit)} to ${show(b.value, c.unit)}, ${span(a, b)}`,
      },
      c,
    );
  }
  return best;
}

function categoryFall(
  test: Extract<TrendTest, { kind: "category_fall" }>,
  c: TestContext,
): TrendEvidence | null {
  let best: TrendEvidence | null = null;
  const name = (i: number) => test.categories[i]?.name ?? "";
  for (const [a, b] of pairs(c.points)) {
    const from = categoryIndex(test.categories, a.value);
    const to = categoryIndex(test.categories, b.value);
    if (to <= from) continue;
    const fall = a.value > 0 ? (a.value - b.value) / a.value : 0;
    if (test.minFall > 0 && !atLeast(fall, test.minFall)) continue;
    best = stronger(
      best,
      {
        from: a,
        to: b,
        strength: to - from + fall,
        text: `fell from ${show(a.value, c.unit)} (${name(from)}) to ${show(b.value, c.unit)} (${name(to)}), ${Math.round(fall * 100)} % lower, ${span(a, b)}`,
      },
      c,
    );
  }
  return best;
}

/** Three or more readings from `a` to `b`, each no higher than the one before. */
function steadyFall(points: readonly SeriesPoint[], a: SeriesPoint, b: SeriesPoint): boolean {
  const between = points.filter((p) => p.t >= a.t && p.t <= b.t);
  return (
    between.length >= 3 &&
    between.every((p, i) => i === 0 || p.value <= (between[i - 1] as SeriesPoint).value)
  );
}

function declineRate(
  test: Extract<TrendTest, { kind: "decline_rate" }>,
  c: TestContext,
): TrendEvidence | null {
  let best: TrendEvidence | null = null;
  for (const [a, b] of pairs(c.points)) {
    const d = days(a, b);
    if (d < test.minDays) continue;
    // The rate to the threshold's precision (one decimal): 10 over two years is 5.0 a year
    // whichever year length is used, not "more than 5" (decision 197).
    const perYear = Math.round((((a.value - b.value) * YEAR_DAYS) / d) * 10) / 10;
    if (!above(perYear, test.perYear)) continue;
    best = stronger(
      best,
      {
        from: a,
        to: b,
        strength: perYear,
        sustained: steadyFall(c.points, a, b),
        text: `fell from ${show(a.value, c.unit)} to ${show(b.value, c.unit)}, ${formatAnalyteValue(perYear)} a year, ${span(a, b)}`,
      },
      c,
    );
  }
  return best;
}

function consecutiveFalls(
  test: Extract<TrendTest, { kind: "consecutive_falls" }>,
  c: TestContext,
): TrendEvidence | null {
  // One value per instant (the lowest), so two results at one time are never read as a fall.
  const byTime: SeriesPoint[] = [];
  for (const p of c.points) {
    const last = byTime[byTime.length - 1];
    if (last && last.t === p.t) last.value = Math.min(last.value, p.value);
    else byTime.push({ ...p });
  }
  let best: TrendEvidence | null = null;
  let start = 0;
  for (let i = 1; i <= byTime.length; i++) {
    const prev = byTime[i - 1] as SeriesPoint;
    const next = byTime[i];
    if (next !== undefined && next.value < prev.value && days(prev, next) <= test.maxGapDays) continue;
    // A run ends at i - 1: judge it whole (its first and last readings give the largest fall).
    const first = byTime[start] as SeriesPoint;
    const falls = i - 1 - start;
    const fall = first.value > 0 ? (first.value - prev.value) / first.value : 0;
    if (falls >= test.falls && atLeast(fall, test.minFall)) {
      const values = byTime
        .slice(start, i)
        .map((p) => formatAnalyteValue(p.value))
        .join(", ");
      best = stronger(
        best,
        {
          from: first,
          to: prev,
          strength: fall,
          text: `fell ${falls} times in a row (${values} ${c.unit}), ${Math.round(fall * 100)} % lower, ${span(first, prev)}`,
        },
        c,
      );
    }
    start = i;
  }
  return best;
}

function gainSinceStart(
  test: Extract<TrendTest, { kind: "gain_since_start" }>,
  c: TestContext,
): TrendEvidence | null {
  let best: TrendEvidence | null = null;
  for (const baseline of c.baselines) {
    const started = baseline.startedAt;
    const before = started === null ? [] : c.points.filter((p) => p.t <= started);
    // The last reading at or before the start; without one, the earliest reading (said so).
    const base = before[before.length - 1] ?? c.points[0];
    if (base === undefined || base.value <= 0) continue;
    const how =
      started === null
        ? `the start of ${baseline.medicine} is not known, so the baseline is the earliest reading`
        : before.length === 0
          ? `no reading before ${baseline.medicine} started (${dateOf(started)}), so the baseline is the earliest reading after it`
          : `baseline: the last reading before ${baseline.medicine} started (${dateOf(started)})`;
    for (const p of c.points) {
      if (p.t <= base.t) continue;
      const gain = (p.value - base.value) / base.value;
      if (!atLeast(gain, test.fraction)) continue;
      best = stronger(
        best,
        {
          from: base,
          to: p,
          strength: gain,
          medicine: baseline.medicine,
          text: `rose from ${show(base.value, c.unit)} to ${show(p.value, c.unit)}, ${formatAnalyteValue(gain * 100)} % more, ${span(base, p)}; ${how}`,
        },
        c,
      );
    }
  }
  return best;
}

function riseAboveRange(c: TestContext): TrendEvidence | null {
  const upper = c.upper;
  if (upper === null) return null;
  let best: TrendEvidence | null = null;
  for (const [a, b] of pairs(c.points)) {
    if (above(a.value, upper) || !above(b.value, upper)) continue;
    best = stronger(
      best,
      {
        from: a,
        to: b,
        strength: b.value / upper,
        text: `rose from ${show(a.value, c.unit)}, within the range (up to ${show(upper, c.unit)}), to ${show(b.value, c.unit)}, ${span(a, b)}`,
      },
      c,
    );
  }
  return best;
}

/** The one reading of each kind of test. */
function runTest(test: TrendTest, c: TestContext): TrendEvidence | null {
  switch (test.kind) {
    case "rise_ratio":
      return riseRatio(test, c);
    case "rise_absolute":
      return riseAbsolute(test, c);
    case "category_fall":
      return categoryFall(test, c);
    case "decline_rate":
      return declineRate(test, c);
    case "consecutive_falls":
      return consecutiveFalls(test, c);
    case "gain_since_start":
      return gainSinceStart(test, c);
    case "rise_above_range":
      return riseAboveRange(c);
  }
}

// ---------------------------------------------------------------------------------------------
// Findings

const rank = (level: ClinicalLevel) => CLINICAL_LEVELS.indexOf(level);

/** The level of a rule's finding on this evidence. */
function trendLevel(
  rule: TrendRule,
  medicineNamed: boolean,
  evidence: TrendEvidence,
  series: AnalyteSeries,
): ClinicalLevel {
  let level =
    medicineNamed && rule.levelWhenNamed !== undefined
      ? higherClinicalLevel(rule.level, rule.levelWhenNamed)
      : rule.level;
  if (evidence.sustained === true && rule.levelWhenSustained !== undefined)
    level = higherClinicalLevel(level, rule.levelWhenSustained);
  // A trend is at least as serious as the one judgement of the reading it ends on (decision 197):
  // a fall into the severe neutropenia band is high because the reading is beyond a critical limit.
  const measure = series.entry.measure;
  if (!measure) return level;
  return higherClinicalLevel(
    level,
    judgeLabReading(series.entry, evidence.to.value, measure.canonicalUnit).level,
  );
}

function ruleFinding(
  rule: TrendRule,
  series: AnalyteSeries,
  taken: readonly TakenMedicine[],
): PatientFinding | null {
  const needed = rule.requires ? taken.filter((m) => matches(m, rule.requires ?? [])) : [];
  if (rule.requires && needed.length === 0) return null;
  const measure = series.entry.measure;
  if (!measure) return null;
  const baselines = needed.map((m) => ({
    medicine: m.medicine.name,
    startedAt: parseTime(m.medicine.startedAt ?? null),
  }));
  const named = rule.names ? taken.filter((m) => matches(m, rule.names ?? [])) : [];
  const findingLevel = (evidence: TrendEvidence) => trendLevel(rule, named.length > 0, evidence, series);
  const evidence = runTest(rule.test, {
    points: series.points,
    unit: measure.displayUnit,
    upper: measure.reference?.high ?? null,
    baselines,
    seriousness: (candidate) => rank(findingLevel(candidate)),
  });
  if (evidence === null) return null;
  const medicines = [
    ...new Set([
      ...(evidence.medicine !== undefined ? [evidence.medicine] : []),
      ...named.map((m) => m.medicine.name),
    ]),
  ];
  const level = findingLevel(evidence);
  const on = medicines.length > 0 ? ` On ${medicines.join(", ")}.` : "";
  return {
    kind: "trend",
    rule: rule.id,
    level,
    assessed: true,
    title: `${series.entry.display}: ${rule.title}`.slice(0, 140),
    detail: `${series.entry.display} ${evidence.text}.${on} ${rule.action}`,
    ...(medicines.length > 0 ? { medicines } : {}),
    analyte: series.entry.key,
    since: new Date(evidence.from.t).toISOString(),
    source: rule.source,
  };
}

/** What could not be placed in a series, named (decision 80): never read as a steady series. */
function gapFindings(series: AnalyteSeries): PatientFinding[] {
  const findings: PatientFinding[] = [];
  const display = series.entry.display;
  const unread = [...series.unread].sort((a, b) => byText(a.what, b.what) || byText(a.why, b.why));
  const undated = [...series.undated].sort(byText);
  if (unread.length > 0) {
    let level: ClinicalLevel = "low";
    for (const u of unread) level = higherClinicalLevel(level, u.level);
    findings.push({
      kind: "trend",
      rule: "trend_reading_not_read",
      level,
      assessed: false,
      title: `${display}: ${unread.length} reading(s) could not be read into the series`.slice(0, 140),
      detail: `Not part of the ${display} series, so any trend they show was not evaluated: ${unread
        .map((u) => `${u.what}: ${u.why}`)
        .join("; ")}.`,
      analyte: series.entry.key,
      since: null,
      source: "Decision 80: a reading that cannot be read is named, never read as normal",
    });
  }
  // An undated reading matters when there is a series it could have been part of.
  const total = series.points.length + unread.length + undated.length;
  if (undated.length > 0 && total >= 2) {
    findings.push({
      kind: "trend",
      rule: "trend_reading_undated",
      level: "low",
      assessed: false,
      title: `${display}: ${undated.length} reading(s) without a usable date, left out of the series`.slice(
        0,
        140,
      ),
      detail: `A reading without a date (or dated after the review) cannot be placed in time, so the ${display} trend was read without: ${undated.join("; ")}.`,
      analyte: series.entry.key,
      since: null,
      source: "Decision 195: a series is read in time order; an undated reading cannot be placed",
    });
  }
  return findings;
}

/**
 * Trend findings of the patient review (decision 195): every rule of `TREND_RULES` on the series
 * of each analyte it reads, one finding per rule and analyte (within a group only the highest),
 * then the readings that could not be placed. Order follows the table, then the analyte keys.
 */
export function trendFindings(input: PatientReviewInput): PatientFinding[] {
  const series = buildSeries(input.readings, input.now);
  const taken = readMedicines(input.medicines);
  const findings: PatientFinding[] = [];
  const groupBest = new Map<string, number>();
  for (const rule of TREND_RULES) {
    for (const key of rule.analytes) {
      const s = series.get(key);
      if (!s || s.points.length < 2) continue;
      const finding = ruleFinding(rule, s, taken);
      if (finding === null) continue;
      if (rule.group === undefined) {
        findings.push(finding);
        continue;
      }
      const slot = `${rule.group}|${key}`;
      const at = groupBest.get(slot);
      const held = at === undefined ? undefined : findings[at];
      if (held === undefined) {
        groupBest.set(slot, findings.length);
        findings.push(finding);
      } else if (rank(finding.level) > rank(held.level)) {
        findings[at as number] = finding;
      }
    }
  }
  const keys = [...series.keys()].sort();
  for (const key of keys) findings.push(...gapFindings(series.get(key) as AnalyteSeries));
  return findings;
}
