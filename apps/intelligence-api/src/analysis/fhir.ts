import { z } from "@hono/zod-openapi";
import { type AnalysisAnswer, analysisBundle, FHIR_JSON_CONTENT_TYPE, prefersFhirJson } from "@svc/fhir";
import type { Context } from "hono";

/**
 * The FHIR R4 answer of the analysis endpoints (decisions 116-119): with `Accept` preferring
 * `application/fhir+json`, the same analysis as a `collection` Bundle (`@svc/fhir`); otherwise
 * the JSON answer, unchanged. Errors keep the JSON envelope for every caller.
 */
export const FhirBundleSchema = z
  .object({
    resourceType: z.literal("Bundle"),
    type: z.literal("collection"),
    identifier: z
      .object({ system: z.string(), value: z.string() })
      .optional()
      .openapi({ description: "The request's `sessionRef`, when sent." }),
    timestamp: z.string(),
    entry: z.array(
      z.object({
        fullUrl: z.string().openapi({ example: "urn:uuid:..." }),
        resource: z.object({ resourceType: z.string() }).loose(),
      }),
    ),
  })
  .loose()
  .openapi("FhirBundle", {
    description:
      "FHIR R4 Bundle of type collection: Observations, a RiskAssessment (relapse) or DetectedIssues (medication), the patient review's findings (DetectedIssues, and Observations for rules not evaluated) when patient facts were sent, a GuidanceResponse and a Provenance. See docs/fhir.md.",
  });

/** The OpenAPI content entry of a FHIR answer. */
export const fhirBundleContent = { "application/fhir+json": { schema: FhirBundleSchema } } as const;

/**
 * Whether this request is answered in FHIR (the Accept header's q-values decide). Every answer
 * of these routes varies with Accept, so caches keep the two apart.
 */
export function wantsFhir(c: Context): boolean {
  c.header("Vary", "Accept", { append: true });
  return prefersFhirJson(c.req.header("accept"));
}

/**
 * The patient review's findings the FHIR answer writes (decision 204): the answer's own
 * `patientFindings` when the pipeline set them, else those of the JSON answer's
 * `data.patientReview` (medication and biomarker), so the two answers agree.
 */
export function withReviewFindings(answer: AnalysisAnswer): AnalysisAnswer {
  if (answer.patientFindings !== undefined) return answer;
  const review = "patientReview" in answer.data ? answer.data.patientReview : undefined;
  return review === undefined ? answer : { ...answer, patientFindings: review.findings };
}

/** The 200 FHIR answer: the Bundle with the FHIR content type. */
export function fhirAnswer(c: Context, answer: AnalysisAnswer, publicBaseUrl: string): Response {
  return c.json(analysisBundle(withReviewFindings(answer), { publicBaseUrl }), 200, {
    "Content-Type": FHIR_JSON_CONTENT_TYPE,
  });
}
