import {
  type AppDeps,
  createServiceApp,
  type OpenApiDoc,
  registerStandardRoutes,
  type ServiceApp,
} from "@svc/http";

/** The MSE Record API (organization keys, flat errors, `x-mse-api-version: 1`). */
export function buildMseRecordApi(
  deps: AppDeps,
  options: { documentSource?: () => OpenApiDoc } = {},
): ServiceApp {
  const service = createServiceApp("mse", deps);
  registerStandardRoutes(service, options);
  return service;
}
