/**
 * checkInteractions: the medication agent's deterministic tool. It reads free-text medication
 * entries ("Sertraline 100 mg", "Zoloft"), maps each to a canonical ingredient, and reports every
 * rule of the knowledge base that matches a pair of them, with the severity the rule assigns.
 * Unrecognised entries are listed and never read as "no interaction". Pure and deterministic.
 * Method, severity scale, every rule with its source: docs/engines/interactions.md.
 */
import {
  type DrugClass,
  findIngredients,
  INGREDIENTS,
  ingredientEntry,
  normaliseMedicationText,
} from "./drug-names.js";
import {
  type DrugSelector,
  INTERACTION_RULES,
  type InteractionGroup,
  type InteractionRule,
  type InteractionSeverity,
} from "./interaction-rules.js";
import { type AgentRisk, type AgentRiskLevel, higherRiskLevel, ToolInputError } from "./types.js";

export type { DrugClass, IngredientEntry } from "./drug-names.js";
export { DRUG_CLASSES, INGREDIENTS } from "./drug-names.js";
export type {
  DrugSelector,
  InteractionGroup,
  InteractionRule,
  InteractionSeverity,
} from "./interaction-rules.js";
export { INTERACTION_RULES } from "./interaction-rules.js";

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

export interface InteractionCheck {
  interactions: MedicationInteraction[];
  /** Canonical ingredient names, in input order, each once. */
  recognized: string[];
  /** Entries (trimmed) that named no known ingredient. */
  unrecognized: string[];
  /** One entry per recognised ingredient mention, in input order. */
  medications: ParsedMedication[];
  risk: AgentRisk;
  warnings: string[];
  /** True only when at least one entry was given and every entry was recognised. */
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

/** Every ingredient one entry names (usually one), with the dose when there is exactly one. */
function parseEntry(text: string): ParsedMedication[] {
  const input = text.trim();
  const normalised = normaliseMedicationText(input);
  const ingredients = findIngredients(normalised);
  const dose = ingredients.length === 1 ? readDose(normalised) : null;
  return ingredients.map((ingredient) => parsedMedication(input, ingredient, dose));
}

/**
 * One medication entry read as its canonical ingredient and optional dose: "Lithium carbonate
 * 400mg" -> lithium, 400 mg; "Zoloft" -> sertraline. Null when no known ingredient is named (an
 * empty or unknown string). An entry naming several ingredients returns the first, without a dose.
 */
export function parseMedication(text: string): ParsedMedication | null {
  return parseEntry(text)[0] ?? null;
}

/** Canonical names of every ingredient the checker recognises, sorted. */
export function listKnownIngredients(): string[] {
  return INGREDIENTS.map((item) => item.ingredient).sort();
}

// ---------------------------------------------------------------------------------------------
// Matching rules to pairs

const SEVERITY_RANK: Readonly<Record<InteractionSeverity, number>> = { low: 1, moderate: 2, high: 3 };

function matchesSelector(
  ingredient: string,
  classes: ReadonlySet<DrugClass>,
  selector: DrugSelector,
): boolean {
  if (selector.ingredients?.includes(ingredient)) return true;
  return selector.classes?.some((drugClass) => classes.has(drugClass)) ?? false;
}

function ruleMatchesPair(
  rule: InteractionRule,
  first: { ingredient: string; classes: ReadonlySet<DrugClass> },
  second: { ingredient: string; classes: ReadonlySet<DrugClass> },
): boolean {
  const forward =
    matchesSelector(first.ingredient, first.classes, rule.a) &&
    matchesSelector(second.ingredient, second.classes, rule.b);
  if (forward) return true;
  return (
    matchesSelector(second.ingredient, second.classes, rule.a) &&
    matchesSelector(first.ingredient, first.classes, rule.b)
  );
}

/** The rules reported for one pair: per group, the most severe match (the first listed on a tie). */
function rulesForPair(
  first: { ingredient: string; classes: ReadonlySet<DrugClass> },
  second: { ingredient: string; classes: ReadonlySet<DrugClass> },
): InteractionRule[] {
  const byGroup = new Map<InteractionGroup, InteractionRule>();
  for (const rule of INTERACTION_RULES) {
    if (!ruleMatchesPair(rule, first, second)) continue;
    const kept = byGroup.get(rule.group);
    if (kept === undefined || SEVERITY_RANK[rule.severity] > SEVERITY_RANK[kept.severity]) {
      byGroup.set(rule.group, rule);
    }
  }
  return [...byGroup.values()];
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

/** Every pair of distinct recognised ingredients, in input order, against every rule; most severe first. */
function findInteractions(recognized: readonly string[]): FoundInteraction[] {
  const members = recognized.map((ingredient) => ({
    ingredient,
    classes: new Set<DrugClass>(ingredientEntry(ingredient)?.classes ?? []),
  }));
  const found: FoundInteraction[] = [];
  for (let i = 0; i < members.length; i++) {
    for (let j = i + 1; j < members.length; j++) {
      const first = members[i];
      const second = members[j];
      if (first === undefined || second === undefined) continue;
      for (const rule of rulesForPair(first, second)) {
        found.push({
          interaction: toInteraction(rule, first.ingredient, second.ingredient),
          effect: rule.effect,
        });
      }
    }
  }
  // Array.prototype.sort is stable: within a severity, pairs keep input order.
  return found.sort((x, y) => SEVERITY_RANK[y.interaction.severity] - SEVERITY_RANK[x.interaction.severity]);
}

// ---------------------------------------------------------------------------------------------
// Risk and warnings

/** Highest severity as the risk level; one label per moderate or high interaction. */
function interactionRisk(found: readonly FoundInteraction[]): AgentRisk {
  let level: AgentRiskLevel = "none";
  const labels: string[] = [];
  for (const { interaction, effect } of found) {
    level = higherRiskLevel(level, interaction.severity);
    if (interaction.severity === "low") continue;
    const label = `${interaction.a} + ${interaction.b}: ${effect}`;
    if (!labels.includes(label)) labels.push(label);
  }
  return { flag: level !== "none", level, labels };
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
  return `None of the ${INTERACTION_RULES.length} rules of this checker matched these medications. The rules cover selected, clinically significant interactions only; this does not show that the combination is free of interactions.`;
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
 * Checks a medication list for interactions. Every pair of distinct recognised ingredients is
 * compared with every rule; `risk.level` is the highest severity found ("none" when none), and
 * the warnings say what was not checked. Throws ToolInputError for a non-array, a non-string entry
 * or more than 50 entries.
 */
export function checkInteractions(medications: readonly string[]): InteractionCheck {
  assertMedicationList(medications);
  const parsed: ParsedMedication[] = [];
  const unrecognized: string[] = [];
  for (const text of medications) {
    const entries = parseEntry(text);
    if (entries.length === 0) unrecognized.push(text.trim());
    parsed.push(...entries);
  }
  const recognized = [...new Set(parsed.map((medication) => medication.ingredient))];
  const found = findInteractions(recognized);
  const warnings = [
    unrecognisedWarning(unrecognized, medications.length),
    ...duplicateWarnings(parsed),
    ...multiIngredientWarnings(parsed),
    coverageWarning(recognized.length, found.length, medications.length),
  ].filter((warning): warning is string => warning !== null);
  return {
    interactions: found.map((item) => item.interaction),
    recognized,
    unrecognized,
    medications: parsed,
    risk: interactionRisk(found),
    warnings,
    complete: medications.length > 0 && unrecognized.length === 0,
  };
}
