/**
 * An analysis answer (the `data` of one of the five analysis endpoints) as a FHIR R4 `collection`
 * Bundle: Observations for scores and signals, a RiskAssessment for relapse, DetectedIssues for
 * interactions among the active prescriptions, a GuidanceResponse saying whether the data were
 * sufficient, and a Provenance naming the engine and the model version it ran with. Pure: the
 * public base URL and the id minting are passed in. Field-to-element map: docs/fhir.md, "FHIR out".
 */
import type { Bundle, Device, Observation, Provenance } from "@medplum/fhirtypes";
import { doseCheckOptions } from "@svc/engines";
import { ENGINE_REGISTRY, type EngineName } from "@svc/intelligence";
import type { AnalysisAnswer, Context, OutboundOptions } from "./analysis-common.js";
import {
  attachCodes,
  biomarkerObservations,
  dmseObservations,
  moduleSignalObservation,
  outcomeObservation,
  relapseObservation,
  relapseRiskAssessment,
} from "./analysis-observations.js";
import { codeSystemUrl, identifierSystem } from "./canonical.js";
import { ANALYSIS_CODES } from "./code-systems.js";
import { guidanceResponse } from "./guidance.js";
import { interactionIssues } from "./interactions.js";
import { patientFindingResources } from "./patient-review.js";
import { collection, type Entry, entry, randomId, ref } from "./resources.js";

export type {
  AnalysisAnswer,
  AnalysisRequestFields,
  AnswerReview,
  OutboundOptions,
} from "./analysis-common.js";
export { DETECTED_ISSUE_SEVERITIES, UNIDENTIFIED_SUBJECT } from "./analysis-common.js";
export { dataInsufficient } from "./guidance.js";
export { type PatientFindingContext, patientFindingResources } from "./patient-review.js";

// ---------------------------------------------------------------------------------------------
// Provenance

function engineDevice(ctx: Context): Device {
  const descriptor = ENGINE_REGISTRY[ctx.answer.engine as EngineName];
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

interface EngineEntries {
  observations: Entry<Observation>[];
  /** Observations keyed by the `data` item they map ("signals.0"), for the engine's codes. */
  byItem: Map<string, Entry<Observation>>;
  others: Entry[];
  caveat?: string;
}

function keyed(list: string, items: Entry<Observation>[], offset = 0): [string, Entry<Observation>][] {
  return items.map((item, i) => [`${list}.${i - offset}`, item]);
}

function engineEntries(ctx: Context): EngineEntries {
  const { answer } = ctx;
  switch (answer.engine) {
    case "dmse": {
      const observations = dmseObservations(ctx, answer.data);
      return { observations, byItem: new Map(keyed("signals", observations)), others: [] };
    }
    case "biomarker": {
      const observations = biomarkerObservations(ctx, answer.data);
      const signals = observations.slice(0, answer.data.signals.length);
      const findings = observations.slice(answer.data.signals.length);
      return {
        observations,
        byItem: new Map([...keyed("signals", signals), ...keyed("valueFindings", findings)]),
        others: [],
      };
    }
    case "medication": {
      const prescriptions = answer.request?.prescriptions ?? [];
      const observations = answer.data.signals.map((s) =>
        moduleSignalObservation(ctx, s, ANALYSIS_CODES.medicationSignal, prescriptions),
      );
      // The dose check at the patient's age and hepatic function, as the JSON answer's (decision 198).
      const review = answer.data.patientReview;
      const interactions = interactionIssues(
        ctx,
        prescriptions,
        review === undefined ? {} : doseCheckOptions(review.patient, new Date(answer.data.generatedAt)),
      );
      return {
        observations,
        byItem: new Map(keyed("signals", observations)),
        others: interactions.issues,
        caveat: interactions.caveat,
      };
    }
    case "outcome": {
      const score = outcomeObservation(ctx, answer.data);
      return { observations: [score], byItem: new Map(), others: [] };
    }
    case "relapse": {
      const score = relapseObservation(ctx, answer.data);
      return {
        observations: [score],
        byItem: new Map(),
        others: [relapseRiskAssessment(ctx, answer.data, score)],
      };
    }
  }
}

/**
 * The analysis answer as a FHIR R4 `collection` Bundle (decision 116). Entries: the Observations,
 * then the RiskAssessment or DetectedIssues, the patient review's findings (DetectedIssues, "not
 * evaluated" Observations), the GuidanceResponse, and last the Provenance whose
 * targets are all of them. `sessionRef`, when sent and not blank, is the Bundle's identifier; no patient
 * is named.
 */
export function analysisBundle(answer: AnalysisAnswer, options: OutboundOptions): Bundle {
  const ctx: Context = { base: options.publicBaseUrl, newId: options.newId ?? randomId, answer };
  const parts = engineEntries(ctx);
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
