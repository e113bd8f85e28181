/**
 * What the FHIR -> engine input mapping produces: readings the engines can use, and a named
 * "not used" entry for every resource that could not be read, so a caller says "insufficient
 * data" instead of staying silent (decision 112; docs/fhir.md, "FHIR in").
 */
import type { Assessment, Biomarker } from "@svc/engines";

/** Why a resource was not turned into an engine input. */
export const NOT_USED_REASONS = [
  /** No LOINC/RxNorm code or name the knowledge model knows. */
  "unknown_code",
  /** A unit that is not one of the analyte's (or score's) accepted UCUM units, or no unit. */
  "unknown_unit",
  /** No value (dataAbsentReason, a coded or text value, no number). */
  "no_value",
  /** A value the instrument cannot produce (outside its range, a fraction of a whole-number score). */
  "invalid_value",
  /** A status that does not count (preliminary, entered-in-error, cancelled, stopped, ...). */
  "wrong_status",
  /** No usable effective time, or one in the future. */
  "no_date",
  /** The resource's subject is another patient than the one in context. */
  "other_patient",
  /** Not an Observation or MedicationRequest, or not a FHIR resource at all. */
  "unsupported_resource",
  /** The server reported an error (OperationOutcome) or left pages unread. */
  "incomplete",
] as const;
export type NotUsedReason = (typeof NOT_USED_REASONS)[number];

export interface NotUsed {
  resourceType: string;
  /** The resource id, or null when it has none. */
  id: string | null;
  reason: NotUsedReason;
  /** One sentence for a clinician: what was not read and why. */
  detail: string;
}

/** A symptom-scale total score, as the engines' Assessment. */
export interface InstrumentReading {
  kind: "instrument";
  resourceId: string | null;
  loinc: string;
  assessment: Assessment;
}

/** Laboratory interpretation read from v3 ObservationInterpretation, as the engines' flag. */
export type LabFlag = NonNullable<Biomarker["flag"]>;

/** A laboratory result of a known analyte in an accepted unit, or without a unit. */
export interface LabReading {
  kind: "lab";
  resourceId: string | null;
  loinc: string;
  /** Analyte key in the knowledge model (`lithium`, `anc`, `sodium`). */
  analyteKey: string;
  value: number;
  /** "<", "<=", ">=", ">" for a censored result. */
  comparator: "<" | "<=" | ">=" | ">" | null;
  /**
   * The UCUM code of the accepted unit the value is in; null when the Observation gave no unit
   * (the one judgement reads it by the unit-less rule, decision 180).
   */
  unit: string | null;
  flag: LabFlag | null;
  observedAt: string;
}

/** A MedicationRequest read as the medicine model's ingredients. */
export interface MedicationReading {
  kind: "medication";
  resourceId: string | null;
  /** Text the interaction checker reads: the ingredient name for an RxNorm-coded order, else the order's text. */
  text: string;
  /** Canonical ingredient names the medicine model recognised. */
  ingredients: string[];
  /** The RxNorm ingredient code matched, when the order was coded with one. */
  rxnorm: string | null;
  /**
   * The daily dose of the order's `dosageInstruction`, as a phrase the interaction checker reads
   * ("300 mg per day", decision 184); absent when the order states no dose in mg, g or micrograms
   * with a timing that says how often a day.
   */
  dailyDose?: string;
  status: string;
  /** ISO 8601 `authoredOn`, or null. */
  authoredOn: string | null;
}

export interface FhirInbound {
  instruments: InstrumentReading[];
  labs: LabReading[];
  medications: MedicationReading[];
  notUsed: NotUsed[];
}

export interface ReadOptions {
  /** The clock: an effective time after it is not used. */
  now: Date;
  /** The patient in context: a resource whose subject names another patient is not used. */
  patientId?: string;
  /** MedicationRequest statuses that count (default: `active` only; decision 112). */
  medicationStatuses?: readonly string[];
}
