/**
 * What monitoring the medicines call for (decisions 189, 192-194): for each medicine taken and each
 * row of the monitoring table (knowledge/monitoring-schedules.ts) that applies to it, the phase
 * of treatment from the start date, the interval in force, the last dated test and whether the
 * next one is due or overdue, and since when. Rows are read, never written per drug here.
 */

import { type ClinicalLevel, judgeLabReading } from "../judgement.js";
import { findAnalyte, findAnalyteByLoinc, normaliseAnalyteName } from "../knowledge/analytes.js";
import type { DrugClass } from "../knowledge/medicines.js";
import {
  BASELINE_ONLY_REPORT_DAYS,
  BASELINE_WINDOW_DAYS,
  DUE_SOON_DAYS,
  type MonitoringRisk,
  type MonitoringSchedule,
  type SchedulePhase,
  schedulesFor,
} from "../knowledge/monitoring-schedules.js";
import { dateOf, MS_PER_DAY, parseTime } from "../shared.js";
import { ingredientEntry, normaliseMedicationText, readEntry } from "../tools/drug-names.js";
import { patientAge } from "./context.js";
import type { DatedReading, PatientFinding, PatientReviewInput, ReviewMedicine } from "./types.js";

/** A medicine of the input read against the medicine model. */
interface TakenMedicine {
  medicine: ReviewMedicine;
  ingredients: readonly string[];
  /** Classes of its ingredients; empty for a topical entry (decision 71: not a systemic exposure). */
  classes: ReadonlySet<DrugClass>;
}

/** A dated reading placed on the clock, with the analyte key it resolves to. */
interface PlacedReading {
  key: string;
  at: number;
  reading: DatedReading;
}

/** What one row says for one medicine at `now`. */
interface RowOutcome {
  status: "overdue" | "due" | "current";
  level: ClinicalLevel;
  dueAt: number | null;
  /** The phase whose interval set the due date. */
  phase: SchedulePhase | null;
  /** The newest counted test (null: none). */
  last: number | null;
  /** How the due date was reached. */
  basis: "baseline" | "first" | "last" | "dose_change" | "maintenance";
}

/** A risk of a row: applies, does not, or cannot be told from the input. */
type RiskState = { state: "applies"; why: string } | { state: "absent" } | { state: "unknown"; why: string };

const CLASS_WORDS: Partial<Record<DrugClass, string>> = {
  ace_inhibitor: "an ACE inhibitor",
  arb: "an angiotensin receptor blocker",
  thiazide: "a thiazide diuretic",
  loop_diuretic: "a loop diuretic",
  nsaid: "an NSAID",
};

/** The analyte table key of a reading: its LOINC code first, then its name; the plain name when the table lacks it. */
function analyteKeyOf(reading: DatedReading): string | null {
  const byLoinc = reading.loinc ? findAnalyteByLoinc(reading.loinc)?.key : undefined;
  if (byLoinc) return byLoinc;
  const byName = findAnalyte(reading.analyte)?.key;
  if (byName) return byName;
  // A key the table does not hold yet (a row added by another part) still matches by its name.
  const plain = normaliseAnalyteName(reading.analyte);
  return plain === "" ? null : plain;
}

function readMedicine(medicine: ReviewMedicine): TakenMedicine {
  const entry = readEntry(normaliseMedicationText(medicine.name));
  const classes = new Set<DrugClass>();
  if (!entry.topical)
    for (const ingredient of entry.ingredients)
      for (const drugClass of ingredientEntry(ingredient)?.classes ?? []) classes.add(drugClass);
  return { medicine, ingredients: entry.ingredients, classes };
}

function numericValue(value: DatedReading["value"]): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = Number(value.trim());
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

/** The phase in force `day` days after the anchor (the first phase before it). */
function phaseAt(phases: readonly SchedulePhase[], day: number): SchedulePhase {
  let found = phases[0] as SchedulePhase;
  for (const phase of phases) if (phase.fromDay <= day) found = phase;
  return found;
}

function dueStatus(dueAt: number, now: number): RowOutcome["status"] {
  if (now > dueAt) return "overdue";
  return dueAt - now <= DUE_SOON_DAYS * MS_PER_DAY ? "due" : "current";
}

function levelOf(
  status: RowOutcome["status"],
  row: MonitoringSchedule,
  phase: SchedulePhase | null,
): ClinicalLevel {
  // A test not yet overdue is information, not a risk: the next date is said at level none
  // (decision 197), so a weekly schedule kept to the day raises nothing.
  return status === "overdue" ? (phase?.overdueLevel ?? row.overdueLevel) : "none";
}

/**
 * The schedule placed on a known start (decision 193). The next test is due one interval after
 * the last, the interval of the phase the last test fell in (a later test never brings the due
 * date forward). A result before the start counts from the start: a baseline when it is no older
 * than `BASELINE_WINDOW_DAYS`; no baseline where one is asked for is overdue from the start. After
 * a dose change, the weekly tests bind when they fall earlier.
 */
function placeOnStart(
  row: MonitoringSchedule,
  phases: readonly SchedulePhase[],
  start: number,
  doseChange: number | null,
  last: number | null,
  now: number,
): RowOutcome {
  if (phases.length === 0) {
    // Baseline only: any result from the baseline window on satisfies it.
    const satisfied = last !== null && last >= start - BASELINE_WINDOW_DAYS * MS_PER_DAY;
    if (satisfied || now >= start + BASELINE_ONLY_REPORT_DAYS * MS_PER_DAY)
      return { status: "current", level: "none", dueAt: null, phase: null, last, basis: "baseline" };
    // A baseline-only test missed once treatment has begun cannot be taken any more: said, at
    // level none (decision 197); before the start it is due.
    const status = dueStatus(start, now);
    return { status, level: "none", dueAt: start, phase: null, last, basis: "baseline" };
  }
  let dueAt: number;
  let phase: SchedulePhase;
  let basis: RowOutcome["basis"];
  if (row.baseline && (last === null || last < start - BASELINE_WINDOW_DAYS * MS_PER_DAY)) {
    dueAt = start;
    phase = phases[0] as SchedulePhase;
    basis = "baseline";
  } else {
    const from = last === null ? start : Math.max(last, start);
    phase = phaseAt(phases, (from - start) / MS_PER_DAY);
    dueAt = from + phase.intervalDays * MS_PER_DAY;
    basis = last !== null && last >= start ? "last" : "first";
  }
  const dose = row.afterDoseChange;
  if (dose && doseChange !== null && doseChange > start) {
    const lastAfter = last !== null && last >= doseChange ? last : null;
    const doseDue =
      lastAfter === null
        ? doseChange + dose.intervalDays * MS_PER_DAY
        : lastAfter - doseChange < dose.untilDay * MS_PER_DAY
          ? lastAfter + dose.intervalDays * MS_PER_DAY
          : null;
    if (doseDue !== null && doseDue < dueAt) {
      dueAt = doseDue;
      phase = { fromDay: 0, intervalDays: dose.intervalDays, label: dose.label };
      basis = "dose_change";
    }
  }
  const status = dueStatus(dueAt, now);
  return { status, level: levelOf(status, row, phase), dueAt, phase, last, basis };
}

/**
 * Without a start the phase is unknown; the longest interval (the maintenance phase) still says
 * whether the last test is too old in any phase (decision 193).
 */
function placeWithoutStart(
  row: MonitoringSchedule,
  phases: readonly SchedulePhase[],
  last: number | null,
  now: number,
): RowOutcome | null {
  const maintenance = phases[phases.length - 1];
  if (maintenance === undefined) return null;
  if (last === null)
    return {
      status: "overdue",
      level: maintenance.overdueLevel ?? row.overdueLevel,
      dueAt: null,
      phase: maintenance,
      last,
      basis: "maintenance",
    };
  const dueAt = last + maintenance.intervalDays * MS_PER_DAY;
  const status = dueStatus(dueAt, now);
  return {
    status,
    level: levelOf(status, row, maintenance),
    dueAt,
    phase: maintenance,
    last,
    basis: "maintenance",
  };
}

function riskState(
  risk: MonitoringRisk,
  input: PatientReviewInput,
  taken: readonly TakenMedicine[],
  self: TakenMedicine,
  readings: readonly PlacedReading[],
): RiskState {
  switch (risk.kind) {
    case "age_at_least": {
      const age = patientAge(input.patient, input.now);
      if (age === null) return { state: "unknown", why: `age not given (${risk.label})` };
      return age >= risk.years ? { state: "applies", why: `${risk.label} (${age})` } : { state: "absent" };
    }
    case "taking_class": {
      for (const other of taken) {
        if (other === self) continue;
        const found = risk.classes.find((c) => other.classes.has(c));
        if (found !== undefined)
          return {
            state: "applies",
            why: `taking ${other.medicine.name} (${CLASS_WORDS[found] ?? found.replace(/_/g, " ")})`,
          };
      }
      return { state: "absent" };
    }
    case "egfr_below": {
      const egfr = input.patient?.egfr;
      if (egfr === undefined || !Number.isFinite(egfr)) return { state: "unknown", why: "eGFR not given" };
      return egfr < risk.value ? { state: "applies", why: `eGFR ${egfr}` } : { state: "absent" };
    }
    case "analyte_out_of_range": {
      const newest = newestOf(readings, [risk.analyte]);
      if (newest === null) return { state: "unknown", why: `no dated ${risk.analyte.toUpperCase()} result` };
      const judged = judgeLabReading(
        findAnalyte(risk.analyte),
        numericValue(newest.reading.value),
        newest.reading.unit,
        newest.reading.flag ?? null,
      );
      const outside = judged.assessed
        ? judged.evaluation.flag !== "normal"
        : newest.reading.flag !== null && newest.reading.flag !== undefined;
      if (outside) return { state: "applies", why: risk.label };
      return judged.assessed
        ? { state: "absent" }
        : { state: "unknown", why: `${risk.label} could not be read` };
    }
  }
}

function newestOf(readings: readonly PlacedReading[], keys: readonly string[]): PlacedReading | null {
  let newest: PlacedReading | null = null;
  for (const placed of readings)
    if (keys.includes(placed.key) && (newest === null || placed.at > newest.at)) newest = placed;
  return newest;
}

function daysText(from: number, to: number): string {
  const days = Math.floor((to - from) / MS_PER_DAY);
  return days === 1 ? "1 day" : `${days} days`;
}

/** "Glucose or HbA1c" -> "glucose or HbA1c" inside a sentence. */
function inSentence(test: string): string {
  return test.charAt(0).toLowerCase() + test.slice(1);
}

/** True when a never-done baseline test is past its first interval: it is missing since the start, not only as a baseline. */
function missingSinceStart(row: MonitoringSchedule, start: number | null, now: number): boolean {
  const first = row.phases[0];
  return start !== null && first !== undefined && now - start > first.intervalDays * MS_PER_DAY;
}

/** The title: "Neutrophil count overdue: last 94 days ago, weekly in weeks 1-18 (UK and US labels)". */
function titleOf(row: MonitoringSchedule, outcome: RowOutcome, now: number, start: number | null): string {
  // A missed baseline-only test cannot be overdue: it is said as missing (decision 197).
  const baselineOnly = outcome.phase === null && outcome.basis === "baseline";
  const word =
    baselineOnly && outcome.status === "overdue"
      ? "missing"
      : outcome.status === "overdue"
        ? "overdue"
        : "due";
  const label = outcome.phase?.label ?? "at baseline";
  let what: string;
  if (outcome.basis === "baseline")
    what = missingSinceStart(row, start, now)
      ? `none since the start (no baseline), ${label}`
      : "no baseline before the start";
  else if (outcome.last === null)
    what = start !== null ? `none since the start, ${label}` : `none on record, ${label}`;
  else what = `last ${daysText(outcome.last, now)} ago, ${label}`;
  const title = `${row.test} ${word}: ${what}${start !== null ? "" : " (start unknown)"}`;
  return title.length <= 140 ? title : `${title.slice(0, 139)}…`;
}

function detailOf(
  row: MonitoringSchedule,
  outcome: RowOutcome,
  medicine: ReviewMedicine,
  start: number | null,
  now: number,
  notes: readonly string[],
): string {
  const parts: string[] = [];
  const test = inSentence(row.test);
  if (start !== null) {
    const week = Math.floor((now - start) / (7 * MS_PER_DAY)) + 1;
    parts.push(
      start > now
        ? `${medicine.name} starts on ${dateOf(start)}.`
        : `${medicine.name} started on ${dateOf(start)} (week ${week})${medicine.startSource ? `, from ${medicine.startSource}` : ""}.`,
    );
  } else
    parts.push(
      `The start date of ${medicine.name} is unknown; the longest interval of the schedule is applied.`,
    );
  parts.push(
    outcome.last === null
      ? `No dated ${test} result was given.`
      : `Last ${test} result on ${dateOf(outcome.last)}.`,
  );
  const overdue = outcome.status === "overdue";
  if (outcome.basis === "baseline")
    parts.push(
      `A baseline result before the start is asked for${outcome.phase ? `, then ${outcome.phase.label}` : ""}; ${overdue ? "it has been due since" : "it is due by"} ${dateOf(outcome.dueAt ?? now)}.`,
    );
  else if (outcome.phase)
    parts.push(
      `The schedule asks for a test ${outcome.phase.label}; ${
        outcome.dueAt === null
          ? "none is on record"
          : overdue
            ? `the next one has been due since ${dateOf(outcome.dueAt)}`
            : `the next one is due on ${dateOf(outcome.dueAt)}`
      }.`,
    );
  parts.push(...notes);
  return parts.join(" ");
}

/** What every monitoring rule reads: the review's clock, the medicines taken and the results placed on the clock. */
interface MonitoringReview {
  input: PatientReviewInput;
  now: number;
  taken: TakenMedicine[];
  readings: PlacedReading[];
  /** Per analyte key, how many results had no date (counted, never placed). */
  undatedKeys: Map<string, number>;
}

function monitoringReviewOf(input: PatientReviewInput): MonitoringReview {
  const now = input.now.getTime();
  const readings: PlacedReading[] = [];
  const undatedKeys = new Map<string, number>();
  for (const reading of input.readings) {
    const key = analyteKeyOf(reading);
    if (key === null) continue;
    const at = parseTime(reading.observedAt);
    if (at === null) undatedKeys.set(key, (undatedKeys.get(key) ?? 0) + 1);
    // A result dated after the review's clock cannot have been taken yet: it is not counted.
    else if (at <= now) readings.push({ key, at, reading });
  }
  return { input, now, taken: input.medicines.map(readMedicine), readings, undatedKeys };
}

/** The schedule rows of a medicine, each once even when several of its ingredients share it. */
function scheduleRowsOf(self: TakenMedicine): MonitoringSchedule[] {
  const rows = self.ingredients.flatMap((ingredient) => schedulesFor(ingredient, [...self.classes]));
  return [...new Map(rows.map((row) => [row.id, row])).values()];
}

/** Without a start date the phase of treatment is unknown: said once per medicine. */
function startUnknownFinding(self: TakenMedicine, rows: readonly MonitoringSchedule[]): PatientFinding {
  return {
    kind: "monitoring",
    rule: "monitoring_start_unknown",
    level: "low",
    assessed: false,
    title: `Start date of ${self.medicine.name} unknown: the monitoring schedule cannot be placed`,
    detail: `${self.medicine.startedAt ? `The start date "${self.medicine.startedAt}" could not be read` : "No start date was given"} for ${self.medicine.name}, so the phase of treatment and its intervals (${rows.map((r) => inSentence(r.test)).join(", ")}) are unknown. A renewal date is not a start. Each test is checked against the longest interval of its schedule only.`,
    medicines: [self.medicine.name],
    since: null,
    source: rows
      .map((r) => r.source)
      .filter((s, i, all) => all.indexOf(s) === i)
      .join("; "),
  };
}

/** Undated results of a row's tests are named, since they were not counted. */
function undatedNotes(row: MonitoringSchedule, undatedKeys: ReadonlyMap<string, number>): string[] {
  const undated = row.analytes.reduce((n, key) => n + (undatedKeys.get(key) ?? 0), 0);
  if (undated === 0) return [];
  return [
    `${undated} undated result${undated === 1 ? "" : "s"} could not be placed and ${undated === 1 ? "was" : "were"} not counted.`,
  ];
}

/** Whether a row's stricter schedule applies to this medicine, and the note saying why (or that it is not known). */
function stricterScheduleOf(
  review: MonitoringReview,
  self: TakenMedicine,
  row: MonitoringSchedule,
): { atRisk: boolean; unknown: boolean; notes: string[] } {
  const { input, taken, readings } = review;
  const risks = row.atRisk?.risks.map((risk) => riskState(risk, input, taken, self, readings)) ?? [];
  const applying = risks.filter((r): r is { state: "applies"; why: string } => r.state === "applies");
  const unknown = risks.filter((r): r is { state: "unknown"; why: string } => r.state === "unknown");
  const atRisk = row.atRisk !== undefined && applying.length > 0;
  const notes: string[] = [];
  if (atRisk) notes.push(`Stricter schedule: ${applying.map((r) => r.why).join("; ")}.`);
  else if (unknown.length > 0)
    notes.push(`Not known whether the stricter schedule applies: ${unknown.map((r) => r.why).join("; ")}.`);
  return { atRisk, unknown: unknown.length > 0, notes };
}

/** One schedule row read for one medicine. */
interface RowReading {
  row: MonitoringSchedule;
  self: TakenMedicine;
  start: number | null;
  now: number;
  notes: string[];
}

/** A test overdue or due on the schedule that applies. */
function dueFinding(at: RowReading, outcome: RowOutcome, source: string): PatientFinding {
  const { row, self, start, now, notes } = at;
  return {
    kind: "monitoring",
    rule: outcome.status === "overdue" ? "monitoring_overdue" : "monitoring_due",
    level: outcome.level,
    assessed: true,
    title: titleOf(row, outcome, now, start),
    detail: detailOf(row, outcome, self.medicine, start, now, notes),
    medicines: [self.medicine.name],
    analyte: row.analytes[0],
    since: outcome.dueAt === null ? null : dateOf(outcome.dueAt),
    source,
  };
}

/** Never reassure on a risk we could not check: say what the stricter schedule would find. */
function riskUnknownFinding(
  at: RowReading,
  atRisk: NonNullable<MonitoringSchedule["atRisk"]>,
  strict: RowOutcome,
): PatientFinding {
  const { row, self, start, now, notes } = at;
  return {
    kind: "monitoring",
    rule: "monitoring_risk_unknown",
    level: "low",
    assessed: false,
    title: titleOf(row, strict, now, start).replace(
      /^(.*?) (overdue|due):/,
      "$1 $2 if a stricter schedule applies:",
    ),
    detail: `${detailOf(row, strict, self.medicine, start, now, notes)} On the usual schedule the test is not yet due; the stricter one applies when: ${atRisk.risks.map((r) => r.label).join("; ")}.`,
    medicines: [self.medicine.name],
    analyte: row.analytes[0],
    since: strict.dueAt === null ? null : dateOf(strict.dueAt),
    source: atRisk.source,
  };
}

/** A row read for one medicine: its outcome on the schedule that applies, and the finding it gives (if any). */
function rowFinding(
  review: MonitoringReview,
  self: TakenMedicine,
  row: MonitoringSchedule,
  start: number | null,
  doseChange: number | null,
): { finding: PatientFinding; outcome: RowOutcome } | null {
  const { now, readings } = review;
  const rowReadings = readings.filter((r) => row.analytes.includes(r.key));
  const last = newestOf(rowReadings, row.analytes)?.at ?? null;
  const stricter = stricterScheduleOf(review, self, row);
  const at: RowReading = {
    row,
    self,
    start,
    now,
    notes: [...undatedNotes(row, review.undatedKeys), ...stricter.notes],
  };
  const phases = stricter.atRisk && row.atRisk ? row.atRisk.phases : row.phases;
  const place = (p: readonly SchedulePhase[]) =>
    start === null
      ? placeWithoutStart(row, p, last, now)
      : placeOnStart(row, p, start, doseChange, last, now);
  const outcome = place(phases);
  if (outcome === null) return null;
  if (outcome.status !== "current") {
    const source = stricter.atRisk && row.atRisk ? row.atRisk.source : row.source;
    return { finding: dueFinding(at, outcome, source), outcome };
  }
  if (!stricter.atRisk && row.atRisk && stricter.unknown) {
    const strict = place(row.atRisk.phases);
    if (strict && strict.status !== "current")
      return { finding: riskUnknownFinding(at, row.atRisk, strict), outcome };
  }
  return null;
}

/** Per class row, the worst outcome over the medicines of the class (one finding per test). */
type ClassRowFindings = Map<string, { finding: PatientFinding; rank: number; medicines: string[] }>;

/** A class row (antipsychotic metabolic tests): one finding per test, the most pressing, naming every medicine. */
function holdMostPressing(
  byRow: ClassRowFindings,
  rowId: string,
  finding: PatientFinding,
  outcome: RowOutcome,
  name: string,
): void {
  const rank = LEVEL_RANK[finding.level] * 1e15 - (outcome.dueAt ?? 0);
  const held = byRow.get(rowId);
  const medicines = [...(held?.medicines ?? []), name];
  if (held === undefined || rank > held.rank) byRow.set(rowId, { finding, rank, medicines });
  else held.medicines = medicines;
}

/** Every monitoring finding of the review (decision 192): kind `monitoring`. */
export function monitoringFindings(input: PatientReviewInput): PatientFinding[] {
  const review = monitoringReviewOf(input);
  const byRow: ClassRowFindings = new Map();
  const findings: PatientFinding[] = [];
  for (const self of review.taken) {
    const rows = scheduleRowsOf(self);
    if (rows.length === 0) continue;
    const start = parseTime(self.medicine.startedAt);
    const doseChange = parseTime(self.medicine.doseChangedAt);
    if (start === null) findings.push(startUnknownFinding(self, rows));
    for (const row of rows) {
      const found = rowFinding(review, self, row, start, doseChange);
      if (found === null) continue;
      if ("ingredient" in row.appliesTo) findings.push(found.finding);
      else holdMostPressing(byRow, row.id, found.finding, found.outcome, self.medicine.name);
    }
  }
  for (const { finding, medicines } of byRow.values()) findings.push({ ...finding, medicines });
  return findings;
}

const LEVEL_RANK: Readonly<Record<ClinicalLevel, number>> = { none: 0, low: 1, moderate: 2, high: 3 };
