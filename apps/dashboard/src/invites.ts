import { createHash, randomBytes } from "node:crypto";
import {
  accounts,
  and,
  DASHBOARD_ROLES,
  type DashboardRole,
  type Db,
  dashboardInvites,
  dashboardMembers,
  dashboardUsers,
  eq,
  gt,
  isNull,
  organizations,
  RepoError,
  type SQL,
} from "@svc/db";
import { z } from "zod";
import { recordAudit } from "./audit.js";
import {
  isOrganization,
  sameWorkspace,
  type Workspace,
  workspaceColumns,
  workspaceLabel,
  workspaceOf,
} from "./workspace.js";

/** How long a set-password link works. */
export const INVITE_HOURS = 72;

export const InviteInputSchema = z.object({
  workspace: z.union([
    z.object({ accountId: z.string().min(1) }).strict(),
    z.object({ orgId: z.string().min(1) }).strict(),
  ]),
  email: z.email().max(254).optional(),
  role: z.enum(DASHBOARD_ROLES),
});
export type InviteInput = z.infer<typeof InviteInputSchema>;

/** Rows of a members or invites table that belong to `workspace`. */
function inWorkspace(table: typeof dashboardMembers | typeof dashboardInvites, workspace: Workspace): SQL {
  return isOrganization(workspace)
    ? eq(table.orgId, workspace.orgId)
    : eq(table.accountId, workspace.accountId);
}

/** The workspace exists (an unknown id is a RepoError the CLI prints). */
async function checkWorkspaceExists(db: Db, workspace: Workspace): Promise<void> {
  const found = isOrganization(workspace)
    ? await db
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.id, workspace.orgId))
    : await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, workspace.accountId));
  if (found.length === 0) throw new RepoError("not_found", `No ${workspaceLabel(workspace)}.`);
}

/** The workspace a user already works in, if any. */
export async function workspaceOfUser(db: Db, email: string): Promise<Workspace | null> {
  const [member] = await db
    .select({ accountId: dashboardMembers.accountId, orgId: dashboardMembers.orgId })
    .from(dashboardUsers)
    .innerJoin(dashboardMembers, eq(dashboardMembers.userId, dashboardUsers.id))
    .where(eq(dashboardUsers.email, email));
  return member ? workspaceOf(member) : null;
}

function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function inviteUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/$/, "")}/dashboard/invite/${token}`;
}

/**
 * A one-time set-password link for a user of an account or organization (the operator's
 * `svc users invite`, and the owner's link on first start, which has no email yet). Only the
 * token's hash is stored. An email already used in another workspace is refused: a user belongs
 * to one.
 */
export async function createInvite(
  db: Db,
  input: InviteInput,
  publicBaseUrl: string,
  options: { now?: Date; actor?: { userId: string; email: string } } = {},
) {
  const now = options.now ?? new Date();
  const parsed = InviteInputSchema.safeParse(input);
  if (!parsed.success)
    throw new RepoError("invalid", `Invalid invitation: ${parsed.error.issues[0]?.message ?? "bad input"}.`);
  const { workspace, role } = parsed.data;
  const email = parsed.data.email?.toLowerCase();
  await checkWorkspaceExists(db, workspace);
  if (email) {
    const current = await workspaceOfUser(db, email);
    if (current && !sameWorkspace(current, workspace))
      throw new RepoError("invalid", `${email} already belongs to another account or organization.`);
  }
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + INVITE_HOURS * 3600_000);
  const id = `inv_${randomBytes(12).toString("hex")}`;
  await db.insert(dashboardInvites).values({
    id,
    tokenHash: hashToken(token),
    ...workspaceColumns(workspace),
    email: email ?? null,
    role,
    expiresAt,
  });
  await recordAudit(db, {
    workspace,
    userId: options.actor?.userId ?? null,
    actorEmail: options.actor?.email ?? null,
    action: "user.invited",
    targetId: id,
    detail: { email: email ?? null, role },
  });
  return {
    inviteId: id,
    ...workspace,
    email: email ?? null,
    role,
    url: inviteUrl(publicBaseUrl, token),
    expiresAt,
  };
}

export interface OpenInvite {
  id: string;
  workspace: Workspace;
  email: string | null;
  role: DashboardRole;
}

/** The unused, unexpired invitation a link's token stands for, or null. */
export async function findOpenInvite(db: Db, token: string, now = new Date()): Promise<OpenInvite | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [row] = await db
    .select({
      id: dashboardInvites.id,
      accountId: dashboardInvites.accountId,
      orgId: dashboardInvites.orgId,
      email: dashboardInvites.email,
      role: dashboardInvites.role,
    })
    .from(dashboardInvites)
    .where(
      and(
        eq(dashboardInvites.tokenHash, hashToken(token)),
        isNull(dashboardInvites.usedAt),
        gt(dashboardInvites.expiresAt, now),
      ),
    );
  return row ? { id: row.id, workspace: workspaceOf(row), email: row.email, role: row.role } : null;
}

/** Mark an invitation used; false when another request used it first (the link is one-time). */
export async function claimInvite(db: Db, id: string, now = new Date()): Promise<boolean> {
  const claimed = await db
    .update(dashboardInvites)
    .set({ usedAt: now })
    .where(and(eq(dashboardInvites.id, id), isNull(dashboardInvites.usedAt)))
    .returning({ id: dashboardInvites.id });
  return claimed.length === 1;
}

/** The workspace's dashboard users and its invitations not yet used, for the owner's users page. */
export async function listWorkspaceUsers(db: Db, workspace: Workspace, now = new Date()) {
  const users = await db
    .select({
      userId: dashboardUsers.id,
      email: dashboardUsers.email,
      role: dashboardMembers.role,
      createdAt: dashboardMembers.createdAt,
    })
    .from(dashboardMembers)
    .innerJoin(dashboardUsers, eq(dashboardUsers.id, dashboardMembers.userId))
    .where(inWorkspace(dashboardMembers, workspace))
    .orderBy(dashboardUsers.email);
  const invites = await db
    .select({
      id: dashboardInvites.id,
      email: dashboardInvites.email,
      role: dashboardInvites.role,
      expiresAt: dashboardInvites.expiresAt,
    })
    .from(dashboardInvites)
    .where(
      and(
        inWorkspace(dashboardInvites, workspace),
        isNull(dashboardInvites.usedAt),
        gt(dashboardInvites.expiresAt, now),
      ),
    )
    .orderBy(dashboardInvites.createdAt);
  return { users, invites };
}

/**
 * Change a member's role, or remove them (their user, credentials and sessions go with it). The
 * workspace must keep an owner; another workspace's user is not found.
 */
export async function changeMember(
  db: Db,
  input: { workspace: Workspace; userId: string; role: DashboardRole | "removed" },
) {
  return db.transaction(async (tx) => {
    const members = await tx
      .select({ userId: dashboardMembers.userId, role: dashboardMembers.role })
      .from(dashboardMembers)
      .where(inWorkspace(dashboardMembers, input.workspace))
      .for("update");
    const member = members.find((m) => m.userId === input.userId);
    if (!member) throw new RepoError("not_found", "No such user here.");
    const owners = members.filter((m) => m.role === "owner").length;
    if (member.role === "owner" && input.role !== "owner" && owners === 1)
      throw new RepoError("invalid", "The account must keep an owner: make someone else owner first.");
    if (input.role === "removed") await tx.delete(dashboardUsers).where(eq(dashboardUsers.id, input.userId));
    else
      await tx
        .update(dashboardMembers)
        .set({ role: input.role })
        .where(eq(dashboardMembers.userId, input.userId));
    return { userId: input.userId, previousRole: member.role, role: input.role };
  });
}
