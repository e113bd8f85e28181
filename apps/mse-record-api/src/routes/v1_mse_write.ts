import { createRoute, type RouteHandler, type z } from "@hono/zod-openapi";
import { type AppEnv, flatErrorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { validateSelection } from "@svc/mse-catalog";
import { invalidSelection } from "../errors.js";
import { VisitIdParamSchema } from "../schemas/common.js";
import { WriteRequestSchema, type WriteResponse, WriteResponseSchema } from "../schemas/record.js";
import { appendCallerVersion, TAG, WRITE } from "./common.js";

/** The body a client sends to POST /v1/mse/{visitId}. */
export type MseWriteRequest = z.input<typeof WriteRequestSchema>;
/** The 200 body of POST /v1/mse/{visitId}. */
export type MseWriteResponse = z.infer<typeof WriteResponseSchema>;

const route = createRoute({
  method: "post",
  operationId: "writeMseRecord",
  path: "/v1/mse/{visitId}",
  tags: [TAG],
  summary: "Write an MSE",
  description:
    "Write an MSE (a new version). Stores the whole selection as the visit's next immutable version (version 1 on the first write). The selection is validated against the catalog (422 `invalid_selection` with one entry per problem). Risk is computed; a risk-bearing version writes a durable safety event (`risk.safetyEventId`) delivered to the organization's webhooks. A visit already recorded for another patientId is 409 `conflict`. Scope `mse:write`.",
  request: {
    params: VisitIdParamSchema,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: WriteRequestSchema,
          example: {
            patientId: "pat-1",
            clinicianId: "dr-a",
            selection: {
              mood: { values: ["depressed", "anxious"], text: "Worse in the mornings" },
              affect: { values: ["restricted"] },
              speech: { values: ["normal"] },
              risk: { values: ["denies_si_hi"] },
              insight: { values: ["partial"] },
            },
          },
        },
      },
    },
  },
  responses: {
    200: jsonAnswer("The version written", WriteResponseSchema),
    ...flatErrorResponses(400, 409, 422),
  },
});

export function registerMseWrite(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { visitId } = c.req.valid("param");
    const body = c.req.valid("json");
    const checked = validateSelection(body.selection);
    if (!checked.ok) throw invalidSelection(checked.errors);
    const { result, risk } = await appendCallerVersion(service.deps.db, c, visitId, body, {
      kind: "write",
      selection: checked.selection,
    });
    const response: WriteResponse = { ok: true, version: result.version, risk };
    return c.json(response, 200);
  };
  service.openapi(route, handler, WRITE);
}
