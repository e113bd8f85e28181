import { createRoute, type RouteHandler, type z } from "@hono/zod-openapi";
import { type AppEnv, flatErrorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { validateSelection } from "@svc/mse-catalog";
import { invalidSelection } from "../errors.js";
import { VisitIdParamSchema } from "../schemas/common.js";
import { PatchRequestSchema, type PatchResponse, PatchResponseSchema } from "../schemas/record.js";
import { appendCallerVersion, TAG, WRITE } from "./common.js";

/** The body a client sends to PATCH /v1/mse/{visitId}. */
export type MsePatchRequest = z.input<typeof PatchRequestSchema>;
/** The 200 body of PATCH /v1/mse/{visitId}. */
export type MsePatchResponse = z.infer<typeof PatchResponseSchema>;

const route = createRoute({
  method: "patch",
  operationId: "patchMseRecord",
  path: "/v1/mse/{visitId}",
  tags: [TAG],
  summary: "Amend an MSE",
  description:
    "Amend an MSE (a new version with the supplied domains replaced). Supplied domains replace the stored ones whole; a domain set to null is removed; the rest is kept. The merged record is re-validated and its risk recomputed (a risk-bearing result writes a safety event). 404 when the visit has no MSE yet; 409 `conflict` when it is recorded for another patientId. Scope `mse:write`.",
  request: {
    params: VisitIdParamSchema,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: PatchRequestSchema,
          example: { patientId: "pat-1", selection: { insight: { values: ["good"] } } },
        },
      },
    },
  },
  responses: {
    200: jsonAnswer("The version written", PatchResponseSchema),
    ...flatErrorResponses(400, 404, 409, 422),
  },
});

export function registerMsePatch(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { visitId } = c.req.valid("param");
    const body = c.req.valid("json");
    const checked = validateSelection(body.selection, { partial: true });
    if (!checked.ok) throw invalidSelection(checked.errors);
    const { result, risk } = await appendCallerVersion(service.deps.db, c, visitId, body, {
      kind: "patch",
      patch: checked.selection,
    });
    const response: PatchResponse = {
      ok: true,
      version: result.version,
      patchedDomains: result.patchedDomains,
      risk,
    };
    return c.json(response, 200);
  };
  service.openapi(route, handler, WRITE);
}
