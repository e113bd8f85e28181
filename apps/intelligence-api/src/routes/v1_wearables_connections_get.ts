import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { and, eq, wearableConnections } from "@svc/db";
import { ApiError, type AppEnv, errorResponses, rateLimitHeaders, type ServiceApp } from "@svc/http";
import {
  ConnectionIdParams,
  toConnection,
  type WearableConnectionBody,
  WearableConnectionResponseSchema,
} from "./v1_wearables_schemas.js";

const route = createRoute({
  method: "get",
  path: "/v1/wearables/connections/{id}",
  tags: ["Wearables"],
  summary: "Retrieve a wearable connection",
  description: "An unknown id, or another account's or mode's, is 404 `not_found`.",
  request: { params: ConnectionIdParams },
  responses: {
    200: {
      description: "The connection",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: WearableConnectionResponseSchema } },
    },
    ...errorResponses(402, 404),
  },
});

export function registerWearableConnectionsGet(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { id } = c.req.valid("param");
    const auth = c.get("auth");
    const [row] = await service.deps.db
      .select()
      .from(wearableConnections)
      .where(
        and(
          eq(wearableConnections.id, id),
          eq(wearableConnections.accountId, auth.accountId as string),
          eq(wearableConnections.mode, auth.mode),
        ),
      );
    if (!row) throw new ApiError("not_found", "No wearable connection with this id exists for this account.");
    const body: { ok: true; data: WearableConnectionBody } = {
      ok: true,
      data: toConnection(row, service.deps.publicBaseUrl),
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
