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
import { type CdsCaller, findCdsClient, pgJtiStore } from "@svc/records";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { cdsInputScreen } from "./cds_screen.js";

/**
 * The door of an account's CDS Hooks services, `/cds-hooks/{accountId}/cds-services` (decisions
 * 120 and 147): CORS for browser-based EHRs (a preflight needs no JWT), then on every other
 * request the EHR's JWT (`Authorization: Bearer <jwt>`), verified against the CDS client that
 * account registered for its `iss`, with `aud` the URL called (which names the account); the
 * account then answers for the plan's rules (402 for a live client without a paid, approved
 * plan) and rate limit, as a key would. Every refused JWT gets one and the same 401, the reason
 * going to the log only. Routes read the caller with `cdsCallerOf(c)`.
 */

/**
 * The CDS Hooks base of one account (decision 147), as a route pattern: the EHR's base URL is
 * `{PUBLIC_BASE_URL}/cds-hooks/{accountId}`, so discovery is `{base}/cds-services` and a service
 * `{base}/cds-services/{id}`, as CDS Hooks 2.0.1 lays them out.
 */
export const CDS_BASE_PATH = "/cds-hooks/:account/cds-services";
/** The unscoped paths of before decision 147: answered 404 with where the services are now. */
export const CDS_UNSCOPED_PATH = "/cds-services";
/** An account id as `newId` makes them; anything else names no account, and is never looked up. */
const ACCOUNT_ID = /^acct_[0-9a-z]{1,64}$/;
/** The account segment of a CDS Hooks path, or null when the path is not under one. */
const ACCOUNT_PATH = /^\/cds-hooks\/([^/]+)\/cds-services(?:\/|$)/;

/** The account id a CDS Hooks path names, or null when it names none (never looked up then). */
export function cdsAccountOf(path: string): string | null {
  const account = ACCOUNT_PATH.exec(path)?.[1];
  return account && ACCOUNT_ID.test(account) ? account : null;
}

/** Who is calling, for the CDS routes: the client, its account and mode, its address allowance. */
export interface CdsCallerContext {
  clientId: string;
  accountId: string;
  mode: "test" | "live";
  allowPrivate: boolean;
  /** The JWT's optional `tenant` claim. */
  tenant?: string;
  /** The account's rate limit, for a route that charges more than the call (feedback, decision 151). */
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
 * URL (the URL the EHR was given, never the Host header), which names the account (decision
 * 147); a feedback call may also name its service's URL, which is what some EHRs sign for every
 * call about that service.
 */
export function cdsAudiences(publicBaseUrl: string, path: string): string[] {
  const base = publicBaseUrl.replace(/\/+$/, "");
  const audiences = [`${base}${path}`];
  const feedback = /^(\/cds-hooks\/[^/]+\/cds-services\/[^/]+)\/feedback$/.exec(path);
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
  const base = "/cds-hooks/{accountId}/cds-services";
  if (/^\/cds-hooks\/[^/]+\/cds-services$/.test(path)) return base;
  if (/^\/cds-hooks\/[^/]+\/cds-services\/[^/]+\/feedback$/.test(path)) return `${base}/{id}/feedback`;
  if (/^\/cds-hooks\/[^/]+\/cds-services\/[^/]+$/.test(path)) return `${base}/{id}`;
  return "unmatched";
}

/**
 * The one answer to every refused JWT, whatever the reason (decision 147): an unknown issuer, a
 * revoked client, an unknown kid or a bad signature read the same, so no answer tells whether an
 * EHR is registered with an account. The reason is in the log line of the request id.
 */
export const CDS_JWT_REFUSED_MESSAGE =
  "The CDS client's JWT was refused. It must be signed with a key the account registered for its iss, name the exact URL called as aud, and be current (iat, exp) with a jti never used before; the service's log has the reason under this requestId.";

/** The JWT check, plan rules and rate limit of one CDS Hooks request. */
function cdsAuthentication(deps: AppDeps, options: CdsGuardOptions): MiddlewareHandler<AppEnv> {
  const jwksSource = options.jwksSource ?? new CachedJwksFetcher();
  const jtiStore = pgJtiStore(deps.db);
  const verify = (c: Context<AppEnv>, jwt: string, accountId: string | null) =>
    verifyCdsJwt(jwt, {
      expectedAudience: cdsAudiences(deps.publicBaseUrl, c.req.path),
      // Only the account whose path was called is asked (decision 147).
      clients: async (iss) => (accountId ? findCdsClient(deps.db, accountId, iss) : null),
      jtiStore,
      jwksSource,
      allowLoopback: deps.allowLoopbackWebhooks === true,
    });
  return async (c, next) => {
    c.set("routePattern", cdsRoutePattern(c.req.path));
    if (c.req.method === "OPTIONS") return next();
    const jwt = await bearerJwt(c, deps);
    const accountId = cdsAccountOf(c.req.path);
    const refused = (reason: string) => {
      deps.logger.warn(
        { requestId: c.get("requestId"), ...(accountId ? { accountId } : {}), reason },
        "cds jwt refused",
      );
      return refuse(c, deps, new ApiError("invalid_token", CDS_JWT_REFUSED_MESSAGE));
    };
    let verified: Awaited<ReturnType<typeof verify>>;
    try {
      verified = await verify(c, jwt, accountId);
    } catch (error) {
      if (!(error instanceof CdsJwtRefusal)) throw error;
      return refused(error.reason);
    }
    const { client, tenant } = verified;
    // The lookup is by the path's account already; this keeps the rule if that ever changes.
    if (client.accountId !== accountId) return refused("unknown_issuer");
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
 * Install CORS, the body limit and the JWT guard on every account's CDS Hooks base and everything
 * under it. One pattern only: Hono's `.../cds-services/*` also matches `.../cds-services` itself,
 * and a guard that ran twice would spend the JWT's jti on its first run and refuse the second as
 * a replay. The unscoped `/cds-services` paths answer a 404 saying where the services are
 * (decision 147): the same for everyone, with no JWT read.
 */
export function installCdsGuard(service: ServiceApp, options: CdsGuardOptions = {}): void {
  const pattern = `${CDS_BASE_PATH}/*`;
  service.app.use(pattern, cdsCors());
  service.app.use(pattern, cdsBodyLimit(service.deps));
  service.app.use(pattern, cdsAuthentication(service.deps, options));
  // Then the input screen every body crosses (decision 150).
  service.app.use(pattern, cdsInputScreen(cdsRoutePattern));
  service.app.use(`${CDS_UNSCOPED_PATH}/*`, cdsCors());
  const moved = () => {
    throw new ApiError(
      "not_found",
      "CDS Hooks services are served per account: the EHR's base URL is /cds-hooks/{accountId} under this service's address, so discovery is /cds-hooks/{accountId}/cds-services.",
    );
  };
  for (const path of [CDS_UNSCOPED_PATH, `${CDS_UNSCOPED_PATH}/:id`, `${CDS_UNSCOPED_PATH}/:id/feedback`])
    for (const method of ["GET", "POST"] as const) service.plain(method, path, moved, null);
}
