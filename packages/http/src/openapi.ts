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

/**
 * The probes' one refusal: a method other than GET or HEAD (outside /v1 no key is asked first,
 * decision 1), in the API's error envelope with Allow.
 */
const probeMethodNotAllowed = {
  description: "method_not_allowed: the probes answer GET and HEAD only; the Allow header lists them",
  headers: { Allow: { schema: { type: "string" as const }, description: "The methods this path serves." } },
  content: { "application/json": { schema: ErrorEnvelopeSchema } },
};

export const healthzRoute = createRoute({
  method: "get",
  operationId: "getHealthz",
  path: "/healthz",
  tags: ["Health"],
  summary: "Liveness probe",
  description: "The process is alive. No key needed.",
  responses: {
    200: { description: "alive", content: { "application/json": { schema: HealthSchema } } },
    405: probeMethodNotAllowed,
  },
});

export const readyzRoute = createRoute({
  method: "get",
  operationId: "getReadyz",
  path: "/readyz",
  tags: ["Health"],
  summary: "Readiness probe",
  description: "The database is reachable; the state of Redis is reported. No key needed.",
  responses: {
    200: { description: "ready", content: { "application/json": { schema: HealthSchema } } },
    405: probeMethodNotAllowed,
    503: { description: "database unreachable", content: { "application/json": { schema: HealthSchema } } },
  },
});

/** How a newcomer gets a key, at the top of the reference (info.description). */
const GETTING_A_KEY = [
  "Deterministic, explainable decision support for clinician review, the MSE Record API, lab orders, wearable connections and signed events.",
  "",
  "## Getting a key",
  "",
  "Every call but the probes and these documents takes a key as `Authorization: Bearer <key>`.",
  "",
  "- **Running the service yourself:** the first `pnpm start` on an empty database creates a sandbox account and prints its secret test key (`svc_sk_test_...`) and a publishable key (`svc_pk_...`) once. Keys are stored only as hashes and never shown again: for a new one, sign in to the dashboard (`/dashboard`, Keys) or ask the operator, who runs `pnpm svc keys create --account acct_... --kind secret_test`.",
  "- **A hosted service:** your operator creates your account and gives you access to the dashboard, where you create and roll your keys.",
  "- **Kinds:** secret test keys (`svc_sk_test_...`, sandbox data) and secret live keys (`svc_sk_live_...`, a paid plan and approved production access) stay on your server; publishable keys (`svc_pk_...`) call only `POST /v1/dmse/analyze` from an allow-listed browser origin; organization keys (`mse_live_...`, with scopes) call the MSE Record API.",
  "",
  "`GET /v1/ping` tells which account, mode and plan a key belongs to. Every error body links to its explanation on `/docs/errors`; `@svc/sdk` is the typed client (each operation shows its call beside curl).",
].join("\n");

export const OPENAPI_INFO = {
  openapi: "3.1.0",
  info: {
    title: "Clinical Intelligence Service",
    version: "1",
    description: GETTING_A_KEY,
    // Not open source (the published packages say `UNLICENSED`); SPDX has no identifier for
    // "all rights reserved", so the document names its own `LicenseRef-` (SPDX's form for that).
    license: { name: "Proprietary: all rights reserved", identifier: "LicenseRef-Proprietary" },
  },
} as const;

/**
 * One security scheme per key kind (decision 129). All are `Authorization: Bearer <key>`; the
 * scheme an operation lists says which kind of key it accepts. There is no catch-all scheme and no
 * document-wide `security`: every operation names its own (decision 160).
 */
export const SECURITY_SCHEMES = {
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
  { name: "Health", description: "Liveness and readiness probes; no key needed." },
  { name: "Keys", description: "Check a key: its account, mode and plan." },
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
  { name: "Events", description: "Signed events of your account, oldest first, as a cursor list." },
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
