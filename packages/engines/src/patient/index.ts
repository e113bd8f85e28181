export * from "./context.js";
export * from "./doors.js";
export { DOSE_FINDING_RULES, doseFindings } from "./dose.js";
export {
  analyteOfReading,
  CONTEXT_READING_RULES,
  ECG_SOURCES,
  ecgFindings,
  fridericiaQtc,
  type PregnancyTestResult,
  patientWithReadings,
  pregnancyTestFindings,
  pregnancyTestResult,
  QTC_RULES,
} from "./ecg.js";
export * from "./factor-rules.js";
export { doseCheckOptions, FINDING_TITLE_MAX, patientFactorFindings } from "./factors.js";
export { monitoringFindings } from "./monitoring.js";
export { reviewPatient } from "./review.js";
export {
  type MedicineSelector,
  TREND_RULES,
  type TrendCategory,
  type TrendEvidenceLevel,
  type TrendRule,
  type TrendTest,
  trendFindings,
} from "./trends.js";
export * from "./types.js";
