import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, rateLimitHeaders } from "@svc/http";
import { IntelligenceSchema, ModelSchema } from "../schemas/intelligence.js";
import { fhirBundleContent } from "./fhir.js";

/**
 * The OpenAPI route of one analysis endpoint: its request body schema and the enveloped
 * `{ ok, [requestId], data }` response whose `data` adds `object`, `sessionRef`, `model` and
 * `intelligence` to the engine's own fields.
 */
export function analysisRoute<
  TRequest extends z.ZodType,
  TShape extends z.ZodRawShape,
  TObject extends string,
>(options: {
  path: string;
  /** Stable camelCase id of the operation (SDKs name their methods after it). */
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  name: string;
  object: TObject;
  request: TRequest;
  data: z.ZodObject<TShape>;
  bodyRequestId?: boolean;
  /** A whole request body the server accepts (the reference's "Test Request" starts from it). */
  example: unknown;
}) {
  const data = options.data
    .extend({
      object: z.literal(options.object),
      sessionRef: z.string().optional().openapi({ description: "Echo of the request value." }),
      model: ModelSchema,
      intelligence: IntelligenceSchema,
    })
    .openapi(`${options.name}Data`);
  const envelope = z
    .object({
      ok: z.literal(true),
      ...(options.bodyRequestId ? { requestId: z.string().openapi({ example: "req_..." }) } : {}),
      data,
    })
    .openapi(`${options.name}Response`);
  return createRoute({
    method: "post",
    path: options.path,
    operationId: options.operationId,
    tags: [options.tag],
    summary: options.summary,
    description: options.description,
    request: {
      body: {
        required: true,
        content: { "application/json": { schema: options.request, example: options.example } },
      },
    },
    responses: {
      200: {
        description:
          "The analysis (nothing is stored). With `Accept: application/fhir+json` (preferred by q-value over application/json), the same analysis as a FHIR R4 Bundle (docs/fhir.md).",
        headers: rateLimitHeaders,
        content: { "application/json": { schema: envelope }, ...fhirBundleContent },
      },
      ...errorResponses(400, 402, 413),
    },
  });
}

/** The 200 body an analysis route declares (each route exports it under its own name). */
export type AnalysisResponseOf<
  R extends { responses: { 200: { content: { "application/json": { schema: z.ZodType } } } } },
> = z.infer<R["responses"][200]["content"]["application/json"]["schema"]>;

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const FIRST_EXAMPLE_WEEK = Date.UTC(2026, 5, 1, 9);

/** An example's weekly PHQ-9 scores, the first on 2026-06-01 at 09:00 UTC, one a week after. */
export function weeklyPhq9Example(scores: readonly number[]) {
  return scores.map((score, week) => ({
    instrumentId: "phq9",
    instrumentName: "PHQ-9",
    score,
    maxScore: 27,
    createdAt: new Date(FIRST_EXAMPLE_WEEK + week * WEEK_MS).toISOString(),
  }));
}
