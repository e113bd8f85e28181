import {
  type AppDeps,
  createServiceApp,
  flatErrorBody,
  type OpenApiDoc,
  registerStandardRoutes,
  type ServiceApp,
} from "@svc/http";
import { selectionFindings } from "./routes/common.js";
import { registerMseAudit } from "./routes/v1_mse_audit.js";
import { registerMseDomains } from "./routes/v1_mse_domains.js";
import { registerMseGet } from "./routes/v1_mse_get.js";
import { registerMseHistory } from "./routes/v1_mse_history.js";
import { registerMsePatch } from "./routes/v1_mse_patch.js";
import { registerMseSafetyEvents } from "./routes/v1_mse_safety_events.js";
import { registerMseSign } from "./routes/v1_mse_sign.js";
import { registerMseWrite } from "./routes/v1_mse_write.js";

/** The MSE Record API (organization keys, flat errors, `x-mse-api-version: 1`). */
export function buildMseRecordApi(
  deps: AppDeps,
  options: { documentSource?: () => OpenApiDoc } = {},
): ServiceApp {
  // Clinical records: a duplicate key is refused, never resolved by whichever one a parser keeps;
  // hygiene findings inside a selection are selection problems (422).
  const service = createServiceApp(deps, {
    errorBody: flatErrorBody,
    responseHeaders: { "x-mse-api-version": "1" },
    hygiene: { uniqueKeys: true, bodyError: selectionFindings },
  });
  registerStandardRoutes(service, options);
  // Fixed paths first: they would otherwise match /v1/mse/{visitId} (those ids are also reserved).
  registerMseDomains(service);
  registerMseSafetyEvents(service);
  registerMseWrite(service);
  registerMsePatch(service);
  registerMseGet(service);
  registerMseHistory(service);
  registerMseSign(service);
  registerMseAudit(service);
  return service;
}
