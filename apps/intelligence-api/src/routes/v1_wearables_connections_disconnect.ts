import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type AppEnv, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { disconnectConnection } from "@svc/records";
import {
  ConnectionIdParams,
  type WearableConnectionResponse,
  WearableConnectionResponseSchema,
} from "../schemas/wearables.js";
import { scopeOf } from "../scope.js";
import { toConnection } from "../wearables/body.js";

// The body types of this route, for clients and tests (from the schemas it declares).
export type { WearableConnectionResponse };

const route = createRoute({
  method: "post",
  operationId: "disconnectWearableConnection",
  path: "/v1/wearables/connections/{id}/disconnect",
  tags: ["Wearables"],
  summary: "Disconnect a connection",
  description:
    "Pending or connected -> disconnected (terminal; reconnecting creates a new connection). Emits `wearable.disconnected`. Already disconnected: 409 `invalid_transition`.",
  request: { params: ConnectionIdParams },
  responses: {
    200: jsonAnswer("The disconnected connection", WearableConnectionResponseSchema),
    ...errorResponses(402, 404, 409),
  },
});

export function registerWearableConnectionsDisconnect(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { id } = c.req.valid("param");
    const outcome = await disconnectConnection(service.deps.db, { id, scope: scopeOf(c) });
    const body: WearableConnectionResponse = {
      ok: true,
      data: toConnection(outcome.connection, service.deps.publicBaseUrl),
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
