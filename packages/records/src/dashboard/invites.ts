import { createHash, randomBytes } from "node:crypto";
import {
  accounts,
  and,
  DASHBOARD_ROLES,
  type DashboardRole,
  type Db,
  dashboardCredentials,
  dashboardInvites,
  dashboardMembers,
  dashboardSessions,
  dashboardUsers,
  eq,
  gt,
  isNull,
  organizations,
  type SQL,
  sql,
} from "@svc/db";
import { Refusal } from "@svc/refusal";
import { z } from "zod";
import { recordAudit } from "./audit.js";
import {
  isOrganization,
  type Workspace,
  workspaceColumns,
  workspaceIdOf,
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

/** The workspace exists (an unknown id is a Refusal the CLI prints). */
async function checkWorkspaceExists(db: Db, workspace: Workspace): Promise<void> {
  const found = isOrganization(workspace)
    ? await db
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.id, workspace.orgId))
    : await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, workspace.accountId));
  if (found.length === 0) throw new Refusal("not_found", `No ${workspaceLabel(workspace)}.`);
}

/** The password hash of the dashboard user with this email, if there is one with a password. */
export async function passwordHashOf(db: Db, email: string): Promise<string | null> {
  const [row] = await db
    .select({ password: dashboardCredentials.password })
    .from(dashboardUsers)
    .innerJoin(dashboardCredentials, eq(dashboardCredentials.userId, dashboardUsers.id))
    .where(and(eq(dashboardUsers.email, email), eq(dashboardCredentials.providerId, "credential")));
  return row?.password ?? null;
}

function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function inviteUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/$/, "")}/dashboard/invite/${token}`;
}

/**
 * A one-time link that makes its holder a member of an account or organization (the operator's
 * `svc users invite`, the owner's link on first start, which has no email yet, and an owner's
 * invitation from the users page). Only the token's hash is stored. Any email may be invited: a
 * person may work in several workspaces (decision 83), and whether the email already signs in
 * anywhere is neither checked nor told here. A link made without an actor is the operator's: only
 * such a link may set the password of an email that already signs in.
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
    throw new Refusal(
      "invalid_request",
      `Invalid invitation: ${parsed.error.issues[0]?.message ?? "bad input"}.`,
    );
  const { workspace, role } = parsed.data;
  const email = parsed.data.email?.toLowerCase();
  await checkWorkspaceExists(db, workspace);
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + INVITE_HOURS * 3600_000);
  const id = `inv_${randomBytes(12).toString("hex")}`;
  await db.insert(dashboardInvites).values({
    id,
    tokenHash: hashToken(token),
    ...workspaceColumns(workspace),
    email: email ?? null,
    role,
    byOperator: options.actor === undefined,
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
  /** Made by the operator: may set the password of an email that already signs in. */
  byOperator: boolean;
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
      byOperator: dashboardInvites.byOperator,
    })
    .from(dashboardInvites)
    .where(
      and(
        eq(dashboardInvites.tokenHash, hashToken(token)),
        isNull(dashboardInvites.usedAt),
        gt(dashboardInvites.expiresAt, now),
      ),
    );
  return row
    ? {
        id: row.id,
        workspace: workspaceOf(row),
        email: row.email,
        role: row.role,
        byOperator: row.byOperator,
      }
    : null;
}

/**
 * How a link is accepted for an email: `create` a user with the new password (nobody signs in
 * with it yet), `reset` the password (an operator's link for an email that signs in already), or
 * `join` as the user who signs in with it (their current password, so a link's holder cannot take
 * over someone else's sign-in).
 */
export type AcceptMode = "create" | "reset" | "join";

export function acceptModeOf(invite: OpenInvite, userExists: boolean): AcceptMode {
  if (!userExists) return "create";
  return invite.byOperator ? "reset" : "join";
}

export type AcceptOutcome =
  | { outcome: "accepted"; userId: string; mode: AcceptMode }
  /** The link was used (or expired) meanwhile. */
  | { outcome: "used" }
  /** `join`: the password given is not the user's current one. */
  | { outcome: "wrong_password" }
  /** The email's user appeared, went or changed password between the form's checks and now. */
  | { outcome: "changed"; mode: AcceptMode };

/**
 * Accept an invitation in one transaction (decision 85): the email's rows are locked (a transaction-scoped
 * advisory lock on the email, taken before anything is read, as the user may not exist yet), so
 * two links for one email claimed at once run one after the other, and what was checked is what
 * is written. The slow work is done by the caller before: `passwordHash` is the new password's
 * hash, `verifiedHash` the stored hash the given password was verified against (null if it was
 * not, or there was none). The link gives a membership in its own workspace only: a membership
 * the user has there already keeps its role (the users page changes roles), and memberships of
 * other workspaces are never read for a decision nor written.
 */
export async function acceptInvite(
  db: Db,
  input: {
    invite: OpenInvite;
    email: string;
    passwordHash: string;
    verifiedHash: string | null;
    expectedMode: AcceptMode;
  },
  now = new Date(),
): Promise<AcceptOutcome> {
  const { invite, email } = input;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`dashboard-user:${email}`}))`);
    const [open] = await tx
      .select({ id: dashboardInvites.id })
      .from(dashboardInvites)
      .where(
        and(
          eq(dashboardInvites.id, invite.id),
          isNull(dashboardInvites.usedAt),
          gt(dashboardInvites.expiresAt, now),
        ),
      )
      .for("update");
    if (!open) return { outcome: "used" };
    const [user] = await tx
      .select({ id: dashboardUsers.id })
      .from(dashboardUsers)
      .where(eq(dashboardUsers.email, email))
      .for("update");
    const mode = acceptModeOf(invite, user !== undefined);
    if (mode !== input.expectedMode) return { outcome: "changed", mode };
    let userId: string;
    if (!user) {
      userId = randomBytes(16).toString("hex");
      await tx
        .insert(dashboardUsers)
        .values({ id: userId, name: email, email, emailVerified: true, createdAt: now, updatedAt: now });
      await insertPasswordCredential(tx, userId, input.passwordHash, now);
    } else {
      userId = user.id;
      const [credential] = await tx
        .select({ id: dashboardCredentials.id, password: dashboardCredentials.password })
        .from(dashboardCredentials)
        .where(
          and(eq(dashboardCredentials.userId, userId), eq(dashboardCredentials.providerId, "credential")),
        )
        .for("update");
      if (mode === "join") {
        if (!credential?.password || input.verifiedHash === null) return { outcome: "wrong_password" };
        if (credential.password !== input.verifiedHash) return { outcome: "changed", mode };
      } else {
        // An operator's link sets the password: every session opened with the old one ends (the
        // link is how someone who lost a password, or fears it leaked, takes the sign-in back).
        if (credential)
          await tx
            .update(dashboardCredentials)
            .set({ password: input.passwordHash, updatedAt: now })
            .where(eq(dashboardCredentials.id, credential.id));
        else await insertPasswordCredential(tx, userId, input.passwordHash, now);
        await tx.delete(dashboardSessions).where(eq(dashboardSessions.userId, userId));
      }
    }
    await tx
      .insert(dashboardMembers)
      .values({ userId, ...workspaceColumns(invite.workspace), role: invite.role })
      .onConflictDoNothing({ target: [dashboardMembers.userId, dashboardMembers.workspaceId] });
    await tx.update(dashboardInvites).set({ usedAt: now }).where(eq(dashboardInvites.id, invite.id));
    await recordAudit(tx, {
      workspace: invite.workspace,
      userId,
      actorEmail: email,
      action: mode === "join" ? "user.joined" : "user.password_set",
      targetId: invite.id,
      detail: { role: invite.role },
    });
    return { outcome: "accepted", userId, mode };
  });
}

/** The workspace's dashboard users and its invitations not yet used, for the owner's users page. */
/** A user's password sign-in, as better-auth stores it (provider `credential`). */
async function insertPasswordCredential(
  tx: Pick<Db, "insert">,
  userId: string,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await tx.insert(dashboardCredentials).values({
    id: randomBytes(16).toString("hex"),
    userId,
    accountId: userId,
    providerId: "credential",
    password: passwordHash,
    createdAt: now,
    updatedAt: now,
  });
}

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
 * Change a member's role in a workspace, or remove them from it. The workspace must keep an owner;
 * another workspace's user is not found, and their memberships elsewhere are untouched. A user
 * left in no workspace is deleted (their credentials and sessions go with it); a user who still
 * works elsewhere keeps their sign-in, and a session working in this workspace moves to another
 * of theirs on its next request.
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
    if (!member) throw new Refusal("not_found", "No such user here.");
    const owners = members.filter((m) => m.role === "owner").length;
    if (member.role === "owner" && input.role !== "owner" && owners === 1)
      throw new Refusal("invalid_request", "The account must keep an owner: make someone else owner first.");
    const thisMembership = and(
      eq(dashboardMembers.userId, input.userId),
      eq(dashboardMembers.workspaceId, workspaceIdOf(input.workspace)),
    );
    if (input.role === "removed") {
      await tx.delete(dashboardMembers).where(thisMembership);
      const [elsewhere] = await tx
        .select({ userId: dashboardMembers.userId })
        .from(dashboardMembers)
        .where(eq(dashboardMembers.userId, input.userId))
        .limit(1);
      if (!elsewhere) await tx.delete(dashboardUsers).where(eq(dashboardUsers.id, input.userId));
    } else await tx.update(dashboardMembers).set({ role: input.role }).where(thisMembership);
    return { userId: input.userId, previousRole: member.role, role: input.role };
  });
}
