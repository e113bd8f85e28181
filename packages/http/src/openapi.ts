import { createRoute, z } from "@hono/zod-openapi";
import { ErrorEnvelopeSchema, FlatErrorSchema } from "./errors.js";

/** Error responses every authenticated Intelligence API route can give, spread into `responses`. */
export function errorResponses(...extra: (400 | 402 | 404 | 409 | 413 | 422 | 503)[]) {
  const json = { "application/json": { schema: ErrorEnvelopeSchema } };
  const base: Record<string, ErrorResponse<typeof json>> = {
    401: { description: "unauthorized or invalid_token", content: json, headers: refusalHeaders },
    403: { description: "forbidden", content: json, headers: refusalHeaders },
    429: { description: "rate_limited (Retry-After sent)", content: json, headers: rateLimitedHeaders },
    500: { description: "server_error", content: json },
  };
  const names: Record<number, string> = {
    400: "invalid_request",
    402: "payment_required",
    404: "not_found",
    409: "conflict",
    413: "invalid_request (body over 1 MB)",
    422: "idempotency_key_reused",
    503: "service_unavailable",
  };
  for (const status of extra)
    base[status] = {
      description: names[status] ?? "error",
      content: json,
      ...(status === 402 ? { headers: refusalHeaders } : {}),
    };
  return base;
}

/** Flat error responses of the MSE Record API. */
export function flatErrorResponses(...extra: (400 | 402 | 404 | 409 | 422 | 503)[]) {
  const json = { "application/json": { schema: FlatErrorSchema } };
  const out: Record<string, ErrorResponse<typeof json>> = {
    401: { description: "unauthorized or invalid_token", content: json, headers: refusalHeaders },
    403: { description: "forbidden", content: json, headers: refusalHeaders },
    429: { description: "rate_limited (Retry-After sent)", content: json, headers: rateLimitedHeaders },
    500: { description: "server_error", content: json },
  };
  for (const status of extra)
    out[status] =
      status === 402
        ? {
            description: "payment_required: a live key without a paid plan and approved production access",
            content: json,
            headers: refusalHeaders,
          }
        : { description: "error", content: json };
  return out;
}

export const rateLimitHeaders = {
  "X-Request-Id": { schema: { type: "string" as const }, description: "Our request id (`req_...`)." },
  "X-RateLimit-Limit": { schema: { type: "integer" as const } },
  "X-RateLimit-Remaining": { schema: { type: "integer" as const } },
  "X-RateLimit-Reset": { schema: { type: "integer" as const }, description: "Unix seconds." },
};

/**
 * A keyed operation's JSON answer: its description and body schema, with the rate-limit headers
 * every keyed answer carries (one shape for every route's success response).
 */
export function jsonAnswer<S>(description: string, schema: S) {
  return { description, headers: rateLimitHeaders, content: { "application/json": { schema } } };
}

/**
 * A refusal's headers (401, 402, 403): the rate limit it was counted against, decision 97 (the
 * key's own limit once the key is known; before that, the caller's address's bucket).
 */
const refusalHeaders = rateLimitHeaders;

/** A 429's headers: the limit it hit and when to retry. */
const rateLimitedHeaders = {
  ...rateLimitHeaders,
  "Retry-After": { schema: { type: "integer" as const }, description: "Seconds until a retry may pass." },
};

type ErrorResponse<Content> = {
  description: string;
  content: Content;
  headers?: typeof rateLimitedHeaders | typeof rateLimitHeaders;
};

export const HealthSchema = z
  .object({
    ok: z.boolean(),
    status: z.enum(["alive", "ready", "not_ready"]),
    database: z.enum(["ready", "down"]).optional(),
    redis: z.enum(["ready", "down", "disabled"]).optional(),
  })
  .openapi("Health");

export const healthzRoute = createRoute({
  method: "get",
  path: "/healthz",
  tags: ["Operations"],
  summary: "Process is alive (no key needed)",
  responses: { 200: { description: "alive", content: { "application/json": { schema: HealthSchema } } } },
});

export const readyzRoute = createRoute({
  method: "get",
  path: "/readyz",
  tags: ["Operations"],
  summary: "Database reachable; Redis state reported (no key needed)",
  responses: {
    200: { description: "ready", content: { "application/json": { schema: HealthSchema } } },
    503: { description: "database unreachable", content: { "application/json": { schema: HealthSchema } } },
  },
});

export const OPENAPI_INFO = {
  openapi: "3.1.0",
  info: {
    title: "Clinical Intelligence Service",
    version: "1",
    description:
      "Deterministic, explainable decision support for clinician review, the MSE Record API, lab orders, wearable connections and signed events. Authenticate with `Authorization: Bearer <key>`.",
  },
} as const;
