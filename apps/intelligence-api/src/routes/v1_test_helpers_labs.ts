import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { ApiError, type AppEnv, errorResponses, rateLimitHeaders, type ServiceApp } from "@svc/http";
import type { Context } from "hono";
import { LAB_ORDER_STATUSES, transitionLabOrder } from "../labs/transitions.js";
import {
  enqueueDeliveries,
  type LabOrderBody,
  LabOrderResponseSchema,
  labApiError,
  OrderIdParams,
  toLabOrder,
} from "./v1_labs_schemas.js";

/** Test helpers act on test-mode data only: a live key is 403 `forbidden`. */
export function requireTestMode(c: Context<AppEnv>): void {
  if (c.get("auth").mode !== "test") {
    throw new ApiError("forbidden", "Test helpers accept test keys only (svc_sk_test_...).");
  }
}

const AdvanceBodySchema = z
  .object({
    to: z
      .enum(LAB_ORDER_STATUSES)
      .optional()
      .openapi({ description: "Target state; the next state on the main path when absent." }),
  })
  .openapi("LabOrderAdvanceRequest");

const advanceRoute = createRoute({
  method: "post",
  path: "/v1/test_helpers/labs/orders/{id}/advance",
  tags: ["Test helpers"],
  summary: "Move a test lab order to its next state",
  description:
    "Sandbox only (test keys). Moves along requested -> authorized -> scheduled -> collected -> in_transit -> processing -> resulted -> completed, or to `to` when it is a legal move (e.g. collected -> resulted). Entering `resulted` attaches sandbox results. An illegal move is 409 `invalid_transition`.",
  request: {
    params: OrderIdParams,
    body: { required: false, content: { "application/json": { schema: AdvanceBodySchema } } },
  },
  responses: {
    200: {
      description: "The order after the move",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: LabOrderResponseSchema } },
    },
    ...errorResponses(400, 402, 404, 409),
  },
});

const authorizeRoute = createRoute({
  method: "post",
  path: "/v1/test_helpers/labs/orders/{id}/authorize",
  tags: ["Test helpers"],
  summary: "Simulate provider authorization of a test lab order",
  description:
    "Sandbox only (test keys). requested -> authorized; any other state is 409 `invalid_transition`.",
  request: { params: OrderIdParams },
  responses: {
    200: {
      description: "The authorized order",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: LabOrderResponseSchema } },
    },
    ...errorResponses(402, 404, 409),
  },
});

export function registerTestHelperLabs(service: ServiceApp): void {
  const advance: RouteHandler<typeof advanceRoute, AppEnv> = async (c) => {
    requireTestMode(c);
    const { id } = c.req.valid("param");
    // The body is optional: without one the validator leaves nothing behind.
    const input = (c.req.valid("json") as z.infer<typeof AdvanceBodySchema> | undefined) ?? {};
    const auth = c.get("auth");
    const outcome = await transitionLabOrder(service.deps.db, {
      id,
      accountId: auth.accountId as string,
      mode: auth.mode,
      to: input.to,
    }).catch((error: unknown) => {
      throw labApiError(error);
    });
    await enqueueDeliveries(service.deps, outcome.deliveryIds);
    const body: { ok: true; data: LabOrderBody } = { ok: true, data: toLabOrder(outcome.order) };
    return c.json(body, 200);
  };
  service.openapi(advanceRoute, advance);

  const authorize: RouteHandler<typeof authorizeRoute, AppEnv> = async (c) => {
    requireTestMode(c);
    const { id } = c.req.valid("param");
    const auth = c.get("auth");
    const outcome = await transitionLabOrder(service.deps.db, {
      id,
      accountId: auth.accountId as string,
      mode: auth.mode,
      to: "authorized",
      expectFrom: "requested",
    }).catch((error: unknown) => {
      throw labApiError(error);
    });
    await enqueueDeliveries(service.deps, outcome.deliveryIds);
    const body: { ok: true; data: LabOrderBody } = { ok: true, data: toLabOrder(outcome.order) };
    return c.json(body, 200);
  };
  service.openapi(authorizeRoute, authorize);
}
