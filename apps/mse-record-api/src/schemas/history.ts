import { z } from "@hono/zod-openapi";
import { cursorQuery, decimalInteger } from "@svc/http";
import { RiskLevelSchema } from "./common.js";
import { SignatureSchema } from "./signature.js";

/** A visit's version history and its audit: GET /v1/mse/{visitId}/history and /audit. */

/**
 * History and audit pages (decision 87): keyset paging on the version number, as the other lists
 * page (`limit`, `cursor` = the previous page's `nextCursor`). The defaults keep a usual visit
 * whole in one page; a page also stops before its JSON passes PAGE_BYTES.
 */
export const HISTORY_LIMIT = { min: 1, max: 100, fallback: 50 } as const;
export const AUDIT_LIMIT = { min: 1, max: 200, fallback: 100 } as const;

const pageCursor = cursorQuery("`nextCursor` of the previous page.");

export const HistoryQuerySchema = z.object({
  limit: decimalInteger(HISTORY_LIMIT).openapi({
    param: { name: "limit", in: "query" },
    description: "Versions per page, 1-100, default 50.",
  }),
  cursor: pageCursor,
});

export const AuditQuerySchema = z.object({
  limit: decimalInteger(AUDIT_LIMIT).openapi({
    param: { name: "limit", in: "query" },
    description: "Versions per page, 1-200, default 100.",
  }),
  cursor: pageCursor,
});

export const HistoryEntrySchema = z
  .object({
    version: z.number().int(),
    savedAt: z.string(),
    lines: z.array(z.string()),
    superseded: z.boolean(),
    signed: z.boolean(),
    signatureIds: z.array(z.string()).optional(),
    operation: z.enum(["write", "patch"]),
    patchedDomains: z.array(z.string()).optional(),
    clinicianId: z.string().nullable(),
  })
  .openapi("MseHistoryEntry");

export const HistoryResponseSchema = z
  .object({
    visitId: z.string(),
    versions: z.array(HistoryEntrySchema).openapi({ description: "Newest first (this page)." }),
    chainValid: z.boolean().openapi({
      description:
        "Additive: every link of the whole chain recomputes (versions 1..n, each previous link and chain hash), and so does the content hash of every version on this page.",
    }),
    hasMore: z.boolean().openapi({ description: "Additive: older versions follow; pass `nextCursor`." }),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: "Additive: the `cursor` of the next (older) page, or null." }),
  })
  .openapi("MseHistory");
export type HistoryResponse = z.infer<typeof HistoryResponseSchema>;

export const AuditVersionSchema = z
  .object({
    version: z.number().int(),
    operation: z.enum(["write", "patch"]),
    patchedDomains: z.array(z.string()).nullable(),
    clinicianId: z.string().nullable(),
    keyId: z.string(),
    savedAt: z.string(),
    riskFlag: z.boolean(),
    riskLevel: RiskLevelSchema,
    safetyEventId: z.string().nullable(),
    contentHash: z.string(),
    prevHash: z.string().nullable(),
    chainHash: z.string(),
    hashValid: z
      .boolean()
      .openapi({ description: "This row's content hash, previous link and chain hash recompute." }),
  })
  .openapi("MseAuditVersion");

export const AuditSignatureSchema = SignatureSchema.extend({
  hashValid: z.boolean().openapi({ description: "The signed content hash is the version's stored one." }),
}).openapi("MseAuditSignature");

export const AuditResponseSchema = z
  .object({
    visitId: z.string(),
    patientId: z.string(),
    currentVersion: z.number().int(),
    chainValid: z.boolean().openapi({
      description:
        "Every link of the whole chain recomputes (versions 1..n, each previous link and chain hash), and so does the content hash of every version on this page.",
    }),
    versions: z
      .array(AuditVersionSchema)
      .openapi({ description: "Oldest first (chain order), this page's versions." }),
    signatures: z
      .array(AuditSignatureSchema)
      .openapi({ description: "Signatures of this page's versions, oldest first." }),
    hasMore: z.boolean().openapi({ description: "Additive: later versions follow; pass `nextCursor`." }),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: "Additive: the `cursor` of the next (later) page, or null." }),
  })
  .openapi("MseAudit");
export type AuditResponse = z.infer<typeof AuditResponseSchema>;
