export { buildIntelligenceApi } from "./app.js";
export { LAB_ORDER_STATUSES, LabOrderError, transitionLabOrder } from "./labs/transitions.js";
export { BiomarkerAnalyzeRequestSchema } from "./routes/v1_biomarker_analyze.js";
export { DmseAnalyzeRequestSchema } from "./routes/v1_dmse_analyze.js";
export { LabResultsSchema } from "./routes/v1_labs_schemas.js";
export { MedicationAnalyzeRequestSchema } from "./routes/v1_medication_analyze.js";
export { OutcomeScoreRequestSchema } from "./routes/v1_outcome_score.js";
export { RelapsePredictRequestSchema } from "./routes/v1_relapse_predict.js";
