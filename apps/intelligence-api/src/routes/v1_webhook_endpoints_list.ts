import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { listWebhookEndpoints } from "@svc/delivery";
import { type AppEnv, cursorQuery, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { LimitQuery } from "../schemas/resources.js";
import {
  type WebhookEndpointListResponse,
  WebhookEndpointListResponseSchema,
} from "../schemas/webhook-endpoints.js";
import { scopeOf } from "../scope.js";
import { endpointCursor, endpointPosition, toWebhookEndpoint } from "../webhook-endpoints/endpoint.js";

const QuerySchema = z.object({
  limit: LimitQuery,
  cursor: cursorQuery("`nextCursor` of the previous page; absent = from the oldest endpoint."),
});

// The body types of this route, for clients and tests (from the schemas it declares).
export type { WebhookEndpointListResponse };

const route = createRoute({
  method: "get",
  operationId: "listWebhookEndpoints",
  path: "/v1/webhook_endpoints",
  tags: ["Webhook endpoints"],
  summary: "List endpoints",
  description:
    "The account's endpoints in the key's mode (removed ones excluded), oldest first, with cursor paging; never their secrets.",
  request: { query: QuerySchema },
  responses: {
    200: jsonAnswer("A page of endpoints", WebhookEndpointListResponseSchema),
    ...errorResponses(400, 402),
  },
});

export function registerWebhookEndpointsList(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const query = c.req.valid("query");
    const scope = scopeOf(c);
    const { endpoints, hasMore } = await listWebhookEndpoints(
      service.deps.db,
      { accountId: scope.accountId, mode: scope.mode },
      { after: query.cursor === undefined ? undefined : endpointPosition(query.cursor), limit: query.limit },
    );
    const last = endpoints.at(-1);
    const body: WebhookEndpointListResponse = {
      ok: true,
      data: {
        object: "list",
        resource: "webhook_endpoint",
        count: endpoints.length,
        endpoints: endpoints.map(toWebhookEndpoint),
        hasMore,
        nextCursor: hasMore && last ? endpointCursor(last) : null,
      },
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
