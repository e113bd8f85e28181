export { buildMseRecordApi } from "./app.js";
// Request and response body types of each route, for clients and tests.
export type { MseAgentRequestBody, MseAgentResponse } from "./routes/v1_mse_agent.js";
export type { MseAuditResponse } from "./routes/v1_mse_audit.js";
export type { MseCatalog } from "./routes/v1_mse_domains.js";
export type { MseRecordResponse } from "./routes/v1_mse_get.js";
export type { MseHistoryResponse } from "./routes/v1_mse_history.js";
export type { MsePatchRequest, MsePatchResponse } from "./routes/v1_mse_patch.js";
export type { MseSafetyEventList } from "./routes/v1_mse_safety_events.js";
export type { MseSignRequest, MseSignResponse } from "./routes/v1_mse_sign.js";
export type { MseWriteRequest, MseWriteResponse } from "./routes/v1_mse_write.js";
