/** Defensive readers of untyped FHIR JSON: nothing here trusts the shape of its input. */
import type { NotUsed, NotUsedReason } from "./types.js";

export type Json = Record<string, unknown>;

export const LOINC = "http://loinc.org";
export const UCUM = "http://unitsofmeasure.org";
export const RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm";
export const V3_INTERPRETATION = "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation";

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

export function array(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The codings of a CodeableConcept with the given system, in order. */
export function codingsOf(concept: unknown, system: string): { code: string; display: string | null }[] {
  if (!isObject(concept)) return [];
  return array(concept.coding).flatMap((coding) => {
    if (!isObject(coding) || coding.system !== system) return [];
    const code = text(coding.code);
    return code === null ? [] : [{ code, display: text(coding.display) }];
  });
}

export function notUsed(resource: unknown, reason: NotUsedReason, detail: string): NotUsed {
  const r = isObject(resource) ? resource : {};
  return {
    resourceType: text(r.resourceType) ?? "unknown",
    id: text(r.id),
    reason,
    detail,
  };
}

/** A label for a resource in a sentence: "Observation/abc" or "an Observation without id". */
export function labelOf(resource: Json): string {
  const type = text(resource.resourceType) ?? "resource";
  const id = text(resource.id);
  return id === null ? `a ${type} without id` : `${type}/${id}`;
}

// FHIR R4 dateTime: a year, year-month, date, or date-time with seconds and a time zone.
const FHIR_DATE_TIME =
  /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?(Z|[+-]((0\d|1[0-3]):[0-5]\d|14:00)))?)?)?$/;

/** Milliseconds of a FHIR dateTime/instant, or null when it is not one. */
export function fhirTime(value: unknown): number | null {
  if (typeof value !== "string" || !FHIR_DATE_TIME.test(value)) return null;
  const ms = Date.parse(value.length === 4 ? `${value}-01-01` : value.length === 7 ? `${value}-01` : value);
  return Number.isFinite(ms) ? ms : null;
}

/** A clock tolerance for results stamped by a client whose clock runs a little ahead (5 minutes). */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

/** Whether a reference names another patient than `patientId` ("Patient/<id>" or a full URL ending so). */
export function isOtherPatient(subject: unknown, patientId: string | undefined): boolean {
  if (patientId === undefined || !isObject(subject)) return false;
  const reference = text(subject.reference);
  if (reference === null) return false;
  const match = /(?:^|\/)Patient\/([^/]+?)(?:\/_history\/[^/]+)?$/.exec(reference);
  return match !== null && match[1] !== patientId;
}
