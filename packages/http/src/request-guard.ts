import type { AuthKeyRow } from "@svc/db";
import type { Context, MiddlewareHandler, Next } from "hono";
import type { AppDeps, AppEnv } from "./app.js";
import {
  type AuthContext,
  authenticateKey,
  authorize,
  bearerToken,
  type RoutePolicy,
  toAuthContext,
} from "./auth.js";
import { checkBodyHeaders, chunkedBodyLimit, DEFAULT_BODY_LIMIT } from "./body-checks.js";
import { ApiError } from "./errors.js";
import { type HygieneOptions, inputHygiene } from "./hygiene.js";
import { type LimitDecision, UNAUTHENTICATED_RATE } from "./rate-limit/index.js";
import { ANY_KEY_POLICY, type EndpointRegistry } from "./route-policy.js";

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/**
 * PostgreSQL `statement_timeout` of the service's connections: a little under the request's time
 * limit, so a statement cannot keep running (and then commit) long after the caller got its 503;
 * the cancelled statement answers 503 too (decision 111).
 */
export const STATEMENT_TIMEOUT_MS = DEFAULT_REQUEST_TIMEOUT_MS - 1_000;

function rateLimitHeaderValues(decision: LimitDecision): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(decision.resetAt),
  };
}

function rateLimitMessage(auth: AuthContext): string {
  if (auth.limit.kind === "daily") return "The sandbox daily quota is used up; it resets at 00:00 UTC.";
  return "Too many requests per second; retry after the number of seconds in Retry-After.";
}

/** The connection's peer address (behind a proxy, the proxy's); "unknown" off a Node server. */
function clientAddress(c: Context<AppEnv>): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? "unknown";
}

/** The same refusal with the rate-limit headers (and Retry-After for a 429) added. */
function withHeaders(error: ApiError, headers: Record<string, string>): ApiError {
  return new ApiError(error.code, error.message, {
    ...error.options,
    headers: { ...error.options.headers, ...headers },
  });
}

/** A refused key or missing header: counted per address, then 401 (or 429) with its headers. */
async function refuseUnauthenticated(c: Context<AppEnv>, deps: AppDeps, refusal: ApiError): Promise<never> {
  const decision = await deps.limiter.consume({
    kind: "bucket",
    subject: `unauthenticated:${clientAddress(c)}`,
    ...UNAUTHENTICATED_RATE,
  });
  const headers = rateLimitHeaderValues(decision);
  if (!decision.allowed)
    throw new ApiError(
      "rate_limited",
      "Too many requests without a valid API key from this address; retry after the number of seconds in Retry-After.",
      { headers: { "Retry-After": String(decision.retryAfter), ...headers } },
    );
  throw withHeaders(refusal, headers);
}

/**
 * Authentication, authorization and the rate limit of one request under a route's policy. Every
 * answer carries X-RateLimit-* (the contract): a request with a working key counts against the
 * key's own limit before the kind, origin, scope and plan checks, so their 403 or 402 carries the
 * key's values; a request without one carries the per-address values (decision 97).
 */
async function admitCaller(c: Context<AppEnv>, deps: AppDeps, policy: RoutePolicy): Promise<void> {
  let row: AuthKeyRow;
  try {
    row = await authenticateKey(deps.db, bearerToken(c.req.header("authorization")), deps.keyCache);
  } catch (error) {
    if (error instanceof ApiError) await refuseUnauthenticated(c, deps, error);
    throw error;
  }
  const auth = toAuthContext(row);
  c.set("auth", auth);
  const decision = await deps.limiter.consume(auth.limit);
  const headers = rateLimitHeaderValues(decision);
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  try {
    authorize(row, policy, c.req.header("origin"));
  } catch (error) {
    throw error instanceof ApiError ? withHeaders(error, headers) : error;
  }
  if (!decision.allowed) {
    throw new ApiError("rate_limited", rateLimitMessage(auth), {
      headers: { "Retry-After": String(decision.retryAfter), ...headers },
    });
  }
}

/**
 * What long work outside the database (a model call) stops on: the request's time limit, when the
 * caller has got its 503 (`signal`, decision 111), or the client going away (the request's own
 * signal). A context without the request guard has only the latter. Pass it to the work's fetch,
 * so its connection is closed rather than left to finish for nobody (decision 126).
 */
export function workSignal(c: Context<AppEnv>): AbortSignal {
  const limit = c.get("signal") as AbortSignal | undefined;
  return limit ? AbortSignal.any([limit, c.req.raw.signal]) : c.req.raw.signal;
}

/**
 * Runs `work` and fails with 503 service_unavailable once `timeoutMs` passes; at that moment
 * `abort` fires with the same error, so the request's signal (`c.get("signal")`) tells the
 * handler to stop, and `runIdempotent` rolls its transaction back instead of committing
 * (decision 111).
 */
async function withinTimeLimit(
  work: Promise<void>,
  timeoutMs: number,
  abort: AbortController,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ApiError(
        "service_unavailable",
        `The request did not finish within ${Math.round(timeoutMs / 1000)} s.`,
      );
      abort.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One middleware for the hard time limit, the body checks, authentication and input hygiene:
 * every extra middleware layer costs promise hops on every request. For /v1 paths, in order: the
 * body's declared type and size, the caller (unless the operation is public), then the hygiene
 * screen (decision 29) before any handler. The operation comes from the router's own match.
 */
export function requestGuard(
  deps: AppDeps,
  endpoints: EndpointRegistry,
  hygiene: HygieneOptions = {},
): MiddlewareHandler<AppEnv> {
  const timeoutMs = deps.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const limitBytes = deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
  const limitChunkedBody = chunkedBodyLimit(limitBytes);
  const screen = inputHygiene(hygiene);

  const guard = async (c: Context<AppEnv>, next: Next): Promise<void> => {
    const chunked = checkBodyHeaders(c, limitBytes);
    const endpoint = endpoints.endpointOf(c);
    if (endpoint) c.set("routePattern", endpoint.pattern);
    if (endpoint?.policy !== null) await admitCaller(c, deps, endpoint?.policy ?? ANY_KEY_POLICY);
    // The screen reads the body, so a chunked one is read inside the size check that counts it;
    // a request without a body costs no promise hop.
    if (chunked) {
      await limitChunkedBody(c, async () => {
        await screen(c, endpoint?.pattern);
        await next();
      });
      return;
    }
    const reading = screen(c, endpoint?.pattern);
    if (reading) await reading;
    await next();
  };

  return (c, next) => {
    const abort = new AbortController();
    c.set("signal", abort.signal);
    return withinTimeLimit(c.req.path.startsWith("/v1/") ? guard(c, next) : next(), timeoutMs, abort);
  };
}
