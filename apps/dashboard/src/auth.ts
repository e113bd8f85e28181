import { createHmac, randomBytes } from "node:crypto";
import {
  and,
  type Db,
  dashboardAuthSecret,
  dashboardCredentials,
  dashboardSessions,
  dashboardTwoFactors,
  dashboardUsedTotpCodes,
  dashboardUsers,
  dashboardVerifications,
  eq,
  lte,
} from "@svc/db";
import type { Logger } from "@svc/http";

/** Dashboard sessions last a working day; each use within the last hour extends them. */
export const SESSION_SECONDS = 8 * 60 * 60;
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 128;
/** The name authenticator apps show next to the code. */
export const TOTP_ISSUER = "Clinical Intelligence Service";

/**
 * The secret that signs session cookies and CSRF tokens: made at random on first use and kept in
 * the database, so every replica (and a restart) agrees on it without new configuration.
 */
export async function loadAuthSecret(db: Db): Promise<string> {
  await db
    .insert(dashboardAuthSecret)
    .values({ id: 1, secret: randomBytes(32).toString("base64url") })
    .onConflictDoNothing();
  const [row] = await db.select().from(dashboardAuthSecret).where(eq(dashboardAuthSecret.id, 1));
  if (!row) throw new Error("dashboard auth secret missing after insert");
  return row.secret;
}

export interface DashboardAuthOptions {
  db: Db;
  secret: string;
  /** The service's public base, e.g. https://api.example.com: cookies are Secure under https. */
  publicBaseUrl: string;
  logger: Logger;
}

/**
 * better-auth's modules, loaded on the dashboard's first request rather than when the process
 * starts: they hold ~50 MB that an API replica nobody signs in to never needs.
 */
async function loadBetterAuth() {
  const [core, adapter, plugin] = await Promise.all([
    import("better-auth"),
    import("better-auth/adapters/drizzle"),
    import("better-auth/plugins/two-factor"),
  ]);
  return { betterAuth: core.betterAuth, drizzleAdapter: adapter.drizzleAdapter, twoFactor: plugin.twoFactor };
}

/**
 * better-auth on our one Drizzle schema: email and password only, no self sign-up (users come
 * from invitations), sessions in `dashboard_sessions`, cookies HttpOnly and SameSite=Strict, and
 * its two-factor plugin for an optional TOTP second factor (secrets in `dashboard_two_factors`).
 */
export async function createDashboardAuth(options: DashboardAuthOptions) {
  const { betterAuth, drizzleAdapter, twoFactor } = await loadBetterAuth();
  const secure = new URL(options.publicBaseUrl).protocol === "https:";
  return betterAuth({
    appName: "Clinical Intelligence Service dashboard",
    baseURL: options.publicBaseUrl,
    basePath: "/dashboard/auth",
    secret: options.secret,
    trustedOrigins: [new URL(options.publicBaseUrl).origin],
    database: drizzleAdapter(options.db, {
      provider: "pg",
      schema: {
        dashboardUsers,
        dashboardSessions,
        dashboardCredentials,
        dashboardVerifications,
        dashboardTwoFactors,
      },
    }),
    plugins: [
      twoFactor({
        issuer: TOTP_ISSUER,
        schema: { twoFactor: { modelName: "dashboardTwoFactors" } },
      }),
    ],
    user: { modelName: "dashboardUsers" },
    session: { modelName: "dashboardSessions", expiresIn: SESSION_SECONDS, updateAge: 60 * 60 },
    account: { modelName: "dashboardCredentials" },
    verification: { modelName: "dashboardVerifications" },
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
    },
    // Our own limiter guards sign-in (shared by replicas through Redis); no calls home.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    // Its messages go to our JSON log; the extra arguments (which may hold input) do not.
    logger: {
      level: "warn",
      log: (level, message) => options.logger[level]({ source: "better-auth" }, message),
    },
    advanced: {
      cookiePrefix: "svc_dashboard",
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: "strict", secure, path: "/dashboard" },
    },
  });
}

export type DashboardAuth = Awaited<ReturnType<typeof createDashboardAuth>>;

/** TOTP time step (RFC 6238 default, as better-auth's plugin uses). */
const TOTP_STEP_MS = 30_000;
/** better-auth accepts the code of the current step and of one step either side. */
const TOTP_WINDOW_STEPS = 1;

/**
 * Record that `userId` used `code`; false when it was used already and could still verify, so the
 * caller refuses it (better-auth's plugin has no replay check of its own). A code accepted in step
 * s belongs to a step no later than s + 1, and that step's code verifies until the end of step
 * s + 2: the record lasts that long. Keyed by the code rather than its step, a different step
 * with the same six digits within those 90 s is refused too (one chance in a million; the user
 * waits for the next code). One INSERT decides: the primary key lets only one of two concurrent
 * requests claim a code; an expired record is taken over in the same statement.
 */
export async function claimTotpCode(
  db: Db,
  userId: string,
  code: string,
  now = new Date(),
): Promise<boolean> {
  const step = Math.floor(now.getTime() / TOTP_STEP_MS);
  const expiresAt = new Date((step + 2 * TOTP_WINDOW_STEPS + 1) * TOTP_STEP_MS);
  const claimed = await db
    .insert(dashboardUsedTotpCodes)
    .values({ userId, code, expiresAt })
    .onConflictDoUpdate({
      target: [dashboardUsedTotpCodes.userId, dashboardUsedTotpCodes.code],
      set: { expiresAt },
      setWhere: lte(dashboardUsedTotpCodes.expiresAt, now),
    })
    .returning({ code: dashboardUsedTotpCodes.code });
  if (claimed.length === 1)
    await db
      .delete(dashboardUsedTotpCodes)
      .where(and(eq(dashboardUsedTotpCodes.userId, userId), lte(dashboardUsedTotpCodes.expiresAt, now)));
  return claimed.length === 1;
}

/** Forget a claim whose code then failed to verify (it was never used). */
export async function releaseTotpCode(db: Db, userId: string, code: string): Promise<void> {
  await db
    .delete(dashboardUsedTotpCodes)
    .where(and(eq(dashboardUsedTotpCodes.userId, userId), eq(dashboardUsedTotpCodes.code, code)));
}

/** The CSRF token of a session: an HMAC of its id, so nothing more has to be stored. */
export function csrfTokenFor(secret: string, sessionId: string): string {
  return createHmac("sha256", secret).update(`csrf:${sessionId}`).digest("base64url");
}
