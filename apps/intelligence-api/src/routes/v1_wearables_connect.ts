import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { wearableConnections } from "@svc/db";
import { type AppEnv, errorResponses, rateLimitHeaders, runIdempotent, type ServiceApp } from "@svc/http";
import { newId } from "@svc/ids";
import { MetadataSchema, PatientRefSchema } from "../labs/metadata.js";
import { newConnectToken } from "../wearables/connections.js";
import { isIso6391 } from "../wearables/languages.js";
import { PROVIDER_CODES } from "../wearables/providers.js";
import { IdempotencyHeaderSchema } from "./v1_labs_orders_create.js";
import {
  toConnection,
  type WearableConnectionBody,
  WearableConnectionResponseSchema,
} from "./v1_wearables_schemas.js";

export const ConnectRequestSchema = z
  .object({
    patientRef: PatientRefSchema,
    providers: z
      .array(z.enum(PROVIDER_CODES))
      .min(1)
      .max(PROVIDER_CODES.length * 2)
      .optional()
      .openapi({
        description: "Subset of GET /v1/wearables/providers codes (default all); duplicates ignored.",
      }),
    language: z
      .string()
      .regex(/^[a-z]{2}$/, "must be an ISO 639-1 code: two lowercase letters")
      .refine(isIso6391, "is not an ISO 639-1 language code")
      .optional()
      .openapi({ description: "ISO 639-1 language of the connect page (default en).", example: "en" }),
    metadata: MetadataSchema.optional(),
  })
  .openapi("WearableConnectRequest");

const route = createRoute({
  method: "post",
  path: "/v1/wearables/connect",
  tags: ["Wearables"],
  summary: "Start a wearable connection",
  description:
    "Creates a pending connection and returns `connect.url`, a service-hosted page listing the selected providers, to send to the patient. Honors `Idempotency-Key` like POST /v1/labs/orders.",
  request: {
    headers: IdempotencyHeaderSchema,
    body: { required: true, content: { "application/json": { schema: ConnectRequestSchema } } },
  },
  responses: {
    201: {
      description: "The pending connection",
      headers: {
        ...rateLimitHeaders,
        "Idempotent-Replayed": {
          schema: { type: "string" as const },
          description: "`true` when this is the stored response of an earlier request with the same key.",
        },
      },
      content: { "application/json": { schema: WearableConnectionResponseSchema } },
    },
    ...errorResponses(400, 402, 409, 413, 422),
  },
});

export function registerWearablesConnect(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const input = c.req.valid("json");
    const auth = c.get("auth");
    const providers = [...new Set(input.providers ?? PROVIDER_CODES)];
    const outcome = await runIdempotent<{ ok: true; data: WearableConnectionBody }>(
      c,
      service.deps.db,
      async (tx) => {
        const now = new Date();
        const [row] = await tx
          .insert(wearableConnections)
          .values({
            id: newId("wear"),
            accountId: auth.accountId as string,
            mode: auth.mode,
            patientRef: input.patientRef,
            status: "pending",
            providers,
            language: input.language ?? "en",
            connectToken: newConnectToken(),
            metadata: input.metadata ?? {},
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        if (!row) throw new Error("wearable connection insert returned no row");
        return {
          status: 201,
          body: { ok: true as const, data: toConnection(row, service.deps.publicBaseUrl) },
        };
      },
    );
    return c.json(outcome.body, outcome.status as 201);
  };
  service.openapi(route, handler);
}
