/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { Context } from "hono";
import { z } from "zod";
import { claimTotpCode, type DashboardAuth, MAX_PASSWORD_LENGTH, releaseTotpCode } from "../auth.js";
import { SecurityPage, SignInCodePage, TwoFactorSetupPage } from "../pages/two-factor.js";
import { type DashboardApp, type DashboardContext, type Env, formOf } from "./context.js";
import type { Page } from "./page.js";
import { AFTER_SIGN_IN } from "./sign-in.js";

const CodeSchema = z.object({ code: z.string().trim().min(1).max(32) });
const PasswordSchema = z.object({ password: z.string().min(1).max(MAX_PASSWORD_LENGTH) });
/** Authenticator codes are 6 digits; anything else is tried as a backup code. */
const TOTP_CODE = /^\d{6}$/;
const BACK = "/dashboard/security";

/** Pass better-auth's cookies (a new session, the code step's cookie) on to the browser. */
function forwardCookies(c: Context, headers: Headers): void {
  for (const cookie of headers.getSetCookie()) c.header("Set-Cookie", cookie, { append: true });
}

/**
 * Call a better-auth endpoint with the request's cookies and pass the cookies it sets on; false
 * when it refuses (wrong code or password, expired step).
 */
async function withAuthCookies(
  c: Context,
  call: (headers: Headers) => Promise<{ headers: Headers }>,
): Promise<boolean> {
  try {
    forwardCookies(c, (await call(c.req.raw.headers)).headers);
    return true;
  } catch {
    return false;
  }
}

/** The base32 secret inside an otpauth:// URI, for typing into an app by hand. */
function secretOf(uri: string): string {
  return new URL(uri).searchParams.get("secret") ?? "";
}

/**
 * The TOTP code step: better-auth checks the code and opens a session; then the code is claimed
 * for the user, and if it was used already (a replay, or the slower of two concurrent requests)
 * the new session is ended before its cookie leaves and the code is refused. Only the user the
 * challenge names is known before better-auth answers, hence the claim after it.
 */
async function signInWithTotp(
  c: Context,
  ctx: DashboardContext,
  auth: DashboardAuth,
  code: string,
): Promise<boolean> {
  let result: { headers: Headers; response: { token: string; user: { id: string } } };
  try {
    result = await auth.api.verifyTOTP({ body: { code }, headers: c.req.raw.headers, returnHeaders: true });
  } catch {
    return false;
  }
  if (!(await claimTotpCode(ctx.db, result.response.user.id, code))) {
    await (await auth.$context).internalAdapter.deleteSession(result.response.token);
    return false;
  }
  forwardCookies(c, result.headers);
  return true;
}

async function submitCode(c: Page<"/sign-in/code">, ctx: DashboardContext) {
  const { auth } = await ctx.init();
  const parsed = CodeSchema.safeParse(await formOf(c));
  if (!parsed.success) {
    c.status(400);
    return c.html(<SignInCodePage problem="Enter a code." />);
  }
  const { code } = parsed.data;
  const verified = TOTP_CODE.test(code)
    ? await signInWithTotp(c, ctx, auth, code)
    : await withAuthCookies(c, (headers) =>
        auth.api.verifyBackupCode({ body: { code }, headers, returnHeaders: true }),
      );
  if (verified) return c.redirect(AFTER_SIGN_IN.signed_in, 303);
  c.status(401);
  return c.html(
    <SignInCodePage problem="That code is not right, or this sign-in has expired; try again or start again." />,
  );
}

/**
 * The code step of sign-in (before a session exists: better-auth's signed, 10-minute cookie names
 * the challenge, and it allows 5 wrong codes per challenge and locks the account's second factor
 * after repeated failures).
 */
export function registerSignInCode(app: DashboardApp, ctx: DashboardContext): void {
  app.get("/sign-in/code", (c) => c.html(<SignInCodePage />));
  app.post("/sign-in/code", (c) => submitCode(c, ctx));
}

/** The security page's refusal: nothing changed, for `text`'s reason. */
function notChanged(c: Context<Env>, ctx: DashboardContext, text: string) {
  return ctx.problem(c, 400, "Not changed", text, BACK);
}

function securityPage(c: Page<"/security">, ctx: DashboardContext) {
  const viewer = c.get("viewer");
  return c.html(
    <SecurityPage viewer={viewer} twoFactorEnabled={viewer.twoFactorEnabled} notice={ctx.notice(c)} />,
  );
}

async function enableTwoFactor(c: Page<"/security/enable">, ctx: DashboardContext) {
  const { auth } = await ctx.init();
  const parsed = PasswordSchema.safeParse(await formOf(c));
  if (!parsed.success) return notChanged(c, ctx, "Enter your password.");
  try {
    const result = await auth.api.enableTwoFactor({
      body: { password: parsed.data.password },
      headers: c.req.raw.headers,
      returnHeaders: true,
    });
    forwardCookies(c, result.headers);
    const { totpURI, backupCodes } = result.response as { totpURI: string; backupCodes: string[] };
    return c.html(
      <TwoFactorSetupPage
        viewer={c.get("viewer")}
        secret={secretOf(totpURI)}
        uri={totpURI}
        backupCodes={backupCodes}
      />,
    );
  } catch {
    return notChanged(c, ctx, "That password is not right, or two-factor sign-in is already on.");
  }
}

async function confirmTwoFactor(c: Page<"/security/confirm">, ctx: DashboardContext) {
  const { auth } = await ctx.init();
  const parsed = CodeSchema.safeParse(await formOf(c));
  if (!parsed.success || !TOTP_CODE.test(parsed.data.code))
    return notChanged(c, ctx, "Enter the 6-digit code.");
  const body = { code: parsed.data.code };
  const { userId } = c.get("viewer");
  // Claimed before better-auth turns the factor on, so the confirming code cannot sign in again.
  const fresh = await claimTotpCode(ctx.db, userId, body.code);
  if (
    !fresh ||
    !(await withAuthCookies(c, (headers) => auth.api.verifyTOTP({ body, headers, returnHeaders: true })))
  ) {
    if (fresh) await releaseTotpCode(ctx.db, userId, body.code);
    return notChanged(c, ctx, "That code is not right; set the app up again and enter the code it shows.");
  }
  await ctx.audit(c, "user.two_factor_enabled", c.get("viewer").userId);
  return c.redirect(`${BACK}?done=two_factor_on`, 303);
}

async function disableTwoFactor(c: Page<"/security/disable">, ctx: DashboardContext) {
  const { auth } = await ctx.init();
  const parsed = PasswordSchema.safeParse(await formOf(c));
  if (!parsed.success) return notChanged(c, ctx, "Enter your password.");
  const body = { password: parsed.data.password };
  if (
    !(await withAuthCookies(c, (headers) =>
      auth.api.disableTwoFactor({ body, headers, returnHeaders: true }),
    ))
  )
    return notChanged(c, ctx, "That password is not right.");
  await ctx.audit(c, "user.two_factor_disabled", c.get("viewer").userId);
  return c.redirect(`${BACK}?done=two_factor_off`, 303);
}

/** Security (any role: it is the user's own sign-in): turn the TOTP second factor on and off. */
export function registerSecurity(app: DashboardApp, ctx: DashboardContext): void {
  app.get("/security", (c) => securityPage(c, ctx));
  app.post("/security/enable", (c) => enableTwoFactor(c, ctx));
  app.post("/security/confirm", (c) => confirmTwoFactor(c, ctx));
  app.post("/security/disable", (c) => disableTwoFactor(c, ctx));
}
