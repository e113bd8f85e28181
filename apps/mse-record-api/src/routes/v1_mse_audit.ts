import { createRoute, type RouteHandler, type z } from "@hono/zod-openapi";
import { type AppEnv, flatErrorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import type { RiskLevel } from "@svc/mse-catalog";
import { versionPage } from "../data/records.js";
import { noRecord } from "../errors.js";
import { VisitIdParamSchema } from "../schemas/common.js";
import { AuditQuerySchema, type AuditResponse, AuditResponseSchema } from "../schemas/history.js";
import { signatureView } from "../signature-view.js";
import { cursorVersion, entriesWithin, jsonBytes, PAGE_BYTES, versionCursor } from "../version-pages.js";
import { caller, READ, TAG } from "./common.js";

/** The 200 body of GET /v1/mse/{visitId}/audit. */
export type MseAuditResponse = z.infer<typeof AuditResponseSchema>;

type AuditVersion = AuditResponse["versions"][number];
type AuditSignature = AuditResponse["signatures"][number];

const route = createRoute({
  method: "get",
  operationId: "getMseAudit",
  path: "/v1/mse/{visitId}/audit",
  tags: [TAG],
  summary: "Read the audit trail",
  description:
    "Audit trail of a visit's MSE, oldest first (additive, paged). Every version in chain order with who wrote it (clinicianId, keyId), when, the operation, its risk and safety event, and its contentHash, prevHash and chainHash, each re-verified (`hashValid`); then the signatures of those versions, each checked against the signed version's content hash. Paged: `limit` 1-200 (default 100, which keeps a usual visit whole) and `cursor` (the previous page's `nextCursor`); `hasMore` says later versions follow; a page also stops before its JSON passes 1 MB. `chainValid` is false when any link of the whole chain, or any version on this page, no longer matches its hashes: reading every page checks every stored row. 404 when the visit has no MSE in this organization; 400 for a bad `limit` or `cursor`. Scope `mse:read`.",
  request: { params: VisitIdParamSchema, query: AuditQuerySchema },
  responses: {
    200: jsonAnswer("A page of the audit trail", AuditResponseSchema),
    ...flatErrorResponses(400, 404),
  },
});

export function registerMseAudit(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { visitId } = c.req.valid("param");
    const query = c.req.valid("query");
    const after = query.cursor === undefined ? undefined : cursorVersion("audit", query.cursor);
    const { orgId } = caller(c);
    const page = await versionPage(service.deps.db, orgId, visitId, {
      order: "oldest",
      limit: query.limit,
      after,
    });
    if (!page) throw noRecord();
    // A signature holds when it names the stored content hash of its version and that row verifies.
    const contentHashes = new Map(page.rows.map((row) => [row.version, row.contentHash]));
    const signatures: AuditSignature[] = page.signatures.map((s) => ({
      ...signatureView(s),
      hashValid: contentHashes.get(s.version) === s.contentHash && page.rowValid(s.version),
    }));
    const versions: AuditVersion[] = page.rows.map((row) => ({
      version: row.version,
      operation: row.operation,
      patchedDomains: row.patchedDomains,
      clinicianId: row.clinicianId,
      keyId: row.keyId,
      savedAt: row.savedAt.toISOString(),
      riskFlag: row.riskFlag,
      riskLevel: row.riskLevel as RiskLevel,
      safetyEventId: row.safetyEventId,
      contentHash: row.contentHash,
      prevHash: row.prevHash,
      chainHash: row.chainHash,
      hashValid: page.rowValid(row.version),
    }));
    // A version is measured with its signatures, so the byte bound never splits them.
    const signatureBytes = new Map<number, number>();
    for (const s of signatures)
      signatureBytes.set(s.version, (signatureBytes.get(s.version) ?? 0) + jsonBytes(s));
    const keptCount = entriesWithin(
      versions,
      PAGE_BYTES,
      (v) => jsonBytes(v) + (signatureBytes.get(v.version) ?? 0),
    );
    const kept = versions.slice(0, keptCount);
    const keptNumbers = new Set(kept.map((v) => v.version));
    const hasMore = page.hasMore || kept.length < versions.length;
    const last = kept[kept.length - 1];
    const response: AuditResponse = {
      visitId,
      patientId: page.patientId,
      currentVersion: page.currentVersion,
      chainValid: page.chainValid([...keptNumbers]),
      versions: kept,
      // Oldest first, as read: the signatures of the versions on this page.
      signatures: signatures.filter((s) => keptNumbers.has(s.version)),
      hasMore,
      nextCursor: hasMore && last ? versionCursor("audit", last.version) : null,
    };
    return c.json(response, 200);
  };
  service.openapi(route, handler, READ);
}
