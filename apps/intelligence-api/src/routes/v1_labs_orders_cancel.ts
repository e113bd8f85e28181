import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type AppEnv, errorResponses, rateLimitHeaders, type ServiceApp } from "@svc/http";
import { transitionLabOrder } from "../labs/transitions.js";
import {
  enqueueDeliveries,
  type LabOrderBody,
  LabOrderResponseSchema,
  labApiError,
  OrderIdParams,
  toLabOrder,
} from "./v1_labs_schemas.js";

const route = createRoute({
  method: "post",
  path: "/v1/labs/orders/{id}/cancel",
  tags: ["Lab orders"],
  summary: "Cancel a lab order",
  description:
    "Allowed while the order is `requested`, `authorized` or `scheduled`; otherwise 409 `invalid_transition` and nothing changes. Emits `lab_order.status_changed`.",
  request: { params: OrderIdParams },
  responses: {
    200: {
      description: "The cancelled order",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: LabOrderResponseSchema } },
    },
    ...errorResponses(402, 404, 409),
  },
});

export function registerLabOrdersCancel(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { id } = c.req.valid("param");
    const auth = c.get("auth");
    const outcome = await transitionLabOrder(service.deps.db, {
      id,
      accountId: auth.accountId as string,
      mode: auth.mode,
      to: "cancelled",
    }).catch((error: unknown) => {
      throw labApiError(error);
    });
    await enqueueDeliveries(service.deps, outcome.deliveryIds);
    const body: { ok: true; data: LabOrderBody } = { ok: true, data: toLabOrder(outcome.order) };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
