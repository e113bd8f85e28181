import { timingSafeEqual } from "node:crypto";
import { type DashboardRole, type Db, dashboardMembers, eq } from "@svc/db";
import type { Context } from "hono";
import { csrfTokenFor, type DashboardAuth } from "./auth.js";
import type { Viewer } from "./pages/layout.js";
import { workspaceOf } from "./workspace.js";

/** Who is signed in on this request, with their workspace, role and CSRF token; null if nobody. */
export async function viewerOf(
  c: Context,
  auth: DashboardAuth,
  db: Db,
  secret: string,
): Promise<(Viewer & { userId: string }) | null> {
  const session = await auth.api.getSession({ headers: c.req.raw.headers });
  if (!session) return null;
  const [member] = await db
    .select({
      accountId: dashboardMembers.accountId,
      orgId: dashboardMembers.orgId,
      role: dashboardMembers.role,
    })
    .from(dashboardMembers)
    .where(eq(dashboardMembers.userId, session.user.id));
  if (!member) return null;
  return {
    userId: session.user.id,
    email: session.user.email,
    role: member.role as DashboardRole,
    workspace: workspaceOf(member),
    twoFactorEnabled: session.user.twoFactorEnabled === true,
    csrf: csrfTokenFor(secret, session.session.id),
  };
}

/** A form's CSRF field matches the session's token (constant time). */
export function csrfMatches(expected: string, given: unknown): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A state change must come from a page of ours: the browser's Origin header names this service
 * (as the request reached us, or as the public base URL behind a TLS balancer).
 */
export function sameOrigin(c: Context, publicBaseUrl: string): boolean {
  const origin = c.req.header("origin");
  if (!origin) return false;
  return origin === new URL(c.req.url).origin || origin === new URL(publicBaseUrl).origin;
}
