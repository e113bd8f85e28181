import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { removeWebhookEndpoint } from "@svc/delivery";
import { type AppEnv, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import {
  EndpointIdParams,
  type WebhookEndpointDeletedResponse,
  WebhookEndpointDeletedResponseSchema,
} from "../schemas/webhook-endpoints.js";
import { scopeOf } from "../scope.js";
import { auditEndpointChange, refusingAsApi } from "../webhook-endpoints/endpoint.js";

// The body types of this route, for clients and tests (from the schemas it declares).
export type { WebhookEndpointDeletedResponse };

const route = createRoute({
  method: "delete",
  operationId: "deleteWebhookEndpoint",
  path: "/v1/webhook_endpoints/{id}",
  tags: ["Webhook endpoints"],
  summary: "Delete an endpoint",
  description:
    "It gets no new deliveries and its pending ones are cancelled. Deleting it again, or another account's or mode's id, is 404 `not_found`.",
  request: { params: EndpointIdParams },
  responses: {
    200: jsonAnswer("The endpoint is deleted", WebhookEndpointDeletedResponseSchema),
    ...errorResponses(402, 404),
  },
});

export function registerWebhookEndpointsDelete(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { id } = c.req.valid("param");
    const removed = await refusingAsApi(() =>
      service.deps.db.transaction(async (tx) => {
        const done = await removeWebhookEndpoint(tx, id, new Date(), scopeOf(c));
        await auditEndpointChange(tx, c, "webhook_endpoint.removed", id, {
          cancelledDeliveries: done.cancelledDeliveries,
        });
        return done;
      }),
    );
    const body: WebhookEndpointDeletedResponse = {
      ok: true,
      data: {
        object: "webhook_endpoint",
        id: removed.id,
        deleted: true,
        cancelledDeliveries: removed.cancelledDeliveries,
      },
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
