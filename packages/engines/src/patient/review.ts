/**
 * The patient over time (decision 189): one review, read by every door, of who the patient is
 * (patient factors against the medicines taken), their ECG, what monitoring the medicines call
 * for and which way their results are moving. Each part is its own module; this file only puts
 * them in one order and one summary.
 */
import { CLINICAL_LEVELS, type ClinicalLevel, higherClinicalLevel } from "../judgement.js";
import { patientAge } from "./context.js";
import { doseFindings } from "./dose.js";
import { ecgFindings, patientWithReadings } from "./ecg.js";
import { patientFactorFindings } from "./factors.js";
import { monitoringFindings } from "./monitoring.js";
import { trendFindings } from "./trends.js";
import type { PatientFinding, PatientReview, PatientReviewInput } from "./types.js";

/** Highest level first, then the parts in the order a prescriber reads them. */
function byLevel(a: PatientFinding, b: PatientFinding): number {
  return CLINICAL_LEVELS.indexOf(b.level) - CLINICAL_LEVELS.indexOf(a.level);
}

export function reviewPatient(input: PatientReviewInput): PatientReview {
  // Readings can tell the review what the caller did not (a positive pregnancy test, an eGFR):
  // the patient context every part reads is completed from them first.
  const patient = patientWithReadings(input.patient ?? {}, input.readings, input.now);
  const full: PatientReviewInput = { ...input, patient };
  const findings = [
    ...patientFactorFindings(full),
    ...doseFindings(full),
    ...ecgFindings(full),
    ...monitoringFindings(full),
    ...trendFindings(full),
  ].sort(byLevel);
  let level: ClinicalLevel = "none";
  for (const finding of findings) level = higherClinicalLevel(level, finding.level);
  return {
    level,
    requiresClinicianReview: level === "high",
    findings,
    patient,
    ageYears: patientAge(patient, input.now),
  };
}
