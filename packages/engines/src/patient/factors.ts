/**
 * Patient factors against the medicines taken: pregnancy and potential pregnancy
 * against teratogens, breastfeeding, renal function against renally cleared medicines, and
 * hepatic impairment, each read from the tables of factor-rules.ts. Ingredients are read from
 * the names as given by the checker's own name reader, so a brand or a combination product is
 * read as its ingredients. A fact a rule needs that was not given is said, never read as normal;
 * dose limits by age stay with the interaction checker (`doseCheckOptions`).
 *
 * Decisions this module follows (docs/decisions.md): 173, interactions are derived from properties,
 * the label pairs override, unknown is said; 189, the patient over time is one review every door
 * reads; 190, patient factors are tables, a fact not given is said; 197, what a missing fact
 * raises.
 */
import { propertiesOf } from "../knowledge/medicine-properties.js";
import { normaliseMedicationText, readEntry } from "../tools/drug-names.js";
import type { InteractionCheckOptions } from "../tools/interactions.js";
import { type PatientContext, patientAge } from "./context.js";
import {
  BREASTFEEDING_RULES,
  CHILDBEARING_AGE_SOURCE,
  CHILDBEARING_AGE_YEARS,
  FACTOR_NOT_EVALUATED_LEVEL,
  type FactorLevel,
  GENERIC_RENAL,
  GENERIC_TERATOGEN,
  HEPATIC_RULES,
  type HepaticGrade,
  KDIGO_GFR_CATEGORIES,
  KDIGO_SOURCE,
  MALE_RULES,
  RENAL_RULES,
  type RenalBand,
  type RenalMeasure,
  type RenalRule,
  TERATOGEN_RULES,
  type TeratogenRule,
} from "./factor-rules.js";
import type { PatientFinding, PatientReviewInput } from "./types.js";

/** The longest title a finding may carry (a card summary). */
export const FINDING_TITLE_MAX = 140;

const TERATOGEN_BY_INGREDIENT = new Map(TERATOGEN_RULES.map((rule) => [rule.ingredient, rule]));
const BREASTFEEDING_BY_INGREDIENT = new Map(BREASTFEEDING_RULES.map((rule) => [rule.ingredient, rule]));
const RENAL_BY_INGREDIENT = new Map(RENAL_RULES.map((rule) => [rule.ingredient, rule]));
const MALE_BY_INGREDIENT = new Map(MALE_RULES.map((rule) => [rule.ingredient, rule]));
const HEPATIC_BY_INGREDIENT = new Map(HEPATIC_RULES.map((rule) => [rule.ingredient, rule]));

/** The options every door passes to `checkInteractions`, so age-specific dose limits see one age. */
export function doseCheckOptions(patient: PatientContext | undefined, now: Date): InteractionCheckOptions {
  const age = patientAge(patient, now);
  const grade = patient?.hepaticImpairment;
  const hepatic = grade === "mild" || grade === "moderate" || grade === "severe";
  return { ...(age === null ? {} : { ageYears: age }), ...(hepatic ? { hepaticImpairment: true } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Reading the medicines

interface MedicinesRead {
  /** Canonical ingredient -> the names the caller gave that contain it, in input order. */
  byIngredient: Map<string, string[]>;
  /** Names in which no ingredient was recognised. */
  unrecognised: string[];
}

function readMedicines(input: PatientReviewInput): MedicinesRead {
  const byIngredient = new Map<string, string[]>();
  const unrecognised: string[] = [];
  for (const medicine of input.medicines) {
    const ingredients = readEntry(normaliseMedicationText(medicine.name)).ingredients;
    if (ingredients.length === 0) {
      if (!unrecognised.includes(medicine.name)) unrecognised.push(medicine.name);
      continue;
    }
    for (const ingredient of ingredients) {
      const names = byIngredient.get(ingredient) ?? [];
      if (!names.includes(medicine.name)) names.push(medicine.name);
      byIngredient.set(ingredient, names);
    }
  }
  return { byIngredient, unrecognised };
}

// ---------------------------------------------------------------------------------------------
// Wording

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A title within the card limit: cut at a word and marked as cut. */
function title(text: string): string {
  if (text.length <= FINDING_TITLE_MAX) return text;
  const cut = text.slice(0, FINDING_TITLE_MAX - 3);
  const space = cut.lastIndexOf(" ");
  return `${space > 40 ? cut.slice(0, space) : cut}...`;
}

/** "(from Observation/7)" when the fact came from the EHR, else "" (the caller's field). */
function from(patient: PatientContext, field: keyof NonNullable<PatientContext["sources"]>): string {
  const source = patient.sources?.[field];
  return source?.kind === "ehr" && source.reference !== undefined ? ` (from ${source.reference})` : "";
}

function list(items: readonly string[]): string {
  return items.join(", ");
}

function quoted(names: readonly string[]): string[] {
  return names.map((name) => `"${name}"`);
}

// ---------------------------------------------------------------------------------------------
// Pregnancy

/**
 * What the patient facts say about a pregnancy: stated pregnant or possibly
 * pregnant; stated not pregnant but of childbearing potential (a prevention programme may still
 * apply); not stated, for a female patient of childbearing or unknown age (a pregnancy cannot be
 * excluded) or for anyone else not known to be male; or no pregnancy to consider (a male patient
 * with nothing stated, or stated not pregnant outside the childbearing age band).
 */
type PregnancySituation =
  | { kind: "pregnant"; said: string }
  | { kind: "possible"; said: string }
  | { kind: "not_pregnant_childbearing"; said: string }
  | { kind: "unstated_childbearing"; said: string }
  | { kind: "unstated_other"; said: string }
  | { kind: "none" };

function inChildbearingBand(age: number | null): boolean {
  return age === null || (age >= CHILDBEARING_AGE_YEARS.min && age <= CHILDBEARING_AGE_YEARS.max);
}

function describeAge(age: number | null): string {
  return age === null ? "age not given" : `age ${age}`;
}

function pregnancySituation(patient: PatientContext, now: Date): PregnancySituation {
  const age = patientAge(patient, now);
  const status = patient.pregnancy;
  const sex = patient.sex;
  const band = `${CHILDBEARING_AGE_YEARS.min}-${CHILDBEARING_AGE_YEARS.max}`;
  // An explicit statement that the patient is or may be pregnant is read as stated, whatever
  // the recorded sex.
  if (status === "pregnant") return { kind: "pregnant", said: `pregnant${from(patient, "pregnancy")}` };
  if (status === "possible")
    return { kind: "possible", said: `may become pregnant${from(patient, "pregnancy")}` };
  if (sex === "male") return { kind: "none" };
  if (status === "not_pregnant") {
    return inChildbearingBand(age)
      ? {
          kind: "not_pregnant_childbearing",
          said: `not pregnant${from(patient, "pregnancy")}, ${describeAge(age)} (childbearing age band ${band} used here)`,
        }
      : { kind: "none" };
  }
  if (sex === "female" && inChildbearingBand(age)) {
    return {
      kind: "unstated_childbearing",
      said: `pregnancy status not given; female, ${describeAge(age)} (childbearing age band ${band} used here)`,
    };
  }
  if (sex === "female") {
    return {
      kind: "unstated_other",
      said: `pregnancy status not given; female, ${describeAge(age)}, outside the childbearing age band ${band} used here`,
    };
  }
  const sexSaid = sex === "other" ? "sex recorded as other" : "sex not given";
  return { kind: "unstated_other", said: `pregnancy status not given; ${sexSaid}, ${describeAge(age)}` };
}

function teratogenRuleOf(ingredient: string): TeratogenRule | undefined {
  const rule = TERATOGEN_BY_INGREDIENT.get(ingredient);
  if (rule !== undefined) return rule;
  if (propertiesOf(ingredient).teratogenic !== true) return undefined;
  return {
    ingredient,
    ...GENERIC_TERATOGEN,
    source:
      "Medicine model, teratogenic property (MHRA Drug Safety Updates; each product's label, Use in Pregnancy)",
    sourceChecked: false,
  };
}

function teratogenFinding(
  rule: TeratogenRule,
  names: string[],
  situation: Exclude<PregnancySituation, { kind: "none" }>,
): PatientFinding | null {
  const drug = capitalise(rule.ingredient);
  const base = { kind: "patient_factor" as const, medicines: names, source: rule.source };
  switch (situation.kind) {
    case "pregnant":
      return {
        ...base,
        rule: "teratogen_pregnancy",
        level: rule.pregnant,
        assessed: true,
        title: title(`${drug} in pregnancy: teratogenic`),
        detail: `Pregnancy: ${situation.said}. ${drug} carries a risk of ${rule.harm}. ${rule.asks}`,
      };
    case "possible":
      return {
        ...base,
        rule: "teratogen_potential_pregnancy",
        level: rule.potential,
        assessed: true,
        title: title(`${drug}: teratogenic, pregnancy possible`),
        detail: `Pregnancy: ${situation.said}. ${drug} carries a risk of ${rule.harm}. ${rule.asks}`,
      };
    case "unstated_childbearing":
      return {
        ...base,
        rule: "teratogen_pregnancy_unknown",
        level: rule.potential,
        assessed: false,
        title: title(`${drug}: teratogenic, pregnancy status unknown`),
        detail: `Pregnancy not evaluated: ${situation.said}, so a pregnancy cannot be excluded. ${drug} carries a risk of ${rule.harm}. ${rule.asks}`,
        source: `${rule.source}; childbearing age band: ${CHILDBEARING_AGE_SOURCE}`,
      };
    case "unstated_other":
      return {
        ...base,
        rule: "teratogen_pregnancy_unknown",
        level: FACTOR_NOT_EVALUATED_LEVEL,
        assessed: false,
        title: title(`${drug}: teratogenic, pregnancy status unknown`),
        detail: `Pregnancy not evaluated: ${situation.said}. ${drug} carries a risk of ${rule.harm} if taken in pregnancy. ${rule.asks}`,
      };
    case "not_pregnant_childbearing":
      if (rule.preventionProgramme === undefined) return null;
      return {
        ...base,
        rule: "teratogen_childbearing_potential",
        level: rule.preventionProgramme,
        assessed: true,
        title: title(`${drug}: childbearing potential, pregnancy prevention programme applies`),
        detail: `Pregnancy: ${situation.said}. ${drug} carries a risk of ${rule.harm}. ${rule.asks}`,
      };
  }
}

function pregnancyFindings(patient: PatientContext, read: MedicinesRead, now: Date): PatientFinding[] {
  const situation = pregnancySituation(patient, now);
  if (situation.kind === "none") return [];
  const findings: PatientFinding[] = [];
  const unknown: string[] = [];
  const unknownNames: string[] = [];
  for (const [ingredient, names] of read.byIngredient) {
    const rule = teratogenRuleOf(ingredient);
    if (rule !== undefined) {
      const finding = teratogenFinding(rule, names, situation);
      if (finding !== null) findings.push(finding);
    } else if (propertiesOf(ingredient).teratogenic === undefined) {
      unknown.push(ingredient);
      unknownNames.push(...names.filter((name) => !unknownNames.includes(name)));
    }
  }
  // Unknown teratogenicity is said where a pregnancy is stated (pregnant or possible); an unread
  // name is unknown too. Pregnancy not stated in a woman of childbearing age is screened for the
  // known teratogens only.
  const pregnancyInPlay = situation.kind === "pregnant" || situation.kind === "possible";
  if (pregnancyInPlay && (unknown.length > 0 || read.unrecognised.length > 0)) {
    const what = [...unknown, ...quoted(read.unrecognised)];
    const parts = [
      unknown.length > 0 ? `teratogenicity is not recorded for ${list(unknown)}` : "",
      read.unrecognised.length > 0
        ? `${list(quoted(read.unrecognised))} could not be read as a medicine`
        : "",
    ].filter((part) => part !== "");
    findings.push({
      kind: "patient_factor",
      rule: "teratogenicity_unknown",
      level: FACTOR_NOT_EVALUATED_LEVEL,
      assessed: false,
      title: title(`Pregnancy risk not evaluated: ${list(what)}`),
      detail: `Pregnancy: ${situation.said}. Not evaluated: ${parts.join("; ")}. Check each label's pregnancy section.`,
      medicines: [...unknownNames, ...read.unrecognised],
      source:
        "Medicine model, teratogenic property (absent is unknown, decision 173); each product's label, Use in Pregnancy",
    });
  }
  return findings;
}

/** Regulators' measures for male patients (valproate under 55), the age unknown counting as under. */
function maleFindings(patient: PatientContext, read: MedicinesRead, now: Date): PatientFinding[] {
  if (patient.sex !== "male") return [];
  const age = patientAge(patient, now);
  const findings: PatientFinding[] = [];
  for (const [ingredient, names] of read.byIngredient) {
    const rule = MALE_BY_INGREDIENT.get(ingredient);
    if (rule === undefined || (age !== null && age >= rule.belowAgeYears)) continue;
    findings.push({
      kind: "patient_factor",
      rule: "male_under_age",
      level: rule.level,
      assessed: age !== null,
      title: title(`${capitalise(ingredient)} in a male patient under ${rule.belowAgeYears}`),
      detail: `Sex: male${from(patient, "sex")}, ${describeAge(age)}${age === null ? ` (under ${rule.belowAgeYears} not excluded)` : ""}. ${rule.asks}`,
      medicines: names,
      source: rule.source,
    });
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------
// Breastfeeding

function breastfeedingFindings(patient: PatientContext, read: MedicinesRead): PatientFinding[] {
  const findings: PatientFinding[] = [];
  for (const [ingredient, names] of read.byIngredient) {
    const rule = BREASTFEEDING_BY_INGREDIENT.get(ingredient);
    if (rule === undefined) continue;
    if (patient.breastfeeding === true) {
      findings.push({
        kind: "patient_factor",
        rule: "breastfeeding",
        level: rule.level,
        assessed: true,
        title: title(`${capitalise(ingredient)} while breastfeeding`),
        detail: `Breastfeeding: yes${from(patient, "breastfeeding")}. ${rule.asks}`,
        medicines: names,
        source: rule.source,
      });
    }
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------
// Renal function

interface RenalValue {
  measure: RenalMeasure;
  value: number;
  /** "eGFR 25 mL/min/1.73 m2 (KDIGO G4, severely decreased)". */
  said: string;
}

function kdigoOf(egfr: number): { category: string; term: string } {
  return KDIGO_GFR_CATEGORIES.find((row) => egfr < row.below) ?? { category: "G1", term: "normal or high" };
}

/** The renal measures given, each once; a value that is not a finite number is not a value. */
function renalValues(patient: PatientContext): RenalValue[] {
  const values: RenalValue[] = [];
  if (patient.egfr !== undefined && Number.isFinite(patient.egfr)) {
    const kdigo = kdigoOf(patient.egfr);
    values.push({
      measure: "eGFR",
      value: patient.egfr,
      said: `eGFR ${patient.egfr} mL/min/1.73 m2${from(patient, "egfr")} (KDIGO ${kdigo.category}, ${kdigo.term})`,
    });
  }
  if (patient.creatinineClearance !== undefined && Number.isFinite(patient.creatinineClearance)) {
    values.push({
      measure: "creatinine clearance",
      value: patient.creatinineClearance,
      said: `creatinine clearance ${patient.creatinineClearance} mL/min${from(patient, "creatinineClearance")}`,
    });
  }
  return values;
}

function renalRuleOf(ingredient: string): RenalRule | undefined {
  const rule = RENAL_BY_INGREDIENT.get(ingredient);
  if (rule !== undefined) return rule;
  return propertiesOf(ingredient).renal === true ? { ingredient, ...GENERIC_RENAL } : undefined;
}

const LEVEL_RANK: Readonly<Record<FactorLevel, number>> = { low: 1, moderate: 2, high: 3 };

/**
 * The band each given measure falls in, the worst kept: a label's cut-off is read
 * against either measure, the other one named as read in its place, so the worse of two
 * disagreeing measures is never outweighed by the better.
 */
function worstBand(
  rule: RenalRule,
  values: readonly RenalValue[],
): { band: RenalBand; value: RenalValue } | null {
  let worst: { band: RenalBand; value: RenalValue } | null = null;
  for (const value of values) {
    const band = rule.bands.find((b) => value.value < b.below);
    if (band === undefined) continue;
    const better =
      worst === null ||
      LEVEL_RANK[band.level] > LEVEL_RANK[worst.band.level] ||
      (LEVEL_RANK[band.level] === LEVEL_RANK[worst.band.level] && value.measure === rule.measure);
    if (better) worst = { band, value };
  }
  return worst;
}

function renalFindings(patient: PatientContext, read: MedicinesRead): PatientFinding[] {
  const values = renalValues(patient);
  const findings: PatientFinding[] = [];
  const notGiven: { ingredient: string; names: string[] }[] = [];
  const unknown: { ingredient: string; names: string[] }[] = [];
  for (const [ingredient, names] of read.byIngredient) {
    const rule = renalRuleOf(ingredient);
    if (rule === undefined) {
      if (propertiesOf(ingredient).renal === undefined) unknown.push({ ingredient, names });
      continue;
    }
    if (values.length === 0) {
      notGiven.push({ ingredient, names });
      continue;
    }
    const hit = worstBand(rule, values);
    if (hit === null) continue;
    const inPlace =
      hit.value.measure === rule.measure ? "" : `, read in place of ${rule.measure} (the label's measure)`;
    const cut = `${hit.band.below} ${rule.measure === "eGFR" ? "mL/min/1.73 m2" : "mL/min"}`;
    findings.push({
      kind: "patient_factor",
      rule: "renal_impairment",
      level: hit.band.level,
      assessed: true,
      title: title(
        `${capitalise(ingredient)} at ${hit.value.measure} ${hit.value.value}: below the label's renal cut-off of ${hit.band.below}`,
      ),
      detail: `Renal function: ${hit.value.said}${inPlace}: below the label's cut-off of ${cut}. ${hit.band.asks}`,
      medicines: names,
      analyte: hit.value.measure === "eGFR" ? "egfr" : "creatinine_clearance",
      source: hit.value.measure === "eGFR" ? `${rule.source}; ${KDIGO_SOURCE}` : rule.source,
    });
  }
  if (notGiven.length > 0) {
    const ingredients = notGiven.map((item) => item.ingredient);
    findings.push({
      kind: "patient_factor",
      rule: "renal_function_unknown",
      level: FACTOR_NOT_EVALUATED_LEVEL,
      assessed: false,
      title: title(`Renal function not given: ${list(ingredients)}`),
      detail: `Not evaluated: renal function not given (neither eGFR nor creatinine clearance), and ${list(ingredients)} ${ingredients.length === 1 ? "is" : "are"} renally eliminated with a dose rule in renal impairment.`,
      medicines: notGiven.flatMap((item) => item.names),
      source: [
        ...new Set(notGiven.map((item) => renalRuleOf(item.ingredient)?.source ?? GENERIC_RENAL.source)),
      ].join("; "),
    });
  }
  // Where renal function is decreased, a medicine whose renal elimination is not recorded (or a
  // name that could not be read) is said, not passed as safe.
  const decreased = values.find((value) => value.value < (GENERIC_RENAL.bands[0]?.below ?? 60));
  if (decreased !== undefined && (unknown.length > 0 || read.unrecognised.length > 0)) {
    const what = [...unknown.map((item) => item.ingredient), ...quoted(read.unrecognised)];
    findings.push({
      kind: "patient_factor",
      rule: "renal_elimination_unknown",
      level: FACTOR_NOT_EVALUATED_LEVEL,
      assessed: false,
      title: title(`Renal dosing not evaluated: ${list(what)}`),
      detail: `Renal function: ${decreased.said}. Not evaluated: renal elimination is not recorded for ${list(what)}; check each label's renal impairment section.`,
      medicines: [...unknown.flatMap((item) => item.names), ...read.unrecognised],
      source: "Medicine model, renal property (absent is unknown, decision 173)",
    });
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------
// Hepatic impairment

function hepaticFindings(patient: PatientContext, read: MedicinesRead): PatientFinding[] {
  const grade = patient.hepaticImpairment;
  const findings: PatientFinding[] = [];
  const notGiven: { ingredient: string; names: string[]; source: string }[] = [];
  for (const [ingredient, names] of read.byIngredient) {
    const rule = HEPATIC_BY_INGREDIENT.get(ingredient);
    if (rule === undefined) continue;
    // Hepatic impairment is a fact stated when present: not given, no finding;
    // stated as unknown, the rule is said to be not evaluated.
    if (grade === undefined) continue;
    if (grade === "unknown") {
      notGiven.push({ ingredient, names, source: rule.source });
      continue;
    }
    if (grade === "none") continue;
    const level = rule.levels[grade as HepaticGrade];
    if (level === undefined) continue;
    findings.push({
      kind: "patient_factor",
      rule: "hepatic_impairment",
      level,
      assessed: true,
      title: title(`${capitalise(ingredient)} in ${grade} hepatic impairment`),
      detail: `Hepatic impairment: ${grade}${from(patient, "hepaticImpairment")}. ${rule.asks}`,
      medicines: names,
      source: rule.source,
    });
  }
  if (notGiven.length > 0) {
    const ingredients = notGiven.map((item) => item.ingredient);
    findings.push({
      kind: "patient_factor",
      rule: "hepatic_function_unknown",
      level: FACTOR_NOT_EVALUATED_LEVEL,
      assessed: false,
      title: title(`Hepatic function unknown: ${list(ingredients)}`),
      detail: `Not evaluated: hepatic impairment stated as unknown, and the label of ${list(ingredients)} gives a rule in hepatic impairment.`,
      medicines: notGiven.flatMap((item) => item.names),
      source: notGiven.map((item) => item.source).join("; "),
    });
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------

/**
 * Every patient-factor finding for the medicines taken, in the order pregnancy,
 * breastfeeding, renal, hepatic; `reviewPatient` sorts the review by level.
 */
export function patientFactorFindings(input: PatientReviewInput): PatientFinding[] {
  const patient = input.patient ?? {};
  const read = readMedicines(input);
  if (read.byIngredient.size === 0 && read.unrecognised.length === 0) return [];
  return [
    ...pregnancyFindings(patient, read, input.now),
    ...maleFindings(patient, read, input.now),
    ...breastfeedingFindings(patient, read),
    ...renalFindings(patient, read),
    ...hepaticFindings(patient, read),
  ];
}
