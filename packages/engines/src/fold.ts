/**
 * Text folded for matching (decision 177): the letters used to spell a word do not matter.
 * Unicode compatibility forms (NFKC), look-alike Cyrillic, Greek and Armenian letters (capitals
 * read before lower-casing) mapped to Latin, diacritics, zero-width and other invisible characters
 * removed, case folded, and every run of spacing or punctuation collapsed to one space. The one
 * definition: the reassurance screen of `@svc/intelligence` and the safety concepts
 * (knowledge/safety-concepts.ts) both read text through it.
 */

/** Look-alike letters (after lower-casing) read as the Latin letter they imitate. */
const CONFUSABLES: Readonly<Record<string, string>> = {
  // Cyrillic
  а: "a",
  в: "b",
  г: "r",
  д: "d",
  е: "e",
  ё: "e",
  і: "i",
  ї: "i",
  ј: "j",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  п: "n",
  р: "p",
  с: "c",
  т: "t",
  у: "y",
  х: "x",
  ь: "b",
  ѕ: "s",
  һ: "h",
  ԁ: "d",
  ԛ: "q",
  ԝ: "w",
  ӏ: "l",
  ґ: "r",
  // Greek
  α: "a",
  β: "b",
  γ: "y",
  δ: "d",
  ε: "e",
  ζ: "z",
  η: "n",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  σ: "o",
  ς: "c",
  τ: "t",
  υ: "u",
  χ: "x",
  ω: "w",
  ϲ: "c",
  ϳ: "j",
  // Armenian
  օ: "o",
  ս: "u",
  հ: "h",
  ո: "n",
  ց: "g",
  // Latin look-alikes that compatibility normalisation keeps
  ı: "i",
  ƒ: "f",
  ſ: "s",
  ȷ: "j",
  ɑ: "a",
  ɡ: "g",
  ɩ: "i",
  ɪ: "i",
  ʀ: "r",
  ʏ: "y",
  ᴄ: "c",
  ᴅ: "d",
  ᴇ: "e",
  ᴋ: "k",
  ᴍ: "m",
  ᴏ: "o",
  ᴘ: "p",
  ᴛ: "t",
  ᴜ: "u",
  ᴠ: "v",
  ᴡ: "w",
  ᴢ: "z",
  ꜱ: "s",
  ʜ: "h",
  ʟ: "l",
  ɴ: "n",
  ꞯ: "q",
  // Digits and signs used as letters
  "0": "o",
  "1": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "@": "a",
  $: "s",
  "|": "l",
};

/** The look-alike table without the digits: numbers kept as numbers. */
const LETTERS_ONLY: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(CONFUSABLES).filter(([char]) => !/[0-9]/.test(char)),
);

/**
 * Capital look-alikes, read before lower-casing: a capital Greek Nu looks like N, though its small
 * form looks like v.
 */
const CAPITAL_CONFUSABLES: Readonly<Record<string, string>> = {
  // Cyrillic
  А: "A",
  В: "B",
  Е: "E",
  К: "K",
  М: "M",
  Н: "H",
  О: "O",
  Р: "P",
  С: "C",
  Т: "T",
  У: "Y",
  Х: "X",
  Ѕ: "S",
  І: "I",
  Ј: "J",
  Ӏ: "I",
  // Greek
  Α: "A",
  Β: "B",
  Ε: "E",
  Ζ: "Z",
  Η: "H",
  Ι: "I",
  Κ: "K",
  Μ: "M",
  Ν: "N",
  Ο: "O",
  Ρ: "P",
  Τ: "T",
  Υ: "Y",
  Χ: "X",
};

/** Characters that render as nothing (or as blank) and can hide inside a word. */
const INVISIBLE = /[\p{Cf}\p{M}\u115F\u1160\u3164\uFFA0\u2800\u180E]/gu;

/**
 * The text as it is matched: NFKC, lower case, decomposed with marks and invisible characters
 * removed, look-alikes and digit letters mapped to Latin, and every run of other characters as
 * one space.
 */
export function foldForMatching(text: string): string {
  return foldLetters(text, CONFUSABLES)
    .replace(/[^a-z]+/g, " ")
    .trim();
}

/**
 * The same folding with digits kept as digits ("took 30 tablets"): look-alike letters still read
 * as Latin, but a number stays a number, so a quantity can be read. Other signs used as letters
 * ("@", "$", "|") are read as letters as in `foldForMatching`.
 */
export function foldKeepingDigits(text: string): string {
  return foldLetters(text, LETTERS_ONLY)
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

function foldLetters(text: string, table: Readonly<Record<string, string>>): string {
  const stripped = text.normalize("NFKC").normalize("NFKD").replace(INVISIBLE, "");
  let capitals = "";
  for (const char of stripped) capitals += CAPITAL_CONFUSABLES[char] ?? char;
  let mapped = "";
  for (const char of capitals.toLowerCase()) mapped += table[char] ?? char;
  return mapped;
}
