/**
 * The CDS Services this package offers, as CDS Hooks 2.0.1 discovery descriptors. Ids are stable
 * (decision 113): clients register them, so they never change. Prefetch templates use
 * `{{context.patientId}}` only, and their codes come from the knowledge model (instrument totals,
 * analytes), never from a list of their own.
 */
import { ANALYTES } from "@svc/engines";
import { instrumentTotalLoincCodes, LOINC, PREGNANCY_STATUS_LOINC } from "@svc/fhir";

export const CDS_HOOKS = ["patient-view", "order-select", "order-sign"] as const;
export type CdsHook = (typeof CDS_HOOKS)[number];

export interface CdsServiceDescriptor {
  hook: CdsHook;
  id: string;
  title: string;
  description: string;
  prefetch: Readonly<Record<string, string>>;
  usageRequirements: string;
}

/** Comma-separated LOINC tokens for a `code=` search parameter (an OR of equalities). */
function loincTokens(codes: readonly string[]): string {
  return [...new Set(codes)].map((code) => `${LOINC}|${code}`).join(",");
}

const SCORE_CODES = loincTokens(instrumentTotalLoincCodes().map((c) => c.code));
// Every analyte the table knows (renal function, ECG, pregnancy tests among them: new rows are
// asked for without a change here), and the pregnancy status the patient review reads.
const LAB_CODES = loincTokens([
  ...ANALYTES.flatMap((a) => (a.loinc ?? []).map((ref) => ref.code)),
  PREGNANCY_STATUS_LOINC,
]);

/** The patient's laboratory, ECG and pregnancy-status Observations, newest first. */
const PATIENT_OBSERVATIONS = `Observation?patient={{context.patientId}}&code=${LAB_CODES}&_sort=-date&_count=200`;

/** The patient in context: birth date and administrative gender (decision 201). */
const PATIENT = "Patient/{{context.patientId}}";

/** What the patient says they take, with when they started (MedicationStatement.effective[x]). */
const ACTIVE_STATEMENTS = "MedicationStatement?patient={{context.patientId}}&status=active";

/** The patient's active MedicationRequests: only `active` counts (docs/fhir.md, "FHIR in"). */
const ACTIVE_MEDICATIONS = "MedicationRequest?patient={{context.patientId}}&status=active";

const ORDER_USAGE =
  "Send the patient's active MedicationRequests as prefetch `medications` (or a fhirServer with fhirAuthorization so the service can fetch them). Medicines are read by RxNorm ingredient code or by name; draft orders it cannot read, and a missing medication list, are reported as not checked, never as no interaction. The Patient (`patient`: birth date and gender) and the laboratory and pregnancy-status Observations (`labs`) let the service apply age-dependent dose limits and patient-factor rules (pregnancy, renal function) to the draft orders; without them those rules are said to be not evaluated.";

const ORDER_PREFETCH = { medications: ACTIVE_MEDICATIONS, patient: PATIENT, labs: PATIENT_OBSERVATIONS };

const SERVICES: CdsServiceDescriptor[] = [
  {
    hook: "order-select",
    id: "psych-interactions-select",
    title: "Psychotropic drug interactions (order select)",
    description:
      "Checks each newly selected draft MedicationRequest against the patient's active MedicationRequests and the other draft orders with the service's interaction rules: one card per interaction (critical for high severity), with a suggestion to remove the draft order.",
    prefetch: ORDER_PREFETCH,
    usageRequirements: ORDER_USAGE,
  },
  {
    hook: "order-sign",
    id: "psych-interactions-sign",
    title: "Psychotropic drug interactions (order sign)",
    description:
      "Checks every draft MedicationRequest about to be signed against the patient's active MedicationRequests and the other draft orders: one card per interaction (critical for high severity), with a suggestion to remove the draft order.",
    prefetch: ORDER_PREFETCH,
    usageRequirements: ORDER_USAGE,
  },
  {
    hook: "patient-view",
    id: "psych-patient-view",
    title: "Psychiatric early warning and lab monitoring",
    description:
      "Symptom trajectory and relapse early warning from symptom-scale total scores (PHQ-9, GAD-7 and the other instruments with a verified LOINC code) and active medications; laboratory monitoring (lithium, valproate, clozapine ANC, sodium and the other analytes the service knows) from lab Observations with UCUM units and interpretation codes. Missing or stale data are said as such.",
    prefetch: {
      scores: `Observation?patient={{context.patientId}}&code=${SCORE_CODES}&_sort=-date&_count=100`,
      labs: PATIENT_OBSERVATIONS,
      medications: ACTIVE_MEDICATIONS,
      patient: PATIENT,
      statements: ACTIVE_STATEMENTS,
    },
    usageRequirements:
      "Send the prefetch keys scores, labs, medications, patient and statements (or a fhirServer with fhirAuthorization). Observations count when final, amended or corrected, with an effective time, a LOINC code the service knows and, for labs, a UCUM unit the analyte table accepts. Sleep is not read from FHIR. A medicine's start is its first prescription (followed through priorPrescription) or a MedicationStatement's effective start, never the date of a renewal.",
  },
];

export const CDS_SERVICES: readonly CdsServiceDescriptor[] = Object.freeze(SERVICES);

/**
 * Prefetch keys a service reads when it can have them but answers without (decision 201): an EHR
 * that registered the services before these keys existed sends neither them nor a fhirServer, and
 * its calls must not turn into 412s. A missing optional key is said on a card (the facts it holds
 * are unknown, and the rules needing them not evaluated), never read as normal.
 */
const OPTIONAL_PREFETCH: ReadonlySet<string> = new Set(["patient", "statements"]);
const OPTIONAL_ORDER_PREFETCH: ReadonlySet<string> = new Set(["patient", "labs"]);

export function isOptionalPrefetch(service: CdsServiceDescriptor, key: string): boolean {
  return service.hook === "patient-view" ? OPTIONAL_PREFETCH.has(key) : OPTIONAL_ORDER_PREFETCH.has(key);
}

/** A service by id, or undefined. */
export function cdsServiceById(id: string): CdsServiceDescriptor | undefined {
  return CDS_SERVICES.find((service) => service.id === id);
}

/** The discovery response body (`GET /cds-services`). */
export function discoveryResponse(): { services: readonly CdsServiceDescriptor[] } {
  return { services: CDS_SERVICES };
}
