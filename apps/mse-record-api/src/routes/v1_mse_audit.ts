import { createRoute, type RouteHandler, type z } from "@hono/zod-openapi";
import { type AppEnv, flatErrorResponses, rateLimitHeaders, type ServiceApp } from "@svc/http";
import type { RiskLevel } from "@svc/mse-catalog";
import { fullRecord } from "../data/records.js";
import { noRecord } from "../errors.js";
import { type AuditResponse, AuditResponseSchema, VisitIdParamSchema } from "../schemas.js";
import { signatureView } from "../signature-view.js";
import { caller, READ, TAG } from "./common.js";

/** The 200 body of GET /v1/mse/{visitId}/audit. */
export type MseAuditResponse = z.infer<typeof AuditResponseSchema>;

const route = createRoute({
  method: "get",
  path: "/v1/mse/{visitId}/audit",
  tags: [TAG],
  summary: "Audit trail of a visit's MSE (additive)",
  description:
    "Every version in chain order with who wrote it (clinicianId, keyId), when, the operation, its risk and safety event, and its contentHash, prevHash and chainHash, each re-verified (`hashValid`); then every signature, checked against the signed version's content hash. `chainValid` is false when any stored row no longer matches its hashes. 404 when the visit has no MSE in this organization. Scope `mse:read`.",
  request: { params: VisitIdParamSchema },
  responses: {
    200: {
      description: "The audit trail",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: AuditResponseSchema } },
    },
    ...flatErrorResponses(400, 404),
  },
});

export function registerMseAudit(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { visitId } = c.req.valid("param");
    const { orgId } = caller(c);
    const record = await fullRecord(service.deps.db, orgId, visitId);
    if (!record || record.versions.length === 0) throw noRecord();
    // A signature holds when it names the stored content hash of its version and that row verifies.
    const rowCheck = new Map(
      record.versions.map((v, i) => [
        v.version,
        { contentHash: v.contentHash, valid: record.chain.rows[i] === true },
      ]),
    );
    const response: AuditResponse = {
      visitId,
      patientId: record.patientId,
      currentVersion: record.currentVersion,
      chainValid: record.chain.valid,
      versions: record.versions.map((row, i) => ({
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
        hashValid: record.chain.rows[i] ?? false,
      })),
      signatures: record.signatures.map((s) => ({
        ...signatureView(s),
        hashValid:
          rowCheck.get(s.version)?.contentHash === s.contentHash && rowCheck.get(s.version)?.valid === true,
      })),
    };
    return c.json(response, 200);
  };
  service.openapi(route, handler, READ);
}
