import { z } from "@hono/zod-openapi";
import { ApiError } from "@svc/http";
import { MetadataSchema } from "../labs/metadata.js";
import { type WearableConnectionRow, WearableError } from "../wearables/connections.js";
import { findProvider, PROVIDER_CODES } from "../wearables/providers.js";

export const WEARABLE_NOTICE =
  "Send connect.url to the patient: they choose their device on that page. The connection stays pending until they do; only daily summaries are shared.";

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

export const ConnectionIdParams = z.object({
  id: z
    .string()
    .max(64)
    .openapi({ param: { name: "id", in: "path" }, example: "wear_01jd3k8w6t1x9c0q2m4n5p7r8s" }),
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function connectUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/$/, "")}/connect/${token}`;
}

export function toConnection(row: WearableConnectionRow, publicBaseUrl: string): WearableConnectionBody {
  const provider = row.provider ? findProvider(row.provider) : undefined;
  return {
    object: "wearable_connection",
    id: row.id,
    patientRef: row.patientRef,
    status: row.status,
    provider: provider?.code ?? null,
    providerDisplayName: provider?.displayName ?? null,
    providers: row.providers as WearableConnectionBody["providers"],
    language: row.language,
    connect: { url: connectUrl(publicBaseUrl, row.connectToken) },
    metadata: (row.metadata ?? {}) as WearableConnectionBody["metadata"],
    connectedAt: iso(row.connectedAt),
    disconnectedAt: iso(row.disconnectedAt),
    lastSyncAt: iso(row.lastSyncAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    notice: WEARABLE_NOTICE,
  };
}

export function wearableApiError(error: unknown): unknown {
  if (!(error instanceof WearableError)) return error;
  switch (error.code) {
    case "not_found":
      return new ApiError("not_found", "No wearable connection with this id exists for this account.");
    case "provider_not_offered":
      return new ApiError("invalid_request", error.message, {
        issues: [{ path: "provider", message: "not one of the connection's providers" }],
      });
    case "live_unavailable":
      return new ApiError("forbidden", error.message);
    case "not_connected":
      return new ApiError("conflict", error.message);
    default:
      return new ApiError("invalid_transition", error.message);
  }
}
