import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { rollWebhookSecret } from "@svc/delivery";
import { type AppEnv, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import {
  EndpointIdParams,
  type WebhookEndpointSecretResponse,
  WebhookEndpointSecretResponseSchema,
} from "../schemas/webhook-endpoints.js";
import { scopeOf } from "../scope.js";
import { auditEndpointChange, refusingAsApi, toWebhookEndpoint } from "../webhook-endpoints/endpoint.js";

// The body types of this route, for clients and tests (from the schemas it declares).
export type { WebhookEndpointSecretResponse };

const route = createRoute({
  method: "post",
  operationId: "rotateWebhookEndpointSecret",
  path: "/v1/webhook_endpoints/{id}/rotate_secret",
  tags: ["Webhook endpoints"],
  summary: "Rotate the secret",
  description:
    "A new signing secret, answered this once. As in the dashboard, deliveries are signed with it from now on and the old one stops at once (no overlap): switch your receiver to it right away.",
  request: { params: EndpointIdParams },
  responses: {
    200: jsonAnswer(
      "The endpoint with its new signing secret (shown this once)",
      WebhookEndpointSecretResponseSchema,
    ),
    ...errorResponses(402, 404),
  },
});

export function registerWebhookEndpointsRotateSecret(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { id } = c.req.valid("param");
    const rolled = await refusingAsApi(() =>
      service.deps.db.transaction(async (tx) => {
        const done = await rollWebhookSecret(tx, id, scopeOf(c));
        await auditEndpointChange(tx, c, "webhook_endpoint.secret_rolled", id);
        return done;
      }),
    );
    const body: WebhookEndpointSecretResponse = {
      ok: true,
      data: { ...toWebhookEndpoint(rolled), secret: rolled.secret },
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
