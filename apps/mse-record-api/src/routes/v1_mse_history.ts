import { createRoute, type RouteHandler, type z } from "@hono/zod-openapi";
import { type AppEnv, flatErrorResponses, rateLimitHeaders, type ServiceApp } from "@svc/http";
import type { Line } from "@svc/mse-catalog";
import { fullRecord } from "../data/records.js";
import { noRecord } from "../errors.js";
import { type HistoryResponse, HistoryResponseSchema, VisitIdParamSchema } from "../schemas.js";
import { caller, READ, TAG } from "./common.js";

/** The 200 body of GET /v1/mse/{visitId}/history. */
export type MseHistoryResponse = z.infer<typeof HistoryResponseSchema>;

const route = createRoute({
  method: "get",
  path: "/v1/mse/{visitId}/history",
  tags: [TAG],
  summary: "Every version of a visit's MSE, newest first",
  description:
    "Each version with its narrative lines, whether a later version superseded it, its signatures, the operation that wrote it and who recorded it. `chainValid` recomputes every content hash and chain hash from storage. 404 when the visit has no MSE in this organization. Scope `mse:read`.",
  request: { params: VisitIdParamSchema },
  responses: {
    200: {
      description: "The version history",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: HistoryResponseSchema } },
    },
    ...flatErrorResponses(400, 404),
  },
});

export function registerMseHistory(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { visitId } = c.req.valid("param");
    const { orgId } = caller(c);
    const record = await fullRecord(service.deps.db, orgId, visitId);
    if (!record || record.versions.length === 0) throw noRecord();
    const signaturesByVersion = new Map<number, string[]>();
    for (const s of record.signatures) {
      signaturesByVersion.set(s.version, [...(signaturesByVersion.get(s.version) ?? []), s.id]);
    }
    const latest = record.versions[record.versions.length - 1]?.version ?? 0;
    const response: HistoryResponse = {
      visitId,
      versions: [...record.versions].reverse().map((row) => {
        const signatureIds = signaturesByVersion.get(row.version);
        return {
          version: row.version,
          savedAt: row.savedAt.toISOString(),
          lines: (row.lines as Line[]).map((l) => l.line),
          superseded: row.version < latest,
          signed: signatureIds !== undefined,
          ...(signatureIds ? { signatureIds } : {}),
          operation: row.operation,
          ...(row.patchedDomains ? { patchedDomains: row.patchedDomains } : {}),
          clinicianId: row.clinicianId,
        };
      }),
      chainValid: record.chain.valid,
    };
    return c.json(response, 200);
  };
  service.openapi(route, handler, READ);
}
