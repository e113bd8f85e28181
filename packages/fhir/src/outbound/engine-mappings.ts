/**
 * The FHIR mapping of each engine's answer: one entry per engine of the registry (decision 101),
 * keyed by its name, so the compiler asks for a mapping when an engine is registered. Each entry
 * gives the engine's own resources (Observations and others), the GuidanceResponse notes only it
 * carries, and, where its status alone cannot say so, whether it had too little data.
 */
import type { Observation } from "@medplum/fhirtypes";
import { doseCheckOptions } from "@svc/engines";
import type { EngineName } from "@svc/intelligence";
import type { Context, EngineAnswer } from "./analysis-common.js";
import {
  biomarkerObservations,
  dmseObservations,
  moduleSignalObservation,
  outcomeObservation,
  relapseObservation,
  relapseRiskAssessment,
} from "./analysis-observations.js";
import { ANALYSIS_CODES } from "./code-systems.js";
import { interactionIssues } from "./interactions.js";
import type { Entry } from "./resources.js";

/** The resources an engine's answer maps to, before the guidance and the provenance. */
export interface EngineEntries {
  observations: Entry<Observation>[];
  /** Observations keyed by the `data` item they map ("signals.0"), for the engine's codes. */
  byItem: Map<string, Entry<Observation>>;
  /** The engine's other resources (RiskAssessment, DetectedIssues), after its Observations. */
  others: Entry[];
  /** A note for the GuidanceResponse on what could not be checked. */
  caveat?: string;
}

/** How one engine's answer is written in FHIR. */
export interface EngineMapping<E extends EngineName> {
  entries(ctx: Context, answer: EngineAnswer<E>): EngineEntries;
  /** The engine's own summary fields that no other resource carries (GuidanceResponse notes). */
  notes(data: EngineAnswer<E>["data"]): string[];
  /** Whether the engine had too little data though its status does not say `insufficient_data`. */
  insufficient?(data: EngineAnswer<E>["data"]): boolean;
}

function keyed(list: string, items: Entry<Observation>[]): [string, Entry<Observation>][] {
  return items.map((item, i) => [`${list}.${i}`, item]);
}

/** Every registered engine's mapping; a missing engine is a compile error. */
export const ENGINE_MAPPINGS: { readonly [E in EngineName]: EngineMapping<E> } = {
  dmse: {
    entries: (ctx, answer) => {
      const observations = dmseObservations(ctx, answer.data);
      return { observations, byItem: new Map(keyed("signals", observations)), others: [] };
    },
    notes: (data) => [
      `${data.signalsPresent} signal(s) present; overall confidence ${data.overallConfidence}.`,
      ...data.mseNarrative,
    ],
  },
  biomarker: {
    entries: (ctx, answer) => {
      const observations = biomarkerObservations(ctx, answer.data);
      const signals = observations.slice(0, answer.data.signals.length);
      const findings = observations.slice(answer.data.signals.length);
      return {
        observations,
        byItem: new Map([...keyed("signals", signals), ...keyed("valueFindings", findings)]),
        others: [],
      };
    },
    notes: (data) => [`${data.signalsPresent} signal(s) present.`],
  },
  medication: {
    entries: (ctx, answer) => {
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
    },
    notes: (data) => [`${data.signalsPresent} signal(s) present.`],
  },
  outcome: {
    entries: (ctx, answer) => ({
      observations: [outcomeObservation(ctx, answer.data)],
      byItem: new Map(),
      others: [],
    }),
    notes: () => [],
  },
  relapse: {
    entries: (ctx, answer) => {
      const score = relapseObservation(ctx, answer.data);
      return {
        observations: [score],
        byItem: new Map(),
        others: [relapseRiskAssessment(ctx, answer.data, score)],
      };
    },
    notes: () => [],
    // No symptom-scale trajectory could be read, so a low score is not evidence of low risk.
    insufficient: (data) => !data.factors.some((f) => f.key === "symptoms" && f.available),
  },
};

// Each reads the answer's own engine's mapping: `E` ties the answer to its table entry, so no cast.

export function engineEntries<E extends EngineName>(ctx: Context, answer: EngineAnswer<E>): EngineEntries {
  return ENGINE_MAPPINGS[answer.engine].entries(ctx, answer);
}

export function engineNotes<E extends EngineName>(answer: EngineAnswer<E>): string[] {
  return ENGINE_MAPPINGS[answer.engine].notes(answer.data);
}

export function engineDataInsufficient<E extends EngineName>(answer: EngineAnswer<E>): boolean {
  return ENGINE_MAPPINGS[answer.engine].insufficient?.(answer.data) ?? false;
}
