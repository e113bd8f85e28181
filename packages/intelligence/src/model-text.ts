/**
 * Model-provided text that reaches a response (a tool name in a warning, a dropped citation, a
 * domain name, an entity an observation named) is clipped with these helpers, one rule
 * everywhere: a language model's output is untrusted and unbounded, a response is not.
 */

/** Characters of one model-provided string quoted in a warning. */
export const MODEL_TEXT_CLIP_CHARS = 80;
/** Model-provided strings listed in one warning; the rest are counted. */
export const MODEL_LIST_CLIP_ITEMS = 5;

// Control characters and line or paragraph separators: a quoted string stays on one line.
const BREAKS = /[\p{Cc}\u2028\u2029]+/gu;

/**
 * The text on one line and at most `maxChars` UTF-16 units, cut with "..." at a code point (never
 * inside a surrogate pair). Text within the bound is returned as is, apart from line breaks.
 */
export function clipModelText(text: string, maxChars: number = MODEL_TEXT_CLIP_CHARS): string {
  const oneLine = text.replace(BREAKS, " ");
  if (oneLine.length <= maxChars) return oneLine;
  let cut = Math.max(0, maxChars - 3);
  const last = oneLine.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${oneLine.slice(0, cut)}...`;
}

/** Each string clipped, at most `maxItems` of them, joined with ", " and the rest counted. */
export function clipModelList(
  values: readonly string[],
  maxItems: number = MODEL_LIST_CLIP_ITEMS,
  maxChars: number = MODEL_TEXT_CLIP_CHARS,
): string {
  const shown = values.slice(0, maxItems).map((value) => clipModelText(value, maxChars));
  const more = values.length > maxItems ? ` and ${values.length - maxItems} more` : "";
  return `${shown.join(", ")}${more}`;
}

/**
 * Warnings of one kind about a model's output (a rejected call, a dropped citation): the first
 * `maxListed`, then one line counting the rest, so a model repeating itself cannot grow a response.
 */
export function boundedWarnings(
  warnings: readonly string[],
  what: string,
  maxListed: number = MODEL_LIST_CLIP_ITEMS,
): string[] {
  if (warnings.length <= maxListed) return [...warnings];
  return [...warnings.slice(0, maxListed), `${warnings.length - maxListed} further ${what} were not listed.`];
}

/**
 * Characters of one free text a model wrote (a narrative, a note) that the service reads at all
 * (decision 168). A narrative reaches a response as 2,000 characters at most; twice that leaves
 * room for sentences the screens drop, and keeps the screens' work per reply small and fixed
 * (4,000 characters are screened in milliseconds; the 1 MiB a reply may hold took 5-20 s).
 */
export const MODEL_TEXT_READ_CHARS = 4_000;

const SENTENCE_ENDS = new Set([".", "!", "?", ";", "\n"]);

/**
 * The part of a model's text that is read: all of it within `maxChars`; otherwise the whole
 * sentences within the first `maxChars` (cut after the last end mark followed by a space), or, when
 * no sentence ends there, the first `maxChars` cut at a code point. One backward scan, no pattern.
 */
export function readModelText(text: string, maxChars: number = MODEL_TEXT_READ_CHARS): string {
  if (text.length <= maxChars) return text;
  for (let i = maxChars - 1; i > 0; i -= 1) {
    if (SENTENCE_ENDS.has(text.charAt(i - 1)) && /\s/.test(text.charAt(i))) return text.slice(0, i);
  }
  const last = text.charCodeAt(maxChars - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? maxChars - 1 : maxChars);
}
