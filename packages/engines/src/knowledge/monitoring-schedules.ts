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
import type { Evidence } from "./parameter-evidence.js";

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

/**
 * The evidence of each figure of the monitoring table, keyed by the name docs/engines/evidence.md
 * ("Monitoring schedules", generated, decision 217) prints it under: `<row>.analytes`,
 * `<row>.baseline`, `<row>.from<N>d` for each phase, `<row>.atRisk.from<N>d` and
 * `<row>.atRisk.<risk>`, `<row>.afterDoseChange`, `<row>.overdueLevel`, and the schedule
 * constants above. A test keeps the keys and the table's figures one to one.
 */
export const MONITORING_SCHEDULE_EVIDENCE: Readonly<Record<string, Evidence>> = {
  "clozapine_neutrophils.analytes": {
    level: "published cut-off",
    source:
      "Both labels monitor the absolute neutrophil count (ANC); a white cell count alone does not give it (decision 192).",
  },
  "clozapine_neutrophils.baseline": {
    level: "published cut-off",
    source:
      "Both labels: ANC before starting. US clozapine labels, ANC monitoring table (weekly from initiation to 6 months, every 2 weeks from 6 to 12 months, monthly after 12 months; PMC9243911 table 6, adapted from the Clozaril prescribing information); FDA 27 Aug 2025: REMS removed 13 Jun 2025, prescribers to keep the label's monitoring frequencies",
  },
  "clozapine_neutrophils.from0d": {
    level: "published cut-off",
    source:
      "UK Clozaril label (weekly for the first 18 weeks, then at least every 4 weeks; wording read in a stored copy of the Clozaril label text on MIMS, the UK SmPC itself not opened); US clozapine labels, ANC monitoring table (weekly from initiation to 6 months, every 2 weeks from 6 to 12 months, monthly after 12 months; PMC9243911 table 6, adapted from the Clozaril prescribing information); FDA 27 Aug 2025: REMS removed 13 Jun 2025, prescribers to keep the label's monitoring frequencies",
  },
  "clozapine_neutrophils.from126d": {
    level: "derived",
    source:
      "The stricter of the two at weeks 19-26: US weekly to 6 months; UK services every 2 weeks. US clozapine labels, ANC monitoring table (weekly from initiation to 6 months, every 2 weeks from 6 to 12 months, monthly after 12 months; PMC9243911 table 6, adapted from the Clozaril prescribing information); FDA 27 Aug 2025: REMS removed 13 Jun 2025, prescribers to keep the label's monitoring frequencies",
  },
  "clozapine_neutrophils.from182d": {
    level: "published cut-off",
    source:
      "US every 2 weeks from 6 to 12 months; UK clozapine monitoring services as applied by NHS Greater Glasgow and Clyde (weekly for at least 18 weeks, fortnightly to week 52, then monthly)",
  },
  "clozapine_neutrophils.from364d": {
    level: "derived",
    source:
      "The stricter of the two after week 52: UK at least every 4 weeks (28 days) against US monthly. UK Clozaril label (weekly for the first 18 weeks, then at least every 4 weeks; wording read in a stored copy of the Clozaril label text on MIMS, the UK SmPC itself not opened)",
  },
  "clozapine_neutrophils.overdueLevel": {
    level: "expert-set",
    source:
      "Boxed warning (severe neutropenia can lead to serious infection and death); dispensing in both countries has depended on a current count. An overdue count is high.",
  },
  "lithium_level.analytes": { level: "published cut-off", source: "Plasma lithium level." },
  "lithium_level.baseline": {
    level: "published cut-off",
    source:
      "No level before lithium is started; the first is 1 week after starting. NICE CG185 lithium monitoring (levels 1 week after starting and after each dose change, weekly until stable, every 3 months in the first year, then every 6 months; read in SPS lithium monitoring and a CPD summary of the guideline, the NICE page not opened)",
  },
  "lithium_level.from0d": {
    level: "published cut-off",
    source:
      "NICE CG185 lithium monitoring (levels 1 week after starting and after each dose change, weekly until stable, every 3 months in the first year, then every 6 months; read in SPS lithium monitoring and a CPD summary of the guideline, the NICE page not opened)",
  },
  "lithium_level.from28d": {
    level: "derived",
    source:
      "Every 3 months in the first year, as 13 weeks (intervals in days, never calendar months). NICE CG185 lithium monitoring (levels 1 week after starting and after each dose change, weekly until stable, every 3 months in the first year, then every 6 months; read in SPS lithium monitoring and a CPD summary of the guideline, the NICE page not opened)",
  },
  "lithium_level.from365d": {
    level: "derived",
    source:
      "Every 6 months after the first year, as 26 weeks. NICE CG185 lithium monitoring (levels 1 week after starting and after each dose change, weekly until stable, every 3 months in the first year, then every 6 months; read in SPS lithium monitoring and a CPD summary of the guideline, the NICE page not opened)",
  },
  "lithium_level.atRisk.from0d": {
    level: "published cut-off",
    source:
      "NICE CG185 lithium monitoring (levels 1 week after starting and after each dose change, weekly until stable, every 3 months in the first year, then every 6 months; read in SPS lithium monitoring and a CPD summary of the guideline, the NICE page not opened)",
  },
  "lithium_level.atRisk.from28d": {
    level: "derived",
    source:
      "Every 3 months as 13 weeks. SPS lithium monitoring (NICE CG185): at least 3-monthly levels at 65 or over, with interacting drugs, at risk of impaired renal or thyroid function, raised calcium, poor adherence or control, last level 0.8 mmol/L or higher",
  },
  "lithium_level.afterDoseChange": {
    level: "expert-set",
    source:
      "Weekly (published: NICE CG185 lithium monitoring (levels 1 week after starting and after each dose change, weekly until stable, every 3 months in the first year, then every 6 months; read in SPS lithium monitoring and a CPD summary of the guideline, the NICE page not opened)); 'until stable' read as 4 weeks (expert-set, `LITHIUM_UNTIL_STABLE_DAYS`).",
  },
  "lithium_level.overdueLevel": {
    level: "expert-set",
    source:
      "A lithium level past its interval: toxicity is close to the therapeutic range (US label boxed warning); moderate, a review not an emergency.",
  },
  "lithium_renal.analytes": {
    level: "published cut-off",
    source: "eGFR or creatinine (SPS: eGFR, urea and electrolytes).",
  },
  "lithium_renal.baseline": {
    level: "published cut-off",
    source:
      "SPS lithium monitoring: eGFR, urea and electrolytes, thyroid function and calcium at baseline and 6-monthly; POMH-UK audit standards (Collins et al. 2010, BMC Psychiatry 10:80: NICE renal and thyroid function every 6 months)",
  },
  "lithium_renal.from0d": {
    level: "derived",
    source:
      "6-monthly as 26 weeks. SPS lithium monitoring: eGFR, urea and electrolytes, thyroid function and calcium at baseline and 6-monthly; POMH-UK audit standards (Collins et al. 2010, BMC Psychiatry 10:80: NICE renal and thyroid function every 6 months)",
  },
  "lithium_renal.overdueLevel": {
    level: "expert-set",
    source: "Lithium nephrotoxicity is slow; a missed 6-monthly check is moderate.",
  },
  "lithium_thyroid.analytes": {
    level: "published cut-off",
    source: "Thyroid function tests (TSH; free T4 also accepted).",
  },
  "lithium_thyroid.baseline": {
    level: "published cut-off",
    source:
      "SPS lithium monitoring: eGFR, urea and electrolytes, thyroid function and calcium at baseline and 6-monthly; POMH-UK audit standards (Collins et al. 2010, BMC Psychiatry 10:80: NICE renal and thyroid function every 6 months)",
  },
  "lithium_thyroid.from0d": {
    level: "derived",
    source:
      "6-monthly as 26 weeks. SPS lithium monitoring: eGFR, urea and electrolytes, thyroid function and calcium at baseline and 6-monthly; POMH-UK audit standards (Collins et al. 2010, BMC Psychiatry 10:80: NICE renal and thyroid function every 6 months)",
  },
  "lithium_thyroid.overdueLevel": { level: "expert-set", source: "As renal function." },
  "lithium_calcium.analytes": { level: "published cut-off", source: "Serum calcium." },
  "lithium_calcium.baseline": {
    level: "published cut-off",
    source:
      "SPS lithium monitoring: eGFR, urea and electrolytes, thyroid function and calcium at baseline and 6-monthly; POMH-UK audit standards (Collins et al. 2010, BMC Psychiatry 10:80: NICE renal and thyroid function every 6 months)",
  },
  "lithium_calcium.from0d": {
    level: "derived",
    source:
      "6-monthly as 26 weeks. SPS lithium monitoring: eGFR, urea and electrolytes, thyroid function and calcium at baseline and 6-monthly; POMH-UK audit standards (Collins et al. 2010, BMC Psychiatry 10:80: NICE renal and thyroid function every 6 months)",
  },
  "lithium_calcium.overdueLevel": {
    level: "expert-set",
    source: "Hypercalcaemia from lithium is uncommon and slow; low.",
  },
  "antipsychotic_weight.analytes": {
    level: "expert-set",
    source:
      "Weight or BMI (a BMI is a weight measured); the `weight` and `bmi` analyte keys come with the patient-context part.",
  },
  "antipsychotic_weight.baseline": {
    level: "published cut-off",
    source:
      "NICE CG178 1.3.6 (baseline; weight weekly for 6 weeks, at 12 weeks, at 1 year, then annually; fasting glucose, HbA1c and lipids at 12 weeks, at 1 year, then annually; read in BMJ Best Practice and Br J Psychiatry 2017 211:194 table 1, the NICE page not opened)",
  },
  "antipsychotic_weight.from0d": {
    level: "published cut-off",
    source:
      "NICE CG178 1.3.6 (baseline; weight weekly for 6 weeks, at 12 weeks, at 1 year, then annually; fasting glucose, HbA1c and lipids at 12 weeks, at 1 year, then annually; read in BMJ Best Practice and Br J Psychiatry 2017 211:194 table 1, the NICE page not opened)",
  },
  "antipsychotic_weight.from42d": {
    level: "derived",
    source:
      "The 12-week weight, 6 weeks after the last weekly one. NICE CG178 1.3.6 (baseline; weight weekly for 6 weeks, at 12 weeks, at 1 year, then annually; fasting glucose, HbA1c and lipids at 12 weeks, at 1 year, then annually; read in BMJ Best Practice and Br J Psychiatry 2017 211:194 table 1, the NICE page not opened)",
  },
  "antipsychotic_weight.from84d": {
    level: "derived",
    source:
      "The 1-year weight, 40 weeks after the 12-week one. NICE CG178 1.3.6 (baseline; weight weekly for 6 weeks, at 12 weeks, at 1 year, then annually; fasting glucose, HbA1c and lipids at 12 weeks, at 1 year, then annually; read in BMJ Best Practice and Br J Psychiatry 2017 211:194 table 1, the NICE page not opened)",
  },
  "antipsychotic_weight.from364d": {
    level: "published cut-off",
    source:
      "Annually. NICE CG178 1.3.6 (baseline; weight weekly for 6 weeks, at 12 weeks, at 1 year, then annually; fasting glucose, HbA1c and lipids at 12 weeks, at 1 year, then annually; read in BMJ Best Practice and Br J Psychiatry 2017 211:194 table 1, the NICE page not opened)",
  },
  "antipsychotic_weight.overdueLevel": {
    level: "expert-set",
    source: "Metabolic monitoring overdue: low (a gap in routine care, not a hazard by itself).",
  },
  "antipsychotic_glucose.analytes": {
    level: "published cut-off",
    source:
      "Fasting glucose or HbA1c. NICE CG178 1.3.6 (baseline; weight weekly for 6 weeks, at 12 weeks, at 1 year, then annually; fasting glucose, HbA1c and lipids at 12 weeks, at 1 year, then annually; read in BMJ Best Practice and Br J Psychiatry 2017 211:194 table 1, the NICE page not opened)",
  },
  "antipsychotic_glucose.baseline": {
    level: "published cut-off",
    source:
      "NICE CG178 1.3.6 (baseline; weight weekly for 6 weeks, at 12 weeks, at 1 year, then annually; fasting glucose, HbA1c and lipids at 12 weeks, at 1 year, then annually; read in BMJ Best Practice and Br J Psychiatry 2017 211:194 table 1, the NICE page not opened); ADA/APA/AACE/NAASO consensus 2004 (Diabetes Care 27:596-601, table reproduced in J Am Board Fam Med): glucose and lipids at baseline and 12 weeks",
  },
  "antipsychotic_glucose.from0d": {
    level: "published cut-off",
    source:
      "At 12 weeks. NICE CG178 1.3.6 (baseline; weight weekly for 6 weeks, at 12 weeks, at 1 year, then annually; fasting glucose, HbA1c and lipids at 12 weeks, at 1 year, then annually; read in BMJ Best Practice and Br J Psychiatry 2017 211:194 table 1, the NICE page not opened); ADA/APA/AACE/NAASO consensus 2004 (Diabetes Care 27:596-601, table reproduced in J Am Board Fam Med): glucose and lipids at baseline and 12 weeks",
  },
  "antipsychotic_glucose.from84d": {
    level: "derived",
    source:
      "The 1-year test, 40 weeks after the 12-week one. NICE CG178 1.3.6 (baseline; weight weekly for 6 weeks, at 12 weeks, at 1 year, then annually; fasting glucose, HbA1c and lipids at 12 weeks, at 1 year, then annually; read in BMJ Best Practice and Br J Psychiatry 2017 211:194 table 1, the NICE page not opened)",
  },
  "antipsychotic_glucose.from364d": {
    level: "published cut-off",
    source:
      "Annually (NICE; the ADA consensus also annually for glucose). NICE CG178 1.3.6 (baseline; weight weekly for 6 weeks, at 12 weeks, at 1 year, then annually; fasting glucose, HbA1c and lipids at 12 weeks, at 1 year, then annually; read in BMJ Best Practice and Br J Psychiatry 2017 211:194 table 1, the NICE page not opened)",
  },
  "antipsychotic_glucose.overdueLevel": { level: "expert-set", source: "As weight." },
  "antipsychotic_lipids.analytes": {
    level: "published cut-off",
    source:
      "Blood lipid profile (any of total, LDL or HDL cholesterol, triglycerides). NICE CG178 1.3.6 (baseline; weight weekly for 6 weeks, at 12 weeks, at 1 year, then annually; fasting glucose, HbA1c and lipids at 12 weeks, at 1 year, then annually; read in BMJ Best Practice and Br J Psychiatry 2017 211:194 table 1, the NICE page not opened)",
  },
  "antipsychotic_lipids.baseline": {
    level: "published cut-off",
    source:
      "NICE CG178 1.3.6 (baseline; weight weekly for 6 weeks, at 12 weeks, at 1 year, then annually; fasting glucose, HbA1c and lipids at 12 weeks, at 1 year, then annually; read in BMJ Best Practice and Br J Psychiatry 2017 211:194 table 1, the NICE page not opened); ADA/APA/AACE/NAASO consensus 2004 (Diabetes Care 27:596-601, table reproduced in J Am Board Fam Med): glucose and lipids at baseline and 12 weeks",
  },
  "antipsychotic_lipids.from0d": {
    level: "published cut-off",
    source:
      "At 12 weeks. NICE CG178 1.3.6 (baseline; weight weekly for 6 weeks, at 12 weeks, at 1 year, then annually; fasting glucose, HbA1c and lipids at 12 weeks, at 1 year, then annually; read in BMJ Best Practice and Br J Psychiatry 2017 211:194 table 1, the NICE page not opened); ADA/APA/AACE/NAASO consensus 2004 (Diabetes Care 27:596-601, table reproduced in J Am Board Fam Med): glucose and lipids at baseline and 12 weeks",
  },
  "antipsychotic_lipids.from84d": {
    level: "derived",
    source:
      "The 1-year test, 40 weeks after the 12-week one. NICE CG178 1.3.6 (baseline; weight weekly for 6 weeks, at 12 weeks, at 1 year, then annually; fasting glucose, HbA1c and lipids at 12 weeks, at 1 year, then annually; read in BMJ Best Practice and Br J Psychiatry 2017 211:194 table 1, the NICE page not opened)",
  },
  "antipsychotic_lipids.from364d": {
    level: "published cut-off",
    source:
      "Annually (NICE; the ADA consensus asks lipids only every 5 years, NICE is the stricter). NICE CG178 1.3.6 (baseline; weight weekly for 6 weeks, at 12 weeks, at 1 year, then annually; fasting glucose, HbA1c and lipids at 12 weeks, at 1 year, then annually; read in BMJ Best Practice and Br J Psychiatry 2017 211:194 table 1, the NICE page not opened)",
  },
  "antipsychotic_lipids.overdueLevel": { level: "expert-set", source: "As weight." },
  "antipsychotic_prolactin.analytes": { level: "published cut-off", source: "Prolactin." },
  "antipsychotic_prolactin.baseline": {
    level: "published cut-off",
    source:
      "NICE CG178 1.3.6.1 baseline investigations include prolactin (not opened; NICE CG155 table for young people read: prolactin at baseline); afterwards as clinically indicated, so no repeat interval.",
  },
  "antipsychotic_prolactin.overdueLevel": {
    level: "expert-set",
    source:
      "A missing baseline prolactin: low, reported in the first year only (`BASELINE_ONLY_REPORT_DAYS`).",
  },
  "valproate_liver.analytes": { level: "published cut-off", source: "Liver function tests (ALT or AST)." },
  "valproate_liver.baseline": {
    level: "published cut-off",
    source:
      "US Depakote label (liver tests before and at frequent intervals, especially in the first 6 months; platelets before and periodically); SPS valproate monitoring (LFT and FBC at baseline, at 6 months, then annually)",
  },
  "valproate_liver.from0d": {
    level: "expert-set",
    source:
      "The labels ask for liver tests 'at frequent intervals' or 'periodically' in the first 6 months without an interval; every 2 months (61 days) is ours. US Depakote label (liver tests before and at frequent intervals, especially in the first 6 months; platelets before and periodically); SPS valproate monitoring (LFT and FBC at baseline, at 6 months, then annually)",
  },
  "valproate_liver.from182d": {
    level: "published cut-off",
    source:
      "At 6 months, then annually. US Depakote label (liver tests before and at frequent intervals, especially in the first 6 months; platelets before and periodically); SPS valproate monitoring (LFT and FBC at baseline, at 6 months, then annually)",
  },
  "valproate_liver.overdueLevel": { level: "expert-set", source: "After the first 6 months: low." },
  "valproate_liver.from0d.overdueLevel": {
    level: "expert-set",
    source:
      "US label boxed warning: hepatotoxicity, usually in the first 6 months; an overdue liver test then is moderate.",
  },
  "valproate_platelets.analytes": {
    level: "published cut-off",
    source: "Platelet count (thrombocytopenia; US label).",
  },
  "valproate_platelets.baseline": {
    level: "published cut-off",
    source:
      "US Depakote label (liver tests before and at frequent intervals, especially in the first 6 months; platelets before and periodically); SPS valproate monitoring (LFT and FBC at baseline, at 6 months, then annually)",
  },
  "valproate_platelets.from0d": {
    level: "published cut-off",
    source:
      "At 6 months. US Depakote label (liver tests before and at frequent intervals, especially in the first 6 months; platelets before and periodically); SPS valproate monitoring (LFT and FBC at baseline, at 6 months, then annually)",
  },
  "valproate_platelets.from182d": {
    level: "published cut-off",
    source:
      "Annually. US Depakote label (liver tests before and at frequent intervals, especially in the first 6 months; platelets before and periodically); SPS valproate monitoring (LFT and FBC at baseline, at 6 months, then annually)",
  },
  "valproate_platelets.overdueLevel": {
    level: "expert-set",
    source: "A routine test past its interval, no acute hazard named by the label: low.",
  },
  "carbamazepine_blood_count.analytes": {
    level: "published cut-off",
    source: "Full blood count: white cells, neutrophils or platelets (leucopenia; labels).",
  },
  "carbamazepine_blood_count.baseline": {
    level: "published cut-off",
    source:
      "SPS carbamazepine monitoring (FBC, U&E and LFT at baseline and at 6 months; U&E 6-monthly; LFT periodically); carbamazepine labels (blood count and liver function before and periodically)",
  },
  "carbamazepine_blood_count.from0d": {
    level: "published cut-off",
    source:
      "At 6 months. SPS carbamazepine monitoring (FBC, U&E and LFT at baseline and at 6 months; U&E 6-monthly; LFT periodically); carbamazepine labels (blood count and liver function before and periodically)",
  },
  "carbamazepine_blood_count.from182d": {
    level: "expert-set",
    source:
      "The labels say 'periodically'; yearly is ours. SPS carbamazepine monitoring (FBC, U&E and LFT at baseline and at 6 months; U&E 6-monthly; LFT periodically); carbamazepine labels (blood count and liver function before and periodically)",
  },
  "carbamazepine_blood_count.overdueLevel": {
    level: "expert-set",
    source: "A routine test past its interval, no acute hazard named by the label: low.",
  },
  "carbamazepine_liver.analytes": {
    level: "published cut-off",
    source: "Liver function tests (ALT or AST).",
  },
  "carbamazepine_liver.baseline": {
    level: "published cut-off",
    source:
      "SPS carbamazepine monitoring (FBC, U&E and LFT at baseline and at 6 months; U&E 6-monthly; LFT periodically); carbamazepine labels (blood count and liver function before and periodically)",
  },
  "carbamazepine_liver.from0d": {
    level: "published cut-off",
    source:
      "At 6 months. SPS carbamazepine monitoring (FBC, U&E and LFT at baseline and at 6 months; U&E 6-monthly; LFT periodically); carbamazepine labels (blood count and liver function before and periodically)",
  },
  "carbamazepine_liver.from182d": {
    level: "expert-set",
    source:
      "'Periodically'; yearly is ours. SPS carbamazepine monitoring (FBC, U&E and LFT at baseline and at 6 months; U&E 6-monthly; LFT periodically); carbamazepine labels (blood count and liver function before and periodically)",
  },
  "carbamazepine_liver.overdueLevel": {
    level: "expert-set",
    source: "A routine test past its interval, no acute hazard named by the label: low.",
  },
  "carbamazepine_sodium.analytes": {
    level: "published cut-off",
    source: "Serum sodium (hyponatraemia; labels).",
  },
  "carbamazepine_sodium.baseline": {
    level: "published cut-off",
    source:
      "SPS carbamazepine monitoring (FBC, U&E and LFT at baseline and at 6 months; U&E 6-monthly; LFT periodically); carbamazepine labels (blood count and liver function before and periodically)",
  },
  "carbamazepine_sodium.from0d": {
    level: "published cut-off",
    source:
      "U&E 6-monthly. SPS carbamazepine monitoring (FBC, U&E and LFT at baseline and at 6 months; U&E 6-monthly; LFT periodically); carbamazepine labels (blood count and liver function before and periodically)",
  },
  "carbamazepine_sodium.atRisk.from0d": {
    level: "published cut-off",
    source:
      "At about 2 weeks. UK Tegretol SmPC 4.4 as summarised by SPS carbamazepine monitoring: with renal impairment or a sodium-lowering medicine such as a diuretic, sodium after about 2 weeks, then monthly for the first 3 months, then by clinical need",
  },
  "carbamazepine_sodium.atRisk.from14d": {
    level: "published cut-off",
    source:
      "Monthly (30 days) for the first 3 months. UK Tegretol SmPC 4.4 as summarised by SPS carbamazepine monitoring: with renal impairment or a sodium-lowering medicine such as a diuretic, sodium after about 2 weeks, then monthly for the first 3 months, then by clinical need",
  },
  "carbamazepine_sodium.atRisk.from91d": {
    level: "expert-set",
    source:
      "After 3 months 'according to clinical need': back to 6-monthly. UK Tegretol SmPC 4.4 as summarised by SPS carbamazepine monitoring: with renal impairment or a sodium-lowering medicine such as a diuretic, sodium after about 2 weeks, then monthly for the first 3 months, then by clinical need",
  },
  "carbamazepine_sodium.overdueLevel": {
    level: "expert-set",
    source: "A routine test past its interval, no acute hazard named by the label: low.",
  },
  BASELINE_WINDOW_DAYS: {
    level: "expert-set",
    source:
      "A result from up to a month before the start is its baseline; the labels and guidelines say 'before starting' without a window.",
  },
  DUE_SOON_DAYS: {
    level: "expert-set",
    source: "A test due within a week is reported as due (low); a weekly test is therefore always due.",
  },
  BASELINE_ONLY_REPORT_DAYS: {
    level: "expert-set",
    source: "A missing baseline-only test (prolactin) is reported during the first year of treatment.",
  },
  LITHIUM_UNTIL_STABLE_DAYS: {
    level: "expert-set",
    source:
      "'Weekly until the levels are stable' (NICE CG185) read as the first 4 weeks after the start or a dose change: a steady state in about 5-7 days, then two to three weekly levels.",
  },
  LITHIUM_OLDER_AGE_YEARS: {
    level: "published cut-off",
    source:
      "SPS lithium monitoring: 'age 65 years and older' (NICE CG185 says 'older people' without an age).",
  },
  RENAL_IMPAIRMENT_EGFR_BELOW: {
    level: "derived",
    source:
      "KDIGO 2012 CKD guideline: GFR categories G3a-G5 (below 60 mL/min/1.73 m2) are decreased GFR; read as 'impaired renal function' for lithium levels (SPS names the risk without a number) and carbamazepine sodium.",
  },
  "lithium_level.atRisk.taking": {
    level: "published cut-off",
    source:
      "Drugs that raise lithium levels: ACE inhibitors, ARBs, thiazide and loop diuretics, NSAIDs (lithium labels, Drug Interactions; SPS). Read from the medicine model's classes; a topical NSAID does not count (decision 71).",
  },
  "lithium_level.atRisk.tsh": {
    level: "derived",
    source:
      "SPS 'at risk of impaired thyroid function', read as the newest dated TSH outside the analyte table's range (or flagged by the laboratory).",
  },
  "carbamazepine_sodium.atRisk.taking": {
    level: "published cut-off",
    source:
      "UK Tegretol SmPC 4.4 as summarised by SPS carbamazepine monitoring: with renal impairment or a sodium-lowering medicine such as a diuretic, sodium after about 2 weeks, then monthly for the first 3 months, then by clinical need.",
  },
};
