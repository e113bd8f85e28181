export { buildIntelligenceApi } from "./app.js";
export type { CdsServiceListing } from "./routes/cds_discovery.js";
export type { CdsFeedbackRequest } from "./routes/cds_feedback.js";
export type { CdsHooksOptions } from "./routes/cds_services.js";
// Request and response body types of each route, for clients and tests.
export type {
  BiomarkerAgentRequest,
  BiomarkerAgentResponse,
  MedicationAgentRequest,
  MedicationAgentResponse,
  OutcomeAgentRequest,
  OutcomeAgentResponse,
  RelapseAgentRequest,
  RelapseAgentResponse,
} from "./routes/v1_agents.js";
export type { BiomarkerAnalysisResponse, BiomarkerAnalyzeRequest } from "./routes/v1_biomarker_analyze.js";
export type { DmseAnalysisResponse, DmseAnalyzeRequest } from "./routes/v1_dmse_analyze.js";
export type { EventListResponse } from "./routes/v1_events_list.js";
export type { CreateLabOrderRequest } from "./routes/v1_labs_orders_create.js";
export type { LabOrderResponse } from "./routes/v1_labs_orders_get.js";
export type { LabOrderListResponse } from "./routes/v1_labs_orders_list.js";
export type { LabPanelListResponse } from "./routes/v1_labs_panels_list.js";
export type { MedicationAnalysisResponse, MedicationAnalyzeRequest } from "./routes/v1_medication_analyze.js";
export type { OutcomeScoreRequest, OutcomeScoreResponse } from "./routes/v1_outcome_score.js";
export type { PingResponse } from "./routes/v1_ping.js";
export type { RelapsePredictionResponse, RelapsePredictRequest } from "./routes/v1_relapse_predict.js";
export type { LabOrderAdvanceRequest } from "./routes/v1_test_helpers_labs.js";
export type { WearableCompleteRequest } from "./routes/v1_test_helpers_wearables.js";
export type { WearableConnectRequest } from "./routes/v1_wearables_connect.js";
export type { WearableConnectionResponse } from "./routes/v1_wearables_connections_get.js";
export type { WearableConnectionList } from "./routes/v1_wearables_connections_list.js";
export type { WearableMetricsResponse } from "./routes/v1_wearables_connections_metrics.js";
export type { WearableSyncResponse } from "./routes/v1_wearables_connections_sync.js";
export type { WearableProviderList } from "./routes/v1_wearables_providers.js";
export type {
  CreateWebhookEndpointRequest,
  WebhookEndpointSecretResponse,
} from "./routes/v1_webhook_endpoints_create.js";
export type { WebhookEndpointDeletedResponse } from "./routes/v1_webhook_endpoints_delete.js";
export type { WebhookEndpointResponse } from "./routes/v1_webhook_endpoints_get.js";
export type { WebhookEndpointListResponse } from "./routes/v1_webhook_endpoints_list.js";
export type { UpdateWebhookEndpointRequest } from "./routes/v1_webhook_endpoints_update.js";
