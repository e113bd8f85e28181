import type { EngineFacts, ModelRef } from "@svc/engines";
import { buildIntelligenceCore, type PreviousResult } from "./core.js";
import type { EngineName } from "./registry.js";
import type { IntelligenceBlock, TerminologyCode } from "./types.js";

/** `provenance.engineVersion`: `default` for shipped constants, `v<N>` for calibrated version N. */
export function engineVersionOf(model: ModelRef): string {
  return model.source === "calibrated" && model.version !== null ? `v${model.version}` : "default";
}

/**
 * The deterministic intelligence block of one engine run: the engine's facts plus terminology
 * codes, data quality, provenance and the change against `previous`. `reasoning` stays null here;
 * attachReasoning adds it when the caller asked for it.
 */
export function buildEngineIntelligence(input: {
  engine: EngineName;
  facts: EngineFacts;
  model: ModelRef;
  now: Date;
  codes: TerminologyCode[];
  previous?: PreviousResult;
  /** The request's analysis inputs keyed by field name (no explain/previous/sessionRef). */
  currentInputs: Record<string, unknown>;
}): IntelligenceBlock {
  const { facts } = input;
  return buildIntelligenceCore({
    engine: input.engine,
    now: input.now,
    engineVersion: engineVersionOf(input.model),
    summary: facts.summary,
    confidence: facts.confidence,
    inputs: facts.inputs,
    codes: input.codes,
    current: facts.current,
    previous: input.previous,
    currentInputs: input.currentInputs,
    polarity: facts.polarity,
    interpretationScale: facts.interpretationScale,
  });
}
