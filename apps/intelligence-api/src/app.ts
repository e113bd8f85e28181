import type { ToolLoopLimits } from "@svc/agents";
import { CDS_SERVICES } from "@svc/cds-hooks";
import { conformanceDocuments } from "@svc/fhir";
import {
  type AppDeps,
  createServiceApp,
  envelopeErrorBody,
  type OpenApiDoc,
  registerPublicDocuments,
  registerStandardRoutes,
  type ServiceApp,
} from "@svc/http";
import type { Narrator } from "@svc/intelligence";
import type { ChatModel } from "@svc/model";
import { dmseBrowserCors, registerAnalysisRoutes } from "./routes/analysis.js";
import { registerCaptureDemo } from "./routes/capture_demo.js";
import { cdsCors, cdsJwtDoor } from "./routes/cds_guard.js";
import { registerCdsHookCalls } from "./routes/cds_hook_call.js";
import { registerCdsRulePages } from "./routes/cds_rules.js";
import { type CdsHooksOptions, registerCdsHooks } from "./routes/cds_services.js";
import { registerConnectPage } from "./routes/connect_page.js";
import { registerHomePage } from "./routes/home.js";
import { registerRecordAgents } from "./routes/v1_agents.js";
import { registerEventsList } from "./routes/v1_events_list.js";
import { registerLabOrdersCancel } from "./routes/v1_labs_orders_cancel.js";
import { registerLabOrdersCreate } from "./routes/v1_labs_orders_create.js";
import { registerLabOrdersGet } from "./routes/v1_labs_orders_get.js";
import { registerLabOrdersList } from "./routes/v1_labs_orders_list.js";
import { registerLabPanelsList } from "./routes/v1_labs_panels_list.js";
import { registerMcpServer } from "./routes/v1_mcp.js";
import { registerPing } from "./routes/v1_ping.js";
import { registerTestHelperLabs } from "./routes/v1_test_helpers_labs.js";
import { registerTestHelperWearables } from "./routes/v1_test_helpers_wearables.js";
import { registerWearablesConnect } from "./routes/v1_wearables_connect.js";
import { registerWearableConnectionsDisconnect } from "./routes/v1_wearables_connections_disconnect.js";
import { registerWearableConnectionsGet } from "./routes/v1_wearables_connections_get.js";
import { registerWearableConnectionsList } from "./routes/v1_wearables_connections_list.js";
import { registerWearableConnectionsMetrics } from "./routes/v1_wearables_connections_metrics.js";
import { registerWearableConnectionsSync } from "./routes/v1_wearables_connections_sync.js";
import { registerWearableProviders } from "./routes/v1_wearables_providers.js";
import { registerWebhookEndpointsCreate } from "./routes/v1_webhook_endpoints_create.js";
import { registerWebhookEndpointsDelete } from "./routes/v1_webhook_endpoints_delete.js";
import { registerWebhookEndpointsGet } from "./routes/v1_webhook_endpoints_get.js";
import { registerWebhookEndpointsList } from "./routes/v1_webhook_endpoints_list.js";
import { registerWebhookEndpointsRotateSecret } from "./routes/v1_webhook_endpoints_rotate_secret.js";
import { registerWebhookEndpointsUpdate } from "./routes/v1_webhook_endpoints_update.js";

export interface IntelligenceApiOptions {
  /** The published document (both APIs when served together); this API's own otherwise. */
  documentSource?: () => OpenApiDoc;
  /** Writes `intelligence.reasoning` for `explain: true`; the template narrator when absent. */
  narrator?: Narrator;
  /** Upper bound on narration; past it `reasoning` is null (default 3 s). */
  reasoningTimeoutMs?: number;
  /** The agents' chat model; absent: each agent runs its deterministic tool plan. */
  chatModel?: ChatModel;
  /** Bounds on an agent's model loop (steps, time per call and per request). */
  agentLimits?: ToolLoopLimits;
  /** CDS Hooks at `/cds-hooks/{accountId}/cds-services` (decision 147): the services to publish (`CDS_SERVICES` by default) and the JWKS source. */
  cdsHooks?: CdsHooksOptions;
}

/** The Intelligence API (secret and publishable keys, enveloped errors): every route in one place. */
export function buildIntelligenceApi(deps: AppDeps, options: IntelligenceApiOptions = {}): ServiceApp {
  const service = createServiceApp(deps, {
    errorBody: envelopeErrorBody(deps.publicBaseUrl),
    aroundGuard: [dmseBrowserCors(deps), ...cdsCors()],
    // The CDS Hooks services take the EHR's JWT where /v1 takes an API key (decision 147).
    doors: [cdsJwtDoor(deps, options.cdsHooks)],
  });
  registerStandardRoutes(service, { documentSource: options.documentSource });
  registerPing(service);
  const activeModels = registerAnalysisRoutes(service, {
    narrator: options.narrator,
    reasoningTimeoutMs: options.reasoningTimeoutMs,
  });
  registerRecordAgents(service, { chatModel: options.chatModel, limits: options.agentLimits });
  registerMcpServer(service);
  registerLabPanelsList(service);
  registerLabOrdersCreate(service);
  registerLabOrdersList(service);
  registerLabOrdersGet(service);
  registerLabOrdersCancel(service);
  registerTestHelperLabs(service);
  registerEventsList(service);
  registerWebhookEndpointsCreate(service);
  registerWebhookEndpointsList(service);
  registerWebhookEndpointsGet(service);
  registerWebhookEndpointsUpdate(service);
  registerWebhookEndpointsDelete(service);
  registerWebhookEndpointsRotateSecret(service);
  registerWearableProviders(service);
  registerWearablesConnect(service);
  registerWearableConnectionsList(service);
  registerWearableConnectionsGet(service);
  registerWearableConnectionsDisconnect(service);
  registerWearableConnectionsSync(service);
  registerWearableConnectionsMetrics(service);
  registerTestHelperWearables(service);
  registerConnectPage(service);
  registerCaptureDemo(service);
  registerHomePage(service);
  registerPublicDocuments(service, conformanceDocuments(service.deps.publicBaseUrl));
  registerCdsRulePages(service);
  registerCdsHooks(service, { services: CDS_SERVICES, ...options.cdsHooks });
  registerCdsHookCalls(service, activeModels);
  return service;
}
