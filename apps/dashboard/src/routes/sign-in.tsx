/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { dashboardMembers } from "@svc/db";
import type { Context } from "hono";
import { z } from "zod";
import { recordAudit } from "../audit.js";
import { type DashboardAuth, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../auth.js";
import { claimInvite, findOpenInvite, type OpenInvite, workspaceOfUser } from "../invites.js";
import { SetPasswordPage, SignInPage } from "../pages/sign-in.js";
import { sameWorkspace, workspaceColumns } from "../workspace.js";
import { type DashboardApp, type DashboardContext, formOf } from "./context.js";

/** Sign-in attempts per email: 5 at once, then one every 12 s (shared by replicas via Redis). */
const SIGN_IN_LIMIT = { burst: 5, ratePerSecond: 1 / 12 };

const SignInSchema = z.object({
  email: z.email().max(254),
  password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
});
const PasswordSchema = z
  .object({
    email: z.email().max(254).optional(),
    password: z.string().min(MIN_PASSWORD_LENGTH).max(MAX_PASSWORD_LENGTH),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { message: "The two passwords differ." });

const LINK_NOT_VALID = "This link was used already, has expired, or never existed.";

/** Where a correct password leads: a session, or the second-factor step for users with TOTP. */
export type SignInOutcome = "signed_in" | "second_factor" | "wrong_password";

/** Where each outcome sends the browser. */
export const AFTER_SIGN_IN: Record<Exclude<SignInOutcome, "wrong_password">, string> = {
  signed_in: "/dashboard/keys",
  second_factor: "/dashboard/sign-in/code",
};

/**
 * Sign in with better-auth and pass its cookies on: the session's, or, for a user with a second
 * factor, the short-lived cookie of the code step (no session until the code is right).
 */
async function signIn(
  c: Context,
  auth: DashboardAuth,
  email: string,
  password: string,
): Promise<SignInOutcome> {
  try {
    const result = await auth.api.signInEmail({
      body: { email, password },
      headers: c.req.raw.headers,
      returnHeaders: true,
    });
    for (const cookie of result.headers.getSetCookie()) c.header("Set-Cookie", cookie, { append: true });
    return "twoFactorRedirect" in result.response ? "second_factor" : "signed_in";
  } catch {
    return "wrong_password";
  }
}

/**
 * Create the invited user, or give an existing one of this account the new password. Setting a
 * password ends every session the user had: a reset link is how someone who lost a password (or
 * fears it leaked) takes the account back, so a session opened with the old password must not
 * outlive it. The caller signs in afterwards, so the session that set the password is the new one.
 */
async function setCredential(auth: DashboardAuth, email: string, password: string): Promise<string> {
  const ctx = await auth.$context;
  const hash = await ctx.password.hash(password);
  const existing = await ctx.internalAdapter.findUserByEmail(email, { includeAccounts: true });
  if (existing?.accounts.some((a) => a.providerId === "credential")) {
    await ctx.internalAdapter.updatePassword(existing.user.id, hash);
    await ctx.internalAdapter.deleteUserSessions(existing.user.id);
    return existing.user.id;
  }
  const userId =
    existing?.user.id ??
    (await ctx.internalAdapter.createUser({ email, name: email, emailVerified: true }, { method: "admin" }))
      .id;
  await ctx.internalAdapter.linkAccount({
    userId,
    providerId: "credential",
    accountId: userId,
    password: hash,
  });
  return userId;
}

/** Whether the email already belongs to a user of another workspace (a user has one). */
async function belongsElsewhere(ctx: DashboardContext, email: string, invite: OpenInvite) {
  const current = await workspaceOfUser(ctx.db, email);
  return current !== null && !sameWorkspace(current, invite.workspace);
}

/** Sign-in with email and password, and the one-time set-password links. */
export function registerSignIn(app: DashboardApp, ctx: DashboardContext): void {
  app.get("/sign-in", (c) => c.html(<SignInPage />));
  app.post("/sign-in", async (c) => {
    const { auth } = await ctx.init();
    const parsed = SignInSchema.safeParse(await formOf(c));
    if (!parsed.success) {
      c.status(400);
      return c.html(<SignInPage problem="Enter your email and password." />);
    }
    const email = parsed.data.email.toLowerCase();
    const decision = await ctx.deps.limiter.consume({
      kind: "bucket",
      subject: `dashboard-sign-in:${email}`,
      ...SIGN_IN_LIMIT,
    });
    if (!decision.allowed) {
      c.header("Retry-After", String(Math.ceil(decision.retryAfter)));
      c.status(429);
      return c.html(<SignInPage email={email} problem="Too many attempts; wait a minute and try again." />);
    }
    const outcome = await signIn(c, auth, email, parsed.data.password);
    if (outcome !== "wrong_password") return c.redirect(AFTER_SIGN_IN[outcome], 303);
    c.status(401);
    return c.html(
      <SignInPage email={email} problem="That email and password do not match a dashboard user." />,
    );
  });

  app.get("/invite/:token", async (c) => {
    const invite = await findOpenInvite(ctx.db, c.req.param("token"));
    if (!invite) return ctx.problem(c, 410, "Link not valid", LINK_NOT_VALID);
    return c.html(
      <SetPasswordPage
        action={c.req.path}
        email={invite.email}
        role={invite.role}
        workspace={invite.workspace}
      />,
    );
  });
  app.post("/invite/:token", async (c) => {
    const { auth } = await ctx.init();
    const invite = await findOpenInvite(ctx.db, c.req.param("token"));
    if (!invite) return ctx.problem(c, 410, "Link not valid", LINK_NOT_VALID);
    const parsed = PasswordSchema.safeParse(await formOf(c));
    const email = (invite.email ?? parsed.data?.email)?.toLowerCase();
    if (!parsed.success || !email) {
      c.status(400);
      return c.html(
        <SetPasswordPage
          action={c.req.path}
          email={invite.email}
          role={invite.role}
          workspace={invite.workspace}
          problem={parsed.error?.issues[0]?.message ?? "Enter your email."}
        />,
      );
    }
    if (await belongsElsewhere(ctx, email, invite))
      return ctx.problem(
        c,
        400,
        "Not changed",
        "This email already belongs to another account or organization.",
      );
    if (!(await claimInvite(ctx.db, invite.id))) return ctx.problem(c, 410, "Link not valid", LINK_NOT_VALID);
    const userId = await setCredential(auth, email, parsed.data.password);
    await ctx.db
      .insert(dashboardMembers)
      .values({ userId, ...workspaceColumns(invite.workspace), role: invite.role })
      .onConflictDoUpdate({ target: dashboardMembers.userId, set: { role: invite.role } });
    await recordAudit(ctx.db, {
      workspace: invite.workspace,
      userId,
      actorEmail: email,
      action: "user.password_set",
      targetId: invite.id,
      detail: { role: invite.role },
    });
    const outcome = await signIn(c, auth, email, parsed.data.password);
    return c.redirect(
      outcome === "second_factor" ? AFTER_SIGN_IN.second_factor : AFTER_SIGN_IN.signed_in,
      303,
    );
  });
}

/** Sign-out (after the session guard: it needs the CSRF token like any change). */
export function registerSignOut(app: DashboardApp, ctx: DashboardContext): void {
  app.post("/sign-out", async (c) => {
    const { auth } = await ctx.init();
    const result = await auth.api.signOut({ headers: c.req.raw.headers, returnHeaders: true });
    for (const cookie of result.headers.getSetCookie()) c.header("Set-Cookie", cookie, { append: true });
    return c.redirect("/dashboard/sign-in", 303);
  });
}
