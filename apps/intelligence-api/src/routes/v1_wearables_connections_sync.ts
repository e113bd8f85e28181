import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type AppEnv, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { SYNC_DAYS, syncConnection } from "@svc/records";
import {
  ConnectionIdParams,
  type WearableSyncResponse,
  WearableSyncResponseSchema,
} from "../schemas/wearables.js";
import { requireTestMode, scopeOf } from "../scope.js";
import { toConnection } from "../wearables/body.js";

// The body types of this route, for clients and tests (from the schemas it declares).
export type { WearableSyncResponse };

const route = createRoute({
  method: "post",
  operationId: "syncWearableConnection",
  path: "/v1/wearables/connections/{id}/sync",
  tags: ["Wearables"],
  summary: "Sync a connection",
  description: `Sandbox only (test keys; live keys get 403). Stores deterministic daily metrics for the last ${SYNC_DAYS} days, sets \`lastSyncAt\` and emits \`wearable.sync_completed\`. A connection that is not connected is 409 \`conflict\`.`,
  request: { params: ConnectionIdParams },
  responses: {
    200: jsonAnswer("The connection after the sync", WearableSyncResponseSchema),
    ...errorResponses(402, 404, 409),
  },
});

export function registerWearableConnectionsSync(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    requireTestMode(c);
    const { id } = c.req.valid("param");
    const outcome = await syncConnection(service.deps.db, id, scopeOf(c));
    const body: WearableSyncResponse = {
      ok: true,
      data: { ...toConnection(outcome.connection, service.deps.publicBaseUrl), sync: { days: outcome.days } },
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
