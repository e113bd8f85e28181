import {
  type AuthKeyRow,
  type Db,
  findKeyForAuth,
  hashesEqual,
  hashKey,
  type KeyKind,
  parseKey,
} from "@svc/db";
import type { Context } from "hono";
import type { AppEnv } from "./app.js";
import { ApiError } from "./errors.js";
import type { KeyCache } from "./key-cache.js";
import type { LimitRule } from "./rate-limit/index.js";

/**
 * The authenticated caller, as routes see it (decision 221): one type whichever door admitted it,
 * told apart by `credential`. What every caller has is common (the mode it acts in, the limit its
 * calls count against, the account); what only one credential has stays with it, so an EHR is no
 * key (no key kind, scopes or origins, and no `keyId`, which feeds the usage page).
 */
export type AuthContext = ApiKeyAuth | EhrJwtAuth;
/** How a caller proved who it is: an API key (`/v1`) or an EHR's signed JWT (the CDS Hooks base). */
export type Credential = AuthContext["credential"];

interface CallerAuth {
  mode: "test" | "live";
  /** The limit its calls count against (a route that charges more than the call reads it). */
  limit: LimitRule;
}

/** A caller with an API key. */
export interface ApiKeyAuth extends CallerAuth {
  credential: "api_key";
  keyId: string;
  kind: KeyKind;
  /** Null for an organization key (the MSE Record API). */
  accountId: string | null;
  orgId: string | null;
  planId: string | null;
  scopes: string[];
  origins: string[];
}

/** A CDS client (an EHR) with its signed JWT, registered with the account whose base it called. */
export interface EhrJwtAuth extends CallerAuth {
  credential: "ehr_jwt";
  clientId: string;
  accountId: string;
  /** The client's `--allow-private`: may its FHIR server be on a private address (decision 122)? */
  allowPrivate: boolean;
  /** The JWT's optional `tenant` claim. */
  tenant?: string;
}

const UNAUTHENTICATED: Record<Credential, string> = {
  api_key: "This request was not authenticated with an API key.",
  ehr_jwt: "This CDS Hooks request was not authenticated.",
};

/**
 * The caller of a route, as its door admitted it (set by the request guard). Fails closed: a
 * route registered before the guard (Hono runs handlers in registration order), or reached with
 * another credential, finds no such caller and answers 401.
 */
export function authOf<K extends Credential>(
  c: Context<AppEnv>,
  credential: K,
): Extract<AuthContext, { credential: K }> {
  const auth = c.get("auth") as AuthContext | undefined;
  if (auth?.credential !== credential) throw new ApiError("unauthorized", UNAUTHENTICATED[credential]);
  return auth as Extract<AuthContext, { credential: K }>;
}

/** What a route accepts. Default on the Intelligence API: secret keys only. */
export interface RoutePolicy {
  /** Key kinds allowed; others get 403 forbidden. */
  keys: readonly ("secret" | "publishable" | "organization")[];
  /** Organization keys must carry this scope. */
  scope?: string;
}

/** MSE Record API per-organization limit (decision 43). */
export const MSE_ORG_RATE = { ratePerSecond: 20, burst: 40 } as const;

const BEARER = /^Bearer ([^\s]+)$/;

/**
 * Extract the bearer credential, or 401 unauthorized when the header is missing or malformed;
 * `ask` is the one message for both (an API key's two by default).
 */
export function bearerToken(header: string | undefined, ask?: string): string {
  if (!header)
    throw new ApiError(
      "unauthorized",
      ask ?? "Send your API key in the Authorization header as `Bearer <key>`.",
    );
  const match = BEARER.exec(header.trim());
  if (!match?.[1])
    throw new ApiError("unauthorized", ask ?? "The Authorization header must be `Bearer <key>`.");
  return match[1];
}

/** Look the key up (one query) and refuse unknown, mistyped or revoked keys with 401 invalid_token. */
export async function authenticateKey(db: Db, token: string, cache?: KeyCache): Promise<AuthKeyRow> {
  const hash = hashKey(token);
  let row = cache?.get(hash);
  if (row === undefined) {
    // Shape and checksum first: a mistyped key never costs a database lookup (decision 12). A
    // cached lookup skips them: only a key that passed them is ever cached.
    if (!parseKey(token)) throw new ApiError("invalid_token", "The API key is not valid.");
    const generation = cache?.generation ?? 0;
    row = await findKeyForAuth(db, hash);
    cache?.set(hash, row, generation);
  }
  if (!row || !hashesEqual(row.keyHash, hash))
    throw new ApiError("invalid_token", "The API key is not valid.");
  // A rolled key keeps working until its grace period ends (revokedAt in the future).
  if (row.revokedAt && row.revokedAt.getTime() <= Date.now())
    throw new ApiError("invalid_token", "The API key has been revoked.");
  return row;
}

/** What an account's plan grants its callers (decision 123); a null takes the default. */
export interface PlanAllowance {
  planPaid: boolean | null;
  dailyKeyQuota: number | null;
  dailyAccountQuota: number | null;
  ratePerSecond: number | null;
  burst: number | null;
}

/**
 * The limit of one caller of an account, an API key or a CDS client (decision 123): on a sandbox
 * plan the caller's daily quota within the account's pool; on a paid plan the account's bucket,
 * shared by all its callers, monthly usage counted.
 */
export function accountLimitRule(callerId: string, accountId: string, plan: PlanAllowance): LimitRule {
  if (!plan.planPaid) {
    return {
      kind: "daily",
      keyId: callerId,
      accountId,
      keyQuota: plan.dailyKeyQuota ?? 100,
      accountQuota: plan.dailyAccountQuota ?? 500,
    };
  }
  return {
    kind: "bucket",
    subject: `acct:${accountId}`,
    ratePerSecond: plan.ratePerSecond ?? 10,
    burst: plan.burst ?? 20,
    monthlyUsageOf: accountId,
  };
}

export function limitRuleFor(row: AuthKeyRow): LimitRule {
  if (row.kind === "organization") return { kind: "bucket", subject: `org:${row.orgId}`, ...MSE_ORG_RATE };
  return accountLimitRule(row.id, row.accountId as string, {
    planPaid: row.planPaid,
    dailyKeyQuota: row.dailyKeyQuota,
    dailyAccountQuota: row.dailyAccountQuota,
    ratePerSecond: row.accountRatePerSecond ?? row.planRatePerSecond,
    burst: row.accountBurst ?? row.planBurst,
  });
}

export function toAuthContext(row: AuthKeyRow): ApiKeyAuth {
  return {
    credential: "api_key",
    keyId: row.id,
    kind: row.kind,
    mode: row.kind === "secret_live" || row.kind === "organization" ? "live" : "test",
    accountId: row.accountId,
    orgId: row.orgId,
    planId: row.planId,
    scopes: row.scopes,
    origins: row.origins,
    limit: limitRuleFor(row),
  };
}

/** True when `origin` matches an allow-list entry; `*` in the port position matches any port. */
export function originAllowed(origin: string | undefined, allowList: readonly string[]): boolean {
  if (!origin) return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.origin !== origin) return false;
  return allowList.some((entry) => {
    if (entry === origin) return true;
    const wildcard = /^(https?:\/\/[^:/]+):\*$/.exec(entry);
    if (!wildcard) return false;
    return `${parsed.protocol}//${parsed.hostname}` === wildcard[1];
  });
}

/**
 * The kind/scope/plan checks after a key is known. Order: 403 for the wrong kind, origin or scope,
 * then 402 for a live key without a paid plan and production approval.
 */
export function authorize(row: AuthKeyRow, policy: RoutePolicy, origin: string | undefined): void {
  const family = row.kind === "secret_test" || row.kind === "secret_live" ? "secret" : row.kind;
  if (!policy.keys.includes(family)) {
    const why =
      family === "publishable"
        ? "Publishable keys can call only POST /v1/dmse/analyze."
        : family === "organization"
          ? "Organization keys can call only the MSE Record API."
          : "Secret keys cannot call this route; use an organization key with the right scope.";
    throw new ApiError("forbidden", why);
  }
  if (family === "publishable" && !originAllowed(origin, row.origins)) {
    throw new ApiError("forbidden", "This origin is not in the publishable key's allow-list.");
  }
  if (family === "organization" && policy.scope && !row.scopes.includes(policy.scope)) {
    throw new ApiError("forbidden", `This key lacks the ${policy.scope} scope.`);
  }
  if (row.kind === "secret_live") requirePaidPlan(row, "Live keys");
}

/** 402 for a live caller (`who`) unless its account has a paid plan and approved production access. */
export function requirePaidPlan(
  account: { planPaid: boolean | null; productionApproved: boolean | null },
  who: string,
): void {
  if (!(account.planPaid && account.productionApproved))
    throw new ApiError("payment_required", `${who} need a paid plan and approved production access.`);
}
