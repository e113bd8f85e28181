import { createRoute, type RouteHandler, type z } from "@hono/zod-openapi";
import { type AppEnv, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { completeConnection } from "@svc/records";
import {
  ConnectionIdParams,
  WearableCompleteRequestSchema,
  type WearableConnectionResponse,
  WearableConnectionResponseSchema,
} from "../schemas/wearables.js";
import { requireTestMode, scopeOf } from "../scope.js";
import { toConnection } from "../wearables/body.js";

// The body types of this route, for clients and tests (from the schemas it declares).
export type { WearableConnectionResponse };
/** The body a client sends to complete a sandbox connection. */
export type WearableCompleteRequest = z.input<typeof WearableCompleteRequestSchema>;

const route = createRoute({
  method: "post",
  operationId: "completeTestWearableConnection",
  security: [{ secretTestKey: [] }],
  path: "/v1/test_helpers/wearables/connections/{id}/complete",
  tags: ["Test helpers"],
  summary: "Complete a test connection",
  description:
    "Simulate the patient completing the connect page. Sandbox only (test keys). pending -> connected with `provider` (one the connection offers); emits `wearable.connected`. Any other state is 409 `invalid_transition`.",
  request: {
    params: ConnectionIdParams,
    body: {
      required: true,
      content: {
        "application/json": { schema: WearableCompleteRequestSchema, example: { provider: "OURA" } },
      },
    },
  },
  responses: {
    200: jsonAnswer("The connected connection", WearableConnectionResponseSchema),
    ...errorResponses(400, 402, 404, 409),
  },
});

export function registerTestHelperWearables(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    requireTestMode(c);
    const { id } = c.req.valid("param");
    const { provider } = c.req.valid("json");
    const outcome = await completeConnection(service.deps.db, { id, scope: scopeOf(c) }, provider);
    const body: WearableConnectionResponse = {
      ok: true,
      data: toConnection(outcome.connection, service.deps.publicBaseUrl),
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
