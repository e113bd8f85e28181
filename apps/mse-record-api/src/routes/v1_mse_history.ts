import { createRoute, type RouteHandler, type z } from "@hono/zod-openapi";
import { type AppEnv, flatErrorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import type { Line } from "@svc/mse-catalog";
import { versionPage } from "../data/records.js";
import { noRecord } from "../errors.js";
import { VisitIdParamSchema } from "../schemas/common.js";
import { HistoryQuerySchema, type HistoryResponse, HistoryResponseSchema } from "../schemas/history.js";
import { cursorVersion, entriesWithin, jsonBytes, PAGE_BYTES, versionCursor } from "../version-pages.js";
import { caller, READ, TAG } from "./common.js";

/** The 200 body of GET /v1/mse/{visitId}/history. */
export type MseHistoryResponse = z.infer<typeof HistoryResponseSchema>;

type HistoryEntry = HistoryResponse["versions"][number];

const route = createRoute({
  method: "get",
  operationId: "getMseHistory",
  path: "/v1/mse/{visitId}/history",
  tags: [TAG],
  summary: "List versions",
  description:
    "The versions of a visit's MSE, newest first (paged). Each version with its narrative lines, whether a later version superseded it, its signatures, the operation that wrote it and who recorded it. Paged (additive): `limit` 1-100 (default 50, which keeps a usual visit whole) and `cursor` (the previous page's `nextCursor`); `hasMore` says older versions follow. A page also stops before its entries pass 1 MB of JSON, so it may hold fewer than `limit` versions. `chainValid` recomputes every link of the whole chain and the content hash of every version on the page. 404 when the visit has no MSE in this organization; 400 for a bad `limit` or `cursor`. Scope `mse:read`.",
  request: { params: VisitIdParamSchema, query: HistoryQuerySchema },
  responses: {
    200: jsonAnswer("A page of the version history", HistoryResponseSchema),
    ...flatErrorResponses(400, 404),
  },
});

export function registerMseHistory(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { visitId } = c.req.valid("param");
    const query = c.req.valid("query");
    const after = query.cursor === undefined ? undefined : cursorVersion("history", query.cursor);
    const { orgId } = caller(c);
    const page = await versionPage(service.deps.db, orgId, visitId, {
      order: "newest",
      limit: query.limit,
      after,
    });
    if (!page) throw noRecord();
    const signatureIds = new Map<number, string[]>();
    for (const s of page.signatures) {
      signatureIds.set(s.version, [...(signatureIds.get(s.version) ?? []), s.id]);
    }
    const entries: HistoryEntry[] = page.rows.map((row) => {
      const ids = signatureIds.get(row.version);
      return {
        version: row.version,
        savedAt: row.savedAt.toISOString(),
        lines: (row.lines as Line[]).map((l) => l.line),
        superseded: row.version < page.latestStored,
        signed: ids !== undefined,
        ...(ids ? { signatureIds: ids } : {}),
        operation: row.operation,
        ...(row.patchedDomains ? { patchedDomains: row.patchedDomains } : {}),
        clinicianId: row.clinicianId,
      };
    });
    const kept = entries.slice(0, entriesWithin(entries, PAGE_BYTES, jsonBytes));
    const hasMore = page.hasMore || kept.length < entries.length;
    const last = kept[kept.length - 1];
    const response: HistoryResponse = {
      visitId,
      versions: kept,
      chainValid: page.chainValid(kept.map((e) => e.version)),
      hasMore,
      nextCursor: hasMore && last ? versionCursor("history", last.version) : null,
    };
    return c.json(response, 200);
  };
  service.openapi(route, handler, READ);
}
