import type { ToolLoopLimits } from "@svc/agents";
import { conformanceDocuments } from "@svc/fhir";
import {
  type AppDeps,
  createServiceApp,
  flatErrorBody,
  type OpenApiDoc,
  registerPublicDocuments,
  registerStandardRoutes,
  type ServiceApp,
} from "@svc/http";
import type { ChatModel } from "@svc/model";
import { selectionFindings } from "./routes/common.js";
import { registerMseAgent } from "./routes/v1_mse_agent.js";
import { registerMseAudit } from "./routes/v1_mse_audit.js";
import { registerMseDomains } from "./routes/v1_mse_domains.js";
import { registerMseGet } from "./routes/v1_mse_get.js";
import { registerMseHistory } from "./routes/v1_mse_history.js";
import { registerMsePatch } from "./routes/v1_mse_patch.js";
import { registerMseSafetyEvents } from "./routes/v1_mse_safety_events.js";
import { registerMseSign } from "./routes/v1_mse_sign.js";
import { registerMseWrite } from "./routes/v1_mse_write.js";

export interface MseRecordApiOptions {
  /** The published document (both APIs when served together); this API's own otherwise. */
  documentSource?: () => OpenApiDoc;
  /** The MSE agent's chat model; absent: the agent proposes only what telemetry supports. */
  chatModel?: ChatModel;
  /** Bounds on the MSE agent's model loop. */
  agentLimits?: ToolLoopLimits;
}

/** The MSE Record API (organization keys, flat errors, `x-mse-api-version: 1`). */
export function buildMseRecordApi(deps: AppDeps, options: MseRecordApiOptions = {}): ServiceApp {
  // Clinical records: a duplicate key is refused, never resolved by whichever one a parser keeps;
  // hygiene findings inside a selection are selection problems (422).
  const service = createServiceApp(deps, {
    errorBody: flatErrorBody,
    responseHeaders: { "x-mse-api-version": "1" },
    hygiene: { uniqueKeys: true, bodyError: selectionFindings },
  });
  registerStandardRoutes(service, { documentSource: options.documentSource });
  // Fixed paths first: they would otherwise match /v1/mse/{visitId} (those ids are also reserved).
  registerMseDomains(service);
  registerMseSafetyEvents(service);
  registerMseWrite(service);
  registerMsePatch(service);
  registerMseGet(service);
  registerMseHistory(service);
  registerMseSign(service);
  registerMseAudit(service);
  registerMseAgent(service, { chatModel: options.chatModel, limits: options.agentLimits });
  // Served here too for a standalone MSE Record API; behind the combined listener /fhir/* reaches
  // the Intelligence API, which serves the same resources.
  registerPublicDocuments(service, conformanceDocuments(service.deps.publicBaseUrl));
  return service;
}
