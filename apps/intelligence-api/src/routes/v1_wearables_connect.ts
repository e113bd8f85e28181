import { createRoute, type RouteHandler, type z } from "@hono/zod-openapi";
import { type AppEnv, runIdempotent, type ServiceApp } from "@svc/http";
import { insertConnection, PROVIDER_CODES } from "@svc/records";
import { idempotentCreate } from "../schemas/resources.js";
import {
  ConnectRequestSchema,
  type WearableConnectionResponse,
  WearableConnectionResponseSchema,
} from "../schemas/wearables.js";
import { scopeOf } from "../scope.js";
import { toConnection } from "../wearables/body.js";

// The body types of this route, for clients and tests (from the schemas it declares).
export type { WearableConnectionResponse };
/** The body a client sends to POST /v1/wearables/connect (before defaults apply). */
export type WearableConnectRequest = z.input<typeof ConnectRequestSchema>;

const route = createRoute({
  method: "post",
  operationId: "connectWearable",
  path: "/v1/wearables/connect",
  tags: ["Wearables"],
  summary: "Connect a wearable",
  description:
    "Creates a pending connection and returns `connect.url`, a service-hosted page listing the selected providers, to send to the patient. Honors `Idempotency-Key` like POST /v1/labs/orders.",
  ...idempotentCreate(
    { schema: ConnectRequestSchema, example: { patientRef: "pt_w1", providers: ["OURA", "GARMIN"] } },
    { description: "The pending connection", schema: WearableConnectionResponseSchema },
  ),
});

export function registerWearablesConnect(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const input = c.req.valid("json");
    const scope = scopeOf(c);
    const outcome = await runIdempotent<WearableConnectionResponse>(c, service.deps.db, async (tx) => {
      const row = await insertConnection(tx, {
        scope,
        patientRef: input.patientRef,
        providers: [...new Set(input.providers ?? PROVIDER_CODES)],
        language: input.language ?? "en",
        metadata: input.metadata,
      });
      return { status: 201, body: { ok: true, data: toConnection(row, service.deps.publicBaseUrl) } };
    });
    return c.json(outcome.body, outcome.status as 201);
  };
  service.openapi(route, handler);
}
