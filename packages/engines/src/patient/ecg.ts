/**
 * The ECG and the pregnancy tests of the patient review (decisions 189 and 191). The QTc series is
 * read with the rules of the AHA/ACCF statement on torsade de pointes (above 500 ms, or a rise of
 * more than 60 ms from the pre-drug baseline, is high risk) and sex-specific upper limits, and
 * joined to the QT risk category of every medicine taken (`QT_RISK`); a medicine without a
 * category is named as not evaluated for QT, never as safe. Pregnancy tests and renal results
 * complete the patient context where the caller was silent; a caller's fact is never overwritten,
 * and a positive test the caller contradicts is a finding, never hidden. Values, windows and
 * sources: docs/engines/evidence.md, "ECG and pregnancy tests".
 */
import { parseBiomarkerValue, unitInValue } from "../biomarker.js";
import { type ClinicalLevel, higherClinicalLevel, NOT_ASSESSED_LEVEL } from "../judgement.js";
import {
  type AnalyteEntry,
  analyteByKey,
  evaluateAnalyteValue,
  findAnalyte,
  findAnalyteByLoinc,
  formatAnalyteValue,
} from "../knowledge/analytes.js";
import { propertiesOf } from "../knowledge/medicine-properties.js";
import { QT_RISK, type QtRisk } from "../knowledge/medicines.js";
import { parseTime } from "../shared.js";
import { normaliseMedicationText, readEntry } from "../tools/drug-names.js";
import type { PatientContext, PatientFactSource } from "./context.js";
import type { DatedReading, PatientFinding, PatientReviewInput, ReviewMedicine } from "./types.js";

const MS_PER_DAY = 86_400_000;

/** Short source strings; the full citations are in docs/engines/evidence.md. */
export const ECG_SOURCES = {
  drew2010:
    "Drew et al. 2010, AHA/ACCF scientific statement on preventing torsade de pointes, Circulation 121:1047-1060",
  upperLimits:
    "Khatib et al. 2021, Postgrad Med J 97:452-458 (normal QTc below 450 ms in men, 460 ms in women)",
  fridericia: "Fridericia 1920, Acta Med Scand 53:469-486 (QTc = QT / RR^(1/3)); LOINC 76634-5",
  qtRisk: "CredibleMeds QT risk categories as recorded in QT_RISK (knowledge/medicines.ts)",
  hcgCutOffs:
    "OhioHealth laboratory test catalogue, serum hCG: negative below 5 mIU/mL, indeterminate 5-24, positive from 25",
  gestation: "A pregnancy lasts about 280 days (40 weeks) from the last menstrual period (Naegele's rule)",
  ich: "ICH E14 (FDA guidance, October 2005), categorical analysis: QTc increases from baseline of more than 30 ms (potential concern) and more than 60 ms (clear concern); read in secondary copies",
  expertSet: "expert-set (decision 191)",
} as const;

/** The QTc rules (decision 191); every value is listed with its source in docs/engines/evidence.md. */
export const QTC_RULES = {
  /** Above this (ms) the risk of torsade de pointes is high (Drew et al. 2010). */
  highRiskAboveMs: 500,
  /** A rise of more than this (ms) from the baseline is high risk (Drew et al. 2010). */
  highRiskRiseAboveMs: 60,
  /**
   * A rise of more than this (ms) from the baseline is a change to review: moderate with a
   * QT-risk medicine, else low (ICH E14 categorical threshold; decision 197).
   */
  reviewRiseAboveMs: 30,
  /** Upper limits of normal (ms): above them the QTc is prolonged (Khatib et al. 2021). */
  upperLimitMs: { male: 450, female: 460 },
  /**
   * Expert-set: an earlier QTc above 500 ms, or an earlier rise of more than 60 ms, observed within
   * this many days of the review's clock is reported even when the newest QTc is normal. The
   * biomarker engine's staleness limit (180 days, the usual outer interval of routine monitoring).
   */
  recentWindowDays: 180,
} as const;

/** Pregnancy tests and renal results read into the patient context (decision 191). */
export const CONTEXT_READING_RULES = {
  /** Serum hCG at or above this (IU/L = mIU/mL) is a positive pregnancy test (laboratory cut-off). */
  hcgPositiveFromIuPerL: 25,
  /** Serum hCG below this (IU/L) is negative; between the two, indeterminate. */
  hcgNegativeBelowIuPerL: 5,
  /**
   * Derived: a positive test older than a pregnancy lasts (280 days from the last menstrual
   * period) cannot describe the present pregnancy status, so it does not set it.
   */
  pregnancyTestWindowDays: 280,
  /** Expert-set: a renal result older than this does not set eGFR or creatinine clearance (the biomarker staleness limit). */
  renalReadingWindowDays: 180,
} as const;

// ---------------------------------------------------------------------------------------------
// Readings

/** The analyte table row of a reading: by its LOINC code, then by its name. */
export function analyteOfReading(reading: DatedReading): AnalyteEntry | null {
  const byCode = reading.loinc ? findAnalyteByLoinc(reading.loinc) : null;
  return byCode ?? findAnalyte(reading.analyte);
}

function keyOf(reading: DatedReading): string | null {
  return analyteOfReading(reading)?.key ?? null;
}

/** "2026-07-01" for a time, "undated" without. */
function dateText(time: number | null): string {
  return time === null ? "undated" : new Date(time).toISOString().slice(0, 10);
}

function isoDateOrNull(time: number | null): string | null {
  return time === null ? null : new Date(time).toISOString().slice(0, 10);
}

function daysBetween(earlier: number, later: number): number {
  return Math.floor((later - earlier) / MS_PER_DAY);
}

/** A value in the row's canonical unit, or why it could not be read. */
type Canonical =
  | { read: true; value: number; notes: string[] }
  | { read: false; detail: string; level: ClinicalLevel };

function canonicalOf(entry: AnalyteEntry, reading: DatedReading): Canonical {
  const parsed = parseBiomarkerValue(reading.value);
  if (parsed.value === null)
    return { read: false, detail: `value ${JSON.stringify(reading.value)} is not a number`, level: "low" };
  const unit = reading.unit?.trim() ? reading.unit : (unitInValue(reading.value) ?? undefined);
  const evaluation = evaluateAnalyteValue(entry, parsed.value, unit, { unitlessMeansCanonical: true });
  if (evaluation === null) return { read: false, detail: `${entry.display} has no unit table`, level: "low" };
  if (!evaluation.evaluated) {
    const level = higherClinicalLevel(
      NOT_ASSESSED_LEVEL[evaluation.reason],
      evaluation.criticalPossible ? "moderate" : "none",
    );
    return { read: false, detail: evaluation.detail, level };
  }
  return { read: true, value: evaluation.canonicalValue, notes: evaluation.notes };
}

/** One QTc value of the series, reported or computed. */
interface QtcPoint {
  ms: number;
  time: number | null;
  /** Input order, so equal times keep a stable order. */
  order: number;
  /** How a computed value was obtained; absent for a reported QTc. */
  computed?: string;
  notes: string[];
}

interface QtcSeries {
  points: QtcPoint[];
  /** Readings that named a QTc (or a QT) but could not be read. */
  unread: { text: string; level: ClinicalLevel }[];
  /** QT intervals that could not be corrected for heart rate. */
  uncorrected: string[];
}

/** The QTc by Fridericia's formula: QT / RR^(1/3), RR in seconds = 60 / heart rate. */
export function fridericiaQtc(qtMs: number, heartRatePerMin: number): number {
  return qtMs / Math.cbrt(60 / heartRatePerMin);
}

function sameEcg(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  return isoDateOrNull(a) === isoDateOrNull(b);
}

/**
 * The QTc values the readings give: reported QTc, then for an ECG with a QT interval but no QTc,
 * the QTc computed by Fridericia's formula from the heart rate of the same ECG (same day).
 */
function qtcSeriesOf(readings: readonly DatedReading[]): QtcSeries {
  const qtc = analyteByKey("qtc");
  const rate = analyteByKey("heart_rate");
  const series: QtcSeries = { points: [], unread: [], uncorrected: [] };
  if (!qtc || !rate) return series;
  const qts: { ms: number; time: number | null; order: number }[] = [];
  const rates: { perMin: number; time: number | null }[] = [];
  readings.forEach((reading, order) => {
    const key = keyOf(reading);
    const time = parseTime(reading.observedAt);
    if (key === "qtc") {
      const value = canonicalOf(qtc, reading);
      if (value.read) series.points.push({ ms: value.value, time, order, notes: value.notes });
      else series.unread.push({ text: `QTc (${dateText(time)}): ${value.detail}`, level: value.level });
    } else if (key === "qt") {
      // A QT interval is a duration in the same units as the QTc: read with the QTc row's units.
      const value = canonicalOf(qtc, reading);
      if (value.read) qts.push({ ms: value.value, time, order });
      else
        series.unread.push({ text: `QT interval (${dateText(time)}): ${value.detail}`, level: value.level });
    } else if (key === "heart_rate") {
      const value = canonicalOf(rate, reading);
      if (value.read) rates.push({ perMin: value.value, time });
    }
  });
  for (const qt of qts) {
    if (series.points.some((p) => p.computed === undefined && sameEcg(p.time, qt.time))) continue;
    const hr = rates.find((r) => sameEcg(r.time, qt.time));
    if (!hr) {
      series.uncorrected.push(`QT ${formatAnalyteValue(qt.ms)} ms (${dateText(qt.time)})`);
      continue;
    }
    const ms = fridericiaQtc(qt.ms, hr.perMin);
    series.points.push({
      ms,
      time: qt.time,
      order: qt.order,
      notes: [],
      computed: `computed by Fridericia's formula from QT ${formatAnalyteValue(qt.ms)} ms and heart rate ${formatAnalyteValue(hr.perMin)} /min (QT / RR^(1/3), RR = 60 / rate), not reported by the ECG`,
    });
  }
  return series;
}

// ---------------------------------------------------------------------------------------------
// Medicines and their QT risk

interface QtMedicine {
  name: string;
  ingredient: string;
  risk: QtRisk;
  started: number | null;
}

interface QtProfile {
  withRisk: QtMedicine[];
  /** Medicines (as named) with an ingredient whose QT category is not recorded, or not recognised. */
  notEvaluated: string[];
}

const RISK_WORDS: Readonly<Record<QtRisk, string>> = {
  known: "known risk of torsade de pointes",
  possible: "possible risk of torsade de pointes",
  conditional: "conditional risk of torsade de pointes",
};

function ingredientsOf(medicine: ReviewMedicine): string[] {
  return readEntry(normaliseMedicationText(medicine.name)).ingredients;
}

function qtProfileOf(medicines: readonly ReviewMedicine[]): QtProfile {
  const profile: QtProfile = { withRisk: [], notEvaluated: [] };
  for (const medicine of medicines) {
    const ingredients = ingredientsOf(medicine);
    if (ingredients.length === 0) {
      profile.notEvaluated.push(`${medicine.name} (not recognised)`);
      continue;
    }
    for (const ingredient of ingredients) {
      const entry = QT_RISK[ingredient];
      if (entry)
        profile.withRisk.push({
          name: medicine.name,
          ingredient,
          risk: entry.risk,
          started: parseTime(medicine.startedAt ?? undefined),
        });
      else if (!profile.notEvaluated.includes(medicine.name)) profile.notEvaluated.push(medicine.name);
    }
  }
  return profile;
}

function qtMedicinesText(profile: QtProfile): string {
  if (profile.withRisk.length === 0) return "No medicine taken has a recorded QT risk category.";
  const named = profile.withRisk.map((m) => `${m.name} (${RISK_WORDS[m.risk]})`);
  return `QT-risk medicines taken: ${named.join(", ")}.`;
}

function qtMedicineNames(profile: QtProfile): string[] {
  return [...new Set(profile.withRisk.map((m) => m.name))];
}

// ---------------------------------------------------------------------------------------------
// The QTc rules

const newerFirst = (a: QtcPoint, b: QtcPoint) => (b.time ?? 0) - (a.time ?? 0) || b.order - a.order;
const olderFirst = (a: QtcPoint, b: QtcPoint) => (a.time ?? 0) - (b.time ?? 0) || a.order - b.order;

function pointText(p: QtcPoint): string {
  return `${formatAnalyteValue(p.ms)} ms (${dateText(p.time)}${p.computed ? `, ${p.computed}` : ""})`;
}

/**
 * The baseline of the rise rule: the last dated QTc before the first QT-risk medicine started,
 * when every QT-risk medicine's start is known and a QTc precedes it; else the earliest dated QTc.
 */
function baselineOf(dated: readonly QtcPoint[], profile: QtProfile): { point: QtcPoint; why: string } | null {
  const ascending = [...dated].sort(olderFirst);
  const earliest = ascending[0];
  if (!earliest) return null;
  const starts = profile.withRisk.map((m) => m.started);
  if (profile.withRisk.length > 0 && starts.every((s) => s !== null)) {
    const start = Math.min(...(starts as number[]));
    const before = ascending.filter((p) => (p.time as number) < start);
    const last = before[before.length - 1];
    if (last)
      return { point: last, why: `the last QTc before a QT-risk medicine started on ${dateText(start)}` };
    return {
      point: earliest,
      why: `the earliest QTc; none precedes the QT-risk medicine started on ${dateText(start)}`,
    };
  }
  const unknownStart = profile.withRisk.some((m) => m.started === null);
  return {
    point: earliest,
    why: unknownStart
      ? "the earliest QTc; the start of a QT-risk medicine is unknown"
      : "the earliest QTc given",
  };
}

function sexLimit(sex: PatientContext["sex"]): { ms: number; text: string } {
  if (sex === "male") return { ms: QTC_RULES.upperLimitMs.male, text: "men" };
  if (sex === "female") return { ms: QTC_RULES.upperLimitMs.female, text: "women" };
  return {
    ms: Math.min(QTC_RULES.upperLimitMs.male, QTC_RULES.upperLimitMs.female),
    text: "sex not known, so the stricter (men's) limit",
  };
}

function qtcFinding(
  rule: string,
  level: ClinicalLevel,
  title: string,
  detail: string,
  profile: QtProfile,
  since: number | null,
  source: string,
  assessed = true,
): PatientFinding {
  const medicines = qtMedicineNames(profile);
  return {
    kind: "ecg",
    rule,
    level,
    assessed,
    title,
    detail,
    ...(medicines.length > 0 ? { medicines } : {}),
    analyte: "qtc",
    since: isoDateOrNull(since),
    source,
  };
}

/** What every QTc rule reads: the series, the QT profile of the medicines and the review's clock. */
interface QtcReview {
  series: QtcSeries;
  profile: QtProfile;
  now: number;
  /** The QT-risk medicines as one sentence, repeated in every finding's detail. */
  meds: string;
  /** The dated QTc values, newest first. */
  dated: QtcPoint[];
  /** The QTc read as current: the newest dated one, or the only QTc when it is undated. */
  newest: QtcPoint | undefined;
  /** Undated QTc values that cannot be placed in the series. */
  unplaced: QtcPoint[];
}

function qtcReviewOf(input: PatientReviewInput): QtcReview {
  const series = qtcSeriesOf(input.readings);
  const profile = qtProfileOf(input.medicines);
  const dated = series.points.filter((p) => p.time !== null).sort(newerFirst);
  const undated = series.points.filter((p) => p.time === null);
  // An undated QTc is the newest only when it is the only QTc.
  const newest = dated[0] ?? (undated.length === 1 && dated.length === 0 ? undated[0] : undefined);
  return {
    series,
    profile,
    now: input.now.getTime(),
    meds: qtMedicinesText(profile),
    dated,
    newest,
    unplaced: undated.filter((p) => p !== newest),
  };
}

/** Readings that named a QTc but could not be read, and QT intervals with no heart rate to correct them. */
function unevaluatedQtFindings(review: QtcReview): PatientFinding[] {
  const { series, profile, meds } = review;
  const findings: PatientFinding[] = [];
  for (const unread of series.unread)
    findings.push(
      qtcFinding(
        "qtc_not_read",
        unread.level,
        "QTc not evaluated: reading could not be read",
        `${unread.text}. The QTc rules were not applied to it.`,
        profile,
        null,
        ECG_SOURCES.drew2010,
        false,
      ),
    );
  if (series.uncorrected.length > 0 && series.points.length === 0)
    findings.push(
      qtcFinding(
        "qt_not_corrected",
        "low",
        "QT interval not evaluated: no heart rate to correct it",
        `${series.uncorrected.join(", ")} without a heart rate from the same ECG: the QTc could not be computed, so the QT was not evaluated. ${meds}`,
        profile,
        null,
        ECG_SOURCES.fridericia,
        false,
      ),
    );
  return findings;
}

/** Undated QTc values beside others: one above 500 ms is reported as it stands, the rest are named as not evaluated. */
function unplacedQtcFindings(review: QtcReview): PatientFinding[] {
  const { unplaced, profile, meds } = review;
  const critical = QTC_RULES.highRiskAboveMs;
  const findings: PatientFinding[] = [];
  for (const p of unplaced.filter((u) => u.ms > critical))
    findings.push(
      qtcFinding(
        "qtc_above_500",
        "high",
        `QTc ${formatAnalyteValue(p.ms)} ms (undated) above ${critical} ms`,
        `A QTc of ${pointText(p)} is above ${critical} ms, the threshold for a high risk of torsade de pointes; without a date it cannot be placed in the series, so it is reported as it stands. ${meds}`,
        profile,
        null,
        ECG_SOURCES.drew2010,
      ),
    );
  const unplacedNormal = unplaced.filter((u) => u.ms <= critical);
  if (unplacedNormal.length > 0)
    findings.push(
      qtcFinding(
        "qtc_undated",
        "low",
        "QTc without a date not evaluated",
        `${unplacedNormal.map(pointText).join(", ")}: a QTc without a date cannot be placed among the dated ECGs and was not read as current.`,
        profile,
        null,
        ECG_SOURCES.drew2010,
        false,
      ),
    );
  return findings;
}

/** The newest QTc against 500 ms and the sex-specific upper limit; an undated only QTc within limits is not read as current. */
function newestQtcFinding(
  review: QtcReview,
  newest: QtcPoint,
  sex: PatientContext["sex"] | undefined,
): PatientFinding | null {
  const { profile, meds } = review;
  const critical = QTC_RULES.highRiskAboveMs;
  const undatedNote = newest.time === null ? " It has no date, so it may not be current." : "";
  const limit = sexLimit(sex);
  if (newest.ms > critical)
    return qtcFinding(
      "qtc_above_500",
      "high",
      `QTc ${formatAnalyteValue(newest.ms)} ms${newest.time === null ? " (undated)" : ""} above ${critical} ms`,
      `The newest QTc, ${pointText(newest)}, is above ${critical} ms: a high risk of torsade de pointes.${undatedNote} ${meds} Review QT-prolonging medicines, potassium, magnesium and calcium, and repeat the ECG.`,
      profile,
      newest.time,
      ECG_SOURCES.drew2010,
    );
  if (newest.ms > limit.ms) {
    const level: ClinicalLevel = profile.withRisk.length > 0 ? "moderate" : "low";
    return qtcFinding(
      "qtc_above_upper_limit",
      level,
      `QTc ${formatAnalyteValue(newest.ms)} ms above the upper limit of normal (${limit.ms} ms)`,
      `The newest QTc, ${pointText(newest)}, is above the upper limit of normal for ${limit.text} (${limit.ms} ms).${undatedNote} ${meds}${profile.withRisk.length > 0 ? " With a QT-risk medicine, review the dose and electrolytes and repeat the ECG." : ""}`,
      profile,
      newest.time,
      ECG_SOURCES.upperLimits,
    );
  }
  if (newest.time === null)
    return qtcFinding(
      "qtc_undated",
      "low",
      "QTc without a date not evaluated as current",
      `The only QTc, ${pointText(newest)}, is within the limits but has no date, so it cannot show the current QTc. ${meds}`,
      profile,
      null,
      ECG_SOURCES.drew2010,
      false,
    );
  return null;
}

/** A normal newest QTc never hides an earlier one above 500 ms within the recent window. */
function recentQtcAbove500Finding(review: QtcReview, newest: QtcPoint): PatientFinding | null {
  const { dated, now, profile, meds } = review;
  const critical = QTC_RULES.highRiskAboveMs;
  if (newest.ms > critical) return null;
  const earlier = dated.filter(
    (p) =>
      p !== newest && p.ms > critical && now - (p.time as number) <= QTC_RULES.recentWindowDays * MS_PER_DAY,
  );
  const worst = earlier.sort((a, b) => b.ms - a.ms)[0];
  if (!worst) return null;
  return qtcFinding(
    "qtc_above_500_recent",
    "high",
    `Recent QTc ${formatAnalyteValue(worst.ms)} ms above ${critical} ms`,
    `A QTc of ${pointText(worst)}, ${daysBetween(worst.time as number, now)} days before this review, was above ${critical} ms; the newest, ${pointText(newest)}, does not cancel it within ${QTC_RULES.recentWindowDays} days. ${meds}`,
    profile,
    worst.time,
    ECG_SOURCES.drew2010,
  );
}

/** The rise rule: the newest QTc, and any within the recent window, against the baseline. */
function qtcRiseFindings(review: QtcReview): PatientFinding[] {
  const { dated, now, profile, meds } = review;
  const baseline = baselineOf(dated, profile);
  if (!baseline) return [];
  const base = baseline.point;
  const compared = dated.filter(
    (p) =>
      olderFirst(base, p) < 0 &&
      (p === dated[0] || now - (p.time as number) <= QTC_RULES.recentWindowDays * MS_PER_DAY),
  );
  const highest = compared.sort((a, b) => b.ms - a.ms || newerFirst(a, b))[0];
  if (!highest) return [];
  const rise = highest.ms - base.ms;
  const findings: PatientFinding[] = [];
  if (rise > QTC_RULES.reviewRiseAboveMs && rise <= QTC_RULES.highRiskRiseAboveMs)
    findings.push(
      qtcFinding(
        "qtc_rise_over_30",
        profile.withRisk.length > 0 ? "moderate" : "low",
        `QTc rose by ${formatAnalyteValue(rise)} ms from baseline`,
        `The QTc rose from ${pointText(base)}, ${baseline.why}, to ${pointText(highest)}: a rise of more than ${QTC_RULES.reviewRiseAboveMs} ms is a change to review (more than ${QTC_RULES.highRiskRiseAboveMs} ms is high risk). ${meds}`,
        profile,
        highest.time,
        ECG_SOURCES.ich,
      ),
    );
  if (rise > QTC_RULES.highRiskRiseAboveMs)
    findings.push(
      qtcFinding(
        "qtc_rise_over_60",
        "high",
        `QTc rose by ${formatAnalyteValue(rise)} ms from baseline`,
        `The QTc rose from ${pointText(base)}, ${baseline.why}, to ${pointText(highest)}: a rise of more than ${QTC_RULES.highRiskRiseAboveMs} ms is a high risk of torsade de pointes. ${meds}`,
        profile,
        highest.time,
        ECG_SOURCES.drew2010,
      ),
    );
  return findings;
}

/** Medicines with no QT category, named beside a QTc finding: not evaluated for QT, never safe. */
function qtRiskNotEvaluatedFinding(profile: QtProfile): PatientFinding {
  return {
    kind: "ecg",
    rule: "qt_risk_not_evaluated",
    level: "low",
    assessed: false,
    title: "QT risk of some medicines not evaluated",
    detail: `QT risk category not recorded for ${profile.notEvaluated.join(", ")}: not evaluated for QT, not known to be safe. Check the product information with the QTc finding above.`,
    medicines: profile.notEvaluated.map((n) => n.replace(/ \(not recognised\)$/, "")),
    analyte: "qtc",
    since: null,
    source: ECG_SOURCES.qtRisk,
  };
}

function qtcFindings(input: PatientReviewInput): PatientFinding[] {
  const review = qtcReviewOf(input);
  const { newest } = review;
  const findings = [...unevaluatedQtFindings(review), ...unplacedQtcFindings(review)];
  if (newest) {
    const current = newestQtcFinding(review, newest, input.patient?.sex);
    if (current) findings.push(current);
    const recent = recentQtcAbove500Finding(review, newest);
    if (recent) findings.push(recent);
  }
  findings.push(...qtcRiseFindings(review));
  if (findings.length > 0 && review.profile.notEvaluated.length > 0)
    findings.push(qtRiskNotEvaluatedFinding(review.profile));
  return findings;
}

// ---------------------------------------------------------------------------------------------
// Pregnancy tests

export type PregnancyTestResult = "positive" | "negative" | "indeterminate";

const POSITIVE_WORDS = new Set(["positive", "pos", "+", "detected", "reactive", "present", "pregnant"]);
const NEGATIVE_WORDS = new Set([
  "negative",
  "neg",
  "-",
  "not detected",
  "none detected",
  "non reactive",
  "nonreactive",
  "absent",
  "not pregnant",
]);
const INDETERMINATE_WORDS = new Set(["indeterminate", "equivocal", "borderline", "inconclusive"]);

/**
 * A pregnancy test's result: a word (positive, negative, indeterminate), or serum hCG in IU/L
 * against the laboratory cut-offs; a value that is neither reads by the laboratory's flag (a
 * `high` or `critical` flag as positive, as the urine screens are read); else null (unreadable).
 */
export function pregnancyTestResult(reading: DatedReading): PregnancyTestResult | null {
  const entry = analyteByKey("hcg");
  if (typeof reading.value === "string") {
    const word = reading.value
      .trim()
      .toLowerCase()
      .replace(/[._]/g, " ")
      .replace(/\s+/g, " ")
      .replace(/-(?=\w)/g, " ");
    if (POSITIVE_WORDS.has(word)) return "positive";
    if (NEGATIVE_WORDS.has(word)) return "negative";
    if (INDETERMINATE_WORDS.has(word)) return "indeterminate";
  }
  if (entry && reading.value !== null) {
    const value = canonicalOf(entry, reading);
    if (value.read) {
      if (value.value >= CONTEXT_READING_RULES.hcgPositiveFromIuPerL) return "positive";
      if (value.value < CONTEXT_READING_RULES.hcgNegativeBelowIuPerL) return "negative";
      return "indeterminate";
    }
  }
  if (reading.flag === "high" || reading.flag === "critical") return "positive";
  return null;
}

interface PregnancyTest {
  result: PregnancyTestResult | null;
  time: number | null;
  order: number;
  reading: DatedReading;
}

function pregnancyTestsOf(readings: readonly DatedReading[]): PregnancyTest[] {
  const tests: PregnancyTest[] = [];
  readings.forEach((reading, order) => {
    if (keyOf(reading) === "hcg")
      tests.push({
        result: pregnancyTestResult(reading),
        time: parseTime(reading.observedAt),
        order,
        reading,
      });
  });
  return tests;
}

/** The newest dated, readable pregnancy test within the window, or null. */
function currentPregnancyTest(readings: readonly DatedReading[], now: Date): PregnancyTest | null {
  const windowMs = CONTEXT_READING_RULES.pregnancyTestWindowDays * MS_PER_DAY;
  let newest: PregnancyTest | null = null;
  for (const test of pregnancyTestsOf(readings)) {
    if (test.time === null || test.result === null) continue;
    if (now.getTime() - test.time > windowMs) continue;
    const newestTime = newest?.time ?? Number.NEGATIVE_INFINITY;
    if (!newest || test.time > newestTime || (test.time === newestTime && test.order > newest.order))
      newest = test;
  }
  return newest;
}

function testText(test: PregnancyTest): string {
  const unit = test.reading.unit ? ` ${test.reading.unit}` : "";
  return `${test.reading.analyte} ${JSON.stringify(test.reading.value)}${unit} (${dateText(test.time)})`;
}

/** Medicines taken whose ingredient is recorded as teratogenic (medicine-properties.ts). */
function teratogenicMedicines(medicines: readonly ReviewMedicine[]): string[] {
  return medicines
    .filter((m) => ingredientsOf(m).some((i) => propertiesOf(i).teratogenic === true))
    .map((m) => m.name);
}

function pregnancyFinding(
  rule: string,
  level: ClinicalLevel,
  title: string,
  detail: string,
  medicines: string[],
  since: number | null,
  assessed: boolean,
): PatientFinding {
  return {
    kind: "patient_factor",
    rule,
    level,
    assessed,
    title,
    detail,
    ...(medicines.length > 0 ? { medicines } : {}),
    analyte: "hcg",
    since: isoDateOrNull(since),
    source: ECG_SOURCES.hcgCutOffs,
  };
}

/**
 * What the pregnancy tests say that the context does not (decision 191): a positive or
 * indeterminate test the caller's pregnancy status contradicts, a positive test without a date,
 * and a test that could not be read. The caller's status is kept; the test is never hidden.
 */
export function pregnancyTestFindings(input: PatientReviewInput): PatientFinding[] {
  const findings: PatientFinding[] = [];
  const teratogens = teratogenicMedicines(input.medicines);
  const onTeratogen = teratogens.length > 0;
  const teratogenText = onTeratogen
    ? ` Teratogenic medicines taken: ${teratogens.join(", ")}.`
    : " No medicine taken is recorded as teratogenic.";
  const stated = input.patient?.pregnancy;
  const current = currentPregnancyTest(input.readings, input.now);
  if (current && (current.result === "positive" || current.result === "indeterminate")) {
    const positive = current.result === "positive";
    if (stated === "not_pregnant" || (positive && stated === "possible")) {
      findings.push(
        pregnancyFinding(
          "pregnancy_test_conflict",
          onTeratogen ? "high" : "moderate",
          `${positive ? "Positive" : "Indeterminate"} pregnancy test; pregnancy status given as ${stated.replace("_", " ")}`,
          `The newest pregnancy test, ${testText(current)}, is ${current.result}, but the pregnancy status given is "${stated}". The given status was kept; confirm pregnancy before prescribing.${teratogenText}`,
          teratogens,
          current.time,
          true,
        ),
      );
    } else if (!positive && stated !== "pregnant") {
      findings.push(
        pregnancyFinding(
          "pregnancy_test_indeterminate",
          onTeratogen ? "high" : "moderate",
          "Indeterminate pregnancy test",
          `The newest pregnancy test, ${testText(current)}, is indeterminate (serum hCG 5-24 IU/L can be an early pregnancy): repeat the test in 48-72 hours before prescribing.${teratogenText}`,
          teratogens,
          current.time,
          true,
        ),
      );
    }
  }
  for (const test of pregnancyTestsOf(input.readings)) {
    if (test.result === null)
      findings.push(
        pregnancyFinding(
          "pregnancy_test_not_read",
          "low",
          "Pregnancy test result could not be read",
          `${testText(test)}: neither positive, negative nor a serum hCG value with a unit; pregnancy status was not read from it.`,
          [],
          test.time,
          false,
        ),
      );
    else if (test.time === null && test.result === "positive" && stated !== "pregnant")
      findings.push(
        pregnancyFinding(
          "pregnancy_test_undated",
          onTeratogen ? "high" : "moderate",
          "Positive pregnancy test without a date",
          `${testText(test)} is positive but has no date, so it did not set the pregnancy status; confirm whether the patient is pregnant.${teratogenText}`,
          teratogens,
          null,
          false,
        ),
      );
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------
// The review part and the context

/** The ECG part of the review (decision 191), with what the pregnancy tests say the context does not. */
export function ecgFindings(input: PatientReviewInput): PatientFinding[] {
  return [...qtcFindings(input), ...pregnancyTestFindings(input)];
}

/** Which context fields a renal result may fill, by analyte key (a key the table lacks is skipped). */
const RENAL_FIELDS: readonly { field: "egfr" | "creatinineClearance"; analyte: string }[] = [
  { field: "egfr", analyte: "egfr" },
  { field: "creatinineClearance", analyte: "creatinine_clearance" },
];

function readingSource(text: string): PatientFactSource {
  return { kind: "reading", reference: text };
}

/** The newest dated reading of an analyte within the window, read in the canonical unit. */
function newestCanonical(
  readings: readonly DatedReading[],
  entry: AnalyteEntry,
  now: Date,
  windowDays: number,
): { value: number; time: number } | null {
  let best: { value: number; time: number; order: number } | null = null;
  readings.forEach((reading, order) => {
    if (keyOf(reading) !== entry.key) return;
    const time = parseTime(reading.observedAt);
    if (time === null || now.getTime() - time > windowDays * MS_PER_DAY) return;
    if (best && (time < best.time || (time === best.time && order < best.order))) return;
    const value = canonicalOf(entry, reading);
    // The newest reading decides: one that cannot be read leaves the field unknown.
    best = value.read ? { value: value.value, time, order } : { value: Number.NaN, time, order };
  });
  const found = best as { value: number; time: number } | null;
  return found && Number.isFinite(found.value) ? found : null;
}

/**
 * The patient context completed from the readings (decision 191); the caller's facts win. A
 * positive pregnancy test (newest dated, within 280 days) sets `pregnancy: "pregnant"` and an
 * indeterminate one `"possible"` when the caller gave no status (or "unknown"); a negative test
 * sets nothing (it does not exclude an early pregnancy). The newest dated eGFR (and creatinine
 * clearance, where the table has the analyte) within 180 days sets the field when absent. Each
 * field set here names its reading in `sources`.
 */
export function patientWithReadings(
  patient: PatientContext,
  readings: readonly DatedReading[],
  now: Date,
): PatientContext {
  const completed: PatientContext = { ...patient };
  const sources: NonNullable<PatientContext["sources"]> = { ...(patient.sources ?? {}) };
  let changed = false;
  if (patient.pregnancy === undefined || patient.pregnancy === "unknown") {
    const test = currentPregnancyTest(readings, now);
    if (test && test.result !== "negative") {
      completed.pregnancy = test.result === "positive" ? "pregnant" : "possible";
      sources.pregnancy = readingSource(`pregnancy test ${test.result}, ${testText(test)}`);
      changed = true;
    }
  }
  for (const { field, analyte } of RENAL_FIELDS) {
    if (patient[field] !== undefined) continue;
    const entry = analyteByKey(analyte);
    if (!entry?.measure) continue;
    const newest = newestCanonical(readings, entry, now, CONTEXT_READING_RULES.renalReadingWindowDays);
    if (!newest) continue;
    completed[field] = newest.value;
    sources[field] = readingSource(
      `${entry.display} ${formatAnalyteValue(newest.value)} ${entry.measure.displayUnit} (${dateText(newest.time)})`,
    );
    changed = true;
  }
  if (changed) completed.sources = sources;
  return completed;
}
