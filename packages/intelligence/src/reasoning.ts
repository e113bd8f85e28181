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

/**
 * Fill `reasoning` when asked. A narrator that fails, returns nothing or runs past the time
 * limit yields `reasoning: null`; the rest of the block is unaffected.
 */
export async function attachReasoning(
  block: IntelligenceBlock,
  narrator: Narrator,
  options: { highlights?: string[]; timeoutMs?: number; now?: () => Date } = {},
): Promise<IntelligenceBlock> {
  const controller = new AbortController();
  const timeoutMs = options.timeoutMs ?? DEFAULT_REASONING_TIMEOUT_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<null>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(null);
    }, timeoutMs);
  });
  try {
    const narrative = await Promise.race([
      narrator
        .narrate(
          {
            engine: block.engine,
            summary: block.summary,
            confidence: block.confidence,
            change: block.change,
            highlights: options.highlights ?? [],
          },
          controller.signal,
        )
        .catch(() => null),
      expired,
    ]);
    const text = typeof narrative === "string" ? narrative.trim() : "";
    if (!text) return { ...block, reasoning: null };
    return {
      ...block,
      reasoning: {
        narrative: text.slice(0, 2000),
        generatedAt: (options.now?.() ?? new Date()).toISOString(),
        narrator: narrator.kind,
      },
    };
  } finally {
    clearTimeout(timer);
  }
}
