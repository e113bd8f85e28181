import {
  CachedJwksFetcher,
  CdsJwtRefusal,
  type EhrAddressPolicy,
  type JtiStore,
  type JwksSource,
  type VerifiedCdsJwt,
  verifyCdsJwt,
} from "@svc/ehr-gateway";
import {
  ApiError,
  type AppDeps,
  type AppEnv,
  type AppMiddleware,
  accountLimitRule,
  bearerToken,
  type Caller,
  type Door,
  type EhrJwtAuth,
  requirePaidPlan,
  type ServiceApp,
} from "@svc/http";
import { type CdsCaller as CdsClient, findCdsClient, pgJtiStore } from "@svc/records";
import type { Context } from "hono";
import { cors } from "hono/cors";

/**
 * The door of an account's CDS Hooks services, `/cds-hooks/{accountId}/cds-services` (decisions
 * 120 and 147): the EHR's JWT (`Authorization: Bearer <jwt>`), verified against the CDS client
 * that account registered for its `iss`, with `aud` the URL called (which names the account). The
 * request guard of `@svc/http` does the rest as for an API key on `/v1`: body checks, the
 * account's plan (402) and rate limit, refusals counted per address, the input screen (decision
 * 150). CORS wraps the guard, so a preflight needs no JWT and refusals are readable. Every refused
 * JWT gets one and the same 401, the reason going to the log only. Routes read the caller with
 * `authOf(c, "ehr_jwt")`, the same context an API key's routes read (decision 221).
 */

export { CDS_JWT_REFUSED_MESSAGE } from "@svc/ehr-gateway";

/**
 * The CDS Hooks base of one account (decision 147), as a route pattern: the EHR's base URL is
 * `{PUBLIC_BASE_URL}/cds-hooks/{accountId}`, so discovery is `{base}/cds-services` and a service
 * `{base}/cds-services/{id}`, as CDS Hooks 2.0.1 lays them out.
 */
export const CDS_BASE_PATH = "/cds-hooks/:accountId/cds-services";
/** The unscoped paths of before decision 147: answered 404 with where the services are now. */
export const CDS_UNSCOPED_PATH = "/cds-services";
/** An account id as `newId` makes them; anything else names no account, and is never looked up. */
const ACCOUNT_ID = /^acct_[0-9a-z]{1,64}$/;
/** A path under an account's CDS Hooks base (the base included); its account segment. */
const CDS_PATH = /^\/cds-hooks\/([^/]+)\/cds-services(?:\/|$)/;

/** The account id a CDS Hooks path names, or null when it names none (never looked up then). */
export function cdsAccountOf(path: string): string | null {
  const account = CDS_PATH.exec(path)?.[1];
  return account && ACCOUNT_ID.test(account) ? account : null;
}

/**
 * The address rules for fetching from this caller's EHR (`fetchFhir`, decision 122): the client's
 * mode and `--allow-private`, and the operator's loopback setting.
 */
export function cdsFetchPolicy(caller: EhrJwtAuth, deps: AppDeps): EhrAddressPolicy {
  return {
    mode: caller.mode,
    allowPrivate: caller.allowPrivate,
    allowLoopback: deps.allowLoopbackWebhooks === true,
  };
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
 * any origin may call (`*`, no credentials), and a preflight is answered without a JWT. Installed
 * around the request guard (`aroundGuard`), so its refusals are readable cross-origin too.
 */
export function cdsCors(): { path: string; middleware: AppMiddleware }[] {
  const middleware = cors({
    origin: "*",
    allowMethods: ["GET", "POST", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type"],
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
  return [`${CDS_BASE_PATH}/*`, `${CDS_UNSCOPED_PATH}/*`].map((path) => ({ path, middleware }));
}

export interface CdsGuardOptions {
  /** Where `jku` sets come from; one cache per app by default. */
  jwksSource?: JwksSource;
}

/** What the JWT check keeps between requests: where `jku` sets come from, the jtis seen. */
interface JwtVerification {
  jwksSource: JwksSource;
  jtiStore: JtiStore;
}

/** A refused JWT: its reason goes to the request's log line only; the answer is its one 401. */
function jwtRefused(
  c: Context<AppEnv>,
  deps: AppDeps,
  accountId: string | null,
  refusal: CdsJwtRefusal,
): CdsJwtRefusal {
  deps.logger.warn(
    { requestId: c.get("requestId"), ...(accountId ? { accountId } : {}), reason: refusal.reason },
    "cds jwt refused",
  );
  return refusal;
}

/** The CDS client whose JWT the request carries, registered with the account its path names. */
async function verifiedClient(
  c: Context<AppEnv>,
  deps: AppDeps,
  verification: JwtVerification,
  accountId: string | null,
): Promise<VerifiedCdsJwt<CdsClient>> {
  const jwt = bearerToken(
    c.req.header("authorization"),
    "Send the CDS client's signed JWT as `Authorization: Bearer <jwt>`.",
  );
  let verified: VerifiedCdsJwt<CdsClient>;
  try {
    verified = await verifyCdsJwt(jwt, {
      expectedAudience: cdsAudiences(deps.publicBaseUrl, c.req.path),
      // Only the account whose path was called is asked (decision 147).
      clients: async (iss) => (accountId ? findCdsClient(deps.db, accountId, iss) : null),
      ...verification,
      allowLoopback: deps.allowLoopbackWebhooks === true,
    });
  } catch (error) {
    if (!(error instanceof CdsJwtRefusal)) throw error;
    throw jwtRefused(c, deps, accountId, error);
  }
  // The lookup is by the path's account already; this keeps the rule if that ever changes.
  if (verified.client.accountId !== accountId)
    throw jwtRefused(
      c,
      deps,
      accountId,
      new CdsJwtRefusal("unknown_issuer", "The JWT's iss is not a CDS client of the account called."),
    );
  return verified;
}

/**
 * The caller of one CDS Hooks request, as the guard admits any caller: the account's limit, as
 * for its keys (decision 123, the client counting as one key), and the plan's rule for live mode.
 */
async function cdsCaller(c: Context<AppEnv>, deps: AppDeps, verification: JwtVerification): Promise<Caller> {
  const { client, tenant } = await verifiedClient(c, deps, verification, cdsAccountOf(c.req.path));
  const limit = accountLimitRule(client.id, client.accountId, client);
  c.set("auth", {
    credential: "ehr_jwt",
    clientId: client.id,
    accountId: client.accountId,
    mode: client.mode,
    allowPrivate: client.allowPrivate,
    ...(tenant ? { tenant } : {}),
    limit,
  });
  return {
    limit,
    authorize: () => {
      if (client.mode === "live") requirePaidPlan(client, "Live-mode CDS clients");
    },
    rateLimitedMessage:
      "Too many requests for this account; retry after the number of seconds in Retry-After.",
  };
}

/**
 * The door of every account's CDS Hooks base and everything under it, whatever the route's
 * policy: a JWT is checked once per request (a second check would spend its jti and refuse the
 * request as a replay).
 */
export function cdsJwtDoor(deps: AppDeps, options: CdsGuardOptions = {}): Door {
  const verification = {
    jwksSource: options.jwksSource ?? new CachedJwksFetcher(),
    jtiStore: pgJtiStore(deps.db),
  };
  return {
    guards: (path) => CDS_PATH.test(path),
    identify: (c) => cdsCaller(c, deps, verification),
    tooManyRefusedMessage:
      "Too many refused CDS Hooks requests from this address; retry after the number of seconds in Retry-After.",
  };
}

/**
 * The unscoped `/cds-services` paths of before decision 147 answer a 404 saying where the services
 * are: the same for everyone, with no JWT read.
 */
export function registerCdsMoved(service: ServiceApp): void {
  const moved = () => {
    throw new ApiError(
      "not_found",
      "CDS Hooks services are served per account: the EHR's base URL is /cds-hooks/{accountId} under this service's address, so discovery is /cds-hooks/{accountId}/cds-services.",
    );
  };
  for (const path of [CDS_UNSCOPED_PATH, `${CDS_UNSCOPED_PATH}/:id`, `${CDS_UNSCOPED_PATH}/:id/feedback`])
    for (const method of ["GET", "POST"] as const) service.plain(method, path, moved, null);
}

/** The screened body of a CDS POST as parsed JSON, or 400 when there is none or it is not JSON. */
export async function cdsJsonBody(c: Context<AppEnv>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new ApiError("invalid_request", "The body is not valid JSON.");
  }
}
