import { createRoute, type RouteHandler, type z } from "@hono/zod-openapi";
import { ApiError, type AppEnv, runIdempotent, type ServiceApp } from "@svc/http";
import { findPanel, insertLabOrder } from "@svc/records";
import { toLabOrder } from "../labs/body.js";
import {
  CreateLabOrderRequestSchema,
  type LabOrderResponse,
  LabOrderResponseSchema,
} from "../schemas/labs.js";
import { idempotentCreate } from "../schemas/resources.js";
import { scopeOf } from "../scope.js";

// The body types of this route, for clients and tests (from the schemas it declares).
export type { LabOrderResponse };
/** The body a client sends to POST /v1/labs/orders (before defaults apply). */
export type CreateLabOrderRequest = z.input<typeof CreateLabOrderRequestSchema>;

const route = createRoute({
  method: "post",
  operationId: "createLabOrder",
  path: "/v1/labs/orders",
  tags: ["Lab orders"],
  summary: "Order a lab panel",
  description:
    "Creates the order in `requested`; a provider must authorize it before collection. Honors `Idempotency-Key`: the same key and body replay the first response; the same key with another body is 422 `idempotency_key_reused`; one still in flight is 409 `idempotency_in_progress`.",
  ...idempotentCreate(
    {
      schema: CreateLabOrderRequestSchema,
      example: { patientRef: "pt_1001", panelId: "lithium_monitoring" },
    },
    { description: "The order, in `requested`", schema: LabOrderResponseSchema },
  ),
});

export function registerLabOrdersCreate(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const input = c.req.valid("json");
    const panel = findPanel(input.panelId);
    if (!panel) {
      throw new ApiError("invalid_request", "Unknown panelId; list the catalog with GET /v1/labs/panels.", {
        issues: [{ path: "panelId", message: "not a panelId in the lab catalog" }],
      });
    }
    const scope = scopeOf(c);
    const outcome = await runIdempotent<LabOrderResponse>(c, service.deps.db, async (tx) => {
      const row = await insertLabOrder(tx, {
        scope,
        panel,
        patientRef: input.patientRef,
        note: input.note,
        metadata: input.metadata,
      });
      return { status: 201, body: { ok: true, data: toLabOrder(row) } };
    });
    return c.json(outcome.body, outcome.status as 201);
  };
  service.openapi(route, handler);
}
