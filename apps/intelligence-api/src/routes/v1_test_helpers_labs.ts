import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type AppEnv, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { transitionLabOrder } from "@svc/records";
import { toLabOrder } from "../labs/body.js";
import {
  type LabOrderAdvanceRequest,
  LabOrderAdvanceRequestSchema,
  type LabOrderResponse,
  LabOrderResponseSchema,
  OrderIdParams,
} from "../schemas/labs.js";
import { requireTestMode, scopeOf } from "../scope.js";

// The body types of this route, for clients and tests (from the schemas it declares).
export type { LabOrderAdvanceRequest, LabOrderResponse };

const advanceRoute = createRoute({
  method: "post",
  operationId: "advanceTestLabOrder",
  security: [{ secretTestKey: [] }],
  path: "/v1/test_helpers/labs/orders/{id}/advance",
  tags: ["Test helpers"],
  summary: "Advance a test lab order",
  description:
    "Move a test lab order to its next state. Sandbox only (test keys). Moves along requested -> authorized -> scheduled -> collected -> in_transit -> processing -> resulted -> completed, or to `to` when it is a legal move (e.g. collected -> resulted). Entering `resulted` attaches sandbox results. An illegal move is 409 `invalid_transition`.",
  request: {
    params: OrderIdParams,
    body: {
      required: false,
      content: { "application/json": { schema: LabOrderAdvanceRequestSchema, example: { to: "scheduled" } } },
    },
  },
  responses: {
    200: jsonAnswer("The order after the move", LabOrderResponseSchema),
    ...errorResponses(400, 402, 404, 409),
  },
});

const authorizeRoute = createRoute({
  method: "post",
  operationId: "authorizeTestLabOrder",
  security: [{ secretTestKey: [] }],
  path: "/v1/test_helpers/labs/orders/{id}/authorize",
  tags: ["Test helpers"],
  summary: "Authorize a test lab order",
  description:
    "Simulate provider authorization of a test lab order. Sandbox only (test keys). requested -> authorized; any other state is 409 `invalid_transition`.",
  request: { params: OrderIdParams },
  responses: {
    200: jsonAnswer("The authorized order", LabOrderResponseSchema),
    ...errorResponses(402, 404, 409),
  },
});

export function registerTestHelperLabs(service: ServiceApp): void {
  const advance: RouteHandler<typeof advanceRoute, AppEnv> = async (c) => {
    requireTestMode(c);
    const { id } = c.req.valid("param");
    // The body is optional: without one the validator leaves nothing behind.
    const input = (c.req.valid("json") as LabOrderAdvanceRequest | undefined) ?? {};
    const outcome = await transitionLabOrder(service.deps.db, { id, ...scopeOf(c), to: input.to });
    const body: LabOrderResponse = { ok: true, data: toLabOrder(outcome.order) };
    return c.json(body, 200);
  };
  service.openapi(advanceRoute, advance);

  const authorize: RouteHandler<typeof authorizeRoute, AppEnv> = async (c) => {
    requireTestMode(c);
    const { id } = c.req.valid("param");
    const outcome = await transitionLabOrder(service.deps.db, {
      id,
      ...scopeOf(c),
      to: "authorized",
      expectFrom: "requested",
    });
    const body: LabOrderResponse = { ok: true, data: toLabOrder(outcome.order) };
    return c.json(body, 200);
  };
  service.openapi(authorizeRoute, authorize);
}
