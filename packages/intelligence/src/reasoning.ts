import { readModelText } from "./model-text.js";
import { screenReassurance } from "./reassurance.js";
import { ENGINE_REGISTRY } from "./registry.js";
import type { IntelligenceBlock } from "./types.js";

/** What a narrator gets: engine output only, never identifiers (no sessionRef, no patientRef). */
export interface NarrationRequest {
  engine: IntelligenceBlock["engine"];
  summary: IntelligenceBlock["summary"];
  confidence: IntelligenceBlock["confidence"];
  change: IntelligenceBlock["change"];
  /** Up to a few engine lines worth mentioning (signal lines, factor details). */
  highlights: string[];
}

/** The model port: the template narrator by default, a language model behind an adapter otherwise. */
export interface Narrator {
  readonly kind: "template" | "model";
  narrate(request: NarrationRequest, signal: AbortSignal): Promise<string>;
}

/** Most sentences of a narrative (the contract: 2 to 4). */
export const MAX_NARRATIVE_SENTENCES = 4;

/** Where one sentence of engine text ends and the next begins: an end mark, then a capital or digit. */
const SENTENCE_BREAK = /(?<=[.!?\u2026]["'\u201D\u2019)\]]*)\s+(?=[A-Z0-9("'\u201C])/u;
/** End marks (and separators) closing a piece of text, with any space before them. */
const TRAILING_MARKS = /[\s.!?\u2026,;:]+$/u;

/**
 * Punctuation as one mark where a text doubles it ("done.;", "x ,", "a.. b"); an ellipsis ("...")
 * becomes one character and is kept. The words are not touched.
 */
function tidyPunctuation(text: string): string {
  return text
    .replace(/\.{3,}/g, "\u2026")
    .replace(/\s+([.;,:!?\u2026])/gu, "$1")
    .replace(/([.!?\u2026])[.;,:]+/gu, "$1")
    .replace(/([;,:])[.;,:!?\u2026]+/gu, "$1");
}

/** The sentences of a piece of engine text (one per end mark followed by a new sentence). */
export function splitNarrativeSentences(text: string): string[] {
  return tidyPunctuation(text)
    .trim()
    .split(SENTENCE_BREAK)
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

/**
 * A piece of text without its closing end marks or separators, so we can add exactly one; an end
 * mark inside a closing quote or bracket goes too ('said "fine."' becomes 'said "fine"').
 */
function clause(text: string): string {
  return text
    .trim()
    .replace(/[.!?\u2026]+(["'\u201D\u2019)\]]+)$/u, "$1")
    .replace(TRAILING_MARKS, "");
}

/** Clauses joined with semicolons into one sentence with one full stop (empty when none). */
function joinedSentence(clauses: readonly string[]): string {
  const kept = clauses.map(clause).filter((c) => c !== "");
  if (kept.length === 0) return "";
  const text = kept.join("; ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** Lower-case first letter for mid-sentence use, unless the first word is an acronym (PHQ-9). */
function midSentence(text: string): string {
  const first = text.split(/\s/)[0] ?? "";
  if (/[A-Z].*[A-Z0-9]|[0-9]/.test(first) && first === first.toUpperCase()) return text;
  return `${text.charAt(0).toLowerCase()}${text.slice(1)}`;
}

/** Lower-case letters and digits: how two findings are compared. */
function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** The clauses (split at end marks and semicolons) of a text, folded; short ones are ignored. */
function foldedClauses(text: string): string[] {
  return text
    .split(/[.;!?]\s+|[.;!?]$/)
    .map(fold)
    .filter((c) => c.length >= 12);
}

/**
 * Deterministic template reasoning written from engine output alone: 2 to 4 sentences
 * (MAX_NARRATIVE_SENTENCES), each finding once, each sentence ending in one full stop. It restates
 * what the engine computed and adds no clinical judgment of its own. The headline comes first
 * (its further sentences joined into a second one), the review sentence last; between them the
 * change and the most relevant lines as room allows, each line by its first sentence and only
 * when the narrative does not already state it.
 */
export const templateNarrator: Narrator = {
  kind: "template",
  async narrate(request) {
    const ledger = findingLedger();
    const review = request.summary.requiresClinicianReview
      ? "a clinician should review this result"
      : "this is decision support for clinician review, not a diagnosis";
    ledger.fresh(review);

    const name = ENGINE_REGISTRY[request.engine].label;
    const [lead = "", ...rest] = splitNarrativeSentences(request.summary.headline);
    const opening = fold(lead).startsWith(fold(name))
      ? clause(lead)
      : `${name}: ${midSentence(clause(lead))}`;
    const head = [joinedSentence([ledger.fresh(opening)])];
    if (rest.length > 0) head.push(joinedSentence([ledger.fresh(rest.map(clause).join("; "))]));
    const headSentences = head.filter(Boolean);

    const middle: string[] = [];
    const room = () => MAX_NARRATIVE_SENTENCES - headSentences.length - 1 - middle.length;
    if (request.change && room() > 0) {
      const why = ledger.fresh(firstClause(request.change.explanations[0] ?? ""));
      const moved = request.change.direction === "unchanged" ? "is unchanged" : request.change.direction;
      middle.push(
        joinedSentence([
          `Compared with the previous result it ${moved}${why ? ` (${midSentence(why)})` : ""}`,
        ]),
      );
    }
    if (room() > 0) {
      const lines: string[] = [];
      for (const highlight of request.highlights) {
        if (lines.length === 2) break;
        const line = ledger.fresh(firstClause(highlight));
        if (line) lines.push(lines.length === 0 ? line : midSentence(line));
      }
      if (lines.length > 0) middle.push(joinedSentence([`Most relevant: ${lines.join("; ")}`]));
    }
    const reason = ledger.fresh(firstClause(request.confidence.reasons[0] ?? ""));
    const closing = joinedSentence([
      `Confidence is ${request.confidence.level}${reason ? ` because ${midSentence(reason)}` : ""}`,
      review,
    ]);
    return [...headSentences, ...middle, closing].join(" ");
  },
};

/** The first sentence of a text, without its end mark. */
function firstClause(text: string): string {
  return clause(splitNarrativeSentences(text)[0] ?? "");
}

/** A text's parts between semicolons outside brackets ("a (b; c); d" is "a (b; c)" and "d"). */
function semicolonParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "(" || char === "[") depth++;
    else if ((char === ")" || char === "]") && depth > 0) depth--;
    else if (char === ";" && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

/**
 * What the narrative has stated so far: `fresh` keeps the parts of a text (between semicolons)
 * that state something new and records them, so no finding is written twice.
 */
function findingLedger(): { fresh(text: string): string } {
  const stated = new Set<string>();
  return {
    fresh(text) {
      const kept: string[] = [];
      for (const part of semicolonParts(text)) {
        const whole = fold(part);
        if (whole === "") continue;
        const clauses = foldedClauses(part);
        const repeated =
          clauses.some((c) => stated.has(c)) ||
          new Set(clauses).size < clauses.length ||
          (whole.length >= 12 && [...stated].some((c) => c.includes(whole) || whole.includes(c)));
        if (repeated) continue;
        kept.push(part);
        for (const c of clauses) stated.add(c);
        if (whole.length >= 12) stated.add(whole);
      }
      return kept.join("; ");
    },
  };
}

/** Default bound on narration (the contract quotes about 1-3 s of added latency). */
export const DEFAULT_REASONING_TIMEOUT_MS = 3_000;

/** The longest narrative kept (characters). */
const MAX_NARRATIVE_CHARS = 2_000;

/**
 * Statuses in which an engine raised a concern, across the five engines' interpretation scales:
 * relapse moderate, elevated and high; biomarker watch, elevated and critical; medication and
 * outcome worsening; outcome severe symptoms; a dmse signal for clinical attention.
 */
const RAISED_STATUSES: ReadonlySet<string> = new Set([
  "moderate",
  "elevated",
  "high",
  "critical",
  "watch",
  "worsening",
  "severe_symptoms",
  "clinical_attention",
]);

/**
 * The engine raised risk: the summary asks for clinician review, flags an entry, or its status is
 * one of concern. Beside a raised risk, words that play it down also count as reassurance
 * (decision 74).
 */
export function engineRaisedRisk(summary: IntelligenceBlock["summary"]): boolean {
  return summary.requiresClinicianReview || summary.flagged.length > 0 || RAISED_STATUSES.has(summary.status);
}

/**
 * A language model's narrative without reassurance about risk (decision 74): every sentence that
 * carries it is dropped, before and after the length cut (a cut could make a fragment read as
 * one). Null when no sentence is left.
 */
export function screenModelNarrative(
  narrative: string,
  summary: IntelligenceBlock["summary"],
): string | null {
  const context = { riskRaised: engineRaisedRisk(summary) };
  // Only the first MODEL_TEXT_READ_CHARS of the model's text are read (decision 168).
  const cut = screenReassurance(readModelText(narrative), context).text.trim().slice(0, MAX_NARRATIVE_CHARS);
  const kept = screenReassurance(cut, context).text.trim();
  return kept === "" ? null : kept;
}

/**
 * Fill `reasoning` when asked. A narrator that fails, returns nothing or runs past the time
 * limit yields `reasoning: null`; the rest of the block is unaffected. A language model's
 * narrative loses its sentences of reassurance about risk (decision 74); when none is left the
 * template narrator's text stands in (narrator `template`), so screening never empties reasoning.
 * The template narrator's text restates the engine and is kept as written. `signal` is the
 * caller's stop (the request's time limit or the client going away): the narrator's request is
 * aborted with it, as at the narration's own time limit.
 */
export async function attachReasoning(
  block: IntelligenceBlock,
  narrator: Narrator,
  options: { highlights?: string[]; timeoutMs?: number; now?: () => Date; signal?: AbortSignal } = {},
): Promise<IntelligenceBlock> {
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
  const timeoutMs = options.timeoutMs ?? DEFAULT_REASONING_TIMEOUT_MS;
  const request: NarrationRequest = {
    engine: block.engine,
    summary: block.summary,
    confidence: block.confidence,
    change: block.change,
    highlights: options.highlights ?? [],
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<null>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(null);
    }, timeoutMs);
  });
  try {
    const narrative = await Promise.race([narrator.narrate(request, signal).catch(() => null), expired]);
    const text = typeof narrative === "string" ? narrative.trim() : "";
    if (!text) return { ...block, reasoning: null };
    const generatedAt = (options.now?.() ?? new Date()).toISOString();
    if (narrator.kind === "template")
      return {
        ...block,
        reasoning: { narrative: text.slice(0, MAX_NARRATIVE_CHARS), generatedAt, narrator: "template" },
      };
    const screened = screenModelNarrative(text, block.summary);
    if (screened !== null)
      return { ...block, reasoning: { narrative: screened, generatedAt, narrator: narrator.kind } };
    const fallback = (await templateNarrator.narrate(request, signal)).slice(0, MAX_NARRATIVE_CHARS);
    return { ...block, reasoning: { narrative: fallback, generatedAt, narrator: "template" } };
  } finally {
    clearTimeout(timer);
  }
}
