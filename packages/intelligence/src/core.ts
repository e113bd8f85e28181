import {
  capStaleConfidence,
  type EngineFacts,
  type EngineInput,
  SYMPTOM_SCORE_STALE_AFTER_DAYS,
} from "@svc/engines";
import type { EngineName } from "./registry.js";
import { INTELLIGENCE_SCHEMA, type IntelligenceBlock, type TerminologyCode } from "./types.js";

/** One accepted input of an engine, as the engine reports it (`@svc/engines` EngineInput). */
export type InputDescriptor = EngineInput;

export interface PreviousResult {
  score?: number;
  status?: string;
  computedAt?: string;
  inputs?: Record<string, unknown>;
}

/** How to compare a result with the previous one: by score, or by status ordered best to worst. */
export type Polarity = EngineFacts["polarity"];

export interface CoreInput {
  engine: EngineName;
  now: Date;
  engineVersion: string;
  method?: string;
  summary: IntelligenceBlock["summary"];
  confidence: IntelligenceBlock["confidence"];
  inputs: InputDescriptor[];
  codes: TerminologyCode[];
  current: { score: number | null; status: string };
  previous?: PreviousResult;
  /** The request's own inputs keyed by field name, compared with `previous.inputs`. */
  currentInputs: Record<string, unknown>;
  polarity: Polarity;
  interpretationScale: Record<string, string>;
  /** Inputs observed longer ago than this are listed as stale (default 90 days), unless the input sets its own limit. */
  staleAfterDays?: number;
}

/** The staleness rule's limit (decision 62), one constant shared with the engines. */
export const DEFAULT_STALE_AFTER_DAYS = SYMPTOM_SCORE_STALE_AFTER_DAYS;

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Fraction of accepted inputs the caller supplied, 0..1. */
export function completeness(inputs: InputDescriptor[]): number {
  if (inputs.length === 0) return 0;
  return round(inputs.filter((i) => i.supplied).length / inputs.length);
}

/** Whether a supplied input is older than its own limit (or the default); undated inputs are not stale. */
function isStaleInput(input: InputDescriptor, now: Date, staleAfterDays: number): boolean {
  if (!input.supplied || !input.observedAt) return false;
  const at = Date.parse(input.observedAt);
  if (Number.isNaN(at)) return false;
  return at < now.getTime() - (input.staleAfterDays ?? staleAfterDays) * 86_400_000;
}

export function freshness(inputs: InputDescriptor[], now: Date, staleAfterDays = DEFAULT_STALE_AFTER_DAYS) {
  let newest: number | null = null;
  const stale: string[] = [];
  for (const input of inputs) {
    if (!input.supplied || !input.observedAt) continue;
    const at = Date.parse(input.observedAt);
    if (Number.isNaN(at)) continue;
    if (newest === null || at > newest) newest = at;
    if (isStaleInput(input, now, staleAfterDays)) stale.push(input.name);
  }
  return { newestInputAt: newest === null ? null : new Date(newest).toISOString(), staleInputs: stale };
}

/**
 * The staleness rule (decision 62) in the block: an input that moved the result, carries the
 * engine's own age limit and is older than it caps confidence at low, with a reason naming it.
 * Confidence is never raised; an engine that applied the rule already gives the same answer.
 */
export function staleAdjustedConfidence(
  confidence: IntelligenceBlock["confidence"],
  inputs: InputDescriptor[],
  now: Date,
): IntelligenceBlock["confidence"] {
  const stale = inputs.filter(
    (i) => i.contributed && i.staleAfterDays !== undefined && isStaleInput(i, now, i.staleAfterDays),
  );
  if (stale.length === 0) return confidence;
  const names = stale.map((i) => `${i.name} (older than ${i.staleAfterDays} days)`).join(", ");
  const reason = `Stale input(s): ${names}; the picture is not current, so confidence is at most low.`;
  const capped = capStaleConfidence(confidence, true, reason);
  // An engine that already gave the staleness reason keeps its own reasons.
  return confidence.level === capped.level && confidence.score === capped.score ? confidence : capped;
}

interface Explanation {
  text: string;
  impact: number;
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} ${value.length === 1 ? "entry" : "entries"}`;
  if (typeof value === "number") return String(round(value, 2));
  if (value === null || value === undefined) return "not given";
  if (typeof value === "object") return "an object";
  return JSON.stringify(value);
}

/** Why the inputs changed, biggest relative change first. */
export function explainInputChanges(
  previous: Record<string, unknown>,
  current: Record<string, unknown>,
): string[] {
  const explanations: Explanation[] = [];
  const names = [...new Set([...Object.keys(previous), ...Object.keys(current)])].sort();
  for (const name of names) {
    const before = previous[name];
    const after = current[name];
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    if (typeof before === "number" && typeof after === "number") {
      const delta = after - before;
      const relative = Math.abs(delta) / Math.max(Math.abs(before), 1);
      const sign = delta > 0 ? "+" : "";
      explanations.push({
        text: `${name} ${delta > 0 ? "rose" : "fell"} from ${round(before, 2)} to ${round(after, 2)} (${sign}${round(delta, 2)}).`,
        impact: relative,
      });
    } else if (before === undefined) {
      explanations.push({ text: `${name} is now supplied (${describeValue(after)}).`, impact: 0.5 });
    } else if (after === undefined) {
      explanations.push({ text: `${name} is no longer supplied.`, impact: 0.5 });
    } else if (Array.isArray(before) && Array.isArray(after)) {
      const added = after.length - before.length;
      explanations.push({
        text:
          added === 0
            ? `${name} changed (${after.length} entries).`
            : `${name} went from ${before.length} to ${after.length} entries.`,
        impact: Math.abs(added) / Math.max(before.length, 1) + 0.1,
      });
    } else {
      explanations.push({
        text: `${name} changed from ${describeValue(before)} to ${describeValue(after)}.`,
        impact: 0.3,
      });
    }
  }
  return explanations.sort((a, b) => b.impact - a.impact || a.text.localeCompare(b.text)).map((e) => e.text);
}

export function changeBlock(input: CoreInput): IntelligenceBlock["change"] {
  const previous = input.previous;
  if (!previous) return null;
  const delta =
    previous.score !== undefined && input.current.score !== null
      ? round(input.current.score - previous.score, 2)
      : null;
  let direction: "improved" | "worsened" | "unchanged" = "unchanged";
  if (input.polarity.kind === "score" && delta !== null && delta !== 0) {
    const up = delta > 0;
    direction = up === (input.polarity.higherIs === "better") ? "improved" : "worsened";
  } else if (input.polarity.kind === "status" && previous.status !== undefined) {
    const before = input.polarity.order.indexOf(previous.status);
    const after = input.polarity.order.indexOf(input.current.status);
    if (before >= 0 && after >= 0 && before !== after) direction = after < before ? "improved" : "worsened";
  }
  const explanations = previous.inputs ? explainInputChanges(previous.inputs, input.currentInputs) : [];
  if (previous.status !== undefined && previous.status !== input.current.status) {
    explanations.unshift(`Status moved from ${previous.status} to ${input.current.status}.`);
  }
  return {
    direction,
    delta,
    previousStatus: previous.status ?? null,
    currentStatus: input.current.status,
    explanations,
    previousComputedAt: previous.computedAt ?? null,
  };
}

/** The deterministic part of the block; `reasoning` is attached separately (it may call a model). */
export function buildIntelligenceCore(input: CoreInput): IntelligenceBlock {
  return {
    schema: INTELLIGENCE_SCHEMA,
    engine: input.engine,
    summary: input.summary,
    confidence: staleAdjustedConfidence(
      { ...input.confidence, score: round(Math.min(1, Math.max(0, input.confidence.score))) },
      input.inputs,
      input.now,
    ),
    dataQuality: {
      completeness: completeness(input.inputs),
      missingInputs: input.inputs.filter((i) => !i.supplied).map((i) => i.name),
      freshness: freshness(input.inputs, input.now, input.staleAfterDays),
    },
    provenance: {
      generatedAt: input.now.toISOString(),
      engineVersion: input.engineVersion,
      method: input.method ?? "deterministic_rules",
      inputs: input.inputs
        .filter((i) => i.supplied)
        .map((i) => ({ name: i.name, value: i.value, observedAt: i.observedAt, contributed: i.contributed })),
    },
    codes: input.codes,
    change: changeBlock(input),
    interpretationScale: input.interpretationScale,
    reasoning: null,
  };
}
