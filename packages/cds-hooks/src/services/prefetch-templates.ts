/**
 * Prefetch templates more than one service asks for, so the same data is asked for the same way.
 * Templates use `{{context.patientId}}` only, and their codes come from the knowledge model
 * (instrument totals, analytes), never from a list of their own.
 */
import { ANALYTES } from "@svc/engines";
import { instrumentTotalLoincCodes, LOINC, PREGNANCY_STATUS_LOINC } from "@svc/fhir";

/** Comma-separated LOINC tokens for a `code=` search parameter (an OR of equalities). */
function loincTokens(codes: readonly string[]): string {
  return [...new Set(codes)].map((code) => `${LOINC}|${code}`).join(",");
}

/** Every symptom-scale total score with a verified LOINC code. */
export const SCORE_CODES = loincTokens(instrumentTotalLoincCodes().map((c) => c.code));

// Every analyte the table knows (renal function, ECG, pregnancy tests among them: new rows are
// asked for without a change here), and the pregnancy status the patient review reads.
const LAB_CODES = loincTokens([
  ...ANALYTES.flatMap((a) => (a.loinc ?? []).map((ref) => ref.code)),
  PREGNANCY_STATUS_LOINC,
]);

/** The patient's laboratory, ECG and pregnancy-status Observations, newest first. */
export const PATIENT_OBSERVATIONS = `Observation?patient={{context.patientId}}&code=${LAB_CODES}&_sort=-date&_count=200`;

/** The patient in context: birth date and administrative gender (decision 201). */
export const PATIENT = "Patient/{{context.patientId}}";

/** What the patient says they take, with when they started (MedicationStatement.effective[x]). */
export const ACTIVE_STATEMENTS = "MedicationStatement?patient={{context.patientId}}&status=active";

/** The patient's active MedicationRequests: only `active` counts (docs/fhir.md, "FHIR in"). */
export const ACTIVE_MEDICATIONS = "MedicationRequest?patient={{context.patientId}}&status=active";
