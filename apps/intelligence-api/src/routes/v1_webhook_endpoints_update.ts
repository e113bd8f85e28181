import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import {
  checkEndpointAddress,
  getWebhookEndpoint,
  setWebhookEndpointDisabled,
  setWebhookEndpointUrl,
  type WebhookEndpointRow,
} from "@svc/delivery";
import { type AppEnv, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { jsonBody } from "../schemas/resources.js";
import {
  EndpointIdParams,
  type UpdateWebhookEndpointRequest,
  UpdateWebhookEndpointRequestSchema,
  type WebhookEndpointResponse,
  WebhookEndpointResponseSchema,
} from "../schemas/webhook-endpoints.js";
import { scopeOf } from "../scope.js";
import { auditEndpointChange, refusingAsApi, toWebhookEndpoint } from "../webhook-endpoints/endpoint.js";

// The body types of this route, for clients and tests (from the schemas it declares).
export type { UpdateWebhookEndpointRequest, WebhookEndpointResponse };

const route = createRoute({
  method: "patch",
  operationId: "updateWebhookEndpoint",
  path: "/v1/webhook_endpoints/{id}",
  tags: ["Webhook endpoints"],
  summary: "Update an endpoint",
  description:
    "Changes the URL (checked by the same address rules as a new endpoint), the status (`disabled` stops new deliveries, `enabled` resumes them), or both at once; give at least one. A refused URL changes nothing.",
  request: {
    params: EndpointIdParams,
    body: jsonBody(UpdateWebhookEndpointRequestSchema, { status: "disabled" }),
  },
  responses: {
    200: jsonAnswer("The endpoint as changed", WebhookEndpointResponseSchema),
    ...errorResponses(400, 402, 404, 413),
  },
});

export function registerWebhookEndpointsUpdate(service: ServiceApp): void {
  const { db, allowLoopbackWebhooks } = service.deps;
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { id } = c.req.valid("param");
    const input = c.req.valid("json");
    const owner = scopeOf(c);
    const row = await refusingAsApi(async () => {
      const current = await getWebhookEndpoint(db, id, owner);
      // As a tenant's new endpoint: the operator's allowPrivate belonged to the old address.
      if (input.url !== undefined)
        await checkEndpointAddress(input.url, {
          mode: current.mode,
          allowPrivate: false,
          allowLoopbackWebhooks: allowLoopbackWebhooks === true,
        });
      return db.transaction(async (tx) => {
        let changed: WebhookEndpointRow = current;
        if (input.url !== undefined) {
          changed = await setWebhookEndpointUrl(tx, { id, url: input.url, owner });
          await auditEndpointChange(tx, c, "webhook_endpoint.url_changed", id, { url: changed.url });
        }
        if (input.status !== undefined) {
          const disabled = input.status === "disabled";
          changed = await setWebhookEndpointDisabled(tx, {
            id,
            disabled,
            reason: "Disabled through the API.",
            owner,
          });
          await auditEndpointChange(tx, c, `webhook_endpoint.${disabled ? "disabled" : "enabled"}`, id);
        }
        return changed;
      });
    });
    const body: WebhookEndpointResponse = { ok: true, data: toWebhookEndpoint(row) };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
