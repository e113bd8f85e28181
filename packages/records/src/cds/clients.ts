import {
  accounts,
  and,
  type CdsFeedbackOutcome,
  cdsClients,
  type Db,
  desc,
  eq,
  isNull,
  plans,
  type StoredJwk,
  sql,
} from "@svc/db";
import { type CdsClientKeys, checkEhrUrl, checkPublicJwks, unusableKeyReason } from "@svc/ehr-gateway";
import { newId } from "@svc/ids";
import { Refusal } from "@svc/refusal";

/**
 * CDS clients: the EHRs an account lets call its CDS Hooks services (decisions 121 and 123).
 * Registered by the operator CLI (and the dashboard); looked up on every call by the account
 * whose path was called and the JWT `iss` (decision 147): an issuer belongs to no one, so several
 * accounts may register the same EHR and no registration says anything of another account.
 * Refusals are `Refusal`s (decision 206), which the CLI prints as `{ error }`.
 */

/** At most this many `jku` URLs per client. */
export const MAX_CLIENT_JKUS = 5;
/**
 * A listing shows at most this many clients, newest first (decision 149): the plan bounds the
 * active ones, but revoked ones accumulate.
 */
export const MAX_LISTED_CDS_CLIENTS = 200;

export interface RegisterCdsClientInput {
  accountId: string;
  iss: string;
  mode?: "test" | "live";
  /** Allowed `jku` URLs (exact match), or */
  jkus?: string[];
  /** an inline JWK Set (public keys only). */
  jwks?: unknown;
  /** Operator only: its `jku` and FHIR server may be on private addresses. */
  allowPrivate?: boolean;
  /** The operator's loopback setting: a test-mode client's `jku` may be on loopback. */
  allowLoopback?: boolean;
}

/** A client as listed (the CLI, the dashboard): its keys by kid, never more. */
export interface CdsClientSummary {
  id: string;
  accountId: string;
  iss: string;
  mode: "test" | "live";
  jkus: string[];
  keyIds: string[];
  allowPrivate: boolean;
  createdAt: string;
  revokedAt: string | null;
}

function summary(row: typeof cdsClients.$inferSelect): CdsClientSummary {
  return {
    id: row.id,
    accountId: row.accountId,
    iss: row.iss,
    mode: row.mode,
    jkus: row.jkus,
    keyIds: (row.jwks?.keys ?? []).map((k) => k.kid ?? ""),
    allowPrivate: row.allowPrivate,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** The issuer as registered: an absolute http(s) URI, at most 2048 characters. */
function checkedIss(iss: string): string {
  const value = iss.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Refusal(
      "invalid_request",
      "--iss must be the issuer's URL (the JWT iss claim), e.g. https://ehr.example.org.",
    );
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || value.length > 2048)
    throw new Refusal("invalid_request", "--iss must be an http(s) URL of at most 2048 characters.");
  return value;
}

/** The keys part: exactly one of allowed `jku`s and an inline JWK Set, each checked. */
function checkedKeys(input: RegisterCdsClientInput, mode: "test" | "live") {
  const jkus = input.jkus ?? [];
  if (jkus.length > 0 === (input.jwks !== undefined))
    throw new Refusal(
      "invalid_request",
      "Give exactly one of --jku (the EHR's JWK Set URL) and --jwks (a file with its public JWK Set).",
    );
  if (jkus.length > MAX_CLIENT_JKUS)
    throw new Refusal("invalid_request", `At most ${MAX_CLIENT_JKUS} jku URLs per client.`);
  const policy = {
    mode,
    allowPrivate: input.allowPrivate === true,
    allowLoopback: input.allowLoopback === true,
  };
  for (const jku of jkus) {
    const checked = checkEhrUrl(jku, policy);
    if (!checked.ok) throw new Refusal("invalid_request", checked.reason);
  }
  if (input.jwks === undefined) return { jkus, jwks: null };
  const checked = checkPublicJwks(input.jwks);
  if (!checked.ok) throw new Refusal("invalid_request", checked.reason);
  return { jkus, jwks: checked.jwks as { keys: StoredJwk[] } };
}

/**
 * Register a CDS client for an account: its `iss` (one active client per issuer in the account;
 * other accounts' clients are never looked at, decision 147), mode (default
 * test), allowed `jku`s or an inline public JWK Set, within the plan's number of active clients
 * (decision 123; the account row is locked so two registrations cannot both take the last place).
 */
export async function registerCdsClient(db: Db, input: RegisterCdsClientInput): Promise<CdsClientSummary> {
  const mode = input.mode ?? "test";
  if (mode !== "test" && mode !== "live")
    throw new Refusal("invalid_request", "--mode must be test or live.");
  const iss = checkedIss(input.iss);
  const keys = checkedKeys(input, mode);
  const unusable = keys.jwks ? await unusableKeyReason(keys.jwks) : null;
  if (unusable) throw new Refusal("invalid_request", unusable);
  return db.transaction(async (tx) => {
    const [account] = await tx
      .select({ id: accounts.id, planId: accounts.planId, limit: plans.cdsClientLimit })
      .from(accounts)
      .innerJoin(plans, eq(plans.id, accounts.planId))
      .where(eq(accounts.id, input.accountId))
      .for("update", { of: accounts });
    if (!account) throw new Refusal("not_found", `No account ${input.accountId}.`);
    const [active] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(cdsClients)
      .where(and(eq(cdsClients.accountId, account.id), isNull(cdsClients.revokedAt)));
    if (account.limit !== null && (active?.count ?? 0) >= account.limit)
      throw new Refusal(
        "invalid_request",
        `The ${account.planId} plan allows ${account.limit} active CDS clients; revoke one or change the plan.`,
      );
    const [taken] = await tx
      .select({ id: cdsClients.id })
      .from(cdsClients)
      .where(
        and(eq(cdsClients.accountId, account.id), eq(cdsClients.iss, iss), isNull(cdsClients.revokedAt)),
      );
    if (taken)
      throw new Refusal(
        "invalid_request",
        `This account already has an active CDS client for the issuer ${iss} (${taken.id}); revoke it first.`,
      );
    const [row] = await tx
      .insert(cdsClients)
      .values({
        id: newId("cdscl"),
        accountId: account.id,
        iss,
        mode,
        jkus: keys.jkus,
        jwks: keys.jwks,
        allowPrivate: input.allowPrivate === true,
      })
      .returning();
    return summary(row as typeof cdsClients.$inferSelect);
  });
}

/** An account's clients, newest first, revoked ones included; at most MAX_LISTED_CDS_CLIENTS. */
export async function listCdsClients(db: Db, accountId: string): Promise<{ clients: CdsClientSummary[] }> {
  const rows = await db
    .select()
    .from(cdsClients)
    .where(eq(cdsClients.accountId, accountId))
    .orderBy(desc(cdsClients.createdAt), desc(cdsClients.id))
    .limit(MAX_LISTED_CDS_CLIENTS);
  return { clients: rows.map(summary) };
}

/**
 * Revoke a client: its next call is refused (no cache). Revoking a revoked client answers its
 * first revocation. With `accountId`, only that account's client (the dashboard).
 */
export async function revokeCdsClient(
  db: Db,
  id: string,
  options: { accountId?: string } = {},
): Promise<{ id: string; revokedAt: string }> {
  const scope = options.accountId
    ? and(eq(cdsClients.id, id), eq(cdsClients.accountId, options.accountId))
    : eq(cdsClients.id, id);
  const [updated] = await db
    .update(cdsClients)
    .set({ revokedAt: new Date() })
    .where(and(scope, isNull(cdsClients.revokedAt)))
    .returning({ id: cdsClients.id, revokedAt: cdsClients.revokedAt });
  if (updated) return { id: updated.id, revokedAt: (updated.revokedAt as Date).toISOString() };
  const [existing] = await db.select({ revokedAt: cdsClients.revokedAt }).from(cdsClients).where(scope);
  if (!existing?.revokedAt) throw new Refusal("not_found", `No CDS client ${id}.`);
  return { id, revokedAt: existing.revokedAt.toISOString() };
}

/** A client as a CDS call needs it: its keys, and its account's plan for the rate limit. */
export interface CdsCaller extends CdsClientKeys {
  accountId: string;
  planId: string;
  planPaid: boolean;
  productionApproved: boolean;
  dailyKeyQuota: number | null;
  dailyAccountQuota: number | null;
  ratePerSecond: number | null;
  burst: number | null;
}

/**
 * The client of a JWT `iss` within the account whose CDS Hooks path was called (decision 147):
 * the active one, else the latest revoked one (so the log can say it was revoked), or null.
 * Another account's client of the same issuer is never found. One query, no cache: a
 * revocation holds on the next call.
 */
export async function findCdsClient(db: Db, accountId: string, iss: string): Promise<CdsCaller | null> {
  const [row] = await db
    .select({
      client: cdsClients,
      planId: plans.id,
      planPaid: plans.paid,
      productionApproved: accounts.productionApproved,
      dailyKeyQuota: plans.dailyKeyQuota,
      dailyAccountQuota: plans.dailyAccountQuota,
      ratePerSecond: sql<number | null>`coalesce(${accounts.ratePerSecond}, ${plans.ratePerSecond})`,
      burst: sql<number | null>`coalesce(${accounts.burst}, ${plans.burst})`,
    })
    .from(cdsClients)
    .innerJoin(accounts, eq(accounts.id, cdsClients.accountId))
    .innerJoin(plans, eq(plans.id, accounts.planId))
    .where(and(eq(cdsClients.accountId, accountId), eq(cdsClients.iss, iss)))
    .orderBy(sql`${cdsClients.revokedAt} is not null`, desc(cdsClients.revokedAt))
    .limit(1);
  if (!row) return null;
  const { client, ...plan } = row;
  return {
    id: client.id,
    iss: client.iss,
    mode: client.mode,
    allowPrivate: client.allowPrivate,
    jkus: client.jkus,
    jwks: client.jwks,
    revokedAt: client.revokedAt,
    accountId: client.accountId,
    ...plan,
  };
}

/** The largest JWK Set the service reads (a fetched one, or the CLI's file). */
export { JWKS_MAX_BYTES } from "@svc/ehr-gateway";
export type { CdsFeedbackOutcome };
