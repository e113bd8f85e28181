export * from "./context.js";
export * from "./factor-rules.js";
export { doseCheckOptions, FINDING_TITLE_MAX, patientFactorFindings } from "./factors.js";
export { reviewPatient } from "./review.js";
export * from "./types.js";
