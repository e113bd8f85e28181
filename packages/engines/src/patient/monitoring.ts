/** Placeholder until the part lands (decision 189). */
import type { PatientFinding, PatientReviewInput } from "./types.js";

export function monitoringFindings(_input: PatientReviewInput): PatientFinding[] {
  return [];
}
