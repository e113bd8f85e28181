import { and, type Db, type DbOrTx, dashboardAuditLog, desc, eq, isNull } from "@svc/db";
import { isOrganization, type Workspace, workspaceColumns } from "./workspace.js";

export interface AuditEntry {
  workspace: Workspace;
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
    ...workspaceColumns(entry.workspace),
    userId: entry.userId ?? null,
    actorEmail: entry.actorEmail ?? null,
    action: entry.action,
    targetId: entry.targetId ?? null,
    detail: entry.detail ?? {},
  });
}

/** The workspace's most recent changes, newest first. */
export async function listAudit(db: Db, workspace: Workspace, limit = 200) {
  const match = isOrganization(workspace)
    ? eq(dashboardAuditLog.orgId, workspace.orgId)
    : and(eq(dashboardAuditLog.accountId, workspace.accountId), isNull(dashboardAuditLog.orgId));
  return db.select().from(dashboardAuditLog).where(match).orderBy(desc(dashboardAuditLog.id)).limit(limit);
}
