import { createRoute, type RouteHandler, type z } from "@hono/zod-openapi";
import { type AppEnv, flatErrorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { signLatest } from "../data/signatures.js";
import { VisitIdParamSchema } from "../schemas/common.js";
import { SignRequestSchema, type SignResponse, SignResponseSchema } from "../schemas/signature.js";
import { caller, SIGN, TAG } from "./common.js";

/** The body a client sends to POST /v1/mse/{visitId}/sign. */
export type MseSignRequest = z.input<typeof SignRequestSchema>;
/** The 200 body of POST /v1/mse/{visitId}/sign. */
export type MseSignResponse = z.infer<typeof SignResponseSchema>;

const route = createRoute({
  method: "post",
  operationId: "signMseRecord",
  path: "/v1/mse/{visitId}/sign",
  tags: [TAG],
  summary: "Sign an MSE",
  description:
    "Sign the current version of a visit's MSE. Records a signature bound to the latest version and its content hash: the signer's name (required), credential, license, organization, the UTC time, the local time in `timezone` (an IANA name), the attestation and the key used. Signing again adds a co-signature; a later write creates a new, unsigned version. 409 `conflict` when the visit has no MSE in this organization or is recorded for another patientId. Scope `mse:sign`.",
  request: {
    params: VisitIdParamSchema,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: SignRequestSchema,
          example: { patientId: "pat-1", signedByName: "Dr. Rivera", credential: "MD" },
        },
      },
    },
  },
  responses: {
    200: jsonAnswer("The signature", SignResponseSchema),
    ...flatErrorResponses(400, 409),
  },
});

export function registerMseSign(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { visitId } = c.req.valid("param");
    const body = c.req.valid("json");
    const { orgId, keyId } = caller(c);
    const signature = await signLatest(service.deps.db, { orgId, keyId, visitId, ...body });
    const response: SignResponse = {
      ok: true,
      signatureId: signature.id,
      version: signature.version,
      contentHash: signature.contentHash,
      signedAt: signature.signedAt.toISOString(),
    };
    return c.json(response, 200);
  };
  service.openapi(route, handler, SIGN);
}
