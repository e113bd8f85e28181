import { DOMAINS } from "./catalog.js";
import { cssrsItemsPhrase, cssrsUnaskedFollowUps, hasCssrs, q6RecencyPhrase, triageCssrs } from "./risk.js";
import { type Coding, CSSRS_ITEM_IDS, type CssrsAnswers, type Line, type Selection } from "./types.js";

/**
 * "a", "a and b", "a, b and c". When a phrase holds a comma or an "and" of its own ("Denies
 * suicidal and homicidal ideation", "Oriented to person, place and time"), every phrase is
 * separated by a semicolon and no "and" is added, so no phrase can read as part of another (a
 * denial never reaches the phrase after it).
 */
export function joinPhrases(phrases: readonly string[]): string {
  if (phrases.length <= 1) return phrases[0] ?? "";
  if (phrases.some((p) => /,|\band\b/i.test(p))) return phrases.join("; ");
  return `${phrases.slice(0, -1).join(", ")} and ${phrases[phrases.length - 1]}`;
}

/** Lower-cases the first letter of a chip label for use mid-sentence, keeping acronyms. */
export function toPhrase(label: string): string {
  const firstWord = label.split(" ")[0] ?? "";
  if (firstWord.length > 1 && /[A-Z]/.test(firstWord) && firstWord === firstWord.toUpperCase()) return label;
  return label.charAt(0).toLowerCase() + label.slice(1);
}

/** A sentence's end: a full stop, question or exclamation mark or ellipsis, then any closing quotes or brackets. */
const SENTENCE_END = /[.!?\u2026]["'\u2019\u201D\u00BB)\]]*$/u;

/**
 * The text as one sentence: capitalised, ending in exactly one end mark. A clinician's note that
 * already ends a sentence (also inside a closing quote or bracket) keeps its own; a trailing comma,
 * semicolon, colon or dash is replaced rather than followed by a full stop.
 */
function sentence(text: string): string {
  const t = text.trim();
  if (t === "") return "";
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  if (SENTENCE_END.test(capital)) return capital.replace(/\s+([.!?\u2026]+)$/u, "$1");
  const open = capital.replace(/[\s,;:\u2013\u2014-]+$/u, "");
  return open === "" ? "" : `${open}.`;
}

/**
 * The screener result. An incomplete screen says so first and names what was not asked, so it can
 * never be read as a negative screen; only a complete screen with no yes says "no items endorsed".
 */
function cssrsSentence(answers: CssrsAnswers): string {
  const triage = triageCssrs(answers);
  const numbers = joinPhrases(triage.yesItems.map((id) => id.slice(1)));
  const noun = triage.yesItems.length === 1 ? "item" : "items";
  const recency = triage.yesItems.includes("q6") ? ` (behavior ${q6RecencyPhrase(answers)})` : "";
  const yesPart = `yes to ${noun} ${numbers}${recency}`;
  if (triage.complete) {
    if (!triage.positive) return "C-SSRS screener: no items endorsed; triage level none.";
    return `C-SSRS screener: ${yesPart}; triage level ${triage.level}.`;
  }
  const noItems = CSSRS_ITEM_IDS.filter((id) => answers[id] === "no");
  const parts = [`not answered: ${cssrsItemsPhrase(triage.missingItems)}`];
  if (triage.positive) parts.unshift(yesPart);
  if (noItems.length > 0) parts.push(`answered no to ${cssrsItemsPhrase(noItems)}`);
  const followUps = cssrsUnaskedFollowUps(answers);
  if (followUps.length > 0) parts.push(`${cssrsItemsPhrase(followUps)} still to ask after the yes to item 2`);
  const level = `triage level ${triage.level} until completed.`;
  return triage.positive
    ? `C-SSRS screener incomplete: ${parts.join("; ")}; ${level}`
    : `C-SSRS screener incomplete: ${parts.join("; ")}. Not a negative screen; ${level}`;
}

/**
 * One line per present domain, in catalog order, in clinical register: "Mood: depressed and
 * anxious." The risk line adds the C-SSRS result; the domain's note is appended last. Codes are
 * those of the selected options, without duplicates. Unknown domains or values are skipped.
 */
export function buildLines(selection: Selection): Line[] {
  const lines: Line[] = [];
  for (const domain of DOMAINS) {
    const entry = selection?.[domain.key];
    if (!entry) continue;
    const values = Array.isArray(entry.values) ? entry.values : [];
    const chosen = domain.options.filter((o) => values.includes(o.value));
    const parts: string[] = [];
    if (chosen.length > 0) parts.push(sentence(joinPhrases(chosen.map((o) => toPhrase(o.label)))));
    if (domain.key === "risk" && hasCssrs(entry.cssrs)) {
      parts.push(cssrsSentence(entry.cssrs));
    }
    if (typeof entry.text === "string" && entry.text.trim() !== "") parts.push(sentence(entry.text));
    if (parts.length === 0) continue;
    // The first part continues the "Label:" lead-in, so it starts in lower case unless it is an acronym.
    const first = parts[0] ?? "";
    parts[0] = chosen.length > 0 ? toPhrase(first) : first;

    const codes: Coding[] = [];
    const seen = new Set<string>();
    for (const option of chosen) {
      for (const c of option.codes) {
        const id = `${c.system}|${c.code}`;
        if (!seen.has(id)) {
          seen.add(id);
          codes.push({ ...c });
        }
      }
    }
    const line: Line = {
      key: domain.key,
      label: domain.label,
      line: `${domain.label}: ${parts.join(" ")}`,
      codes,
    };
    if (entry.provenance !== undefined) line.provenance = entry.provenance;
    if (entry.confidence !== undefined) line.confidence = entry.confidence;
    if (entry.confidenceScore !== undefined) line.confidenceScore = entry.confidenceScore;
    if (entry.supportingSignals !== undefined) line.supportingSignals = [...entry.supportingSignals];
    lines.push(line);
  }
  return lines;
}

/** The narrative block: the lines joined by newlines. */
export function objectiveBlock(lines: readonly Line[]): string {
  return lines.map((l) => l.line).join("\n");
}
