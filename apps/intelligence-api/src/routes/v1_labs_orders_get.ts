import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { and, eq, labOrders } from "@svc/db";
import { ApiError, type AppEnv, errorResponses, rateLimitHeaders, type ServiceApp } from "@svc/http";
import { type LabOrderBody, LabOrderResponseSchema, OrderIdParams, toLabOrder } from "./v1_labs_schemas.js";

const route = createRoute({
  method: "get",
  path: "/v1/labs/orders/{id}",
  tags: ["Lab orders"],
  summary: "Retrieve a lab order",
  description: "An unknown id, or another account's or mode's, is 404 `not_found`.",
  request: { params: OrderIdParams },
  responses: {
    200: {
      description: "The order",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: LabOrderResponseSchema } },
    },
    ...errorResponses(402, 404),
  },
});

export function registerLabOrdersGet(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { id } = c.req.valid("param");
    const auth = c.get("auth");
    const [row] = await service.deps.db
      .select()
      .from(labOrders)
      .where(
        and(
          eq(labOrders.id, id),
          eq(labOrders.accountId, auth.accountId as string),
          eq(labOrders.mode, auth.mode),
        ),
      );
    if (!row) throw new ApiError("not_found", "No lab order with this id exists for this account.");
    const body: { ok: true; data: LabOrderBody } = { ok: true, data: toLabOrder(row) };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
