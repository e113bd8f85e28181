import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { type AppEnv, errorResponses, rateLimitHeaders, type ServiceApp } from "@svc/http";
import { completeConnection } from "../wearables/connections.js";
import { PROVIDER_CODES } from "../wearables/providers.js";
import { enqueueDeliveries } from "./v1_labs_schemas.js";
import { requireTestMode } from "./v1_test_helpers_labs.js";
import {
  ConnectionIdParams,
  toConnection,
  type WearableConnectionBody,
  WearableConnectionResponseSchema,
  wearableApiError,
} from "./v1_wearables_schemas.js";

const CompleteBodySchema = z
  .object({ provider: z.enum(PROVIDER_CODES).openapi({ description: "One of the connection's providers." }) })
  .openapi("WearableCompleteRequest");

const route = createRoute({
  method: "post",
  path: "/v1/test_helpers/wearables/connections/{id}/complete",
  tags: ["Test helpers"],
  summary: "Simulate the patient completing the connect page",
  description:
    "Sandbox only (test keys). pending -> connected with `provider` (one the connection offers); emits `wearable.connected`. Any other state is 409 `invalid_transition`.",
  request: {
    params: ConnectionIdParams,
    body: { required: true, content: { "application/json": { schema: CompleteBodySchema } } },
  },
  responses: {
    200: {
      description: "The connected connection",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: WearableConnectionResponseSchema } },
    },
    ...errorResponses(400, 402, 404, 409),
  },
});

export function registerTestHelperWearables(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    requireTestMode(c);
    const { id } = c.req.valid("param");
    const { provider } = c.req.valid("json");
    const auth = c.get("auth");
    const outcome = await completeConnection(
      service.deps.db,
      { id, scope: { accountId: auth.accountId as string, mode: auth.mode } },
      provider,
    ).catch((error: unknown) => {
      throw wearableApiError(error);
    });
    await enqueueDeliveries(service.deps, outcome.deliveryIds);
    const body: { ok: true; data: WearableConnectionBody } = {
      ok: true,
      data: toConnection(outcome.connection, service.deps.publicBaseUrl),
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
