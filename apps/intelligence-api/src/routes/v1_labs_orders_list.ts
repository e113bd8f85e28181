import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { type AppEnv, cursorQuery, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { labOrderCursor, labOrderPosition, listLabOrders } from "@svc/records";
import { toLabOrder } from "../labs/body.js";
import { type LabOrderListResponse, LabOrderListResponseSchema } from "../schemas/labs.js";
import { LimitQuery } from "../schemas/resources.js";
import { scopeOf } from "../scope.js";

const QuerySchema = z.object({
  patientRef: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .openapi({ param: { name: "patientRef", in: "query" }, description: "Only this patient's orders." }),
  limit: LimitQuery,
  cursor: cursorQuery("`nextCursor` of the previous page (additive to the contract)."),
});

// The body types of this route, for clients and tests (from the schemas it declares).
export type { LabOrderListResponse };

const route = createRoute({
  method: "get",
  operationId: "listLabOrders",
  path: "/v1/labs/orders",
  tags: ["Lab orders"],
  summary: "List lab orders",
  description: "The account's orders (in the key's mode), newest first, optionally of one patient.",
  request: { query: QuerySchema },
  responses: {
    200: jsonAnswer("A page of orders", LabOrderListResponseSchema),
    ...errorResponses(400, 402),
  },
});

export function registerLabOrdersList(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const query = c.req.valid("query");
    const { rows, hasMore } = await listLabOrders(service.deps.db, {
      scope: scopeOf(c),
      patientRef: query.patientRef,
      after: query.cursor === undefined ? undefined : labOrderPosition(query.cursor),
      limit: query.limit,
    });
    const last = rows.at(-1);
    const body: LabOrderListResponse = {
      ok: true,
      data: {
        object: "list",
        resource: "lab_order",
        count: rows.length,
        orders: rows.map(toLabOrder),
        hasMore,
        nextCursor: hasMore && last ? labOrderCursor(last) : null,
      },
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
