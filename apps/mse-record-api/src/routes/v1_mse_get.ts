import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { FHIR_JSON_CONTENT_TYPE, mseRecordBundle, prefersFhirJson } from "@svc/fhir";
import { type AppEnv, flatErrorResponses, rateLimitHeaders, type ServiceApp } from "@svc/http";
import { assessRisk, type Line, type RiskLevel } from "@svc/mse-catalog";
import { latestVersion } from "../data/records.js";
import { signaturesOfVersion } from "../data/signatures.js";
import { noRecord } from "../errors.js";
import { VisitIdParamSchema } from "../schemas/common.js";
import { GetQuerySchema, type GetResponse, GetResponseSchema } from "../schemas/record.js";
import { signatureView } from "../signature-view.js";
import { storedSelection } from "../stored-selection.js";
import { caller, READ, TAG } from "./common.js";

/**
 * The FHIR R4 answer (decisions 116-119): a `collection` Bundle of the QuestionnaireResponse
 * against our MSE Questionnaire, an Observation per coded finding, the risk Observation and the
 * signature as a Provenance (docs/fhir.md).
 */
const MseFhirBundleSchema = z
  .object({
    resourceType: z.literal("Bundle"),
    type: z.literal("collection"),
    timestamp: z.string(),
    entry: z.array(
      z.object({ fullUrl: z.string(), resource: z.object({ resourceType: z.string() }).loose() }),
    ),
  })
  .loose()
  .openapi("MseFhirBundle");

/** The 200 body of GET /v1/mse/{visitId}. */
export type MseRecordResponse = z.infer<typeof GetResponseSchema>;

const route = createRoute({
  method: "get",
  operationId: "getMseRecord",
  path: "/v1/mse/{visitId}",
  tags: [TAG],
  summary: "Retrieve an MSE",
  description:
    "Read the current MSE of a visit. The latest version with its narrative lines, risk and signature state. 404 when the visit has no MSE in this organization, or when `patientId` is given and is not the visit's patient. Scope `mse:read`. With `Accept: application/fhir+json` (preferred by q-value over application/json), the record as a FHIR R4 Bundle (docs/fhir.md); errors stay JSON.",
  request: { params: VisitIdParamSchema, query: GetQuerySchema },
  responses: {
    200: {
      description: "The current MSE",
      headers: rateLimitHeaders,
      content: {
        "application/json": { schema: GetResponseSchema },
        "application/fhir+json": { schema: MseFhirBundleSchema },
      },
    },
    ...flatErrorResponses(400, 404),
  },
});

export function registerMseGet(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { visitId } = c.req.valid("param");
    const { patientId } = c.req.valid("query");
    const { orgId } = caller(c);
    const latest = await latestVersion(service.deps.db, orgId, visitId);
    if (!latest || (patientId !== undefined && latest.row.patientId !== patientId)) throw noRecord();
    const { row } = latest;
    const { signature } = latest;
    const selection = storedSelection(row.selection);
    // Derived from the stored selection (the level itself was fixed and hashed at write time).
    const cssrs = assessRisk(selection).cssrs ?? null;
    const response: GetResponse = {
      mse: {
        visitId: row.visitId,
        patientId: row.patientId,
        selection,
        lines: row.lines as Line[],
        objectiveBlock: row.objectiveBlock,
        riskFlag: row.riskFlag,
        riskLevel: row.riskLevel as RiskLevel,
        riskLabels: row.riskLabels,
        version: row.version,
        savedAt: row.savedAt.toISOString(),
        signed: signature !== undefined,
        signedAt: signature ? signature.signedAt.toISOString() : null,
        signedByName: signature?.signedByName ?? null,
        signedByCredential: signature?.credential ?? null,
        signedByLicense: signature?.license ?? null,
        signedByOrganization: signature?.organization ?? null,
        signature: signature ? signatureView(signature) : null,
        clinicianId: row.clinicianId,
        contentHash: row.contentHash,
        safetyEventId: row.safetyEventId,
        cssrs,
      },
    };
    c.header("Vary", "Accept", { append: true });
    if (prefersFhirJson(c.req.header("accept"))) {
      // Every signature of the version (co-signatures too), each a Provenance.
      const signatures = signature
        ? (await signaturesOfVersion(service.deps.db, orgId, visitId, row.version)).map(signatureView)
        : [];
      const bundle = mseRecordBundle(
        { ...response.mse, savedAt: row.savedAt.toISOString(), signatures },
        { publicBaseUrl: service.deps.publicBaseUrl },
      );
      // The Bundle is the schema's shape; the route's typed response wants the schema's type.
      return c.json(bundle as unknown as z.infer<typeof MseFhirBundleSchema>, 200, {
        "Content-Type": FHIR_JSON_CONTENT_TYPE,
      });
    }
    return c.json(response, 200);
  };
  service.openapi(route, handler, READ);
}
