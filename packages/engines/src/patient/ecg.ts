/** Placeholder until the part lands (decision 189). */
import type { PatientContext } from "./context.js";
import type { DatedReading, PatientFinding, PatientReviewInput } from "./types.js";

export function ecgFindings(_input: PatientReviewInput): PatientFinding[] {
  return [];
}

/** The patient context completed from readings (pregnancy test, eGFR); the caller's facts win. */
export function patientWithReadings(
  patient: PatientContext,
  _readings: readonly DatedReading[],
  _now: Date,
): PatientContext {
  return patient;
}
