import {
  type AppDeps,
  createServiceApp,
  type OpenApiDoc,
  registerStandardRoutes,
  type ServiceApp,
} from "@svc/http";
import { registerAnalysisRoutes } from "./routes/analysis.js";
import { registerPing } from "./routes/v1_ping.js";

/** The Intelligence API: every route registered in one place. */
export function buildIntelligenceApi(
  deps: AppDeps,
  options: { documentSource?: () => OpenApiDoc } = {},
): ServiceApp {
  const service = createServiceApp("intelligence", deps);
  registerStandardRoutes(service, options);
  registerPing(service);
  registerAnalysisRoutes(service);
  return service;
}
