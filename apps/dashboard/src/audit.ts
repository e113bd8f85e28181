import { type Db, type DbOrTx, dashboardAuditLog, desc, eq } from "@svc/db";

export interface AuditEntry {
  accountId: string;
  userId?: string | null;
  actorEmail?: string | null;
  /** What was done, `resource.verb`, e.g. `key.created`. */
  action: string;
  targetId?: string | null;
  /** Non-secret facts about the change (kind, url, origins); never a key or signing secret. */
  detail?: Record<string, unknown>;
}

export async function recordAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(dashboardAuditLog).values({
    accountId: entry.accountId,
    userId: entry.userId ?? null,
    actorEmail: entry.actorEmail ?? null,
    action: entry.action,
    targetId: entry.targetId ?? null,
    detail: entry.detail ?? {},
  });
}

/** The account's most recent changes, newest first. */
export async function listAudit(db: Db, accountId: string, limit = 200) {
  return db
    .select()
    .from(dashboardAuditLog)
    .where(eq(dashboardAuditLog.accountId, accountId))
    .orderBy(desc(dashboardAuditLog.id))
    .limit(limit);
}
