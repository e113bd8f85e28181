import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { checkNewWebhookEndpoint, insertWebhookEndpoint } from "@svc/delivery";
import { type AppEnv, runIdempotent, type ServiceApp } from "@svc/http";
import { idempotentCreate } from "../schemas/resources.js";
import {
  type CreateWebhookEndpointRequest,
  CreateWebhookEndpointRequestSchema,
  type WebhookEndpointSecretResponse,
  WebhookEndpointSecretResponseSchema,
} from "../schemas/webhook-endpoints.js";
import { scopeOf } from "../scope.js";
import { auditEndpointChange, refusingAsApi, toWebhookEndpoint } from "../webhook-endpoints/endpoint.js";

// The body types of this route, for clients and tests (from the schemas it declares).
export type { CreateWebhookEndpointRequest, WebhookEndpointSecretResponse };

const route = createRoute({
  method: "post",
  operationId: "createWebhookEndpoint",
  path: "/v1/webhook_endpoints",
  tags: ["Webhook endpoints"],
  summary: "Add an endpoint",
  description:
    "Registers an endpoint in the key's mode and answers its signing secret (`whsec_...`) this once. The URL is checked as the dashboard and the CLI check it: live endpoints need `https://`, and no endpoint may resolve to a private, loopback, link-local or metadata address (test mode may use loopback where the operator allows it). At most 16 endpoints per mode (409 `conflict`). Honors `Idempotency-Key`, as the other creates do.",
  ...idempotentCreate(
    { schema: CreateWebhookEndpointRequestSchema, example: { url: "https://93.184.215.14/svc-hooks" } },
    {
      description: "The endpoint, with its signing secret (shown this once)",
      schema: WebhookEndpointSecretResponseSchema,
    },
  ),
});

export function registerWebhookEndpointsCreate(service: ServiceApp): void {
  const { db, allowLoopbackWebhooks } = service.deps;
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { url } = c.req.valid("json");
    const scope = scopeOf(c);
    const outcome = await refusingAsApi(() =>
      runIdempotent<WebhookEndpointSecretResponse, Awaited<ReturnType<typeof checkNewWebhookEndpoint>>>(
        c,
        db,
        async (tx, checked) => {
          const created = await insertWebhookEndpoint(tx, checked);
          await auditEndpointChange(tx, c, "webhook_endpoint.created", created.id, { url: created.url });
          return {
            status: 201,
            body: { ok: true, data: { ...toWebhookEndpoint(created), secret: created.secret } },
          };
        },
        {
          // The address check resolves the host: after the key is claimed, outside the transaction.
          prepare: () =>
            checkNewWebhookEndpoint(db, {
              accountId: scope.accountId,
              url,
              mode: scope.mode,
              allowLoopbackWebhooks: allowLoopbackWebhooks === true,
            }),
        },
      ),
    );
    return c.json(outcome.body, outcome.status as 201);
  };
  service.openapi(route, handler);
}
