import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type AppEnv, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { getConnection } from "@svc/records";
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
  method: "get",
  operationId: "getWearableConnection",
  path: "/v1/wearables/connections/{id}",
  tags: ["Wearables"],
  summary: "Retrieve a connection",
  description: "An unknown id, or another account's or mode's, is 404 `not_found`.",
  request: { params: ConnectionIdParams },
  responses: {
    200: jsonAnswer("The connection", WearableConnectionResponseSchema),
    ...errorResponses(402, 404),
  },
});

export function registerWearableConnectionsGet(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { id } = c.req.valid("param");
    const row = await getConnection(service.deps.db, scopeOf(c), id);
    const body: WearableConnectionResponse = {
      ok: true,
      data: toConnection(row, service.deps.publicBaseUrl),
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
