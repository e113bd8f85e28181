import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { type AppEnv, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { listConnections } from "@svc/records";
import { LimitQuery } from "../schemas/resources.js";
import { type WearableConnectionList, WearableConnectionListSchema } from "../schemas/wearables.js";
import { scopeOf } from "../scope.js";
import { toConnection } from "../wearables/body.js";

const QuerySchema = z.object({
  patientRef: z
    .string()
    .min(1)
    .max(128)
    .openapi({
      param: { name: "patientRef", in: "query", required: true },
      description: "Required.",
      example: "pt_w1",
    }),
  limit: LimitQuery,
});

// The body types of this route, for clients and tests (from the schemas it declares).
export type { WearableConnectionList };

const route = createRoute({
  method: "get",
  operationId: "listWearableConnections",
  path: "/v1/wearables/connections",
  tags: ["Wearables"],
  summary: "List connections",
  description: "A patient's wearable connections. Newest first, in the key's mode.",
  request: { query: QuerySchema },
  responses: {
    200: jsonAnswer("The connections", WearableConnectionListSchema),
    ...errorResponses(400, 402),
  },
});

export function registerWearableConnectionsList(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { patientRef, limit } = c.req.valid("query");
    const { rows, hasMore } = await listConnections(service.deps.db, {
      scope: scopeOf(c),
      patientRef,
      limit,
    });
    const body: WearableConnectionList = {
      ok: true,
      data: {
        object: "list",
        resource: "wearable_connection",
        count: rows.length,
        patientRef,
        connections: rows.map((row) => toConnection(row, service.deps.publicBaseUrl)),
        hasMore,
      },
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
