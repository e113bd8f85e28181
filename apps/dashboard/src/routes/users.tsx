/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import { changeMember, createInvite, InviteInputSchema, listWorkspaceUsers } from "@svc/records";
import { z } from "zod";
import { SecretOncePage } from "../pages/keys.js";
import { UsersPage } from "../pages/users.js";
import { chooseWorkspace } from "../session.js";
import { type DashboardApp, type DashboardContext, formOf } from "./context.js";
import type { Page } from "./page.js";

const MemberChangeSchema = z.object({ role: z.enum(["owner", "developer", "viewer", "removed"]) });
const BACK = "/dashboard/users";

async function listUsersPage(c: Page<"/users">, ctx: DashboardContext) {
  const viewer = c.get("viewer");
  const users = await listWorkspaceUsers(ctx.db, viewer.workspace);
  return c.html(<UsersPage viewer={viewer} users={users} notice={ctx.notice(c)} />);
}

async function inviteUser(c: Page<"/users">, ctx: DashboardContext) {
  const viewer = c.get("viewer");
  const form = await formOf(c);
  const parsed = InviteInputSchema.safeParse({
    workspace: viewer.workspace,
    email: form.email,
    role: form.role,
  });
  if (!parsed.success || !parsed.data.email)
    return ctx.problem(c, 400, "Not changed", "Give an email and a role.", BACK);
  try {
    const invite = await createInvite(ctx.db, parsed.data, ctx.deps.publicBaseUrl, {
      actor: { userId: viewer.userId, email: viewer.email },
    });
    return c.html(
      <SecretOncePage
        viewer={viewer}
        section="users"
        title="Invitation created"
        label={`Give this one-time link to ${invite.email} (${invite.role}); it works once, for 72 hours.`}
        secret={invite.url}
        back={BACK}
      />,
    );
  } catch (error) {
    return ctx.refusal(c, error, BACK);
  }
}

/** A member's new role (`roleOf` reads it from the form; `removed` takes them out of the workspace). */
async function changeMemberRole(
  c: Page<"/users/:id/role" | "/users/:id/remove">,
  ctx: DashboardContext,
  roleOf: (form: Record<string, string>) => unknown,
) {
  const viewer = c.get("viewer");
  const parsed = MemberChangeSchema.safeParse({ role: roleOf(await formOf(c)) });
  if (!parsed.success) return ctx.problem(c, 400, "Not changed", "Choose a role.", BACK);
  const removed = parsed.data.role === "removed";
  try {
    const changed = await changeMember(ctx.db, {
      workspace: viewer.workspace,
      userId: c.req.param("id"),
      role: parsed.data.role,
    });
    await ctx.audit(c, removed ? "user.removed" : "user.role_changed", changed.userId, {
      from: changed.previousRole,
      to: changed.role,
    });
    return c.redirect(`${BACK}?done=${removed ? "removed" : "role"}`, 303);
  } catch (error) {
    return ctx.refusal(c, error, BACK);
  }
}

/** The workspace's users; owners invite, change roles and remove (the session guard checks). */
export function registerUsers(app: DashboardApp, ctx: DashboardContext): void {
  app.get("/users", (c) => listUsersPage(c, ctx));
  app.post("/users", (c) => inviteUser(c, ctx));
  app.post("/users/:id/role", (c) => changeMemberRole(c, ctx, (form) => form.role));
  app.post("/users/:id/remove", (c) => changeMemberRole(c, ctx, () => "removed"));
}

async function switchWorkspace(c: Page<"/workspace">, ctx: DashboardContext) {
  const viewer = c.get("viewer");
  const form = await formOf(c);
  if (!(await chooseWorkspace(ctx.db, viewer, form.workspace ?? "")))
    return ctx.problem(c, 404, "Not found", "You do not work in such a workspace.", "/dashboard/keys");
  return c.redirect("/dashboard/keys?done=switched", 303);
}

/**
 * The header's workspace switcher: the session works in the chosen workspace from now on, if the
 * user is a member of it (any role; it changes nothing in a workspace). The keys page exists in
 * every workspace, so that is where it leads.
 */
export function registerWorkspaceSwitch(app: DashboardApp, ctx: DashboardContext): void {
  app.post("/workspace", (c) => switchWorkspace(c, ctx));
}
