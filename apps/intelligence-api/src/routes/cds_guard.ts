import {
  CachedJwksFetcher,
  CdsJwtRefusal,
  type EhrAddressPolicy,
  type JwksSource,
  verifyCdsJwt,
} from "@svc/ehr-gateway";
import {
  ApiError,
  type AppDeps,
  type AppEnv,
  DEFAULT_BODY_LIMIT,
  type LimitDecision,
  type LimitRule,
  type ServiceApp,
  UNAUTHENTICATED_RATE,
} from "@svc/http";
import { type CdsCaller, findCdsClientByIss, pgJtiStore } from "@svc/records";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { cdsInputScreen } from "./cds_screen.js";

/**
 * The door of `/cds-services` (decision 120): CORS for browser-based EHRs (a preflight needs no
 * JWT), then on every other request the EHR's JWT (`Authorization: Bearer <jwt>`), verified
 * against the registered CDS client of its `iss`; the client's account then answers for the
 * plan's rules (402 for a live client without a paid, approved plan) and rate limit, as a key
 * would. Routes read the caller with `cdsCallerOf(c)`.
 */

export const CDS_BASE_PATH = "/cds-services";

/** Who is calling, for the CDS routes: the client, its account and mode, its address allowance. */
export interface CdsCallerContext {
  clientId: string;
  accountId: string;
  mode: "test" | "live";
  allowPrivate: boolean;
  /** The JWT's optional `tenant` claim. */
  tenant?: string;
  /** The account's rate limit, for a route that charges more than the call (feedback, decision 159). */
  limit: LimitRule;
}

type CdsEnv = AppEnv & { Variables: AppEnv["Variables"] & { cdsCaller: CdsCallerContext } };

/**
 * The address rules for fetching from this caller's EHR (`fetchFhir`, decision 122): the client's
 * mode and `--allow-private`, and the operator's loopback setting.
 */
export function cdsFetchPolicy(caller: CdsCallerContext, deps: AppDeps): EhrAddressPolicy {
  return {
    mode: caller.mode,
    allowPrivate: caller.allowPrivate,
    allowLoopback: deps.allowLoopbackWebhooks === true,
  };
}

/**
 * The verified caller of a CDS route (set by the guard). Fails closed: a route registered before
 * the guard (Hono runs handlers in registration order) finds no caller and answers 401.
 */
export function cdsCallerOf(c: Context<AppEnv>): CdsCallerContext {
  const caller = (c as unknown as Context<CdsEnv>).get("cdsCaller");
  if (!caller) throw new ApiError("unauthorized", "This CDS Hooks request was not authenticated.");
  return caller;
}

/**
 * The URLs a call may name as `aud`: the endpoint being called under the service's public base
 * URL (the URL the EHR was given, never the Host header); a feedback call may also name its
 * service's URL, which is what some EHRs sign for every call about that service.
 */
export function cdsAudiences(publicBaseUrl: string, path: string): string[] {
  const base = publicBaseUrl.replace(/\/+$/, "");
  const audiences = [`${base}${path}`];
  const feedback = /^(\/cds-services\/[^/]+)\/feedback$/.exec(path);
  if (feedback?.[1]) audiences.push(`${base}${feedback[1]}`);
  return audiences;
}

const EXPOSED_HEADERS = [
  "X-Request-Id",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Retry-After",
];

/**
 * CDS Hooks requires CORS for browser-based EHRs. The JWT travels in the Authorization header,
 * never in a cookie, so a page on any origin can use an answer only with a valid JWT of its own:
 * any origin may call (`*`, no credentials), and a preflight is answered without a JWT.
 */
function cdsCors(): MiddlewareHandler<AppEnv> {
  return cors({
    origin: "*",
    allowMethods: ["GET", "POST", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type"],
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
}

function rateLimitHeaders(decision: LimitDecision): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(decision.resetAt),
  };
}

/**
 * The account's limit, as for its keys (decision 123): a sandbox account's daily quota (the
 * client counts as one key, the account's pool is shared with its keys), a paid plan's bucket
 * shared with every key of the account, monthly usage counted.
 */
export function cdsLimitRule(client: CdsCaller): LimitRule {
  if (!client.planPaid)
    return {
      kind: "daily",
      keyId: client.id,
      accountId: client.accountId,
      keyQuota: client.dailyKeyQuota ?? 100,
      accountQuota: client.dailyAccountQuota ?? 500,
    };
  return {
    kind: "bucket",
    subject: `acct:${client.accountId}`,
    ratePerSecond: client.ratePerSecond ?? 10,
    burst: client.burst ?? 20,
    monthlyUsageOf: client.accountId,
  };
}

/** The connection's peer address, for the per-address bucket of refused requests. */
function clientAddress(c: Context<AppEnv>): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? "unknown";
}

/** A refused JWT costs the caller's address, as a refused API key does (decision 97). */
async function refuse(c: Context<AppEnv>, deps: AppDeps, refusal: ApiError): Promise<never> {
  const decision = await deps.limiter.consume({
    kind: "bucket",
    subject: `unauthenticated:${clientAddress(c)}`,
    ...UNAUTHENTICATED_RATE,
  });
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed)
    throw new ApiError(
      "rate_limited",
      "Too many refused CDS Hooks requests from this address; retry after the number of seconds in Retry-After.",
      {
        headers: { "Retry-After": String(decision.retryAfter), ...headers },
      },
    );
  throw new ApiError(refusal.code, refusal.message, { headers });
}

const BEARER = /^Bearer ([^\s]+)$/;

export interface CdsGuardOptions {
  /** Where `jku` sets come from; one cache per app by default. */
  jwksSource?: JwksSource;
}

/** The bearer token of the request, or a 401 `unauthorized` refusal. */
async function bearerJwt(c: Context<AppEnv>, deps: AppDeps): Promise<string> {
  const match = BEARER.exec(c.req.header("authorization")?.trim() ?? "");
  if (match?.[1]) return match[1];
  return refuse(
    c,
    deps,
    new ApiError("unauthorized", "Send the CDS client's signed JWT as `Authorization: Bearer <jwt>`."),
  );
}

/** The plan's rules for the client's account, then its rate limit (headers on every answer). */
async function admitClient(c: Context<AppEnv>, deps: AppDeps, client: CdsCaller): Promise<void> {
  const decision = await deps.limiter.consume(cdsLimitRule(client));
  const headers = rateLimitHeaders(decision);
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  if (client.mode === "live" && !(client.planPaid && client.productionApproved))
    throw new ApiError(
      "payment_required",
      "Live-mode CDS clients need a paid plan and approved production access.",
      { headers },
    );
  if (!decision.allowed)
    throw new ApiError(
      "rate_limited",
      "Too many requests for this account; retry after the number of seconds in Retry-After.",
      { headers: { "Retry-After": String(decision.retryAfter), ...headers } },
    );
}

/** The documented form of a CDS Hooks path, for the request's log line (ids are not logged). */
export function cdsRoutePattern(path: string): string {
  if (path === CDS_BASE_PATH) return CDS_BASE_PATH;
  if (/^\/cds-services\/[^/]+\/feedback$/.test(path)) return "/cds-services/{id}/feedback";
  if (/^\/cds-services\/[^/]+$/.test(path)) return "/cds-services/{id}";
  return "unmatched";
}

/** The JWT check, plan rules and rate limit of one CDS Hooks request. */
function cdsAuthentication(deps: AppDeps, options: CdsGuardOptions): MiddlewareHandler<AppEnv> {
  const jwksSource = options.jwksSource ?? new CachedJwksFetcher();
  const jtiStore = pgJtiStore(deps.db);
  const verify = (c: Context<AppEnv>, jwt: string) =>
    verifyCdsJwt(jwt, {
      expectedAudience: cdsAudiences(deps.publicBaseUrl, c.req.path),
      clients: (iss) => findCdsClientByIss(deps.db, iss),
      jtiStore,
      jwksSource,
      allowLoopback: deps.allowLoopbackWebhooks === true,
    });
  return async (c, next) => {
    c.set("routePattern", cdsRoutePattern(c.req.path));
    if (c.req.method === "OPTIONS") return next();
    const jwt = await bearerJwt(c, deps);
    let verified: Awaited<ReturnType<typeof verify>>;
    try {
      verified = await verify(c, jwt);
    } catch (error) {
      if (!(error instanceof CdsJwtRefusal)) throw error;
      deps.logger.warn({ requestId: c.get("requestId"), reason: error.reason }, "cds jwt refused");
      const message = `The CDS client's JWT was refused (${error.reason}): ${error.message}`;
      return refuse(c, deps, new ApiError("invalid_token", message));
    }
    const { client, tenant } = verified;
    await admitClient(c, deps, client);
    (c as unknown as Context<CdsEnv>).set("cdsCaller", {
      clientId: client.id,
      accountId: client.accountId,
      mode: client.mode,
      allowPrivate: client.allowPrivate,
      ...(tenant ? { tenant } : {}),
      limit: cdsLimitRule(client),
    });
    await next();
  };
}

/** Bodies past the service's limit are 413, as on /v1 (decision 40). */
function cdsBodyLimit(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT,
    onError: () => {
      throw new ApiError("invalid_request", "The body is larger than the service accepts.", { status: 413 });
    },
  });
}

/**
 * Install CORS, the body limit and the JWT guard on `/cds-services` and everything under it. One
 * pattern only: Hono's `/cds-services/*` also matches `/cds-services` itself, and a guard that ran
 * twice would spend the JWT's jti on its first run and refuse the second as a replay.
 */
export function installCdsGuard(service: ServiceApp, options: CdsGuardOptions = {}): void {
  const pattern = `${CDS_BASE_PATH}/*`;
  service.app.use(pattern, cdsCors());
  service.app.use(pattern, cdsBodyLimit(service.deps));
  service.app.use(pattern, cdsAuthentication(service.deps, options));
  // Then the input screen every body crosses (decision 158).
  service.app.use(pattern, cdsInputScreen(cdsRoutePattern));
}
