import { newId } from "@svc/ids";
import { Refusal } from "@svc/refusal";
import { and, asc, eq, gt, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "./client.js";
import { generateKey } from "./keys.js";
import { accounts, apiKeys, type KeyKind, organizations, plans } from "./schema.js";

export const PLAN_IDS = ["sandbox", "launch", "scale", "enterprise"] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export const MSE_SCOPES = ["mse:read", "mse:write", "mse:sign"] as const;
export type MseScope = (typeof MSE_SCOPES)[number];
export const ACCOUNT_KEY_KINDS = ["secret_test", "secret_live", "publishable"] as const;

/** Today's date, the event `apiVersion` pinned on a new account (decision 37). */
export function apiVersionFor(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export interface CreateAccountInput {
  name: string;
  plan?: PlanId;
  production?: boolean;
  ratePerSecond?: number;
  burst?: number;
  now?: Date;
}

export async function createAccount(db: Db, input: CreateAccountInput) {
  const plan = input.plan ?? "sandbox";
  if (!PLAN_IDS.includes(plan)) throw new Refusal("invalid_request", `Unknown plan "${plan}".`);
  if (!input.name.trim()) throw new Refusal("invalid_request", "An account needs a name.");
  if ((input.ratePerSecond !== undefined || input.burst !== undefined) && plan !== "enterprise") {
    throw new Refusal("invalid_request", "--rate and --burst apply to enterprise accounts only.");
  }
  for (const [flag, value] of [
    ["--rate", input.ratePerSecond],
    ["--burst", input.burst],
  ] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > 1_000_000)) {
      throw new Refusal("invalid_request", `${flag} must be a whole number from 1 to 1000000.`);
    }
  }
  const row = {
    id: newId("acct"),
    name: input.name.trim(),
    planId: plan,
    productionApproved: input.production ?? false,
    ratePerSecond: input.ratePerSecond ?? null,
    burst: input.burst ?? null,
    apiVersion: apiVersionFor(input.now ?? new Date()),
  };
  await db.insert(accounts).values(row);
  return { id: row.id, name: row.name, plan, production: row.productionApproved };
}

export async function createOrganization(db: Db, input: { name: string }) {
  if (!input.name.trim()) throw new Refusal("invalid_request", "An organization needs a name.");
  const row = { id: newId("org"), name: input.name.trim() };
  await db.insert(organizations).values(row);
  return row;
}

export interface CreateKeyInput {
  kind: string;
  accountId?: string;
  orgId?: string;
  scopes?: string[];
  origins?: string[];
}

export interface CreatedKey {
  id: string;
  key: string;
  kind: KeyKind;
  prefix: string;
  accountId?: string;
  orgId?: string;
  scopes?: string[];
  origins?: string[];
}

const ORIGIN_PATTERN = /^https?:\/\/[A-Za-z0-9.-]+(:(\d{1,5}|\*))?$/;
/** The part after the host: `:` and whatever the port was meant to be. */
const PORT_PART = /^https?:\/\/[A-Za-z0-9.-]+:(.*)$/;

/**
 * A publishable key's allow-list: each entry an origin, `*` only as the port (DESIGN ruling 2). A
 * port is 1 to 65535: a browser never sends port 0 or 99999 in an Origin, so such an entry could
 * only be a typo that silently never matches; it is refused with the reason.
 */
export function checkOrigins(origins: string[]): void {
  for (const origin of origins) {
    const port = PORT_PART.exec(origin)?.[1];
    if (port !== undefined && port !== "*" && !(/^\d{1,5}$/.test(port) && +port >= 1 && +port <= 65535))
      throw new Refusal(
        "invalid_request",
        `"${origin}" has port "${port}": a port is a number from 1 to 65535, or * for any port.`,
      );
    if (!ORIGIN_PATTERN.test(origin))
      throw new Refusal(
        "invalid_request",
        `"${origin}" is not an origin like https://app.example.com or http://localhost:*.`,
      );
  }
}

export async function createApiKey(db: Db, input: CreateKeyInput): Promise<CreatedKey> {
  const kind = input.kind as KeyKind;
  if (kind === "organization") {
    if (!input.orgId || input.accountId)
      throw new Refusal("invalid_request", "An organization key needs --org (and no --account).");
    const scopes = input.scopes ?? [];
    if (scopes.length === 0)
      throw new Refusal("invalid_request", "An organization key needs --scopes, e.g. mse:read,mse:write.");
    const bad = scopes.filter((s) => !(MSE_SCOPES as readonly string[]).includes(s));
    if (bad.length)
      throw new Refusal(
        "invalid_request",
        `Unknown scope "${bad[0]}"; valid scopes: ${MSE_SCOPES.join(", ")}.`,
      );
    const [org] = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, input.orgId));
    if (!org) throw new Refusal("not_found", `No organization with id "${input.orgId}".`);
    const generated = generateKey(kind);
    const id = newId("key");
    const uniqueScopes = [...new Set(scopes)];
    await db.insert(apiKeys).values({
      id,
      kind,
      orgId: org.id,
      keyHash: generated.hash,
      displayPrefix: generated.displayPrefix,
      scopes: uniqueScopes,
    });
    return {
      id,
      key: generated.key,
      kind,
      prefix: generated.displayPrefix,
      orgId: org.id,
      scopes: uniqueScopes,
    };
  }
  if (!(ACCOUNT_KEY_KINDS as readonly string[]).includes(kind)) {
    throw new Refusal(
      "invalid_request",
      `Unknown key kind "${input.kind}"; valid kinds: ${[...ACCOUNT_KEY_KINDS, "organization"].join(", ")}.`,
    );
  }
  if (!input.accountId || input.orgId)
    throw new Refusal("invalid_request", `A ${kind} key needs --account (and no --org).`);
  if (input.scopes?.length) throw new Refusal("invalid_request", "Scopes apply to organization keys only.");
  const origins = input.origins ?? [];
  if (kind !== "publishable" && origins.length)
    throw new Refusal("invalid_request", "Origins apply to publishable keys only.");
  if (kind === "publishable" && origins.length === 0) {
    throw new Refusal("invalid_request", "A publishable key needs --origins, e.g. https://app.example.com.");
  }
  checkOrigins(origins);
  const [account] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.id, input.accountId));
  if (!account) throw new Refusal("not_found", `No account with id "${input.accountId}".`);
  const generated = generateKey(kind);
  const id = newId("key");
  await db.insert(apiKeys).values({
    id,
    kind,
    accountId: account.id,
    keyHash: generated.hash,
    displayPrefix: generated.displayPrefix,
    origins,
  });
  return {
    id,
    key: generated.key,
    kind,
    prefix: generated.displayPrefix,
    accountId: account.id,
    ...(kind === "publishable" ? { origins } : {}),
  };
}

export async function revokeApiKey(db: Db, id: string, now: Date = new Date()) {
  const updated = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), stillWorks(now)))
    .returning({ id: apiKeys.id, revokedAt: apiKeys.revokedAt });
  if (updated[0]?.revokedAt) return { id: updated[0].id, revokedAt: updated[0].revokedAt.toISOString() };
  const [existing] = await db
    .select({ id: apiKeys.id, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.id, id));
  if (!existing) throw new Refusal("not_found", `No key with id "${id}".`);
  // Revoking twice is harmless: report when it was revoked.
  return { id: existing.id, revokedAt: (existing.revokedAt as Date).toISOString() };
}

/** Everything the auth middleware needs about a key, in one query (the hot path's only one). */
export async function findKeyForAuth(db: Db, keyHash: string) {
  const [row] = await db
    .select({
      id: apiKeys.id,
      kind: apiKeys.kind,
      keyHash: apiKeys.keyHash,
      accountId: apiKeys.accountId,
      orgId: apiKeys.orgId,
      scopes: apiKeys.scopes,
      origins: apiKeys.origins,
      revokedAt: apiKeys.revokedAt,
      planId: plans.id,
      planPaid: plans.paid,
      dailyKeyQuota: plans.dailyKeyQuota,
      dailyAccountQuota: plans.dailyAccountQuota,
      planRatePerSecond: plans.ratePerSecond,
      planBurst: plans.burst,
      monthlyAllowance: plans.monthlyAllowance,
      productionApproved: accounts.productionApproved,
      accountRatePerSecond: accounts.ratePerSecond,
      accountBurst: accounts.burst,
    })
    .from(apiKeys)
    .leftJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .leftJoin(plans, eq(plans.id, accounts.planId))
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  return row ?? null;
}
export type AuthKeyRow = NonNullable<Awaited<ReturnType<typeof findKeyForAuth>>>;

export async function countAccounts(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(accounts);
  return row?.n ?? 0;
}

/** The oldest account (on an embedded start, the sandbox one the first start created), or null. */
export async function oldestAccountId(db: Db): Promise<string | null> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .orderBy(asc(accounts.createdAt), asc(accounts.id))
    .limit(1);
  return row?.id ?? null;
}

/** Every origin some active publishable key allows (CORS preflight carries no key to look up). */
export async function publishableOrigins(db: Db): Promise<string[]> {
  const rows = await db
    .select({ origins: apiKeys.origins })
    .from(apiKeys)
    .where(and(eq(apiKeys.kind, "publishable"), stillWorks(new Date())));
  return [...new Set(rows.flatMap((r) => r.origins))];
}

/** A key that still works at `now`: never revoked, or rolled and inside its grace period. */
function stillWorks(now: Date): SQL {
  return or(isNull(apiKeys.revokedAt), gt(apiKeys.revokedAt, now)) as SQL;
}

/** Whose keys: an account's (intelligence API) or an organization's (MSE Record API). */
export type KeyOwner = { accountId: string } | { orgId: string };

/** The SQL condition "this key belongs to `owner`". */
export function keyOwnerMatch(owner: KeyOwner): SQL {
  return "accountId" in owner ? eq(apiKeys.accountId, owner.accountId) : eq(apiKeys.orgId, owner.orgId);
}

/** An owner's keys, newest first, revoked ones included (never a hash or a key). */
export async function listKeys(db: Db, owner: KeyOwner) {
  return db
    .select({
      id: apiKeys.id,
      kind: apiKeys.kind,
      prefix: apiKeys.displayPrefix,
      origins: apiKeys.origins,
      scopes: apiKeys.scopes,
      createdAt: apiKeys.createdAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(keyOwnerMatch(owner))
    .orderBy(sql`${apiKeys.createdAt} desc`, apiKeys.id);
}

/**
 * Replace the origin allow-list of an account's active publishable key (the same rules as
 * `keys create --origins`). Another account's key, or a revoked or secret one, is not found.
 */
export async function setPublishableOrigins(
  db: Db,
  input: { accountId: string; keyId: string; origins: string[] },
) {
  const origins = [...new Set(input.origins)];
  if (origins.length === 0)
    throw new Refusal("invalid_request", "A publishable key needs at least one origin.");
  checkOrigins(origins);
  const [updated] = await db
    .update(apiKeys)
    .set({ origins })
    .where(
      and(
        eq(apiKeys.id, input.keyId),
        eq(apiKeys.accountId, input.accountId),
        eq(apiKeys.kind, "publishable"),
        isNull(apiKeys.revokedAt),
      ),
    )
    .returning({ id: apiKeys.id, origins: apiKeys.origins });
  if (!updated) throw new Refusal("not_found", `No active publishable key with id "${input.keyId}".`);
  return updated;
}

/** The longest grace period a rolled key may keep working for (7 days, in hours). */
export const MAX_ROLL_GRACE_HOURS = 168;

/**
 * Roll a key: a new key of the same kind (and origins or scopes) is created in the same
 * transaction, and the old one stops working at once or, with `graceHours`, that many hours later
 * (so a deployment can switch over without failed requests). A key already rolled is not rolled
 * again.
 */
export async function rollApiKey(
  db: Db,
  input: { owner: KeyOwner; keyId: string; graceHours?: number },
  now = new Date(),
) {
  const graceHours = input.graceHours ?? 0;
  if (!Number.isInteger(graceHours) || graceHours < 0 || graceHours > MAX_ROLL_GRACE_HOURS)
    throw new Refusal(
      "invalid_request",
      `The grace period is a whole number of hours, 0 to ${MAX_ROLL_GRACE_HOURS}.`,
    );
  return db.transaction(async (tx) => {
    const [old] = await tx
      .select({ id: apiKeys.id, kind: apiKeys.kind, origins: apiKeys.origins, scopes: apiKeys.scopes })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, input.keyId), keyOwnerMatch(input.owner), isNull(apiKeys.revokedAt)));
    if (!old) throw new Refusal("not_found", `No active key with id "${input.keyId}".`);
    const created = await createApiKey(tx, {
      kind: old.kind,
      ...input.owner,
      origins: old.kind === "publishable" ? old.origins : undefined,
      scopes: old.kind === "organization" ? old.scopes : undefined,
    });
    const oldStopsAt = new Date(now.getTime() + graceHours * 3_600_000);
    await tx.update(apiKeys).set({ revokedAt: oldStopsAt }).where(eq(apiKeys.id, old.id));
    return { ...created, replaced: old.id, oldStopsAt };
  });
}
