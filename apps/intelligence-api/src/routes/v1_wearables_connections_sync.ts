import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { type AppEnv, errorResponses, rateLimitHeaders, type ServiceApp } from "@svc/http";
import { SYNC_DAYS, syncConnection } from "../wearables/connections.js";
import { enqueueDeliveries } from "./v1_labs_schemas.js";
import { requireTestMode } from "./v1_test_helpers_labs.js";
import {
  ConnectionIdParams,
  toConnection,
  WearableConnectionSchema,
  wearableApiError,
} from "./v1_wearables_schemas.js";

export const WearableSyncResponseSchema = z
  .object({
    ok: z.literal(true),
    data: WearableConnectionSchema.extend({
      sync: z.object({
        days: z.number().int().openapi({ description: "Days of metrics stored by this sync." }),
      }),
    }),
  })
  .openapi("WearableSyncResponse");
export type WearableSyncResponse = z.infer<typeof WearableSyncResponseSchema>;

const route = createRoute({
  method: "post",
  path: "/v1/wearables/connections/{id}/sync",
  tags: ["Wearables"],
  summary: "Sync a sandbox connection now",
  description: `Sandbox only (test keys; live keys get 403). Stores deterministic daily metrics for the last ${SYNC_DAYS} days, sets \`lastSyncAt\` and emits \`wearable.sync_completed\`. A connection that is not connected is 409 \`conflict\`.`,
  request: { params: ConnectionIdParams },
  responses: {
    200: {
      description: "The connection after the sync",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: WearableSyncResponseSchema } },
    },
    ...errorResponses(402, 404, 409),
  },
});

export function registerWearableConnectionsSync(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    requireTestMode(c);
    const { id } = c.req.valid("param");
    const auth = c.get("auth");
    const outcome = await syncConnection(service.deps.db, id, {
      accountId: auth.accountId as string,
      mode: auth.mode,
    }).catch((error: unknown) => {
      throw wearableApiError(error);
    });
    await enqueueDeliveries(service.deps, outcome.deliveryIds);
    const body: WearableSyncResponse = {
      ok: true,
      data: { ...toConnection(outcome.connection, service.deps.publicBaseUrl), sync: { days: outcome.days } },
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
