import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type AppEnv, errorResponses, rateLimitHeaders, type ServiceApp } from "@svc/http";
import { disconnectConnection } from "../wearables/connections.js";
import { enqueueDeliveries } from "./v1_labs_schemas.js";
import {
  ConnectionIdParams,
  toConnection,
  type WearableConnectionBody,
  WearableConnectionResponseSchema,
  wearableApiError,
} from "./v1_wearables_schemas.js";

const route = createRoute({
  method: "post",
  path: "/v1/wearables/connections/{id}/disconnect",
  tags: ["Wearables"],
  summary: "Disconnect a wearable connection",
  description:
    "Pending or connected -> disconnected (terminal; reconnecting creates a new connection). Emits `wearable.disconnected`. Already disconnected: 409 `invalid_transition`.",
  request: { params: ConnectionIdParams },
  responses: {
    200: {
      description: "The disconnected connection",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: WearableConnectionResponseSchema } },
    },
    ...errorResponses(402, 404, 409),
  },
});

export function registerWearableConnectionsDisconnect(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { id } = c.req.valid("param");
    const auth = c.get("auth");
    const outcome = await disconnectConnection(service.deps.db, {
      id,
      scope: { accountId: auth.accountId as string, mode: auth.mode },
    }).catch((error: unknown) => {
      throw wearableApiError(error);
    });
    await enqueueDeliveries(service.deps, outcome.deliveryIds);
    const body: { ok: true; data: WearableConnectionBody } = {
      ok: true,
      data: toConnection(outcome.connection, service.deps.publicBaseUrl),
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
