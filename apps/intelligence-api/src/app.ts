import {
  type AppDeps,
  createServiceApp,
  type OpenApiDoc,
  registerStandardRoutes,
  type ServiceApp,
} from "@svc/http";
import { registerAnalysisRoutes } from "./routes/analysis.js";
import { registerConnectPage } from "./routes/connect_page.js";
import { registerEventsList } from "./routes/v1_events_list.js";
import { registerLabOrdersCancel } from "./routes/v1_labs_orders_cancel.js";
import { registerLabOrdersCreate } from "./routes/v1_labs_orders_create.js";
import { registerLabOrdersGet } from "./routes/v1_labs_orders_get.js";
import { registerLabOrdersList } from "./routes/v1_labs_orders_list.js";
import { registerLabPanelsList } from "./routes/v1_labs_panels_list.js";
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

/** The Intelligence API: every route registered in one place. */
export function buildIntelligenceApi(
  deps: AppDeps,
  options: { documentSource?: () => OpenApiDoc } = {},
): ServiceApp {
  const service = createServiceApp("intelligence", deps);
  registerStandardRoutes(service, options);
  registerPing(service);
  registerAnalysisRoutes(service);
  registerLabPanelsList(service);
  registerLabOrdersCreate(service);
  registerLabOrdersList(service);
  registerLabOrdersGet(service);
  registerLabOrdersCancel(service);
  registerTestHelperLabs(service);
  registerEventsList(service);
  registerWearableProviders(service);
  registerWearablesConnect(service);
  registerWearableConnectionsList(service);
  registerWearableConnectionsGet(service);
  registerWearableConnectionsDisconnect(service);
  registerWearableConnectionsSync(service);
  registerWearableConnectionsMetrics(service);
  registerTestHelperWearables(service);
  registerConnectPage(service);
  return service;
}
