import { z } from "@hono/zod-openapi";
import { decimalInteger, errorResponses, rateLimitHeaders } from "@svc/http";

/** Shapes shared by the resource endpoints (lab orders, wearable connections, events). */

/**
 * `metadata` on lab orders and wearable connections: the caller's own flat key-value pairs,
 * echoed back. Bounds (Stripe-like): at most 50 keys, keys 1-40 characters, values strings up to
 * 500 characters, numbers, booleans or null, and at most 8 kB serialized. No nesting, so it stays
 * small and is never mistaken for clinical content.
 */
export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_KEY_LENGTH = 40;
export const METADATA_MAX_VALUE_LENGTH = 500;
export const METADATA_MAX_BYTES = 8 * 1024;

export const MetadataSchema = z
  .record(
    z.string().min(1).max(METADATA_MAX_KEY_LENGTH),
    z.union([z.string().max(METADATA_MAX_VALUE_LENGTH), z.number(), z.boolean(), z.null()]),
  )
  .refine((value) => Object.keys(value).length <= METADATA_MAX_KEYS, {
    message: `metadata can have at most ${METADATA_MAX_KEYS} keys`,
  })
  .refine((value) => Buffer.byteLength(JSON.stringify(value), "utf8") <= METADATA_MAX_BYTES, {
    message: `metadata can be at most ${METADATA_MAX_BYTES} bytes as JSON`,
  })
  .openapi("ResourceMetadata", {
    maxProperties: METADATA_MAX_KEYS,
    description:
      "Your own flat key-value pairs, echoed back: at most 50 keys (1-40 chars), values string (up to 500 chars), number, boolean or null, 8 kB in all. Never put patient health information here.",
  });
export type Metadata = z.infer<typeof MetadataSchema>;

/** A caller's reference for the patient (never logged). */
export const PatientRefSchema = z
  .string()
  .min(1)
  .max(128)
  .openapi({ description: "Your own reference for the patient, 1-128 characters.", example: "pt_4821" });

export const LIST_LIMIT_MAX = 200;
export const LIST_LIMIT_DEFAULT = 50;

/** `limit` of every resource list. */
export const LimitQuery = decimalInteger({
  min: 1,
  max: LIST_LIMIT_MAX,
  fallback: LIST_LIMIT_DEFAULT,
}).openapi({
  param: { name: "limit", in: "query" },
  description: "1-200, default 50.",
});

/** The `Idempotency-Key` request header of the create endpoints. */
export const IdempotencyHeaderSchema = z.object({
  "idempotency-key": z
    .string()
    .optional()
    .openapi({
      param: { name: "idempotency-key", in: "header" },
      description:
        "1-255 printable characters; the first response is replayed for 24 h (`Idempotent-Replayed: true`).",
    }),
});

/** Response headers of the create endpoints: the rate limit and `Idempotent-Replayed`. */
export const idempotentResponseHeaders = {
  ...rateLimitHeaders,
  "Idempotent-Replayed": {
    schema: { type: "string" as const },
    description: "`true` when this is the stored response of an earlier request with the same key.",
  },
};

/** A route's required JSON body, with the example the document shows. */
export function jsonBody<S extends z.ZodType>(schema: S, example: z.input<S>) {
  return { required: true as const, content: { "application/json": { schema, example } } };
}

/**
 * The request and answers of an idempotent create (lab orders, wearable connections, webhook
 * endpoints): the `Idempotency-Key` header, the JSON body, a 201 carrying the replay header, and
 * the errors a keyed create can answer (409 in flight, 422 key reused with another body).
 */
export function idempotentCreate<Req extends z.ZodType, Res>(
  body: { schema: Req; example: z.input<Req> },
  created: { description: string; schema: Res },
) {
  return {
    request: { headers: IdempotencyHeaderSchema, body: jsonBody(body.schema, body.example) },
    responses: {
      201: {
        description: created.description,
        headers: idempotentResponseHeaders,
        content: { "application/json": { schema: created.schema } },
      },
      ...errorResponses(400, 402, 409, 413, 422),
    },
  };
}
