import { createRoute, type z } from "@hono/zod-openapi";
import { type AppEnv, flatErrorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { getCatalog } from "@svc/mse-catalog";
import type { Context } from "hono";
import { CatalogSchema } from "../schemas/catalog.js";
import { READ, TAG } from "./common.js";

/** The 200 body of GET /v1/mse/domains. */
export type MseCatalog = z.infer<typeof CatalogSchema>;

const route = createRoute({
  method: "get",
  operationId: "listMseDomains",
  path: "/v1/mse/domains",
  tags: [TAG],
  summary: "List MSE domains",
  description:
    "The MSE domain catalog (version 1). The 17 domains with their options, risk flags and verified codes, the observation metadata and the C-SSRS screener items. Scope `mse:read`.",
  responses: {
    200: jsonAnswer("The catalog", CatalogSchema),
    ...flatErrorResponses(),
  },
});

export function registerMseDomains(service: ServiceApp): void {
  service.openapi(route, (c: Context<AppEnv>) => c.json(getCatalog(), 200), READ);
}
