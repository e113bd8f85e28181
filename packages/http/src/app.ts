import { OpenAPIHono, type RouteConfig, type RouteHandler, type z } from "@hono/zod-openapi";
import type { Db } from "@svc/db";
import type { Context, MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import type { AuthContext, RoutePolicy } from "./auth.js";
import { handOffAfterCommit } from "./deliveries.js";
import type { Door } from "./doors.js";
import { type ErrorBodyRenderer, errorSender } from "./error-body.js";
import { errorHandler } from "./error-handler.js";
import { ApiError, zodIssues } from "./errors.js";
import type { HygieneOptions } from "./hygiene.js";
import type { KeyCache } from "./key-cache.js";
import { notFoundHandler } from "./not-found.js";
import type { RateLimiter } from "./rate-limit/index.js";
import { requestGuard } from "./request-guard.js";
import { requestLog } from "./request-log.js";
import { EndpointRegistry, rememberEndpoints } from "./route-policy.js";
import { preferSyncRequestParsing } from "./sync-validation.js";
import type { UsageMeter } from "./usage-meter.js";

export { DEFAULT_BODY_LIMIT } from "./body-checks.js";
export { DEFAULT_REQUEST_TIMEOUT_MS, STATEMENT_TIMEOUT_MS, workSignal } from "./request-guard.js";

export interface AppDeps {
  db: Db;
  limiter: RateLimiter;
  logger: Logger;
  /** Base of links in error bodies and hosted pages, e.g. https://api.example.com. */
  publicBaseUrl: string;
  /** Hard limit per request (contract: 30 s). */
  requestTimeoutMs?: number;
  /** Body limit in bytes (decision 40: 1 MB). */
  bodyLimitBytes?: number;
  /**
   * Hands committed webhook deliveries to the delivery queue right away (best effort: the outbox
   * sweeper enqueues whatever this misses, e.g. while Redis is down).
   */
  deliveries?: { enqueue(deliveryIds: string[]): Promise<void> };
  /** Key lookups cached while this process hears revocations (see KeyCache). */
  keyCache?: KeyCache;
  /** Listen on a Redis pub/sub channel (cache invalidation across replicas); absent when embedded. */
  subscribe?: (channel: string, onMessage: (message: string) => void) => void;
  /** Counts keyed requests per day, key and operation for the usage page (decision 58). */
  usage?: UsageMeter;
  /** Reports Redis state for /readyz. */
  redisState?: () => "ready" | "down" | "disabled";
  /**
   * The operator's loopback setting (`loopbackWebhooksAllowed(env)`): may a tenant register a
   * test-mode webhook endpoint on loopback? Unset is no.
   */
  allowLoopbackWebhooks?: boolean;
}

export interface AppEnv {
  Variables: {
    requestId: string;
    auth: AuthContext;
    routePattern: string;
    /**
     * Aborted when the request's time limit passes and the caller has got its 503: long work
     * stops at the next check, and `runIdempotent` does not commit (decision 111).
     */
    signal: AbortSignal;
  };
}

/** What makes one API itself on the shared HTTP layer. */
export interface ServiceAppOptions {
  /** The API's error body shape (`envelopeErrorBody(publicBaseUrl)` or `flatErrorBody`). */
  errorBody: ErrorBodyRenderer;
  /** Fixed headers on every response of this API (e.g. `x-mse-api-version`). */
  responseHeaders?: Readonly<Record<string, string>>;
  /** Input hygiene options (duplicate keys, how body findings are reported). */
  hygiene?: HygieneOptions;
  /**
   * Middleware that wraps the guard for one path, so what it does after `next()` also sees the
   * guard's refusals (401, 403, 429), e.g. CORS headers a browser needs to read them.
   */
  aroundGuard?: ReadonlyArray<{ path: string; middleware: MiddlewareHandler<AppEnv> }>;
  /**
   * Paths outside `/v1` that the guard admits with a credential of their own (e.g. the EHR's JWT
   * of the CDS Hooks services); everything else the guard does is the same as on `/v1`.
   */
  doors?: readonly Door[];
}

export interface ServiceApp {
  app: OpenAPIHono<AppEnv>;
  deps: AppDeps;
  /**
   * Register an operation: its route (zod request/response schemas, so it is in the OpenAPI
   * document) and who may call it. `policy: null` makes the route public (no key).
   */
  openapi<R extends RouteConfig>(
    route: R,
    handler: RouteHandler<R, AppEnv>,
    policy?: RoutePolicy | null,
  ): void;
  /** A plain (non-OpenAPI) route such as a hosted HTML page. */
  plain(
    method: "GET" | "POST" | "OPTIONS",
    path: string,
    handler: (c: Context<AppEnv>) => Response | Promise<Response>,
    policy?: RoutePolicy | null,
  ): void;
}

/** A request that fails its route's zod schemas: 400 invalid_request with the issues. */
function refuseInvalidInput(result: { success: true } | { success: false; error: z.ZodError }): void {
  if (!result.success) {
    throw new ApiError("invalid_request", "The request failed validation; see issues.", {
      issues: zodIssues(result.error),
    });
  }
}

/**
 * One API on Hono: the request log line and fixed headers, then one guard (time limit, body
 * checks, authentication, rate limit, input hygiene), the operations, and errors, 404 and 405 in
 * the API's own body shape.
 */
export function createServiceApp(deps: AppDeps, options: ServiceAppOptions): ServiceApp {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: refuseInvalidInput });
  const endpoints = new EndpointRegistry();
  rememberEndpoints(app, endpoints);
  const sendError = errorSender(options.errorBody);
  app.onError(errorHandler(sendError, deps.logger));
  app.use("*", requestLog(deps.logger, options.responseHeaders, deps.usage));
  for (const { path, middleware } of options.aroundGuard ?? []) app.use(path, middleware);
  app.use("*", requestGuard(deps, endpoints, options.hygiene, options.doors));
  app.use("*", handOffAfterCommit(deps));
  app.notFound(notFoundHandler(app.router, endpoints, sendError));
  return {
    app,
    deps,
    openapi(route, handler, policy) {
      preferSyncRequestParsing(route);
      app.openapi(route, handler);
      endpoints.add(app.routes, route.path, policy);
    },
    plain(method, path, handler, policy) {
      app.on(method, path, handler);
      endpoints.add(app.routes, path, policy);
    },
  };
}

/** Middleware type re-exported for apps. */
export type AppMiddleware = MiddlewareHandler<AppEnv>;
