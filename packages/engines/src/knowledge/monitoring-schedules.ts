/**
 * Monitoring schedules (decisions 192-194): one row per medicine or therapeutic class and test,
 * read by `monitoringFindings` (patient/monitoring.ts). A row names the analytes that satisfy it
 * (keys of the analyte table), whether a baseline before the start is asked for, and its phases
 * counted from the start: from which day a phase runs and the longest gap it allows between two
 * tests. Rows with risk factors (lithium in older people, with interacting drugs, with impaired
 * renal or thyroid function) carry the stricter phases that apply then; lithium also has the
 * weekly levels after a dose change. No rule here is written per drug in code: the code reads the
 * rows. Every interval and level has its source, or says it is expert-set, in
 * docs/engines/evidence.md ("Monitoring schedules").
 */
import type { ClinicalLevel } from "../judgement.js";
import type { DrugClass } from "./medicines.js";

const DAY = 1;
const WEEK = 7 * DAY;
/** Three months as 13 weeks: intervals are reckoned in days, never calendar months (shift-invariant). */
const THREE_MONTHS = 13 * WEEK;
const SIX_MONTHS = 26 * WEEK;
const YEAR = 365 * DAY;

/** One phase of a schedule: from `fromDay` after the anchor, a test at least every `intervalDays`. */
export interface SchedulePhase {
  fromDay: number;
  intervalDays: number;
  /** How the phase reads in a title: "weekly in weeks 1-18". */
  label: string;
  /** The level of an overdue test in this phase when it differs from the row's. */
  overdueLevel?: ClinicalLevel;
}

/** What makes a row's stricter phases apply. Each kind is read from the review's input. */
export type MonitoringRisk =
  | { kind: "age_at_least"; years: number; label: string }
  | { kind: "taking_class"; classes: readonly DrugClass[]; label: string }
  | { kind: "egfr_below"; value: number; label: string }
  | { kind: "analyte_out_of_range"; analyte: string; label: string };

export interface MonitoringSchedule {
  /** Stable id, also the finding's rule suffix. */
  id: string;
  /** The ingredient (canonical name of the medicine model) or therapeutic class the row applies to. */
  appliesTo: { ingredient: string } | { drugClass: DrugClass };
  /** The test as a clinician names it ("Neutrophil count"). */
  test: string;
  /** Analyte table keys; a dated reading of any of them satisfies the row. */
  analytes: readonly string[];
  /** True: a result before the start is asked for (a missing one is overdue from the start). */
  baseline: boolean;
  /** Phases from the start, by `fromDay` ascending, intervals never shorter in a later phase. Empty: baseline only. */
  phases: readonly SchedulePhase[];
  /** Stricter phases that replace `phases` when any of `risks` applies. */
  atRisk?: { risks: readonly MonitoringRisk[]; phases: readonly SchedulePhase[]; source: string };
  /** Tests after a dose change: `intervalDays` apart until `untilDay` after the change, then `phases` again. */
  afterDoseChange?: { intervalDays: number; untilDay: number; label: string; source: string };
  /** The level of an overdue test (a phase may override it). */
  overdueLevel: ClinicalLevel;
  /** Short source string (the full one is in docs/engines/evidence.md). */
  source: string;
  /** Sources of the interval values were read in stored public copies during the work. */
  sourceChecked: boolean;
}

/**
 * Expert-set: a result from up to this many days before the start is the baseline (a month is
 * the usual work-up before a psychotropic is started; no source sets a window). An older result
 * is not a baseline.
 */
export const BASELINE_WINDOW_DAYS = 30;

/** Expert-set: a test whose due date falls within this many days is reported as due (`low`). */
export const DUE_SOON_DAYS = 7;

/**
 * Expert-set: a baseline-only test (prolactin) missing before the start is reported during the
 * first year of treatment; after it, the baseline can no longer be taken and NICE asks for the
 * test only when symptoms call for it.
 */
export const BASELINE_ONLY_REPORT_DAYS = YEAR;

/**
 * Expert-set reading of "weekly until the levels are stable" (NICE CG185; SPS lithium
 * monitoring): the first 4 weeks after the start or a dose change. Lithium reaches a steady state
 * in about 5-7 days; four weekly levels give two to three at steady state.
 */
export const LITHIUM_UNTIL_STABLE_DAYS = 4 * WEEK;

/**
 * Decreased GFR in the KDIGO 2012 CKD classification (categories G3a-G5: below 60 mL/min/1.73
 * m2): the cut-off read here for "impaired renal function" (lithium levels, carbamazepine sodium).
 */
export const RENAL_IMPAIRMENT_EGFR_BELOW = 60;

/** SPS lithium monitoring: "age 65 years and older" among the groups that need 3-monthly levels. */
export const LITHIUM_OLDER_AGE_YEARS = 65;

const CLOZAPINE_SOURCE =
  "UK Clozaril SmPC 4.4 (weekly for the first 18 weeks, then at least every 4 weeks) with the UK clozapine monitoring services (every 2 weeks to week 52: NHS GGC guidance); US clozapine labels (weekly to 6 months, every 2 weeks months 6-12, monthly after; Clozaril label table in PMC9243911 table 6; REMS removed June 2025, monitoring frequencies kept in the label)";
const LITHIUM_SOURCE =
  "NICE CG185 (bipolar disorder) lithium monitoring as summarised by SPS lithium monitoring (weekly after the start and each dose change until stable, every 3 months in the first year, then every 6 months; at least every 3 months at 65 or over, with interacting drugs, impaired renal or thyroid function)";
const LITHIUM_BLOODS_SOURCE =
  "NICE CG185 and SPS lithium monitoring: eGFR, urea and electrolytes, thyroid function and calcium at baseline and every 6 months (POMH-UK standards: renal and thyroid function every 6 months)";
const ANTIPSYCHOTIC_SOURCE =
  "NICE CG178 1.3.6 (baseline; weight weekly for 6 weeks, at 12 weeks, at 1 year, then yearly; fasting glucose, HbA1c and lipids at 12 weeks, at 1 year, then yearly; prolactin at baseline); ADA/APA consensus 2004 (Diabetes Care 27:596-601: glucose and lipids at baseline and 12 weeks)";
const VALPROATE_SOURCE =
  "Valproate labels (US Depakote: liver tests before and at frequent intervals, especially in the first 6 months; platelets before and periodically) and SPS valproate monitoring (LFT, FBC at baseline, at 6 months, then yearly)";
const CARBAMAZEPINE_SOURCE =
  "Carbamazepine labels (UK Tegretol SmPC 4.4: blood count and liver function before and periodically; sodium at 2 weeks then monthly for 3 months when at risk of hyponatraemia) and SPS carbamazepine monitoring (FBC, U&E, LFT at 6 months; U&E 6-monthly)";

const LITHIUM_RISKS: readonly MonitoringRisk[] = [
  { kind: "age_at_least", years: LITHIUM_OLDER_AGE_YEARS, label: "aged 65 or over" },
  {
    kind: "taking_class",
    classes: ["ace_inhibitor", "arb", "thiazide", "loop_diuretic", "nsaid"],
    label: "taking a drug that interacts with lithium",
  },
  { kind: "egfr_below", value: RENAL_IMPAIRMENT_EGFR_BELOW, label: "eGFR below 60" },
  { kind: "analyte_out_of_range", analyte: "tsh", label: "TSH outside its range" },
];

/** The monitoring table (decision 192). */
export const MONITORING_SCHEDULES: readonly MonitoringSchedule[] = [
  {
    id: "clozapine_neutrophils",
    appliesTo: { ingredient: "clozapine" },
    test: "Neutrophil count",
    analytes: ["anc"],
    baseline: true,
    phases: [
      { fromDay: 0, intervalDays: WEEK, label: "weekly in weeks 1-18 (UK and US labels)" },
      { fromDay: 18 * WEEK, intervalDays: WEEK, label: "weekly in weeks 19-26 (US label; UK every 2 weeks)" },
      { fromDay: 26 * WEEK, intervalDays: 2 * WEEK, label: "every 2 weeks in weeks 27-52 (UK and US)" },
      { fromDay: 52 * WEEK, intervalDays: 4 * WEEK, label: "every 4 weeks after week 52 (UK; US monthly)" },
    ],
    overdueLevel: "high",
    source: CLOZAPINE_SOURCE,
    sourceChecked: true,
  },
  {
    id: "lithium_level",
    appliesTo: { ingredient: "lithium" },
    test: "Lithium level",
    analytes: ["lithium"],
    baseline: false,
    phases: [
      { fromDay: 0, intervalDays: WEEK, label: "weekly in weeks 1-4 until stable" },
      {
        fromDay: LITHIUM_UNTIL_STABLE_DAYS,
        intervalDays: THREE_MONTHS,
        label: "every 3 months in the first year",
      },
      { fromDay: YEAR, intervalDays: SIX_MONTHS, label: "every 6 months after the first year" },
    ],
    atRisk: {
      risks: LITHIUM_RISKS,
      phases: [
        { fromDay: 0, intervalDays: WEEK, label: "weekly in weeks 1-4 until stable" },
        { fromDay: LITHIUM_UNTIL_STABLE_DAYS, intervalDays: THREE_MONTHS, label: "every 3 months" },
      ],
      source: LITHIUM_SOURCE,
    },
    afterDoseChange: {
      intervalDays: WEEK,
      untilDay: LITHIUM_UNTIL_STABLE_DAYS,
      label: "weekly for 4 weeks after a dose change",
      source: LITHIUM_SOURCE,
    },
    overdueLevel: "moderate",
    source: LITHIUM_SOURCE,
    sourceChecked: true,
  },
  {
    id: "lithium_renal",
    appliesTo: { ingredient: "lithium" },
    test: "Renal function (eGFR or creatinine)",
    analytes: ["egfr", "creatinine"],
    baseline: true,
    phases: [{ fromDay: 0, intervalDays: SIX_MONTHS, label: "every 6 months" }],
    overdueLevel: "moderate",
    source: LITHIUM_BLOODS_SOURCE,
    sourceChecked: true,
  },
  {
    id: "lithium_thyroid",
    appliesTo: { ingredient: "lithium" },
    test: "Thyroid function (TSH)",
    analytes: ["tsh", "free_t4"],
    baseline: true,
    phases: [{ fromDay: 0, intervalDays: SIX_MONTHS, label: "every 6 months" }],
    overdueLevel: "moderate",
    source: LITHIUM_BLOODS_SOURCE,
    sourceChecked: true,
  },
  {
    id: "lithium_calcium",
    appliesTo: { ingredient: "lithium" },
    test: "Calcium",
    analytes: ["calcium"],
    baseline: true,
    phases: [{ fromDay: 0, intervalDays: SIX_MONTHS, label: "every 6 months" }],
    overdueLevel: "low",
    source: LITHIUM_BLOODS_SOURCE,
    sourceChecked: true,
  },
  {
    id: "antipsychotic_weight",
    appliesTo: { drugClass: "antipsychotic" },
    test: "Weight",
    analytes: ["weight", "bmi"],
    baseline: true,
    phases: [
      { fromDay: 0, intervalDays: WEEK, label: "weekly in weeks 1-6" },
      { fromDay: 6 * WEEK, intervalDays: 6 * WEEK, label: "at 12 weeks" },
      { fromDay: 12 * WEEK, intervalDays: 40 * WEEK, label: "at 1 year" },
      { fromDay: 52 * WEEK, intervalDays: YEAR, label: "yearly after the first year" },
    ],
    overdueLevel: "low",
    source: ANTIPSYCHOTIC_SOURCE,
    sourceChecked: true,
  },
  {
    id: "antipsychotic_glucose",
    appliesTo: { drugClass: "antipsychotic" },
    test: "Glucose or HbA1c",
    analytes: ["glucose", "hba1c"],
    baseline: true,
    phases: [
      { fromDay: 0, intervalDays: 12 * WEEK, label: "at 12 weeks" },
      { fromDay: 12 * WEEK, intervalDays: 40 * WEEK, label: "at 1 year" },
      { fromDay: 52 * WEEK, intervalDays: YEAR, label: "yearly after the first year" },
    ],
    overdueLevel: "low",
    source: ANTIPSYCHOTIC_SOURCE,
    sourceChecked: true,
  },
  {
    id: "antipsychotic_lipids",
    appliesTo: { drugClass: "antipsychotic" },
    test: "Lipids",
    analytes: ["total_cholesterol", "ldl", "hdl", "triglycerides"],
    baseline: true,
    phases: [
      { fromDay: 0, intervalDays: 12 * WEEK, label: "at 12 weeks" },
      { fromDay: 12 * WEEK, intervalDays: 40 * WEEK, label: "at 1 year" },
      { fromDay: 52 * WEEK, intervalDays: YEAR, label: "yearly after the first year" },
    ],
    overdueLevel: "low",
    source: ANTIPSYCHOTIC_SOURCE,
    sourceChecked: true,
  },
  {
    id: "antipsychotic_prolactin",
    appliesTo: { drugClass: "antipsychotic" },
    test: "Prolactin",
    analytes: ["prolactin"],
    baseline: true,
    phases: [],
    overdueLevel: "low",
    source: ANTIPSYCHOTIC_SOURCE,
    sourceChecked: true,
  },
  {
    id: "valproate_liver",
    appliesTo: { ingredient: "valproate" },
    test: "Liver function (ALT or AST)",
    analytes: ["alt", "ast"],
    baseline: true,
    phases: [
      {
        fromDay: 0,
        intervalDays: 61,
        label: "at least every 2 months in the first 6 months",
        overdueLevel: "moderate",
      },
      { fromDay: SIX_MONTHS, intervalDays: YEAR, label: "yearly after 6 months" },
    ],
    overdueLevel: "low",
    source: VALPROATE_SOURCE,
    sourceChecked: true,
  },
  {
    id: "valproate_platelets",
    appliesTo: { ingredient: "valproate" },
    test: "Full blood count (platelets)",
    analytes: ["platelets"],
    baseline: true,
    phases: [
      { fromDay: 0, intervalDays: SIX_MONTHS, label: "at 6 months" },
      { fromDay: SIX_MONTHS, intervalDays: YEAR, label: "yearly after 6 months" },
    ],
    overdueLevel: "low",
    source: VALPROATE_SOURCE,
    sourceChecked: true,
  },
  {
    id: "carbamazepine_blood_count",
    appliesTo: { ingredient: "carbamazepine" },
    test: "Full blood count",
    analytes: ["wbc", "anc", "platelets"],
    baseline: true,
    phases: [
      { fromDay: 0, intervalDays: SIX_MONTHS, label: "at 6 months" },
      { fromDay: SIX_MONTHS, intervalDays: YEAR, label: "yearly after 6 months" },
    ],
    overdueLevel: "low",
    source: CARBAMAZEPINE_SOURCE,
    sourceChecked: true,
  },
  {
    id: "carbamazepine_liver",
    appliesTo: { ingredient: "carbamazepine" },
    test: "Liver function (ALT or AST)",
    analytes: ["alt", "ast"],
    baseline: true,
    phases: [
      { fromDay: 0, intervalDays: SIX_MONTHS, label: "at 6 months" },
      { fromDay: SIX_MONTHS, intervalDays: YEAR, label: "yearly after 6 months" },
    ],
    overdueLevel: "low",
    source: CARBAMAZEPINE_SOURCE,
    sourceChecked: true,
  },
  {
    id: "carbamazepine_sodium",
    appliesTo: { ingredient: "carbamazepine" },
    test: "Sodium",
    analytes: ["sodium"],
    baseline: true,
    phases: [{ fromDay: 0, intervalDays: SIX_MONTHS, label: "every 6 months" }],
    atRisk: {
      risks: [
        { kind: "taking_class", classes: ["thiazide", "loop_diuretic"], label: "taking a diuretic" },
        { kind: "egfr_below", value: RENAL_IMPAIRMENT_EGFR_BELOW, label: "eGFR below 60" },
      ],
      phases: [
        { fromDay: 0, intervalDays: 2 * WEEK, label: "at 2 weeks" },
        { fromDay: 2 * WEEK, intervalDays: 30, label: "monthly for the first 3 months" },
        { fromDay: THREE_MONTHS, intervalDays: SIX_MONTHS, label: "every 6 months" },
      ],
      source:
        "UK Tegretol SmPC 4.4 as summarised by SPS carbamazepine monitoring (renal impairment or a sodium-lowering medicine such as a diuretic)",
    },
    overdueLevel: "low",
    source: CARBAMAZEPINE_SOURCE,
    sourceChecked: true,
  },
];

/** The schedule rows of an ingredient: its own rows and those of its therapeutic classes. */
export function schedulesFor(ingredient: string, classes: readonly DrugClass[]): MonitoringSchedule[] {
  return MONITORING_SCHEDULES.filter((row) =>
    "ingredient" in row.appliesTo
      ? row.appliesTo.ingredient === ingredient
      : classes.includes(row.appliesTo.drugClass),
  );
}
