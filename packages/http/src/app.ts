import { OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { Db } from "@svc/db";
import { newId } from "@svc/ids";
import type { Narrator } from "@svc/intelligence";
import type { Context, MiddlewareHandler, Next } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { Logger } from "pino";
import {
  type AuthContext,
  authenticateKey,
  authorize,
  bearerToken,
  type RoutePolicy,
  toAuthContext,
} from "./auth.js";
import { ApiError, type ErrorCode, type Issue, zodIssues } from "./errors.js";
import { type HygieneOptions, inputHygiene } from "./hygiene.js";
import type { KeyCache } from "./key-cache.js";
import type { LimitDecision, RateLimiter } from "./rate-limit.js";

export type ApiFlavor = "intelligence" | "mse";

export interface AppDeps {
  db: Db;
  limiter: RateLimiter;
  logger: Logger;
  /** Base of links in error bodies and hosted pages, e.g. https://api.example.com. */
  publicBaseUrl: string;
  /** Hard limit per request (contract: 30 s). */
  requestTimeoutMs?: number;
  /** Body limit in bytes (ruling 12: 1 MB). */
  bodyLimitBytes?: number;
  /**
   * Hands committed webhook deliveries to the delivery queue right away (best effort: the outbox
   * sweeper enqueues whatever this misses, e.g. while Redis is down).
   */
  deliveries?: { enqueue(deliveryIds: string[]): Promise<void> };
  /** Writes `intelligence.reasoning` for `explain: true`; the template narrator when absent. */
  narrator?: Narrator;
  /** Upper bound on narration; past it `reasoning` is null (default 3 s). */
  reasoningTimeoutMs?: number;
  /** Key lookups cached while this process hears revocations (see KeyCache). */
  keyCache?: KeyCache;
  /** Listen on a Redis pub/sub channel (cache invalidation across replicas); absent when embedded. */
  subscribe?: (channel: string, onMessage: (message: string) => void) => void;
  /** Reports Redis state for /readyz. */
  redisState?: () => "ready" | "down" | "disabled";
}

export interface AppEnv {
  Variables: {
    requestId: string;
    auth: AuthContext;
    routePattern: string;
  };
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

interface RegisteredRoute {
  method: string;
  pattern: string;
  regex: RegExp;
  policy: RoutePolicy | null;
}

/**
 * `/v1/mse/{visitId}` -> regex matching one path segment per parameter, exactly as the router
 * matches: no trailing slash (one rule: `/v1/labs/orders/` is 404, never a 405 naming the
 * methods of another route).
 */
function patternToRegex(pattern: string): RegExp {
  const escaped = pattern
    .split(/(\{[^}]+\}|:[A-Za-z0-9_]+)/)
    .map((part) =>
      part.startsWith("{") || part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`^${escaped}$`);
}

export interface ServiceApp {
  app: OpenAPIHono<AppEnv>;
  flavor: ApiFlavor;
  deps: AppDeps;
  /**
   * Register an operation: its route (zod request/response schemas, so it is in the OpenAPI
   * document) and who may call it. `policy: null` makes the route public (no key).
   */
  // biome-ignore lint/suspicious/noExplicitAny: handler types come from the route definition.
  openapi<R extends RouteConfig>(route: R, handler: any, policy?: RoutePolicy | null): void;
  /** A plain (non-OpenAPI) route such as a hosted HTML page. */
  plain(
    method: "GET" | "POST" | "OPTIONS",
    path: string,
    handler: (c: Context<AppEnv>) => Response | Promise<Response>,
    policy?: RoutePolicy | null,
  ): void;
}

const DEFAULT_POLICY: RoutePolicy = { keys: ["secret"] };

export function createServiceApp(flavor: ApiFlavor, deps: AppDeps, hygiene: HygieneOptions = {}): ServiceApp {
  const routes: RegisteredRoute[] = [];
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        throw new ApiError("invalid_request", "The request failed validation; see issues.", {
          issues: zodIssues(result.error),
        });
      }
    },
  });

  const docsBase = `${deps.publicBaseUrl.replace(/\/$/, "")}/docs`;
  const renderError = (
    c: Context<AppEnv>,
    code: ErrorCode,
    status: number,
    message: string,
    extra: { issues?: Issue[]; headers?: Record<string, string>; body?: Record<string, unknown> } = {},
  ) => {
    const requestId = c.get("requestId") ?? newId("req");
    for (const [name, value] of Object.entries(extra.headers ?? {})) c.header(name, value);
    if (flavor === "mse") {
      return c.json(
        {
          error: message,
          code,
          requestId,
          ...(extra.issues ? { issues: extra.issues } : {}),
          ...(extra.body ?? {}),
        },
        status as 400,
      );
    }
    const error: Record<string, unknown> = { code, message, docs: `${docsBase}#error-${code}` };
    if (extra.issues) error.issues = extra.issues;
    return c.json({ ok: false, requestId, error, ...(extra.body ?? {}) }, status as 400);
  };

  app.onError((err, c) => {
    if (err instanceof ApiError) {
      // The rest of an oversized body is never read: tell the client not to reuse the socket.
      if (err.status === 413) c.header("Connection", "close");
      return renderError(c, err.code, err.status, err.message, {
        issues: err.options.issues,
        headers: err.options.headers,
        body: err.options.extra,
      });
    }
    if (err instanceof HTTPException) {
      if (err.status === 413)
        return renderError(c, "invalid_request", 413, "The request body is larger than 1 MB.");
      if (err.status === 400) {
        const message = /json/i.test(err.message)
          ? "The body is not valid JSON."
          : "The request could not be read.";
        return renderError(c, "invalid_request", 400, message, { issues: [{ path: "", message }] });
      }
    }
    // Never echo or log an internal message: it may hold SQL text or input values.
    deps.logger.error(
      {
        requestId: c.get("requestId"),
        errName: (err as Error)?.name,
        errCode: (err as { code?: unknown })?.code,
      },
      "unhandled error",
    );
    return renderError(
      c,
      "server_error",
      500,
      "Something went wrong on our side. Retry with backoff and quote the requestId.",
    );
  });

  // Outermost: request id, one log line per request, fixed headers. Headers are set before the
  // handler runs so they join the response as it is built (setting them afterwards would copy
  // the whole Response object on every request).
  app.use("*", async (c, next) => {
    const started = performance.now();
    const requestId = newId("req");
    c.set("requestId", requestId);
    c.header("X-Request-Id", requestId);
    if (flavor === "mse") c.header("x-mse-api-version", "1");
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Cache-Control", "no-store");
    try {
      await next();
    } finally {
      const auth = c.get("auth");
      deps.logger.info(
        {
          requestId,
          callerRequestId: c.req.header("x-request-id")?.slice(0, 128),
          method: c.req.method,
          route: c.get("routePattern") ?? "unmatched",
          status: c.res.status,
          durationMs: Math.round((performance.now() - started) * 100) / 100,
          keyId: auth?.keyId,
        },
        "request",
      );
    }
  });

  // One middleware for the hard time limit, the body checks and authentication: every extra
  // middleware layer costs promise hops on every request.
  const timeoutMs = deps.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const limit = deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
  const limitBody = bodyLimit({
    maxSize: limit,
    onError: () => {
      throw new ApiError("invalid_request", "The request body is larger than 1 MB.", { status: 413 });
    },
  });
  const screen = inputHygiene(hygiene);
  // Route lookups by method and path, bounded (paths carry ids, so the set is open-ended).
  const routeCache = new Map<string, { matched: RegisteredRoute | undefined }>();
  const lookupRoute = (method: string, path: string) => {
    const cacheKey = `${method} ${path}`;
    let hit = routeCache.get(cacheKey);
    if (!hit) {
      hit = { matched: routes.find((r) => r.method === method && r.regex.test(path)) };
      if (routeCache.size >= 10_000) routeCache.clear();
      routeCache.set(cacheKey, hit);
    }
    return hit.matched;
  };

  /** Content type and declared size of a body, decided before anything reads it; true when chunked. */
  const checkBody = (c: Context<AppEnv>): boolean => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD" || method === "OPTIONS") return false;
    const length = c.req.header("content-length");
    const chunked = c.req.header("transfer-encoding") !== undefined;
    const hasBody = length ? Number(length) > 0 : chunked;
    const type = c.req.header("content-type") ?? "";
    if (hasBody && !/^application\/(.+\+)?json\b/i.test(type)) {
      throw new ApiError("invalid_request", "Send the body as JSON with Content-Type: application/json.", {
        issues: [{ path: "", message: "Content-Type must be application/json." }],
      });
    }
    // A declared length is checked from the header alone: touching the raw body stream here would
    // make the server build a full web Request for every call (a fifth of the cost of a request).
    if (length && !chunked) {
      if (Number(length) > limit)
        throw new ApiError("invalid_request", "The request body is larger than 1 MB.", { status: 413 });
      return false;
    }
    return chunked;
  };

  /** Authentication, authorization and rate limits for every /v1 route that is not public. */
  const guard = async (c: Context<AppEnv>, next: Next): Promise<void> => {
    const chunked = checkBody(c);
    const path = c.req.path;
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    const matched = lookupRoute(method, path);
    if (matched) c.set("routePattern", matched.pattern);
    if (!(matched && matched.policy === null)) {
      const row = await authenticateKey(deps.db, bearerToken(c.req.header("authorization")), deps.keyCache);
      const auth = toAuthContext(row);
      c.set("auth", auth);
      // Unknown routes and wrong methods still need a valid key; any kind may learn they don't exist.
      authorize(
        row,
        matched?.policy ?? { keys: ["secret", "publishable", "organization"] },
        c.req.header("origin"),
      );
      const decision = await deps.limiter.consume(auth.limit);
      setRateLimitHeaders(c, decision);
      if (!decision.allowed) {
        throw new ApiError("rate_limited", rateLimitMessage(auth), {
          headers: { "Retry-After": String(decision.retryAfter), ...rateLimitHeaderValues(decision) },
        });
      }
    }
    // Input hygiene (decision 29) before any handler. It reads the body, so a chunked one is
    // read inside the size check that counts it; a request without a body costs no promise hop.
    if (chunked) {
      await limitBody(c, async () => {
        await screen(c, matched?.pattern);
        await next();
      });
      return;
    }
    const reading = screen(c, matched?.pattern);
    if (reading) await reading;
    await next();
  };

  app.use("*", async (c, next) => {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new ApiError(
              "service_unavailable",
              `The request did not finish within ${Math.round(timeoutMs / 1000)} s.`,
            ),
          ),
        timeoutMs,
      );
    });
    try {
      const work = c.req.path.startsWith("/v1/") ? guard(c, next) : next();
      await Promise.race([work, expired]);
    } finally {
      clearTimeout(timer);
    }
  });

  app.notFound((c) => {
    const path = c.req.path;
    const allowed = [...new Set(routes.filter((r) => r.regex.test(path)).map((r) => r.method))];
    if (allowed.length > 0) {
      if (allowed.includes("GET")) allowed.push("HEAD");
      return renderError(
        c,
        "method_not_allowed",
        405,
        `${c.req.method} is not allowed here; use ${allowed.join(", ")}.`,
        {
          headers: { Allow: allowed.join(", ") },
        },
      );
    }
    return renderError(c, "not_found", 404, "No such route. Check the path and the API reference.");
  });

  const register = (method: string, pattern: string, policy: RoutePolicy | null | undefined) => {
    routes.push({
      method: method.toUpperCase(),
      pattern,
      regex: patternToRegex(pattern),
      policy: policy === undefined ? DEFAULT_POLICY : policy,
    });
  };

  return {
    app,
    flavor,
    deps,
    openapi(route, handler, policy) {
      register(route.method, route.path, policy);
      app.openapi(route, handler);
    },
    plain(method, path, handler, policy) {
      register(method, path, policy);
      app.on(method, path, handler);
    },
  };
}

function rateLimitHeaderValues(decision: LimitDecision): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(decision.resetAt),
  };
}

function setRateLimitHeaders(c: Context<AppEnv>, decision: LimitDecision): void {
  for (const [name, value] of Object.entries(rateLimitHeaderValues(decision))) c.header(name, value);
}

function rateLimitMessage(auth: AuthContext): string {
  if (auth.limit.kind === "daily") return "The sandbox daily quota is used up; it resets at 00:00 UTC.";
  return "Too many requests per second; retry after the number of seconds in Retry-After.";
}

/** Middleware type re-exported for apps. */
export type AppMiddleware = MiddlewareHandler<AppEnv>;
