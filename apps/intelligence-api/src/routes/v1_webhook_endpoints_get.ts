import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { getWebhookEndpoint } from "@svc/delivery";
import { type AppEnv, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import {
  EndpointIdParams,
  type WebhookEndpointResponse,
  WebhookEndpointResponseSchema,
} from "../schemas/webhook-endpoints.js";
import { scopeOf } from "../scope.js";
import { refusingAsApi, toWebhookEndpoint } from "../webhook-endpoints/endpoint.js";

// The body types of this route, for clients and tests (from the schemas it declares).
export type { WebhookEndpointResponse };

const route = createRoute({
  method: "get",
  operationId: "getWebhookEndpoint",
  path: "/v1/webhook_endpoints/{id}",
  tags: ["Webhook endpoints"],
  summary: "Retrieve an endpoint",
  description:
    "Never its secret. An unknown or removed id, or another account's or mode's, is 404 `not_found`.",
  request: { params: EndpointIdParams },
  responses: {
    200: jsonAnswer("The endpoint", WebhookEndpointResponseSchema),
    ...errorResponses(402, 404),
  },
});

export function registerWebhookEndpointsGet(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { id } = c.req.valid("param");
    const row = await refusingAsApi(() => getWebhookEndpoint(service.deps.db, id, scopeOf(c)));
    const body: WebhookEndpointResponse = { ok: true, data: toWebhookEndpoint(row) };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
