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
  RepoError,
} from "@svc/db";
import { z } from "zod";
import { recordAudit } from "./audit.js";

/** How long a set-password link works. */
export const INVITE_HOURS = 72;

export const InviteInputSchema = z.object({
  accountId: z.string().min(1),
  email: z.email().max(254).optional(),
  role: z.enum(DASHBOARD_ROLES),
});
export type InviteInput = z.infer<typeof InviteInputSchema>;

function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function inviteUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/$/, "")}/dashboard/invite/${token}`;
}

/**
 * A one-time set-password link for a user of an account (the operator's `svc users invite`, and
 * the owner's link on first start, which has no email yet). Only the token's hash is stored.
 * An email already used in another account is refused: a user belongs to one account.
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
  const { accountId, role } = parsed.data;
  const email = parsed.data.email?.toLowerCase();
  const [account] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw new RepoError("not_found", `No account with id "${accountId}".`);
  if (email) {
    const [member] = await db
      .select({ accountId: dashboardMembers.accountId })
      .from(dashboardUsers)
      .innerJoin(dashboardMembers, eq(dashboardMembers.userId, dashboardUsers.id))
      .where(eq(dashboardUsers.email, email));
    if (member && member.accountId !== accountId)
      throw new RepoError("invalid", `${email} already belongs to another account.`);
  }
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + INVITE_HOURS * 3600_000);
  const id = `inv_${randomBytes(12).toString("hex")}`;
  await db.insert(dashboardInvites).values({
    id,
    tokenHash: hashToken(token),
    accountId,
    email: email ?? null,
    role,
    expiresAt,
  });
  await recordAudit(db, {
    accountId,
    userId: options.actor?.userId ?? null,
    actorEmail: options.actor?.email ?? null,
    action: "user.invited",
    targetId: id,
    detail: { email: email ?? null, role },
  });
  return {
    inviteId: id,
    accountId,
    email: email ?? null,
    role,
    url: inviteUrl(publicBaseUrl, token),
    expiresAt,
  };
}

export interface OpenInvite {
  id: string;
  accountId: string;
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
  return row ?? null;
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

/** The account's dashboard users and its invitations not yet used, for the owner's users page. */
export async function listAccountUsers(db: Db, accountId: string, now = new Date()) {
  const users = await db
    .select({
      userId: dashboardUsers.id,
      email: dashboardUsers.email,
      role: dashboardMembers.role,
      createdAt: dashboardMembers.createdAt,
    })
    .from(dashboardMembers)
    .innerJoin(dashboardUsers, eq(dashboardUsers.id, dashboardMembers.userId))
    .where(eq(dashboardMembers.accountId, accountId))
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
        eq(dashboardInvites.accountId, accountId),
        isNull(dashboardInvites.usedAt),
        gt(dashboardInvites.expiresAt, now),
      ),
    )
    .orderBy(dashboardInvites.createdAt);
  return { users, invites };
}

/**
 * Change a member's role, or remove them (their user, credentials and sessions go with it). The
 * account must keep an owner; another account's user is not found.
 */
export async function changeMember(
  db: Db,
  input: { accountId: string; userId: string; role: DashboardRole | "removed" },
) {
  return db.transaction(async (tx) => {
    const members = await tx
      .select({ userId: dashboardMembers.userId, role: dashboardMembers.role })
      .from(dashboardMembers)
      .where(eq(dashboardMembers.accountId, input.accountId))
      .for("update");
    const member = members.find((m) => m.userId === input.userId);
    if (!member) throw new RepoError("not_found", "No such user in this account.");
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
