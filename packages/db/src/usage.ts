import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "./client.js";
import { type KeyOwner, keyOwnerMatch } from "./repo.js";
import { accounts, apiKeys, apiUsageDaily, plans } from "./schema.js";

/** Requests of one key on one operation and UTC day, to add to what is stored. */
export interface UsageCount {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  keyId: string;
  operation: string;
  requests: number;
  rateLimited: number;
}

/**
 * Add counted requests to the daily usage rows and move each key's `last_used_at` forward (never
 * back: replicas flush in any order). One statement for the counts, one per key for last use.
 */
export async function addApiUsage(
  db: Db,
  counts: readonly UsageCount[],
  lastUsed: ReadonlyMap<string, Date>,
): Promise<void> {
  if (counts.length === 0 && lastUsed.size === 0) return;
  await db.transaction(async (tx) => {
    if (counts.length > 0) {
      await tx
        .insert(apiUsageDaily)
        .values(counts.map((c) => ({ ...c })))
        .onConflictDoUpdate({
          target: [apiUsageDaily.day, apiUsageDaily.keyId, apiUsageDaily.operation],
          set: {
            requests: sql`${apiUsageDaily.requests} + excluded.requests`,
            rateLimited: sql`${apiUsageDaily.rateLimited} + excluded.rate_limited`,
          },
        });
    }
    for (const [keyId, date] of lastUsed) {
      const at = sql`${date.toISOString()}::timestamptz`;
      await tx
        .update(apiKeys)
        .set({ lastUsedAt: sql`greatest(${apiKeys.lastUsedAt}, ${at})` })
        .where(eq(apiKeys.id, keyId));
    }
  });
}

export interface UsageRow {
  day: string;
  keyId: string;
  keyKind: string;
  keyPrefix: string;
  operation: string;
  requests: number;
  rateLimited: number;
}

/** The owner's usage rows from `since` (a `YYYY-MM-DD` UTC day) on, oldest day first. */
export async function listApiUsage(db: Db, owner: KeyOwner, since: string): Promise<UsageRow[]> {
  return db
    .select({
      day: apiUsageDaily.day,
      keyId: apiUsageDaily.keyId,
      keyKind: apiKeys.kind,
      keyPrefix: apiKeys.displayPrefix,
      operation: apiUsageDaily.operation,
      requests: apiUsageDaily.requests,
      rateLimited: apiUsageDaily.rateLimited,
    })
    .from(apiUsageDaily)
    .innerJoin(apiKeys, eq(apiKeys.id, apiUsageDaily.keyId))
    .where(and(keyOwnerMatch(owner), gte(apiUsageDaily.day, since)))
    .orderBy(apiUsageDaily.day, apiUsageDaily.keyId, apiUsageDaily.operation);
}

/** The limits an account's usage is measured against: its plan's (decisions 30, 46). */
export async function accountPlanLimits(db: Db, accountId: string) {
  const [row] = await db
    .select({
      planId: plans.id,
      planName: plans.displayName,
      paid: plans.paid,
      dailyKeyQuota: plans.dailyKeyQuota,
      dailyAccountQuota: plans.dailyAccountQuota,
      ratePerSecond: sql<number | null>`coalesce(${accounts.ratePerSecond}, ${plans.ratePerSecond})`,
      burst: sql<number | null>`coalesce(${accounts.burst}, ${plans.burst})`,
      monthlyAllowance: plans.monthlyAllowance,
    })
    .from(accounts)
    .innerJoin(plans, eq(plans.id, accounts.planId))
    .where(eq(accounts.id, accountId));
  return row ?? null;
}
