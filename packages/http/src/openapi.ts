import { createRoute, z } from "@hono/zod-openapi";
import type { RoutePolicy } from "./auth.js";
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
  operationId: "getHealthz",
  path: "/healthz",
  tags: ["Operations"],
  summary: "Process is alive (no key needed)",
  responses: { 200: { description: "alive", content: { "application/json": { schema: HealthSchema } } } },
});

export const readyzRoute = createRoute({
  method: "get",
  operationId: "getReadyz",
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

/**
 * One security scheme per key kind (decision 129). All are `Authorization: Bearer <key>`; the
 * scheme an operation lists says which kind of key it accepts. `bearerAuth` stays for documents
 * and clients that named it before the per-kind schemes existed.
 */
export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: "http",
    scheme: "bearer",
    description:
      "Any API key as `Authorization: Bearer <key>`. Each operation's `security` names the key kinds it accepts (the schemes below); another kind is refused with 403 forbidden.",
  },
  secretTestKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "svc_sk_test_...",
    description:
      "A secret test key (`svc_sk_test_...`): server side only, sandbox data, never billed. The only kind the test helpers accept.",
  },
  secretLiveKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "svc_sk_live_...",
    description:
      "A secret live key (`svc_sk_live_...`): server side only. Needs a paid plan and approved production access, else 402 payment_required.",
  },
  publishableKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "svc_pk_...",
    description:
      "A publishable key (`svc_pk_...`): safe in a browser, accepted only by the operations that list it, and only from an allow-listed Origin.",
  },
  organizationKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "mse_live_...",
    description:
      "An organization key (`mse_live_...`) for the MSE Record API. The role named in an operation's requirement is the scope the key must carry (`mse:read`, `mse:write`, `mse:sign`); without it, 403 forbidden.",
  },
} as const;

/** The security requirement of a route policy: any one of the listed key kinds (null: public). */
export function securityFor(policy: RoutePolicy | null): Record<string, string[]>[] {
  if (policy === null) return [];
  const scopes = policy.scope ? [policy.scope] : [];
  return policy.keys.flatMap((kind): Record<string, string[]>[] => {
    if (kind === "secret") return [{ secretTestKey: [] }, { secretLiveKey: [] }];
    if (kind === "publishable") return [{ publishableKey: [] }];
    return [{ organizationKey: scopes }];
  });
}

/** Every tag an operation may carry, declared once with its description (the reference's sections). */
export const OPENAPI_TAGS = [
  { name: "Operations", description: "Liveness and readiness probes; no key needed." },
  { name: "Health", description: "Check a key and see the limits it runs under." },
  {
    name: "Analysis",
    description:
      "Deterministic, explainable analyses for clinician review (dmse, medication, biomarker, outcome, relapse). Nothing is stored.",
  },
  {
    name: "Agents",
    description:
      "Advisory agents that run the product's deterministic tools over submitted data, and the MCP endpoint that exposes those tools. Nothing is stored.",
  },
  { name: "Lab orders", description: "Order lab panels and follow each order through its lifecycle." },
  { name: "Wearables", description: "Connect a patient's wearable provider and read its daily metrics." },
  { name: "Events", description: "Signed events of your account, newest first, as a cursor list." },
  {
    name: "Webhook endpoints",
    description:
      "Where your account's events are posted, in the key's mode: add, list, update, rotate the signing secret, delete.",
  },
  {
    name: "Test helpers",
    description: "Sandbox only (secret test keys): move lab orders and wearable connections along.",
  },
  {
    name: "MSE Record",
    description:
      "Mental status exam records of an organization: write, patch, read, sign, history, audit and safety events (organization keys with a scope; flat error bodies).",
  },
] as const;
