/** The GuidanceResponse of an analysis answer: success, or data-required with what to send (decision 119). */
import type { Coding, DataRequirement, GuidanceResponse } from "@medplum/fhirtypes";
import type { IntelligenceBlock } from "@svc/intelligence";
import { type AnalysisAnswer, type Context, INPUT_TYPES, text } from "./analysis-common.js";
import { inputCoding, ourCoding } from "./code-systems.js";
import { engineDataInsufficient, engineNotes } from "./engine-mappings.js";
import { compact, type Entry, entry, notes } from "./resources.js";

// ---------------------------------------------------------------------------------------------
// GuidanceResponse

/**
 * Whether the engine had too little data to answer: its status says `insufficient_data`, or its
 * mapping says so (relapse: no symptom-scale trajectory could be read, so a low score is not
 * evidence of low risk).
 */
export function dataInsufficient(answer: AnalysisAnswer): boolean {
  if (answer.data.intelligence.summary.status === "insufficient_data") return true;
  return engineDataInsufficient(answer);
}

/** The request fields to send (again): missing, stale, or sent but not used; every input when none is named. */
function requiredInputs(intelligence: IntelligenceBlock): string[] {
  const named = new Set([
    ...intelligence.dataQuality.missingInputs,
    ...intelligence.dataQuality.freshness.staleInputs,
    ...intelligence.provenance.inputs.filter((i) => !i.contributed).map((i) => i.name),
  ]);
  return named.size > 0 ? [...named] : intelligence.provenance.inputs.map((i) => i.name);
}

function dataRequirements(ctx: Context): DataRequirement[] {
  return requiredInputs(ctx.answer.data.intelligence).map((field) => ({
    type: INPUT_TYPES[field] ?? "Observation",
    codeFilter: [{ path: "code", code: [inputCoding(ctx.base, field)] }],
  }));
}

function guidanceNotes(ctx: Context, caveat: string | undefined): GuidanceResponse["note"] {
  const { intelligence, disclaimer } = ctx.answer.data;
  const { summary, confidence, dataQuality, change, reasoning } = intelligence;
  const { missingInputs, freshness } = dataQuality;
  return notes(
    summary.headline,
    summary.flagged.length > 0 ? `Flagged: ${summary.flagged.join("; ")}.` : undefined,
    `Status ${summary.status}; clinician review ${summary.requiresClinicianReview ? "required" : "not required"}.`,
    `Confidence ${confidence.level} (${confidence.score}): ${confidence.reasons.join(" ")}`,
    `Data completeness ${dataQuality.completeness}${missingInputs.length > 0 ? `; missing: ${missingInputs.join(", ")}` : ""}${freshness.staleInputs.length > 0 ? `; stale: ${freshness.staleInputs.join(", ")}` : ""}; newest input ${freshness.newestInputAt ?? "undated"}.`,
    ...engineNotes(ctx.answer),
    change
      ? `Change since previous (${change.previousComputedAt ?? "undated"}): ${change.direction}${change.delta === null ? "" : ` by ${change.delta}`}, ${change.previousStatus ?? "no status"} -> ${change.currentStatus}. ${change.explanations.join(" ")}`
      : undefined,
    reasoning
      ? `Reasoning (${reasoning.narrator ?? "template"}, ${reasoning.generatedAt}): ${reasoning.narrative}`
      : undefined,
    caveat,
    disclaimer,
  );
}

export function guidanceResponse(
  ctx: Context,
  caveat: string | undefined,
  leftOver: Coding[],
): Entry<GuidanceResponse> {
  const insufficient = dataInsufficient(ctx.answer);
  const resource: GuidanceResponse = compact({
    resourceType: "GuidanceResponse",
    moduleCodeableConcept: text(ourCoding(ctx.base, "engine", ctx.answer.engine)),
    status: insufficient ? "data-required" : "success",
    occurrenceDateTime: ctx.answer.data.generatedAt,
    reasonCode: leftOver.length > 0 ? [{ coding: leftOver }] : undefined,
    note: guidanceNotes(ctx, caveat),
    dataRequirement: insufficient ? dataRequirements(ctx) : undefined,
  }) as GuidanceResponse;
  return entry(ctx.newId, resource);
}

/** The engine and the model version it ran with, as a Device contained in the Provenance. */
