/**
 * An analysis answer (the `data` of one of the five analysis endpoints) as a FHIR R4 `collection`
 * Bundle: Observations for scores and signals, a RiskAssessment for relapse, DetectedIssues for
 * interactions among the active prescriptions, a GuidanceResponse saying whether the data were
 * sufficient, and a Provenance naming the engine and the model version it ran with. Pure: the
 * public base URL and the id minting are passed in. Field-to-element map: docs/fhir.md, "FHIR out".
 */
import type { Bundle, Device, Provenance } from "@medplum/fhirtypes";
import { ENGINE_REGISTRY } from "@svc/intelligence";
import type { AnalysisAnswer, Context, OutboundOptions } from "./analysis-common.js";
import { attachCodes } from "./analysis-observations.js";
import { codeSystemUrl, identifierSystem } from "./canonical.js";
import { engineEntries } from "./engine-mappings.js";
import { guidanceResponse } from "./guidance.js";
import { patientFindingResources } from "./patient-review.js";
import { collection, type Entry, entry, randomId, ref } from "./resources.js";

export type {
  AnalysisAnswer,
  AnalysisRequestFields,
  AnswerReview,
  EngineAnswer,
  OutboundOptions,
} from "./analysis-common.js";
export { DETECTED_ISSUE_SEVERITIES, UNIDENTIFIED_SUBJECT } from "./analysis-common.js";
export { dataInsufficient } from "./guidance.js";
export { type PatientFindingContext, patientFindingResources } from "./patient-review.js";

// ---------------------------------------------------------------------------------------------
// Provenance

function engineDevice(ctx: Context): Device {
  const descriptor = ENGINE_REGISTRY[ctx.answer.engine];
  const { model, intelligence } = ctx.answer.data;
  return {
    resourceType: "Device",
    id: "engine",
    identifier: [{ system: codeSystemUrl(ctx.base, "engine"), value: ctx.answer.engine }],
    deviceName: [
      { name: descriptor.label, type: "user-friendly-name" },
      { name: model.key, type: "model-name" },
    ],
    version: [
      {
        type: { text: model.source === "calibrated" ? "calibrated model version" : "shipped default model" },
        value: intelligence.provenance.engineVersion,
      },
    ],
  };
}

export function provenance(ctx: Context, targets: Entry[]): Entry<Provenance> {
  const device = engineDevice(ctx);
  const resource: Provenance = {
    resourceType: "Provenance",
    contained: [device],
    target: targets.map((t) => ref(t)),
    recorded: ctx.answer.data.intelligence.provenance.generatedAt,
    activity: { text: ctx.answer.data.intelligence.provenance.method },
    agent: [
      {
        who: {
          reference: "#engine",
          display: `${ENGINE_REGISTRY[ctx.answer.engine].label}, model ${ctx.answer.data.model.key} ${ctx.answer.data.intelligence.provenance.engineVersion}`,
        },
      },
    ],
  };
  return entry(ctx.newId, resource);
}

// ---------------------------------------------------------------------------------------------
// The Bundle

/**
 * The analysis answer as a FHIR R4 `collection` Bundle (decision 116). Entries: the Observations,
 * then the RiskAssessment or DetectedIssues, the patient review's findings (DetectedIssues, "not
 * evaluated" Observations), the GuidanceResponse, and last the Provenance whose
 * targets are all of them. `sessionRef`, when sent and not blank, is the Bundle's identifier; no patient
 * is named.
 */
export function analysisBundle(answer: AnalysisAnswer, options: OutboundOptions): Bundle {
  const ctx: Context = { base: options.publicBaseUrl, newId: options.newId ?? randomId, answer };
  const parts = engineEntries(ctx, answer);
  const leftOver = attachCodes(ctx, parts.byItem, parts.observations[0]);
  const guidance = guidanceResponse(ctx, parts.caveat, leftOver);
  // The patient review's findings, when the answer carries them (decision 204).
  const review = patientFindingResources(
    { base: ctx.base, newId: ctx.newId, identifiedAt: answer.data.generatedAt },
    answer.patientFindings ?? [],
  );
  const targets: Entry[] = [...parts.observations, ...parts.others, ...review, guidance];
  const sessionRef = answer.data.sessionRef;
  return collection(
    [...targets, provenance(ctx, targets)],
    answer.data.generatedAt,
    // A blank sessionRef identifies nothing, and an R4 string needs non-whitespace content.
    sessionRef === undefined || sessionRef.trim() === ""
      ? undefined
      : { system: identifierSystem(ctx.base, "session-ref"), value: sessionRef },
  );
}
