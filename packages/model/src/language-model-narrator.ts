import type { NarrationRequest, Narrator } from "@svc/intelligence";
import { LANGUAGE_MODEL_REPLY_BOUNDS } from "./chat-model.js";
import { readBounded } from "./reply-bounds.js";

/**
 * The model port's real adapter: an OpenAI-compatible chat-completions endpoint (MODEL_BASE_URL,
 * MODEL_API_KEY, MODEL_NAME). It receives engine output only (no identifiers) and is asked to
 * restate it; any failure, refusal, malformed answer or time-out yields `reasoning: null`
 * upstream (attachReasoning), never a failed analysis.
 */
export interface LanguageModelNarratorOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
}

const INSTRUCTIONS =
  "You explain the output of a deterministic clinical decision-support engine to a clinician in 2 to 4 plain sentences. " +
  "Restate only what the JSON says: its headline, the most relevant lines, the change and the confidence. " +
  "Do not diagnose, do not add numbers, recommendations or facts that are not in the JSON.";

export function createLanguageModelNarrator(options: LanguageModelNarratorOptions): Narrator {
  const url = `${options.baseUrl.replace(/\/$/, "")}/chat/completions`;
  return {
    kind: "model",
    async narrate(request: NarrationRequest, signal: AbortSignal): Promise<string> {
      const response = await fetch(url, {
        method: "POST",
        signal,
        redirect: "error",
        headers: {
          "content-type": "application/json",
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: options.model,
          temperature: 0,
          max_tokens: 300,
          messages: [
            { role: "system", content: INSTRUCTIONS },
            { role: "user", content: JSON.stringify(request) },
          ],
        }),
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new Error(`model answered ${response.status}`);
      }
      // Read within the reply bound, never buffered whole (a reply over it is refused).
      const bytes = await readBounded(response, LANGUAGE_MODEL_REPLY_BOUNDS.maxReplyBytes);
      const body = JSON.parse(new TextDecoder().decode(bytes)) as {
        choices?: { message?: { content?: unknown } }[];
      };
      const content = body.choices?.[0]?.message?.content;
      if (typeof content !== "string" || content.trim().length === 0) throw new Error("empty model answer");
      return content;
    },
  };
}

/** The MODEL_* settings of the service environment (parseEnv requires MODEL_NAME with MODEL_BASE_URL). */
export interface LanguageModelEnv {
  MODEL_BASE_URL?: string;
  MODEL_API_KEY?: string;
  MODEL_NAME?: string;
}

/**
 * The model narrator the environment configures, or undefined when MODEL_BASE_URL is unset (the
 * Intelligence API then narrates with the template narrator).
 */
export function languageModelNarratorFromEnv(env: LanguageModelEnv): Narrator | undefined {
  if (!env.MODEL_BASE_URL || !env.MODEL_NAME) return undefined;
  return createLanguageModelNarrator({
    baseUrl: env.MODEL_BASE_URL,
    apiKey: env.MODEL_API_KEY,
    model: env.MODEL_NAME,
  });
}
