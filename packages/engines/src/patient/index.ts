export * from "./context.js";
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
