import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { and, desc, eq, wearableConnections } from "@svc/db";
import { type AppEnv, errorResponses, rateLimitHeaders, type ServiceApp } from "@svc/http";
import { LimitQuery } from "./v1_labs_orders_list.js";
import { toConnection, WearableConnectionSchema } from "./v1_wearables_schemas.js";

const QuerySchema = z.object({
  patientRef: z
    .string()
    .min(1)
    .max(128)
    .openapi({ param: { name: "patientRef", in: "query", required: true }, description: "Required." }),
  limit: LimitQuery,
});

export const WearableConnectionListSchema = z
  .object({
    ok: z.literal(true),
    data: z.object({
      object: z.literal("list"),
      resource: z.literal("wearable_connection"),
      count: z.number().int(),
      patientRef: z.string(),
      connections: z.array(WearableConnectionSchema),
      hasMore: z.boolean().openapi({ description: "More connections exist beyond `limit` (additive)." }),
    }),
  })
  .openapi("WearableConnectionList");
export type WearableConnectionList = z.infer<typeof WearableConnectionListSchema>;

const route = createRoute({
  method: "get",
  path: "/v1/wearables/connections",
  tags: ["Wearables"],
  summary: "A patient's wearable connections",
  description: "Newest first, in the key's mode.",
  request: { query: QuerySchema },
  responses: {
    200: {
      description: "The connections",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: WearableConnectionListSchema } },
    },
    ...errorResponses(400, 402),
  },
});

export function registerWearableConnectionsList(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const query = c.req.valid("query");
    const auth = c.get("auth");
    const rows = await service.deps.db
      .select()
      .from(wearableConnections)
      .where(
        and(
          eq(wearableConnections.accountId, auth.accountId as string),
          eq(wearableConnections.mode, auth.mode),
          eq(wearableConnections.patientRef, query.patientRef),
        ),
      )
      .orderBy(desc(wearableConnections.createdAt), desc(wearableConnections.id))
      .limit(query.limit + 1);
    const page = rows.slice(0, query.limit);
    const body: WearableConnectionList = {
      ok: true,
      data: {
        object: "list",
        resource: "wearable_connection",
        count: page.length,
        patientRef: query.patientRef,
        connections: page.map((row) => toConnection(row, service.deps.publicBaseUrl)),
        hasMore: rows.length > query.limit,
      },
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
