/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { dashboardUsers, eq } from "@svc/db";
import {
  type AcceptMode,
  acceptInvite,
  acceptModeOf,
  findOpenInvite,
  type OpenInvite,
  passwordHashOf,
} from "@svc/records";
import type { Context } from "hono";
import { z } from "zod";
import { type DashboardAuth, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../auth.js";
import { JoinPage } from "../pages/invite.js";
import { SetPasswordPage, SignInPage } from "../pages/sign-in.js";
import { type DashboardApp, type DashboardContext, formOf } from "./context.js";
import type { Page } from "./page.js";

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
const JoinSchema = z.object({
  email: z.email().max(254).optional(),
  password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
});
const EmailSchema = z.email().max(254);

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
 * One attempt at an email's password, counted per email (the sign-in form and joining a workspace
 * with one's sign-in share the count). Refused: the 429 status and Retry-After are set, and the
 * caller draws its page.
 */
async function signInAttemptAllowed(c: Context, ctx: DashboardContext, email: string): Promise<boolean> {
  const decision = await ctx.deps.limiter.consume({
    kind: "bucket",
    subject: `dashboard-sign-in:${email}`,
    ...SIGN_IN_LIMIT,
  });
  if (decision.allowed) return true;
  c.header("Retry-After", String(Math.ceil(decision.retryAfter)));
  c.status(429);
  return false;
}

/** Whether a dashboard user has this email (so a link for it joins or resets, not creates). */
async function signsIn(ctx: DashboardContext, email: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: dashboardUsers.id })
    .from(dashboardUsers)
    .where(eq(dashboardUsers.email, email));
  return row !== undefined;
}

/** The page a link shows for `mode`: choose a password, or enter the current one. */
function invitePage(
  c: Context,
  invite: OpenInvite,
  mode: AcceptMode,
  email: string | null,
  problem?: string,
) {
  return mode === "join" && email
    ? c.html(
        <JoinPage
          action={c.req.path}
          email={email}
          emailField={invite.email === null}
          role={invite.role}
          workspace={invite.workspace}
          {...(problem ? { problem } : {})}
        />,
      )
    : c.html(
        <SetPasswordPage
          action={c.req.path}
          email={invite.email}
          role={invite.role}
          workspace={invite.workspace}
          {...(problem ? { problem } : {})}
        />,
      );
}

async function submitSignIn(c: Page<"/sign-in">, ctx: DashboardContext) {
  const { auth } = await ctx.init();
  const parsed = SignInSchema.safeParse(await formOf(c));
  if (!parsed.success) {
    c.status(400);
    return c.html(<SignInPage problem="Enter your email and password." />);
  }
  const email = parsed.data.email.toLowerCase();
  if (!(await signInAttemptAllowed(c, ctx, email))) {
    return c.html(<SignInPage email={email} problem="Too many attempts; wait a minute and try again." />);
  }
  const outcome = await signIn(c, auth, email, parsed.data.password);
  if (outcome !== "wrong_password") return c.redirect(AFTER_SIGN_IN[outcome], 303);
  c.status(401);
  return c.html(
    <SignInPage email={email} problem="That email and password do not match a dashboard user." />,
  );
}

async function showInvite(c: Page<"/invite/:token">, ctx: DashboardContext) {
  const invite = await findOpenInvite(ctx.db, c.req.param("token"));
  if (!invite) return ctx.problem(c, 410, "Link not valid", LINK_NOT_VALID);
  const mode = invite.email ? acceptModeOf(invite, await signsIn(ctx, invite.email)) : "create";
  return invitePage(c, invite, mode, invite.email);
}

/**
 * Accepting a link (decision 83): a new email gets a user with the chosen password; an email
 * that already signs in joins with its current password (an operator's link sets a new one
 * instead). Either way the user gains a membership in the link's workspace only. The slow
 * password work is done here, before the one transaction that checks and writes.
 */
async function acceptInviteLink(c: Page<"/invite/:token">, ctx: DashboardContext) {
  const { auth } = await ctx.init();
  const invite = await findOpenInvite(ctx.db, c.req.param("token"));
  if (!invite) return ctx.problem(c, 410, "Link not valid", LINK_NOT_VALID);
  const form = await formOf(c);
  const typed = EmailSchema.safeParse(form.email);
  const email = invite.email ?? (typed.success ? typed.data.toLowerCase() : null);
  const mode = email ? acceptModeOf(invite, await signsIn(ctx, email)) : "create";
  const parsed = (mode === "join" ? JoinSchema : PasswordSchema).safeParse(form);
  if (!parsed.success || !email) {
    c.status(400);
    return invitePage(c, invite, mode, email, parsed.error?.issues[0]?.message ?? "Enter your email.");
  }
  const { password } = parsed.data;
  if (mode === "join") {
    // Entering a sign-in's password here is a sign-in attempt: the same limit applies.
    if (!(await signInAttemptAllowed(c, ctx, email))) {
      return invitePage(c, invite, mode, email, "Too many attempts; wait a minute and try again.");
    }
  }
  const passwords = (await auth.$context).password;
  let passwordHash = "";
  let verifiedHash: string | null = null;
  if (mode === "join") {
    const stored = await passwordHashOf(ctx.db, email);
    if (stored && (await passwords.verify({ hash: stored, password }))) verifiedHash = stored;
  } else passwordHash = await passwords.hash(password);
  const result = await acceptInvite(ctx.db, {
    invite,
    email,
    passwordHash,
    verifiedHash,
    expectedMode: mode,
  });
  if (result.outcome === "used") return ctx.problem(c, 410, "Link not valid", LINK_NOT_VALID);
  if (result.outcome === "wrong_password") {
    c.status(400);
    return invitePage(c, invite, mode, email, "That password does not match this email's sign-in.");
  }
  if (result.outcome === "changed") {
    c.status(409);
    return invitePage(
      c,
      invite,
      result.mode,
      email,
      "This email's sign-in changed while the form was on its way; the link is unused: try again.",
    );
  }
  const outcome = await signIn(c, auth, email, password);
  return c.redirect(outcome === "second_factor" ? AFTER_SIGN_IN.second_factor : AFTER_SIGN_IN.signed_in, 303);
}

/** Sign-in with email and password, and the one-time set-password links. */
export function registerSignIn(app: DashboardApp, ctx: DashboardContext): void {
  app.get("/sign-in", (c) => c.html(<SignInPage />));
  app.post("/sign-in", (c) => submitSignIn(c, ctx));
  app.get("/invite/:token", (c) => showInvite(c, ctx));
  app.post("/invite/:token", (c) => acceptInviteLink(c, ctx));
}

async function signOut(c: Page<"/sign-out">, ctx: DashboardContext) {
  const { auth } = await ctx.init();
  const result = await auth.api.signOut({ headers: c.req.raw.headers, returnHeaders: true });
  for (const cookie of result.headers.getSetCookie()) c.header("Set-Cookie", cookie, { append: true });
  return c.redirect("/dashboard/sign-in", 303);
}

/** Sign-out (after the session guard: it needs the CSRF token like any change). */
export function registerSignOut(app: DashboardApp, ctx: DashboardContext): void {
  app.post("/sign-out", (c) => signOut(c, ctx));
}
