import type { Context } from "hono";
import type { AppDeps, AppEnv } from "./app.js";
import {
  type ApiKeyAuth,
  authenticateKey,
  authorize,
  bearerToken,
  type RoutePolicy,
  toAuthContext,
} from "./auth.js";
import type { LimitRule } from "./rate-limit/index.js";
import { ANY_KEY_POLICY } from "./route-policy.js";

/** A caller a door recognised: the limit its call counts against, and what may still refuse it. */
export interface Caller {
  limit: LimitRule;
  /**
   * Throws the ApiError of a caller the route does not take (403 kind, origin or scope; 402 plan).
   * Runs after the call is counted, so the refusal carries the caller's own rate-limit headers.
   */
  authorize(): void;
  /** The message of the 429 once the limit is spent. */
  rateLimitedMessage: string;
}

/**
 * How the callers of a set of paths prove who they are: an API key on `/v1` (`apiKeyDoor`), or a
 * credential an app brings, such as the EHR's signed JWT of its CDS Hooks services (decision
 * 147), verified by the app's own code. Whatever the door, the request guard does the rest the
 * same way: body checks, refused credentials counted per address, the caller's rate limit and
 * its headers, the 402/403/429 refusals and the input screen (decision 29).
 */
export interface Door {
  /** True for the paths behind this door. */
  guards(path: string): boolean;
  /**
   * The caller of one request under the matched route's policy (undefined: no route matched), or
   * null when the route is public; it sets the request's `AuthContext` (decision 221), which
   * routes read with `authOf`. Rejects with a `Refusal` (a 401: an ApiError, or a refusal of the
   * credential's own verifier, such as a refused JWT) when the credential is missing or refused;
   * the guard counts that against the caller's address. Never throws synchronously.
   */
  identify(c: Context<AppEnv>, policy: RoutePolicy | null | undefined): Promise<Caller> | null;
  /** The message of the 429 once an address has sent too many refused credentials. */
  tooManyRefusedMessage: string;
}

function rateLimitMessage(auth: ApiKeyAuth): string {
  if (auth.limit.kind === "daily") return "The sandbox daily quota is used up; it resets at 00:00 UTC.";
  return "Too many requests per second; retry after the number of seconds in Retry-After.";
}

/** The key of a request (one lookup, cached), put where routes read it (`authOf(c, "api_key")`). */
async function keyCaller(c: Context<AppEnv>, deps: AppDeps, policy: RoutePolicy): Promise<Caller> {
  const row = await authenticateKey(deps.db, bearerToken(c.req.header("authorization")), deps.keyCache);
  const auth = toAuthContext(row);
  c.set("auth", auth);
  return {
    limit: auth.limit,
    authorize: () => authorize(row, policy, c.req.header("origin")),
    rateLimitedMessage: rateLimitMessage(auth),
  };
}

/**
 * `/v1`: API keys, under the route's policy. A public route (policy null) takes none; a path no
 * route serves still needs a valid key of any kind, so only a caller may learn it does not exist.
 */
export function apiKeyDoor(deps: AppDeps): Door {
  return {
    guards: (path) => path.startsWith("/v1/"),
    identify: (c, policy) => (policy === null ? null : keyCaller(c, deps, policy ?? ANY_KEY_POLICY)),
    tooManyRefusedMessage:
      "Too many requests without a valid API key from this address; retry after the number of seconds in Retry-After.",
  };
}
