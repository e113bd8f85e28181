export { buildIntelligenceApi } from "./app.js";
export { transitionLabOrder } from "./labs/store.js";
export { LAB_ORDER_STATUSES, LabOrderError } from "./labs/transitions.js";
export { BiomarkerAnalyzeRequestSchema } from "./routes/v1_biomarker_analyze.js";
export { DmseAnalyzeRequestSchema } from "./routes/v1_dmse_analyze.js";
export { MedicationAnalyzeRequestSchema } from "./routes/v1_medication_analyze.js";
export { OutcomeScoreRequestSchema } from "./routes/v1_outcome_score.js";
export { RelapsePredictRequestSchema } from "./routes/v1_relapse_predict.js";
export { LabResultsSchema } from "./schemas/labs.js";
