export {
  ACTIVE_MEDICATION_STATUSES,
  MAX_DISPLAYS_READ,
  MAX_MEDICINE_NAME,
  medicineOfResource,
  readMedicationRequest,
} from "./medication-request.js";
export {
  COUNTED_OBSERVATION_STATUSES,
  effectiveTime,
  instrumentTotalLoincCodes,
  interpretationFlag,
  readObservation,
} from "./observation.js";
export {
  isPatientFactObservation,
  MAX_PRIOR_PRESCRIPTIONS,
  type PatientReviewRead,
  PREGNANCY_STATUS_LOINC,
  readPatientReview,
  TAKEN_STATEMENT_STATUSES,
} from "./patient.js";
export {
  MAX_SOURCE_NESTING,
  medicationTexts,
  readFhirInputs,
  resourcesOf,
  toAssessments,
  toBiomarkerInput,
  toRelapseInput,
} from "./read.js";
export { LOINC, RXNORM, UCUM, V3_INTERPRETATION } from "./read-common.js";
export * from "./types.js";
