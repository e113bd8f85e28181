/**
 * checkInteractions: the medication agent's deterministic tool. It reads free-text medication
 * entries ("Sertraline 100 mg", "Zoloft"), maps each to a canonical ingredient, and reports every
 * rule of the knowledge base that matches a pair of them, with the severity the rule assigns.
 * Unrecognised entries are listed and never read as "no interaction". Pure and deterministic.
 * Method, severity scale, every rule with its source: docs/engines/interactions.md.
 *
 * Decisions this module follows (docs/decisions.md): 68, medication entries: every ingredient,
 * every word; 70, QT risk by CredibleMeds category, and label dose limits; 71, topical NSAIDs with
 * lithium are low; 80, not evaluated is never `none`; 173, interactions are derived from
 * properties, the label pairs override, unknown is said; 174, label dose limits for every
 * ingredient whose label states one.
 */

import {
  type DrugSelector,
  INTERACTION_RULES,
  type InteractionGroup,
  type InteractionRule,
  type InteractionSeverity,
} from "../knowledge/interaction-rules.js";
import { DAILY_DOSE_LIMITS, type SelectableClass } from "../knowledge/medicines.js";
import {
  type DerivedFinding,
  derivePair,
  type UnknownProperty,
  unknownPropertyText,
} from "./derived-interactions.js";
import { INGREDIENTS, ingredientEntry, normaliseMedicationText, readEntry } from "./drug-names.js";
import {
  type AgentRisk,
  type AgentRiskLevel,
  higherRiskLevel,
  type NotEvaluatedItem,
  riskWithNotEvaluated,
  ToolInputError,
} from "./types.js";

export type {
  DrugSelector,
  InteractionGroup,
  InteractionRule,
  InteractionSeverity,
} from "../knowledge/interaction-rules.js";
export { INTERACTION_RULES } from "../knowledge/interaction-rules.js";
export { DERIVED_RULES } from "./derived-interactions.js";
export type { DrugClass, IngredientEntry } from "./drug-names.js";
export { DRUG_CLASSES, INGREDIENTS } from "./drug-names.js";

export interface MedicationDose {
  value: number;
  unit: string;
}

export interface ParsedMedication {
  /** The entry as given, trimmed. */
  input: string;
  /** Canonical lower-case generic name. */
  ingredient: string;
  /** Dose written in the entry, or null (also null when one entry names several ingredients). */
  dose: MedicationDose | null;
  /** RxNorm ingredient RxCUI, only where verified; otherwise null. */
  rxnormIngredient: string | null;
}

export interface MedicationInteraction {
  /** Stable rule id, e.g. "serotonergic-tramadol". */
  id: string;
  /** Ingredient names as recognised; `a` is the one listed first in the input. */
  a: string;
  b: string;
  severity: InteractionSeverity;
  mechanism: string;
  recommendation: string;
  source: string;
}

/** A written dose above a label maximum. */
export interface DoseAlert {
  ingredient: string;
  /** The entry as given, trimmed. */
  input: string;
  /** The written dose times the written frequency, in mg per day. */
  dailyMg: number;
  /** The label maximum that applies, in mg per day. */
  maximumMg: number;
  severity: InteractionSeverity;
  /** The risk label, e.g. "citalopram 60 mg/day: above the 40 mg/day label maximum (...)". */
  label: string;
}

export interface InteractionCheckOptions {
  /** Patient age in years, when known; some label dose limits depend on it. */
  ageYears?: number;
  /** Hepatic impairment stated by the caller or the EHR; any grade applies a label's hepatic maximum. */
  hepaticImpairment?: boolean;
}

export interface InteractionCheck {
  interactions: MedicationInteraction[];
  /** Canonical ingredient names, in input order, each once. */
  recognized: string[];
  /** Entries (trimmed) that named no known ingredient. */
  unrecognized: string[];
  /** One entry per recognised ingredient mention, in input order. */
  medications: ParsedMedication[];
  risk: AgentRisk;
  /** Written doses above a label maximum (citalopram), each also a risk label and a warning. */
  doseAlerts: DoseAlert[];
  /** Additive: dose limits that could not be checked (an age-dependent maximum with the age not given). */
  doseNotChecked: NotEvaluatedItem[];
  warnings: string[];
  /**
   * True only when at least one entry was given and every entry was recognised in full: an entry
   * with a word that is neither part of a known name nor a form, strength or timing word is
   * partly recognised and makes the check incomplete.
   */
  complete: boolean;
}

/** The most entries one call accepts (the agent endpoint's bound). */
export const MAX_MEDICATIONS = 50;

// ---------------------------------------------------------------------------------------------
// Parsing one entry

/** Unit spellings -> the unit reported. */
const DOSE_UNITS: Readonly<Record<string, string>> = {
  mg: "mg",
  mcg: "mcg",
  ug: "mcg",
  microgram: "mcg",
  micrograms: "mcg",
  g: "g",
  gram: "g",
  grams: "g",
  ml: "ml",
  unit: "units",
  units: "units",
  iu: "units",
};

const DOSE_PATTERN = new RegExp(
  `(?:^|\\s)(\\d+(?:\\.\\d+)?)\\s?(${Object.keys(DOSE_UNITS).join("|")})(?=\\s|$)`,
);

/** The first "number unit" in normalised text ("100mg", "2.5 mg", "400 micrograms"), or null. */
function readDose(normalisedText: string): MedicationDose | null {
  const match = DOSE_PATTERN.exec(normalisedText);
  if (match === null) return null;
  const value = Number(match[1]);
  const unit = DOSE_UNITS[match[2] ?? ""];
  return Number.isFinite(value) && unit !== undefined ? { value, unit } : null;
}

function parsedMedication(input: string, ingredient: string, dose: MedicationDose | null): ParsedMedication {
  return { input, ingredient, dose, rxnormIngredient: ingredientEntry(ingredient)?.rxcui ?? null };
}

/** One entry as read: its medications, the words not recognised, its route and daily frequency. */
interface ParsedEntry {
  input: string;
  medications: ParsedMedication[];
  unrecognizedWords: string[];
  topical: boolean;
  /** Doses per day written in the entry ("bd" = 2, "2 x 20 mg bd" = 4), 1 when none is written. */
  timesPerDay: number;
}

/** Frequency words -> administrations per day. */
const TIMES_PER_DAY: Readonly<Record<string, number>> = {
  bd: 2,
  bid: 2,
  twice: 2,
  tds: 3,
  tid: 3,
  qds: 4,
  qid: 4,
};

/** "2 x 20 mg": a count of units written before the dose. */
const UNITS_BEFORE_DOSE = /(?:^|\s)(\d+)\s?x\s?\d/;

/** Administrations per day times units per administration written in the entry, 1 when none is written. */
function timesPerDay(normalisedText: string): number {
  const units = Number(UNITS_BEFORE_DOSE.exec(normalisedText)?.[1] ?? 1);
  for (const token of normalisedText.split(" ")) {
    const times = TIMES_PER_DAY[token];
    if (times !== undefined) return times * units;
  }
  return units;
}

/** Every ingredient one entry names (a combination product gives each), with the dose when there is exactly one. */
function parseEntry(text: string): ParsedEntry {
  const input = text.trim();
  const normalised = normaliseMedicationText(input);
  const reading = readEntry(normalised);
  const dose = reading.ingredients.length === 1 ? readDose(normalised) : null;
  return {
    input,
    medications: reading.ingredients.map((ingredient) => parsedMedication(input, ingredient, dose)),
    unrecognizedWords: reading.ingredients.length === 0 ? [] : reading.unrecognizedWords,
    topical: reading.topical,
    timesPerDay: timesPerDay(normalised),
  };
}

/**
 * One medication entry read as its canonical ingredient and optional dose: "Lithium carbonate
 * 400mg" -> lithium, 400 mg; "Zoloft" -> sertraline. Null when no known ingredient is named (an
 * empty or unknown string). An entry naming several ingredients (a combination product such as
 * "Hyzaar 50/12.5") returns the first, without a dose; checkInteractions reads every one.
 */
export function parseMedication(text: string): ParsedMedication | null {
  return parseEntry(text).medications[0] ?? null;
}

/** Canonical names of every ingredient the checker recognises, sorted. */
export function listKnownIngredients(): string[] {
  return INGREDIENTS.map((item) => item.ingredient).sort();
}

// ---------------------------------------------------------------------------------------------
// Matching rules to pairs

const SEVERITY_RANK: Readonly<Record<InteractionSeverity, number>> = { low: 1, moderate: 2, high: 3 };

/** One recognised ingredient as the rules see it: its classes, with the route applied. */
interface Member {
  ingredient: string;
  classes: ReadonlySet<SelectableClass>;
}

function matchesSelector(
  ingredient: string,
  classes: ReadonlySet<SelectableClass>,
  selector: DrugSelector,
): boolean {
  if (selector.ingredients?.includes(ingredient)) return true;
  return selector.classes?.some((drugClass) => classes.has(drugClass)) ?? false;
}

function ruleMatchesPair(rule: InteractionRule, first: Member, second: Member): boolean {
  const forward =
    matchesSelector(first.ingredient, first.classes, rule.a) &&
    matchesSelector(second.ingredient, second.classes, rule.b);
  if (forward) return true;
  return (
    matchesSelector(second.ingredient, second.classes, rule.a) &&
    matchesSelector(first.ingredient, first.classes, rule.b)
  );
}

/**
 * The rules reported for one pair: the explicit rules and the rules derived from the two
 * ingredients' properties; per group, the most severe match (the first listed on a
 * tie, explicit before derived). A derived finding is dropped when an explicit rule of the same
 * harm (its `overriddenBy` groups) matched the pair: the label pair is the sourced override.
 */
function rulesForPair(
  first: Member,
  second: Member,
): { rules: InteractionRule[]; unknown: UnknownProperty[] } {
  const byGroup = new Map<InteractionGroup, InteractionRule>();
  const keep = (rule: InteractionRule) => {
    const kept = byGroup.get(rule.group);
    if (kept === undefined || SEVERITY_RANK[rule.severity] > SEVERITY_RANK[kept.severity]) {
      byGroup.set(rule.group, rule);
    }
  };
  const explicitGroups = new Set<InteractionGroup>();
  for (const rule of INTERACTION_RULES) {
    if (!ruleMatchesPair(rule, first, second)) continue;
    explicitGroups.add(rule.group);
    keep(rule);
  }
  const derived = derivePair(first, second);
  const overridden = (finding: DerivedFinding) =>
    finding.overriddenBy.some((group) => explicitGroups.has(group));
  for (const finding of derived.findings) if (!overridden(finding)) keep(finding.rule);
  return { rules: [...byGroup.values()], unknown: derived.unknown };
}

function toInteraction(rule: InteractionRule, a: string, b: string): MedicationInteraction {
  return {
    id: rule.id,
    a,
    b,
    severity: rule.severity,
    mechanism: rule.mechanism,
    recommendation: rule.recommendation,
    source: rule.source,
  };
}

interface FoundInteraction {
  interaction: MedicationInteraction;
  effect: string;
}

/**
 * The classes the rules see for one ingredient. An NSAID every mention of which is topical reads
 * as `topical_nsaid` instead of `nsaid`; one systemic mention keeps it systemic.
 */
function memberOf(ingredient: string, topicalOnly: boolean): Member {
  const classes = new Set<SelectableClass>(ingredientEntry(ingredient)?.classes ?? []);
  if (topicalOnly && classes.delete("nsaid")) classes.add("topical_nsaid");
  return { ingredient, classes };
}

/** Every pair of distinct recognised ingredients, in input order, against every rule; most severe first. */
function findInteractions(members: readonly Member[]): {
  found: FoundInteraction[];
  unknown: UnknownProperty[];
} {
  const found: FoundInteraction[] = [];
  const unknown: UnknownProperty[] = [];
  for (let i = 0; i < members.length; i++) {
    for (let j = i + 1; j < members.length; j++) {
      const first = members[i];
      const second = members[j];
      if (first === undefined || second === undefined) continue;
      const pair = rulesForPair(first, second);
      unknown.push(...pair.unknown);
      for (const rule of pair.rules) {
        found.push({
          interaction: toInteraction(rule, first.ingredient, second.ingredient),
          effect: rule.effect,
        });
      }
    }
  }
  // Array.prototype.sort is stable: within a severity, pairs keep input order.
  found.sort((x, y) => SEVERITY_RANK[y.interaction.severity] - SEVERITY_RANK[x.interaction.severity]);
  return { found, unknown };
}

/** One not-evaluated item per ingredient and unknown property a rule needed. */
function unknownPropertyItems(unknown: readonly UnknownProperty[]): NotEvaluatedItem[] {
  const seen = new Map<string, UnknownProperty>();
  for (const item of unknown) {
    const key = `${item.ingredient}\u0000${item.property}`;
    if (!seen.has(key)) seen.set(key, item);
  }
  return [...seen.values()].map((item) => ({
    what: item.ingredient,
    why: unknownPropertyText(item),
  }));
}

// ---------------------------------------------------------------------------------------------
// Risk and warnings

/** A dose limit applied to one entry: an alert (with a risk label) or only a warning. */
interface DoseFinding {
  alert: DoseAlert | null;
  warning: string;
  /** A limit that could not be checked (the age it depends on was not given). */
  notEvaluated?: NotEvaluatedItem;
}

/**
 * Highest severity of the interactions and dose alerts as the risk level; one label per moderate
 * or high interaction and per dose alert. A high finding is never averaged away.
 */
function interactionRisk(found: readonly FoundInteraction[], doseAlerts: readonly DoseAlert[]): AgentRisk {
  let level: AgentRiskLevel = "none";
  const labels: string[] = [];
  for (const { interaction, effect } of found) {
    level = higherRiskLevel(level, interaction.severity);
    if (interaction.severity === "low") continue;
    const label = `${interaction.a} + ${interaction.b}: ${effect}`;
    if (!labels.includes(label)) labels.push(label);
  }
  for (const alert of doseAlerts) {
    level = higherRiskLevel(level, alert.severity);
    if (!labels.includes(alert.label)) labels.push(alert.label);
  }
  return { flag: level !== "none", level, labels };
}

function formatMg(value: number): string {
  return `${Number(value.toFixed(2))} mg/day`;
}

/** A written dose in mg, or null when its unit is not a mass (ml, units). */
function doseInMg(dose: MedicationDose): number | null {
  if (dose.unit === "mg") return dose.value;
  if (dose.unit === "g") return dose.value * 1000;
  if (dose.unit === "mcg") return dose.value / 1000;
  return null;
}

/**
 * Label dose limits (DAILY_DOSE_LIMITS) applied to the dose written in an entry,
 * times the frequency written ("20 mg bd" = 40 mg/day). A reduced maximum applies over the
 * label's age or with a listed inhibitor; when the age is not given, a dose above the reduced
 * maximum is named in a warning and as not evaluated instead of being passed silently.
 */
function doseFindings(
  entries: readonly ParsedEntry[],
  members: readonly Member[],
  options: InteractionCheckOptions,
): DoseFinding[] {
  const findings: DoseFinding[] = [];
  for (const entry of entries) {
    for (const medication of entry.medications) {
      const limit = DAILY_DOSE_LIMITS[medication.ingredient];
      const mg = medication.dose === null ? null : doseInMg(medication.dose);
      if (limit === undefined || mg === null) continue;
      const daily = mg * entry.timesPerDay;
      const name = medication.ingredient;
      if (daily > limit.maxDailyMg) {
        findings.push({
          alert: {
            ingredient: name,
            input: entry.input,
            dailyMg: daily,
            maximumMg: limit.maxDailyMg,
            severity: "high",
            label: `${name} ${formatMg(daily)}: above the ${limit.maxDailyMg} mg/day label maximum (${limit.harm})`,
          },
          warning: `"${entry.input}" is ${formatMg(daily)} of ${name}, above the label maximum of ${limit.maxDailyMg} mg/day (${limit.harm}). Source: ${limit.source}.`,
        });
        continue;
      }
      const reduced = limit.reduced;
      if (reduced === undefined || daily <= reduced.maxDailyMg) continue;
      const inhibitor = members.find(
        (member) =>
          member.ingredient !== name &&
          (reduced.withClasses ?? []).some((drugClass) => member.classes.has(drugClass)),
      );
      const age = Number.isFinite(options.ageYears) ? options.ageYears : undefined;
      const older = age !== undefined && age > reduced.aboveAgeYears;
      const hepatic = reduced.withHepaticImpairment === true && options.hepaticImpairment === true;
      if (older || inhibitor !== undefined || hepatic) {
        const because = older
          ? `at age ${age}`
          : inhibitor !== undefined
            ? `with ${inhibitor.ingredient}`
            : "with hepatic impairment";
        findings.push({
          alert: {
            ingredient: name,
            input: entry.input,
            dailyMg: daily,
            maximumMg: reduced.maxDailyMg,
            severity: "high",
            label: `${name} ${formatMg(daily)}: above the ${reduced.maxDailyMg} mg/day maximum ${because} (${limit.harm})`,
          },
          warning: `"${entry.input}" is ${formatMg(daily)} of ${name}; the label maximum is ${reduced.maxDailyMg} mg/day for ${reduced.appliesTo} (here: ${because}). Source: ${limit.source}.`,
        });
        continue;
      }
      if (age !== undefined && reduced.otherConditions === undefined) continue;
      findings.push({
        alert: null,
        warning: `"${entry.input}" is ${formatMg(daily)} of ${name}; the label maximum is ${reduced.maxDailyMg} mg/day for ${reduced.appliesTo}. ${age === undefined ? "Age was not given, so this was not checked." : reduced.otherConditions} Source: ${limit.source}.`,
        ...(age === undefined
          ? {
              notEvaluated: {
                what: `${name} ${formatMg(daily)}`,
                why: `age not given: the ${reduced.maxDailyMg} mg/day maximum above age ${reduced.aboveAgeYears} was not checked`,
              },
            }
          : {}),
      });
    }
  }
  return findings;
}

function timesListed(count: number): string {
  return count === 2 ? "twice" : `${count} times`;
}

/** "sertraline listed twice (Zoloft 50 mg; sertraline 100mg)": each ingredient entered more than once. */
function duplicateWarnings(medications: readonly ParsedMedication[]): string[] {
  const inputsByIngredient = new Map<string, string[]>();
  for (const medication of medications) {
    const inputs = inputsByIngredient.get(medication.ingredient) ?? [];
    inputs.push(medication.input);
    inputsByIngredient.set(medication.ingredient, inputs);
  }
  const warnings: string[] = [];
  for (const [ingredient, inputs] of inputsByIngredient) {
    if (inputs.length < 2) continue;
    warnings.push(
      `${ingredient} listed ${timesListed(inputs.length)} (${inputs.join("; ")}); checked once. Confirm the intended total dose.`,
    );
  }
  return warnings;
}

/** The warning that stops a partial check reading as reassurance. */
function unrecognisedWarning(unrecognized: readonly string[], total: number): string | null {
  if (unrecognized.length === 0) return null;
  const verb = unrecognized.length === 1 ? "was" : "were";
  const names = unrecognized.map((input) => (input === "" ? "(empty entry)" : `"${input}"`)).join(", ");
  return `${unrecognized.length} of ${total} medications ${verb} not recognised; interactions involving them were not checked: ${names}.`;
}

/** What an empty interaction list means, said so that it cannot be read as "safe". */
function coverageWarning(recognizedCount: number, interactionCount: number, total: number): string | null {
  if (total === 0) return "No medications were given; nothing was checked.";
  if (interactionCount > 0) return null;
  if (recognizedCount < 2) return "Fewer than two medications were recognised, so no pair could be checked.";
  return `None of the ${INTERACTION_RULES.length} explicit rules of this checker, nor the rules derived from the ingredients' properties, matched these medications. The rules cover selected, clinically significant interactions only; this does not show that the combination is free of interactions.`;
}

/** One warning per entry that named a medicine but also words that were not recognised. */
function partlyRecognisedWarnings(entries: readonly ParsedEntry[]): string[] {
  return entries
    .filter((entry) => entry.unrecognizedWords.length > 0)
    .map((entry) => {
      const words = entry.unrecognizedWords.map((word) => `"${word}"`).join(", ");
      const named = [...new Set(entry.medications.map((m) => m.ingredient))].join(", ");
      return `"${entry.input}" was only partly recognised (read as ${named}); ${words} ${entry.unrecognizedWords.length === 1 ? "was" : "were"} not recognised, and any medicine it names was not checked.`;
    });
}

/** Entries named in the output as not evaluated, each with why. */
function notEvaluatedEntries(entries: readonly ParsedEntry[]): NotEvaluatedItem[] {
  return entries.flatMap((entry): NotEvaluatedItem[] => {
    const what = entry.input === "" ? "(empty entry)" : `"${entry.input}"`;
    if (entry.medications.length === 0)
      return [{ what, why: "not a recognised medicine; its interactions were not checked" }];
    if (entry.unrecognizedWords.length === 0) return [];
    const named = [...new Set(entry.medications.map((m) => m.ingredient))].join(", ");
    const words = entry.unrecognizedWords.map((word) => `"${word}"`).join(", ");
    return [
      {
        what,
        why: `partly recognised: read as ${named}; ${words} not recognised, and any medicine it names was not checked`,
      },
    ];
  });
}

/** Says which NSAIDs were read as topical, so the lower rating is visible. */
function topicalWarnings(entries: readonly ParsedEntry[], members: readonly Member[]): string[] {
  return members
    .filter((member) => member.classes.has("topical_nsaid"))
    .map((member) => {
      const inputs = entries
        .filter((entry) => entry.medications.some((m) => m.ingredient === member.ingredient))
        .map((entry) => `"${entry.input}"`)
        .join(", ");
      return `${member.ingredient} was read as topical (${inputs}): systemic NSAID interactions were not applied; if it is also taken by mouth, list that too.`;
    });
}

function multiIngredientWarnings(medications: readonly ParsedMedication[]): string[] {
  const ingredientsByInput = new Map<string, string[]>();
  for (const medication of medications) {
    const list = ingredientsByInput.get(medication.input) ?? [];
    if (!list.includes(medication.ingredient)) list.push(medication.ingredient);
    ingredientsByInput.set(medication.input, list);
  }
  return [...ingredientsByInput]
    .filter(([, ingredients]) => ingredients.length > 1)
    .map(
      ([input, ingredients]) =>
        `"${input}" names ${ingredients.length} medicines (${ingredients.join(", ")}); each was checked, but no dose was assigned.`,
    );
}

// ---------------------------------------------------------------------------------------------
// The tool

function assertMedicationList(medications: unknown): asserts medications is readonly string[] {
  if (!Array.isArray(medications)) {
    throw new ToolInputError([{ path: [], message: "medications must be an array of strings" }]);
  }
  if (medications.length > MAX_MEDICATIONS) {
    throw new ToolInputError([
      {
        path: [],
        message: `At most ${MAX_MEDICATIONS} medications can be checked at once (got ${medications.length})`,
      },
    ]);
  }
  const issues = medications.flatMap((value, index) =>
    typeof value === "string" ? [] : [{ path: [index], message: `medication ${index + 1} must be a string` }],
  );
  if (issues.length > 0) throw new ToolInputError(issues);
}

/**
 * Checks a medication list for interactions. Every ingredient of every entry (each ingredient of
 * a combination product) is recognised; every pair of distinct recognised ingredients is compared
 * with every rule, and label dose limits are applied to written doses. `risk.level` is the highest
 * severity found ("none" when none); an entry not recognised or only partly recognised, and a
 * dose limit that could not be checked, keep it at low or above with a "Not evaluated" label,
 * and the warnings say what was not checked. Throws ToolInputError for a
 * non-array, a non-string entry or more than 50 entries.
 */
export function checkInteractions(
  medications: readonly string[],
  options: InteractionCheckOptions = {},
): InteractionCheck {
  assertMedicationList(medications);
  const entries = medications.map(parseEntry);
  const parsed = entries.flatMap((entry) => entry.medications);
  const unrecognized = entries.filter((entry) => entry.medications.length === 0).map((entry) => entry.input);
  const recognized = [...new Set(parsed.map((medication) => medication.ingredient))];
  const members = recognized.map((ingredient) =>
    memberOf(
      ingredient,
      entries
        .filter((entry) => entry.medications.some((m) => m.ingredient === ingredient))
        .every((entry) => entry.topical),
    ),
  );
  const { found, unknown } = findInteractions(members);
  const unknownProperties = unknownPropertyItems(unknown);
  const doses = doseFindings(entries, members, options);
  const alerts = doses.flatMap((dose) => (dose.alert === null ? [] : [dose.alert]));
  const doseNotChecked = doses.flatMap((dose) => (dose.notEvaluated ? [dose.notEvaluated] : []));
  const partlyRecognised = partlyRecognisedWarnings(entries);
  const warnings = [
    unrecognisedWarning(unrecognized, medications.length),
    ...partlyRecognised,
    ...doses.map((dose) => dose.warning),
    ...duplicateWarnings(parsed),
    ...multiIngredientWarnings(parsed),
    ...topicalWarnings(entries, members),
    ...unknownProperties.map((item) => `Not evaluated: ${item.why}.`),
    coverageWarning(recognized.length, found.length, medications.length),
  ].filter((warning): warning is string => warning !== null);
  return {
    interactions: found.map((item) => item.interaction),
    recognized,
    unrecognized,
    medications: parsed,
    risk: riskWithNotEvaluated(
      [interactionRisk(found, alerts)],
      [...notEvaluatedEntries(entries), ...doseNotChecked, ...unknownProperties],
    ),
    doseAlerts: alerts,
    doseNotChecked,
    warnings,
    complete: medications.length > 0 && unrecognized.length === 0 && partlyRecognised.length === 0,
  };
}
