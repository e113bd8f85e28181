import {
  accounts,
  type DashboardRole,
  type Db,
  dashboardMembers,
  dashboardSessionWorkspaces,
  desc,
  eq,
  organizations,
  sql,
} from "@svc/db";
import { workspaceOf } from "@svc/records";
import type { Context } from "hono";
import { csrfTokenFor, type DashboardAuth } from "./auth.js";
import type { Viewer, WorkspaceChoice } from "./pages/layout.js";

/** The workspaces a user works in, most recently joined first, with their names and roles. */
export async function membershipsOf(db: Db, userId: string) {
  return db
    .select({
      workspaceId: dashboardMembers.workspaceId,
      accountId: dashboardMembers.accountId,
      orgId: dashboardMembers.orgId,
      role: dashboardMembers.role,
      name: sql<string>`coalesce(${accounts.name}, ${organizations.name})`,
    })
    .from(dashboardMembers)
    .leftJoin(accounts, eq(accounts.id, dashboardMembers.accountId))
    .leftJoin(organizations, eq(organizations.id, dashboardMembers.orgId))
    .where(eq(dashboardMembers.userId, userId))
    .orderBy(desc(dashboardMembers.createdAt), dashboardMembers.workspaceId);
}

/**
 * Who is signed in on this request, with the workspace the session works in, their role there,
 * their other workspaces and the CSRF token; null if nobody (or a user in no workspace). The
 * session's chosen workspace counts only while the user is still a member of it; otherwise, or
 * when none was chosen, it is the workspace the user joined most recently (decision 84).
 */
export async function viewerOf(
  c: Context,
  auth: DashboardAuth,
  db: Db,
  secret: string,
): Promise<(Viewer & { userId: string; sessionId: string }) | null> {
  const session = await auth.api.getSession({ headers: c.req.raw.headers });
  if (!session) return null;
  const [memberships, [chosen]] = await Promise.all([
    membershipsOf(db, session.user.id),
    db
      .select({ workspaceId: dashboardSessionWorkspaces.workspaceId })
      .from(dashboardSessionWorkspaces)
      .where(eq(dashboardSessionWorkspaces.sessionId, session.session.id)),
  ]);
  const active = memberships.find((m) => m.workspaceId === chosen?.workspaceId) ?? memberships[0];
  if (!active) return null;
  const workspaces: WorkspaceChoice[] = memberships.map((m) => ({
    id: m.workspaceId,
    name: m.name,
    role: m.role as DashboardRole,
    organization: m.orgId !== null,
  }));
  return {
    userId: session.user.id,
    sessionId: session.session.id,
    email: session.user.email,
    role: active.role as DashboardRole,
    workspace: workspaceOf(active),
    workspaces,
    twoFactorEnabled: session.user.twoFactorEnabled === true,
    csrf: csrfTokenFor(secret, session.session.id),
  };
}

/**
 * Make `workspaceId` the session's workspace; false if the user is not a member of it (the
 * choice is checked again on every request by `viewerOf`).
 */
export async function chooseWorkspace(
  db: Db,
  viewer: { userId: string; sessionId: string },
  workspaceId: string,
): Promise<boolean> {
  const memberships = await membershipsOf(db, viewer.userId);
  if (!memberships.some((m) => m.workspaceId === workspaceId)) return false;
  await db
    .insert(dashboardSessionWorkspaces)
    .values({ sessionId: viewer.sessionId, workspaceId })
    .onConflictDoUpdate({
      target: dashboardSessionWorkspaces.sessionId,
      set: { workspaceId, updatedAt: new Date() },
    });
  return true;
}
