import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type AppEnv, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { transitionLabOrder } from "@svc/records";
import { toLabOrder } from "../labs/body.js";
import { type LabOrderResponse, LabOrderResponseSchema, OrderIdParams } from "../schemas/labs.js";
import { scopeOf } from "../scope.js";

// The body types of this route, for clients and tests (from the schemas it declares).
export type { LabOrderResponse };

const route = createRoute({
  method: "post",
  operationId: "cancelLabOrder",
  path: "/v1/labs/orders/{id}/cancel",
  tags: ["Lab orders"],
  summary: "Cancel a lab order",
  description:
    "Allowed while the order is `requested`, `authorized` or `scheduled`; otherwise 409 `invalid_transition` and nothing changes. Emits `lab_order.status_changed`.",
  request: { params: OrderIdParams },
  responses: {
    200: jsonAnswer("The cancelled order", LabOrderResponseSchema),
    ...errorResponses(402, 404, 409),
  },
});

export function registerLabOrdersCancel(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { id } = c.req.valid("param");
    const outcome = await transitionLabOrder(service.deps.db, { id, ...scopeOf(c), to: "cancelled" });
    const body: LabOrderResponse = { ok: true, data: toLabOrder(outcome.order) };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
