/**
 * Name lookup of the interaction checker over the medicine model (knowledge/medicines.ts): the
 * phrase index of generic names, salts, spellings, brands and combination products, and the
 * reading of one entry into its ingredients, its unrecognised words and its route. No clinical
 * fact is written here. Method: docs/engines/interactions.md.
 */
import {
  COMBINATION_PRODUCTS,
  INGREDIENTS,
  type IngredientEntry,
  MEDICATION_QUALIFIERS,
  TOPICAL_BRANDS,
  TOPICAL_ROUTE_WORDS,
} from "../knowledge/medicines.js";

export type { DrugClass, IngredientEntry } from "../knowledge/medicines.js";
export { DRUG_CLASSES, INGREDIENTS } from "../knowledge/medicines.js";

const INGREDIENT_BY_NAME: ReadonlyMap<string, IngredientEntry> = new Map(
  INGREDIENTS.map((item) => [item.ingredient, item]),
);

/**
 * Lower case, accents and apostrophes dropped, every other run of non-alphanumerics (except a
 * decimal point between digits) turned into one space: "St. John's Wort" -> "st johns wort".
 */
export function normaliseMedicationText(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[µμ]/g, "mc")
      .replace(/['’`]/g, "")
      .replace(/(\d),(\d)/g, "$1.$2")
      // "2x20mg" -> "2 x 20mg": a unit count before a dose.
      .replace(/(\d)x(?=\d)/g, "$1 x ")
      .replace(/[^a-z0-9.]+/g, " ")
      // A point stays only as a decimal point ("2.5 mg"); "St." and "tab." lose it.
      .replace(/\.(?!\d)|(?<!\d)\./g, " ")
      .replace(/\s+/g, " ")
      .trim()
  );
}

/** What one phrase of the index means: its ingredients, and whether it names a topical product. */
interface PhraseMeaning {
  ingredients: readonly string[];
  topical: boolean;
}

/** Phrase (normalised, space-separated tokens) -> meaning, built once. */
const PHRASE_INDEX: ReadonlyMap<string, PhraseMeaning> = buildPhraseIndex();

/** The longest phrase in the index, in tokens; bounds the matching window. */
const LONGEST_PHRASE_TOKENS = Math.max(...[...PHRASE_INDEX.keys()].map((p) => p.split(" ").length));

function addPhrase(index: Map<string, PhraseMeaning>, name: string, meaning: PhraseMeaning): void {
  const phrase = normaliseMedicationText(name);
  const existing = index.get(phrase);
  if (existing !== undefined && existing.ingredients.join("+") !== meaning.ingredients.join("+")) {
    throw new Error(
      `Medication name "${name}" means both ${existing.ingredients} and ${meaning.ingredients}`,
    );
  }
  index.set(phrase, meaning);
}

function buildPhraseIndex(): Map<string, PhraseMeaning> {
  const index = new Map<string, PhraseMeaning>();
  for (const item of INGREDIENTS) {
    for (const name of [item.ingredient, ...item.names, ...item.brands]) {
      addPhrase(index, name, { ingredients: [item.ingredient], topical: false });
    }
  }
  for (const product of COMBINATION_PRODUCTS) {
    for (const ingredient of product.ingredients) {
      if (!INGREDIENT_BY_NAME.has(ingredient)) {
        throw new Error(`Combination product ${product.names[0]} names unknown ingredient ${ingredient}`);
      }
    }
    for (const name of product.names)
      addPhrase(index, name, { ingredients: product.ingredients, topical: false });
  }
  for (const [brand, ingredient] of Object.entries(TOPICAL_BRANDS)) {
    addPhrase(index, brand, { ingredients: [ingredient], topical: true });
  }
  return index;
}

/** The dictionary entry of a canonical ingredient name, or undefined. */
export function ingredientEntry(ingredient: string): IngredientEntry | undefined {
  return INGREDIENT_BY_NAME.get(ingredient);
}

/** A number, or a number glued to a unit or qualifier ("50mg", "12.5", "21mcg", "2x"). */
const NUMERIC_TOKEN = /^\d+(?:\.\d+)?([a-z]*)$/;

/** Interval and count shorthands: "q8h", "q12h", "x2". */
const SHORTHAND_TOKEN = /^(?:q\d+h|x\d+)$/;

function isQualifier(token: string): boolean {
  if (MEDICATION_QUALIFIERS.has(token) || SHORTHAND_TOKEN.test(token)) return true;
  const numeric = NUMERIC_TOKEN.exec(token);
  if (numeric === null) return false;
  const suffix = numeric[1] ?? "";
  return suffix === "" || MEDICATION_QUALIFIERS.has(suffix);
}

/** One entry read against the model. */
export interface EntryReading {
  /** Every ingredient named, in order of appearance, each once. */
  ingredients: string[];
  /** Words that are neither part of a known name nor a qualifier (form, strength, timing). */
  unrecognizedWords: string[];
  /** True when the entry says it is applied to the skin (a route word or a topical brand). */
  topical: boolean;
  /** True when the entry named a combination product. */
  namesCombination: boolean;
}

/**
 * Reads normalised text: every ingredient named (a combination product yields all of its
 * ingredients), in order of appearance, each once; the words it could not place; and the route.
 * Matching is on whole words, longest phrase first, so "escitalopram" is never read as
 * citalopram, "lithium carbonate" is one name and "Diovan HCT" is the combination, not valsartan.
 */
export function readEntry(normalisedText: string): EntryReading {
  const tokens = normalisedText === "" ? [] : normalisedText.split(" ");
  const reading: EntryReading = {
    ingredients: [],
    unrecognizedWords: [],
    topical: false,
    namesCombination: false,
  };
  let i = 0;
  while (i < tokens.length) {
    const match = longestPhraseAt(tokens, i);
    if (match === null) {
      const token = tokens[i] ?? "";
      if (TOPICAL_ROUTE_WORDS.has(token)) reading.topical = true;
      if (!isQualifier(token) && !reading.unrecognizedWords.includes(token))
        reading.unrecognizedWords.push(token);
      i += 1;
      continue;
    }
    if (match.meaning.topical) reading.topical = true;
    if (match.meaning.ingredients.length > 1) reading.namesCombination = true;
    for (const ingredient of match.meaning.ingredients) {
      if (!reading.ingredients.includes(ingredient)) reading.ingredients.push(ingredient);
    }
    i += match.length;
  }
  return reading;
}

/** Every ingredient named in normalised text, in order of appearance, each once. */
export function findIngredients(normalisedText: string): string[] {
  return readEntry(normalisedText).ingredients;
}

function longestPhraseAt(
  tokens: readonly string[],
  start: number,
): { meaning: PhraseMeaning; length: number } | null {
  const maxLength = Math.min(LONGEST_PHRASE_TOKENS, tokens.length - start);
  for (let length = maxLength; length >= 1; length--) {
    const meaning = PHRASE_INDEX.get(tokens.slice(start, start + length).join(" "));
    if (meaning !== undefined) return { meaning, length };
  }
  return null;
}
