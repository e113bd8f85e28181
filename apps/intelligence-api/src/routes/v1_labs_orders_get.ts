import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type AppEnv, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { getLabOrder } from "@svc/records";
import { toLabOrder } from "../labs/body.js";
import { type LabOrderResponse, LabOrderResponseSchema, OrderIdParams } from "../schemas/labs.js";
import { scopeOf } from "../scope.js";

// The body types of this route, for clients and tests (from the schemas it declares).
export type { LabOrderResponse };

const route = createRoute({
  method: "get",
  operationId: "getLabOrder",
  path: "/v1/labs/orders/{id}",
  tags: ["Lab orders"],
  summary: "Retrieve a lab order",
  description: "An unknown id, or another account's or mode's, is 404 `not_found`.",
  request: { params: OrderIdParams },
  responses: {
    200: jsonAnswer("The order", LabOrderResponseSchema),
    ...errorResponses(402, 404),
  },
});

export function registerLabOrdersGet(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { id } = c.req.valid("param");
    const row = await getLabOrder(service.deps.db, scopeOf(c), id);
    const body: LabOrderResponse = { ok: true, data: toLabOrder(row) };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
