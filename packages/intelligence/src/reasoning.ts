import { screenReassurance } from "./reassurance.js";
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

const ENGINE_NAMES: Record<IntelligenceBlock["engine"], string> = {
  dmse: "digital mental status signals",
  biomarker: "laboratory biomarker review",
  medication: "medication response review",
  outcome: "treatment-response composite",
  relapse: "relapse early-warning score",
};

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * Deterministic template reasoning (2-4 sentences) written from engine output alone. It restates
 * what the engine computed; it adds no clinical judgment of its own.
 */
export const templateNarrator: Narrator = {
  kind: "template",
  async narrate(request) {
    const parts: string[] = [];
    parts.push(sentence(`The ${ENGINE_NAMES[request.engine]} reads: ${request.summary.headline}`));
    if (request.highlights.length > 0)
      parts.push(sentence(`Most relevant: ${request.highlights.slice(0, 2).join("; ")}`));
    if (request.change) {
      const why = request.change.explanations[0];
      parts.push(
        sentence(
          `Compared with the previous result it ${request.change.direction === "unchanged" ? "is unchanged" : request.change.direction}${why ? ` (${why.replace(/\.$/, "")})` : ""}`,
        ),
      );
    }
    parts.push(
      sentence(
        `Confidence is ${request.confidence.level}${request.confidence.reasons[0] ? ` because ${request.confidence.reasons[0].replace(/\.$/, "").toLowerCase()}` : ""}; ${request.summary.requiresClinicianReview ? "a clinician should review this result" : "this is decision support for clinician review, not a diagnosis"}`,
      ),
    );
    return parts.slice(0, 4).join(" ");
  },
};

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
  const cut = screenReassurance(narrative, context).text.trim().slice(0, MAX_NARRATIVE_CHARS);
  const kept = screenReassurance(cut, context).text.trim();
  return kept === "" ? null : kept;
}

/**
 * Fill `reasoning` when asked. A narrator that fails, returns nothing or runs past the time
 * limit yields `reasoning: null`; the rest of the block is unaffected. A language model's
 * narrative loses its sentences of reassurance about risk (decision 74); when none is left the
 * template narrator's text stands in (narrator `template`), so screening never empties reasoning.
 * The template narrator's text restates the engine and is kept as written.
 */
export async function attachReasoning(
  block: IntelligenceBlock,
  narrator: Narrator,
  options: { highlights?: string[]; timeoutMs?: number; now?: () => Date } = {},
): Promise<IntelligenceBlock> {
  const controller = new AbortController();
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
    const narrative = await Promise.race([
      narrator.narrate(request, controller.signal).catch(() => null),
      expired,
    ]);
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
    const fallback = (await templateNarrator.narrate(request, controller.signal)).slice(
      0,
      MAX_NARRATIVE_CHARS,
    );
    return { ...block, reasoning: { narrative: fallback, generatedAt, narrator: "template" } };
  } finally {
    clearTimeout(timer);
  }
}
