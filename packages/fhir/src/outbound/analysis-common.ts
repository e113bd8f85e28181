/** Types and small builders the analysis mappings share. */
import type { CodeableConcept, Coding, Observation, Patient, Reference } from "@medplum/fhirtypes";
import type { ModelRef, PatientFinding, Prescription } from "@svc/engines";
import type { ENGINE_REGISTRY, EngineName, IntelligenceBlock } from "@svc/intelligence";
import { compact, type NewId } from "./resources.js";

export interface AnswerCommon {
  generatedAt: string;
  sessionRef?: string;
  model: ModelRef;
  intelligence: IntelligenceBlock;
}

/**
 * What every answer may carry besides its engine's data: the findings of the patient-over-time
 * review that ran on the request's patient facts (decision 189), each written as a DetectedIssue
 * or a "not evaluated" Observation (decision 204).
 */
export interface AnswerReview {
  patientFindings?: readonly PatientFinding[];
}

/** The `data` of an engine's run, read from its descriptor in the registry. */
type EngineData<E extends EngineName> = ReturnType<(typeof ENGINE_REGISTRY)[E]["run"]>["data"];

/** One engine's answer: its name, the response `data`, and the request fields the mapping reads. */
export type EngineAnswer<E extends EngineName> = AnswerReview & {
  engine: E;
  data: AnswerCommon & EngineData<E>;
  request?: AnalysisRequestFields;
};

/** An analysis answer: one member per engine of the registry (decision 101), told apart by `engine`. */
export type AnalysisAnswer = { [E in EngineName]: EngineAnswer<E> }[EngineName];

/** Request fields the mapping reads: the prescriptions (interactions and `implicated`). */
export interface AnalysisRequestFields {
  prescriptions?: readonly Prescription[];
  /** The other request fields, not read here. */
  [field: string]: unknown;
}

export interface OutboundOptions {
  /** The deployment's public base URL: our canonicals live under `<it>/fhir`. */
  publicBaseUrl: string;
  /** Mints the `urn:uuid` of each entry (random UUIDs by default). */
  newId?: NewId;
}

/** The RiskAssessment subject (1..1 in R4) when the request names no patient (decision 116). */
export const UNIDENTIFIED_SUBJECT: Reference<Patient> = {
  display: "Patient of the calling system (no patient identity is sent to this service)",
};

/**
 * A reference to one of the caller's prescriptions, by its `id` and name. The request accepts
 * blank values, which an R4 string may not be (it needs non-whitespace content): each blank value
 * is left out, and a prescription with neither is not referenced at all.
 */
export function prescriptionReference(prescription: {
  id: string;
  medicationName: string;
}): Reference | undefined {
  const id = prescription.id.trim() === "" ? undefined : prescription.id;
  const display = prescription.medicationName.trim() === "" ? undefined : prescription.medicationName;
  if (id === undefined && display === undefined) return undefined;
  const reference: Reference = {
    type: "MedicationRequest",
    identifier: id === undefined ? undefined : { value: id },
    display,
  };
  return compact(reference);
}

/** DetectedIssue.severity is required-bound to high | moderate | low; the engine uses the same three. */
export const DETECTED_ISSUE_SEVERITIES = ["high", "moderate", "low"] as const;

/** The FHIR resource type each request field is about, for `dataRequirement.type` (Observation otherwise). */
export const INPUT_TYPES: Readonly<Record<string, string>> = {
  prescriptions: "MedicationRequest",
  hasActiveMedication: "MedicationRequest",
  daysSinceMedChange: "MedicationRequest",
  activeMedications: "MedicationRequest",
  daysSinceLastVisit: "Encounter",
};

/** A FHIR dateTime as the validator accepts it (engine timestamps and caller dates both pass). */
const FHIR_DATE_TIME =
  /^([0-9]{4})(-(0[1-9]|1[0-2])(-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?(Z|[+-]((0[0-9]|1[0-3]):[0-5][0-9]|14:00)))?)?)?$/;
export const dateTimeOrUndefined = (value: string | null | undefined): string | undefined =>
  typeof value === "string" && FHIR_DATE_TIME.test(value) ? value : undefined;

export interface Context {
  base: string;
  newId: NewId;
  answer: AnalysisAnswer;
}

export const text = (coding: Coding, label?: string): CodeableConcept =>
  label === undefined ? { coding: [coding] } : { coding: [coding], text: label };

export function observation(
  ctx: Context,
  code: CodeableConcept,
  rest: Omit<Observation, "resourceType" | "status" | "code">,
): Observation {
  return compact({
    resourceType: "Observation",
    status: "final",
    code,
    issued: ctx.answer.data.generatedAt,
    ...rest,
  }) as Observation;
}

export const points = (value: number) => ({ value, unit: "points" });
