import { z } from "@hono/zod-openapi";
import { PROVIDER_CODES, WEARABLE_METRICS } from "@svc/records";
import { isIso6391 } from "../wearables/languages.js";
import { MetadataSchema, PatientRefSchema } from "./resources.js";

/** Shapes of the wearable routes (one zod schema per shape: validation, OpenAPI and tests). */

export const WearableProviderListSchema = z
  .object({
    ok: z.literal(true),
    data: z.object({
      object: z.literal("list"),
      resource: z.literal("wearable_provider"),
      count: z.number().int(),
      providers: z
        .array(z.string())
        .openapi({ description: "Uppercase provider codes accepted by connect." }),
      details: z.array(
        z.object({ code: z.string(), displayName: z.string(), metrics: z.array(z.enum(WEARABLE_METRICS)) }),
      ),
    }),
  })
  .openapi("WearableProviderList");
export type WearableProviderList = z.infer<typeof WearableProviderListSchema>;

export const WearableConnectionSchema = z
  .object({
    object: z.literal("wearable_connection"),
    id: z.string().openapi({ example: "wear_01jd3k8w6t1x9c0q2m4n5p7r8s" }),
    patientRef: z.string(),
    status: z.enum(["pending", "connected", "disconnected"]),
    provider: z.enum(PROVIDER_CODES).nullable(),
    providerDisplayName: z.string().nullable(),
    providers: z
      .array(z.enum(PROVIDER_CODES))
      .openapi({ description: "Providers offered on the connect page." }),
    language: z.string(),
    connect: z.object({
      url: z
        .string()
        .openapi({ description: "The service-hosted connect page: {public_base_url}/connect/{token}." }),
    }),
    metadata: MetadataSchema,
    connectedAt: z.string().nullable(),
    disconnectedAt: z.string().nullable(),
    lastSyncAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    notice: z.string(),
  })
  .openapi("WearableConnection");
export type WearableConnectionBody = z.infer<typeof WearableConnectionSchema>;

export const WearableConnectionResponseSchema = z
  .object({ ok: z.literal(true), data: WearableConnectionSchema })
  .openapi("WearableConnectionResponse");
export type WearableConnectionResponse = z.infer<typeof WearableConnectionResponseSchema>;

export const ConnectionIdParams = z.object({
  id: z
    .string()
    .max(64)
    .openapi({ param: { name: "id", in: "path" }, example: "wear_01jd3k8w6t1x9c0q2m4n5p7r8s" }),
});

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

export const WearableConnectionListSchema = z
  .object({
    ok: z.literal(true),
    data: z.object({
      object: z.literal("list"),
      resource: z.literal("wearable_connection"),
      count: z.number().int(),
      patientRef: z.string(),
      connections: z.array(WearableConnectionSchema),
      hasMore: z.boolean().openapi({ description: "More connections exist beyond `limit` (additive)." }),
    }),
  })
  .openapi("WearableConnectionList");
export type WearableConnectionList = z.infer<typeof WearableConnectionListSchema>;

export const WearableSyncResponseSchema = z
  .object({
    ok: z.literal(true),
    data: WearableConnectionSchema.extend({
      sync: z.object({
        days: z.number().int().openapi({ description: "Days of metrics stored by this sync." }),
      }),
    }),
  })
  .openapi("WearableSyncResponse");
export type WearableSyncResponse = z.infer<typeof WearableSyncResponseSchema>;

const DailySchema = z.object({
  day: z.string().openapi({ example: "2026-11-20" }),
  sleepHours: z.number().nullable(),
  steps: z.number().int().nullable(),
  restingHeartRate: z.number().nullable(),
  hrvMs: z.number().nullable(),
});
export type DailyMetricsBody = z.infer<typeof DailySchema>;

export const WearableMetricsResponseSchema = z
  .object({
    ok: z.literal(true),
    data: z.object({
      object: z.literal("wearable_metrics"),
      connectionId: z.string(),
      patientRef: z.string(),
      provider: z.string().nullable(),
      days: z.number().int(),
      from: z.string(),
      to: z.string(),
      count: z.number().int(),
      daily: z.array(DailySchema),
      avgSleepHours: z.number().nullable().openapi({
        description:
          "Mean nightly sleep over the days with data (null when none): feeds `avgSleepHours` of relapse and outcome.",
      }),
    }),
  })
  .openapi("WearableMetrics");
export type WearableMetricsResponse = z.infer<typeof WearableMetricsResponseSchema>;

/** Body of the sandbox complete helper. */
export const WearableCompleteRequestSchema = z
  .object({ provider: z.enum(PROVIDER_CODES).openapi({ description: "One of the connection's providers." }) })
  .openapi("WearableCompleteRequest");
