import { Refusal } from "@svc/refusal";
import type { Context, MiddlewareHandler, Next } from "hono";
import type { AppDeps, AppEnv } from "./app.js";
import { checkBodyHeaders, chunkedBodyLimit, DEFAULT_BODY_LIMIT } from "./body-checks.js";
import { apiKeyDoor, type Caller, type Door } from "./doors.js";
import { ApiError } from "./errors.js";
import { type HygieneOptions, inputHygiene } from "./hygiene.js";
import { type LimitDecision, UNAUTHENTICATED_RATE } from "./rate-limit/index.js";
import type { EndpointRegistry } from "./route-policy.js";

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

/** The connection's peer address (behind a proxy, the proxy's); "unknown" off a Node server. */
function clientAddress(c: Context<AppEnv>): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? "unknown";
}

/** The same refusal (its code, message and issues) with the rate-limit headers (and Retry-After for a 429) added. */
function withHeaders(error: Refusal, headers: Record<string, string>): ApiError {
  const own = error instanceof ApiError ? error.options.headers : undefined;
  return new ApiError(error.code, error.message, {
    ...error.options,
    headers: { ...own, ...headers },
  });
}

/** A refused or missing credential: counted per address, then 401 (or 429) with its headers. */
async function refuseUnauthenticated(
  c: Context<AppEnv>,
  deps: AppDeps,
  door: Door,
  refusal: Refusal,
): Promise<never> {
  const decision = await deps.limiter.consume({
    kind: "bucket",
    subject: `unauthenticated:${clientAddress(c)}`,
    ...UNAUTHENTICATED_RATE,
  });
  const headers = rateLimitHeaderValues(decision);
  if (!decision.allowed)
    throw new ApiError("rate_limited", door.tooManyRefusedMessage, {
      headers: { "Retry-After": String(decision.retryAfter), ...headers },
    });
  throw withHeaders(refusal, headers);
}

/**
 * The rate limit and the checks after it of the caller a door recognised. Every answer carries
 * X-RateLimit-* (the contract): a recognised caller counts against its own limit before the
 * kind, origin, scope and plan checks, so their 403 or 402 carries its values; a request without
 * a working credential carries the per-address values (decision 97).
 */
async function admitCaller(
  c: Context<AppEnv>,
  deps: AppDeps,
  door: Door,
  identifying: Promise<Caller>,
): Promise<void> {
  let caller: Caller;
  try {
    caller = await identifying;
  } catch (error) {
    if (error instanceof Refusal) await refuseUnauthenticated(c, deps, door, error);
    throw error;
  }
  const decision = await deps.limiter.consume(caller.limit);
  const headers = rateLimitHeaderValues(decision);
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  try {
    caller.authorize();
  } catch (error) {
    throw error instanceof ApiError ? withHeaders(error, headers) : error;
  }
  if (!decision.allowed) {
    throw new ApiError("rate_limited", caller.rateLimitedMessage, {
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
 * every extra middleware layer costs promise hops on every request. For a path behind a door
 * (`/v1` with API keys, and the app's own `doors`), in order: the body's declared type and size,
 * the caller under the route's policy, then the hygiene screen (decision 29) before any handler.
 * The operation comes from the router's own match.
 */
export function requestGuard(
  deps: AppDeps,
  endpoints: EndpointRegistry,
  hygiene: HygieneOptions = {},
  doors: readonly Door[] = [],
): MiddlewareHandler<AppEnv> {
  const timeoutMs = deps.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const limitBytes = deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
  const limitChunkedBody = chunkedBodyLimit(limitBytes);
  const screen = inputHygiene(hygiene);
  const allDoors = [apiKeyDoor(deps), ...doors];

  const guard = async (c: Context<AppEnv>, next: Next, door: Door): Promise<void> => {
    const chunked = checkBodyHeaders(c, limitBytes);
    const endpoint = endpoints.endpointOf(c);
    if (endpoint) c.set("routePattern", endpoint.pattern);
    const identifying = door.identify(c, endpoint?.policy);
    if (identifying) await admitCaller(c, deps, door, identifying);
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
    const door = allDoors.find((d) => d.guards(c.req.path));
    return withinTimeLimit(door ? guard(c, next, door) : next(), timeoutMs, abort);
  };
}
