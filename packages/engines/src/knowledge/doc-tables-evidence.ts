/**
 * The generated tables of docs/engines/evidence.md (decision 217): every figure printed from the
 * table that holds it, beside the evidence level and source that table (or its side table keyed by
 * the same names) holds. The page's prose stays hand-written; doc-tables.ts writes the blocks.
 */

import { BIOMARKER_DEFAULT_PARAMS } from "../biomarker.js";
import { DMSE_DEFAULT_PARAMS, DMSE_PLAUSIBLE_LIMITS } from "../dmse.js";
import { UNKNOWN_SCALE_CHANGE_PP } from "../judgement.js";
import { MEDICATION_DEFAULT_PARAMS } from "../medication.js";
import { OUTCOME_DEFAULT_PARAMS } from "../outcome.js";
import {
  BREASTFEEDING_RULES,
  CHILDBEARING_AGE_YEARS,
  FACTOR_NOT_EVALUATED_LEVEL,
  GENERIC_RENAL,
  GENERIC_TERATOGEN,
  HEPATIC_RULES,
  MALE_RULES,
  RENAL_RULES,
  TERATOGEN_RULES,
} from "../patient/factor-rules.js";
import { OFF_MEDICATION_PRODROME, RELAPSE_DEFAULT_PARAMS } from "../relapse.js";
import { UNREAD_SCALE_CONFIDENCE_CAP, UNREAD_SCALE_CONFIDENCE_SCORE_CAP } from "../symptom-findings.js";
import { ANALYTES, type AnalyteMeasure, type CriticalLimit } from "./analytes.js";
import {
  INSTRUMENT_EVIDENCE,
  INSTRUMENT_IDS,
  INSTRUMENT_RULE_EVIDENCE,
  INSTRUMENTS,
  type InstrumentEvidence,
  type InstrumentRule,
} from "./instruments.js";
import { markdownTable } from "./markdown-table.js";
import {
  BASELINE_ONLY_REPORT_DAYS,
  BASELINE_WINDOW_DAYS,
  DUE_SOON_DAYS,
  LITHIUM_OLDER_AGE_YEARS,
  LITHIUM_UNTIL_STABLE_DAYS,
  MONITORING_SCHEDULE_EVIDENCE,
  MONITORING_SCHEDULES,
  RENAL_IMPAIRMENT_EGFR_BELOW,
} from "./monitoring-schedules.js";
import {
  BIOMARKER_PARAMETER_EVIDENCE,
  DMSE_PARAMETER_EVIDENCE,
  DMSE_PLAUSIBLE_LIMITS_EVIDENCE,
  type Evidence,
  type EvidenceOf,
  MEDICATION_PARAMETER_EVIDENCE,
  OFF_MEDICATION_PRODROME_EVIDENCE,
  OUTCOME_PARAMETER_EVIDENCE,
  RELAPSE_PARAMETER_EVIDENCE,
  STALENESS_EVIDENCE,
  type StalenessConstants,
} from "./parameter-evidence.js";
import { PATIENT_FACTOR_EVIDENCE } from "./patient-factor-evidence.js";
import {
  STALE_CONFIDENCE_CAP,
  STALE_CONFIDENCE_SCORE_CAP,
  SYMPTOM_SCORE_STALE_AFTER_DAYS,
} from "./staleness.js";

/** One row of a constant table: the name, the value as printed, and its evidence. */
export interface ConstantRow extends Evidence {
  constant: string;
  value: string;
}

/** The page's constant table: Constant, Value, Level, Source. */
export function constantTable(rows: readonly ConstantRow[]): string {
  return markdownTable(
    ["Constant", "Value", "Level", "Source"],
    rows.map((r) => [`\`${r.constant}\``, r.value, r.level, r.source]),
  );
}

/** A parameter table's rows: each value beside its evidence, in the table's key order. */
export function parameterRows<T extends object>(values: T, evidence: EvidenceOf<T>): ConstantRow[] {
  return (Object.keys(values) as (keyof T & string)[]).map((key) => ({
    constant: key,
    value: String(values[key]),
    ...evidence[key],
  }));
}

/** The rows of a table whose evidence is keyed by constant name; a value without evidence throws. */
function keyedRows(values: ReadonlyMap<string, string>, evidence: Readonly<Record<string, Evidence>>) {
  return [...values].map(([constant, value]) => {
    const found = evidence[constant];
    if (found === undefined) throw new Error(`${constant} has no evidence`);
    return { constant, value, ...found };
  });
}

const STALENESS: StalenessConstants = {
  SYMPTOM_SCORE_STALE_AFTER_DAYS,
  STALE_CONFIDENCE_CAP,
  STALE_CONFIDENCE_SCORE_CAP,
};

/** Each engine's parameter table with its evidence, by the block's name. */
export const ENGINE_PARAMETER_TABLES: Readonly<Record<string, () => ConstantRow[]>> = {
  staleness: () => parameterRows(STALENESS, STALENESS_EVIDENCE),
  "outcome-parameters": () => parameterRows(OUTCOME_DEFAULT_PARAMS, OUTCOME_PARAMETER_EVIDENCE),
  "relapse-parameters": () => parameterRows(RELAPSE_DEFAULT_PARAMS, RELAPSE_PARAMETER_EVIDENCE),
  "relapse-off-medication": () => parameterRows(OFF_MEDICATION_PRODROME, OFF_MEDICATION_PRODROME_EVIDENCE),
  "medication-parameters": () => parameterRows(MEDICATION_DEFAULT_PARAMS, MEDICATION_PARAMETER_EVIDENCE),
  "dmse-parameters": () => parameterRows(DMSE_DEFAULT_PARAMS, DMSE_PARAMETER_EVIDENCE),
  "dmse-plausible-limits": () => parameterRows(DMSE_PLAUSIBLE_LIMITS, DMSE_PLAUSIBLE_LIMITS_EVIDENCE),
  "biomarker-parameters": () => parameterRows(BIOMARKER_DEFAULT_PARAMS, BIOMARKER_PARAMETER_EVIDENCE),
};

// ---------------------------------------------------------------------------------------------
// Instruments

/** The instruments' figures with their evidence, per instrument in table order. */
function instrumentFigureRows(): ConstantRow[] {
  const rows: ConstantRow[] = [];
  for (const id of INSTRUMENT_IDS) {
    const k = INSTRUMENTS[id];
    const evidence: InstrumentEvidence = INSTRUMENT_EVIDENCE[id];
    const figures: [keyof InstrumentEvidence, string | null][] = [
      ["direction", k.direction],
      ["maxScore", String(k.totalMax)],
      ["bands", k.bands.map((b) => `${b.min}-${b.max}`).join("/")],
      ["casenessMin", k.casenessMin === null ? null : String(k.casenessMin)],
      ["reliableChangePoints", k.reliableChangePoints === null ? null : String(k.reliableChangePoints)],
    ];
    for (const [field, value] of figures) {
      const found = evidence[field];
      if (found !== undefined && value !== null) rows.push({ constant: `${id}.${field}`, value, ...found });
    }
  }
  return rows;
}

/** Instruments grouped by a value, "a, b value; c other", skipping those the value leaves out. */
function grouped(values: readonly [string, string | null][]): string {
  const groups = new Map<string, string[]>();
  for (const [id, value] of values) if (value !== null) groups.set(value, [...(groups.get(value) ?? []), id]);
  return [...groups].map(([value, ids]) => `${ids.join(", ")} ${value}`).join("; ");
}

/** The rules every instrument shares, with the value each reads from the table now. */
function instrumentRuleValues(): { readonly [K in InstrumentRule]: string } {
  const ids = INSTRUMENT_IDS;
  const fractional = ids.filter((id) => !INSTRUMENTS[id].wholeNumberTotals);
  const notZero = ids.filter((id) => INSTRUMENTS[id].totalMin !== 0);
  const withRiskItems = ids.filter((id) => INSTRUMENTS[id].riskItems.length > 0);
  const notScreened = ids.filter((id) => INSTRUMENTS[id].riskNotScreened !== undefined);
  return {
    UNKNOWN_SCALE_CHANGE_PP: String(UNKNOWN_SCALE_CHANGE_PP),
    wholeNumberTotals: `true (all except ${fractional.join(", ")})`,
    severeBandKey: `${grouped(ids.map((id) => [id, INSTRUMENTS[id].severeBandKey]))}; others none`,
    UNREAD_SCALE_CONFIDENCE_CAP,
    UNREAD_SCALE_CONFIDENCE_SCORE_CAP: String(UNREAD_SCALE_CONFIDENCE_SCORE_CAP),
    // Rules of the engines' reading, not figures of a table.
    bestPointDeterioration: "latest vs best earlier score",
    callerSeverity: '"severe" / "very severe" / "extremely severe" / "extreme"',
    totalMin: `0; ${notZero.map((id) => `${id} ${INSTRUMENTS[id].totalMin}`).join(", ")}`,
    riskItems: withRiskItems
      .map((id) => `${id} ${INSTRUMENTS[id].riskItems.map((r) => r.item).join("/")}`)
      .join(", "),
    // The level of a risk left unscreened is the shared not-evaluated level (decision 80).
    riskNotScreened: `${notScreened.join(", ")}: low`,
  };
}

/** docs/engines/evidence.md, "Instruments": every instrument's figures, then the shared rules. */
export function instrumentsEvidenceBlock(): string {
  const rules = instrumentRuleValues();
  const ruleRows = (Object.keys(rules) as InstrumentRule[]).map((rule) => ({
    constant: rule,
    value: rules[rule],
    ...INSTRUMENT_RULE_EVIDENCE[rule],
  }));
  return constantTable([...instrumentFigureRows(), ...ruleRows]);
}

// ---------------------------------------------------------------------------------------------
// Analytes

function bounds(range: { low: number | null; high: number | null }): string {
  if (range.low !== null && range.high !== null) return `${range.low}-${range.high}`;
  if (range.high !== null) return `<= ${range.high}`;
  return `>= ${range.low}`;
}

/**
 * A conversion factor as printed: a factor computed from a molar mass (0.1442169...) to four
 * significant digits, an exact one (0.45359237 for the pound) as written.
 */
function factor(value: number): string {
  const digits = String(value)
    .replace(/^0\.0*/, "")
    .replace(".", "");
  return digits.length > 8 ? String(Number(value.toPrecision(4))) : String(value);
}

function rangeCell(m: AnalyteMeasure): string {
  if (m.noRange !== undefined) return `none: ${m.noRange}`;
  if (m.rangeKind === "therapeutic" && m.therapeutic !== undefined) {
    const ranges = m.therapeutic.map((t) => `${t.indication} ${bounds(t)}`).join("; ");
    return `therapeutic: ${ranges} — ${m.therapeutic.map((t) => t.source).join("; ")}`;
  }
  return m.reference === undefined ? "none" : `reference: ${bounds(m.reference)} — ${m.reference.source}`;
}

function criticalCell(m: AnalyteMeasure): string {
  const limit = (l: CriticalLimit, below: boolean) =>
    `${below ? "<" : ">"}${l.inclusive ? "=" : ""} ${l.value} (${l.source})`;
  const parts = [
    ...(m.criticalLow ? [limit(m.criticalLow, true)] : []),
    ...(m.criticalHigh ? [limit(m.criticalHigh, false)] : []),
  ];
  return parts.length === 0 ? "none" : parts.join("; ");
}

/** docs/engines/evidence.md, "Analyte table": every analyte with a measurement row. */
export function analytesEvidenceBlock(): string {
  const rows = ANALYTES.flatMap((entry) => {
    const m = entry.measure;
    if (m === undefined) return [];
    const units = m.units.map(
      (u) => `${u.ucum} x${factor(u.toCanonical)}${u.offset === undefined ? "" : ` + ${u.offset}`}`,
    );
    return [
      [
        `\`${entry.key}\``,
        m.displayUnit,
        units.join(", "),
        `${m.plausible.low}-${m.plausible.high}`,
        rangeCell(m),
        criticalCell(m),
      ],
    ];
  });
  return markdownTable(
    [
      "Analyte",
      "Canonical",
      "Units (x factor)",
      "Plausible (expert-set)",
      "Range (published) and source",
      "Critical (published) and source",
    ],
    rows,
  );
}

// ---------------------------------------------------------------------------------------------
// Monitoring schedules

/** Every figure of the monitoring table, by the name the page prints it under. */
export function monitoringFigures(): Map<string, string> {
  const figures = new Map<string, string>();
  for (const row of MONITORING_SCHEDULES) {
    figures.set(`${row.id}.analytes`, row.analytes.join(", "));
    figures.set(`${row.id}.baseline`, row.baseline ? "yes" : "no");
    for (const p of row.phases) {
      figures.set(`${row.id}.from${p.fromDay}d`, `${p.intervalDays} d`);
      if (p.overdueLevel) figures.set(`${row.id}.from${p.fromDay}d.overdueLevel`, p.overdueLevel);
    }
    for (const p of row.atRisk?.phases ?? [])
      figures.set(`${row.id}.atRisk.from${p.fromDay}d`, `${p.intervalDays} d`);
    for (const risk of row.atRisk?.risks ?? []) {
      if (risk.kind === "taking_class") figures.set(`${row.id}.atRisk.taking`, risk.classes.join(", "));
      if (risk.kind === "analyte_out_of_range")
        figures.set(`${row.id}.atRisk.${risk.analyte}`, "outside range");
    }
    if (row.afterDoseChange)
      figures.set(
        `${row.id}.afterDoseChange`,
        `${row.afterDoseChange.intervalDays} d to day ${row.afterDoseChange.untilDay}`,
      );
    figures.set(`${row.id}.overdueLevel`, row.overdueLevel);
  }
  figures.set("BASELINE_WINDOW_DAYS", String(BASELINE_WINDOW_DAYS));
  figures.set("DUE_SOON_DAYS", String(DUE_SOON_DAYS));
  figures.set("BASELINE_ONLY_REPORT_DAYS", String(BASELINE_ONLY_REPORT_DAYS));
  figures.set("LITHIUM_UNTIL_STABLE_DAYS", String(LITHIUM_UNTIL_STABLE_DAYS));
  figures.set("LITHIUM_OLDER_AGE_YEARS", String(LITHIUM_OLDER_AGE_YEARS));
  figures.set("RENAL_IMPAIRMENT_EGFR_BELOW", String(RENAL_IMPAIRMENT_EGFR_BELOW));
  return figures;
}

/** docs/engines/evidence.md, "Monitoring schedules". */
export function monitoringEvidenceBlock(): string {
  return constantTable(keyedRows(monitoringFigures(), MONITORING_SCHEDULE_EVIDENCE));
}

// ---------------------------------------------------------------------------------------------
// Patient factors

/** Every value of the patient-factor rules, by the name the page prints it under. */
export function patientFactorFigures(): Map<string, string> {
  const rows = new Map<string, string>();
  rows.set("CHILDBEARING_AGE_YEARS.min", String(CHILDBEARING_AGE_YEARS.min));
  rows.set("CHILDBEARING_AGE_YEARS.max", String(CHILDBEARING_AGE_YEARS.max));
  rows.set("FACTOR_NOT_EVALUATED_LEVEL", FACTOR_NOT_EVALUATED_LEVEL);
  for (const rule of TERATOGEN_RULES) {
    rows.set(`${rule.ingredient}.pregnant`, rule.pregnant);
    rows.set(`${rule.ingredient}.potential`, rule.potential);
    if (rule.preventionProgramme !== undefined)
      rows.set(`${rule.ingredient}.preventionProgramme`, rule.preventionProgramme);
  }
  rows.set("GENERIC_TERATOGEN.pregnant", GENERIC_TERATOGEN.pregnant);
  rows.set("GENERIC_TERATOGEN.potential", GENERIC_TERATOGEN.potential);
  for (const rule of BREASTFEEDING_RULES) rows.set(`${rule.ingredient}.breastfeeding`, rule.level);
  const unit = (measure: string) => (measure === "eGFR" ? "mL/min/1.73 m2" : "mL/min");
  for (const rule of [...RENAL_RULES, { ingredient: "GENERIC_RENAL", ...GENERIC_RENAL }]) {
    for (const band of rule.bands)
      rows.set(
        `${rule.ingredient}.renal.below${band.below}`,
        `< ${band.below} ${unit(rule.measure)}: ${band.level}`,
      );
  }
  for (const rule of HEPATIC_RULES) {
    const grades = (["mild", "moderate", "severe"] as const).map((g) => `${g} ${rule.levels[g] ?? "none"}`);
    rows.set(`${rule.ingredient}.hepatic`, grades.join(", "));
  }
  for (const rule of MALE_RULES) rows.set(`${rule.ingredient}.maleBelowAge${rule.belowAgeYears}`, rule.level);
  return rows;
}

/** docs/engines/evidence.md, "Patient factors". */
export function patientFactorsEvidenceBlock(): string {
  return constantTable(keyedRows(patientFactorFigures(), PATIENT_FACTOR_EVIDENCE));
}
