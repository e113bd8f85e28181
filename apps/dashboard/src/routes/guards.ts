import { formSizeLimit, formTokenMatches, fromOurPage } from "@svc/http";
import type { Context } from "hono";
import { sectionBelongsElsewhere } from "../pages/layout.js";
import { viewerOf } from "../session.js";
import { type DashboardApp, type DashboardContext, type Env, formOf } from "./context.js";

const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The largest form the dashboard reads (an origin list of 4,000 characters fits many times). */
const FORM_LIMIT_BYTES = 64 * 1024;

/**
 * What every request passes, signed in or not: response headers, the form size limit (the API's
 * guard is not in front of /dashboard), and the Origin check on every state change.
 */
export function installRequestGuards(app: DashboardApp, ctx: DashboardContext): void {
  app.use("*", async (c, next) => {
    await next();
    c.header("Content-Security-Policy", CSP);
    c.header("X-Content-Type-Options", "nosniff");
    // frame-ancestors for browsers that read CSP 2; X-Frame-Options for those (and proxies and
    // scanners) that do not: no page of the dashboard may be framed (clickjacking).
    c.header("X-Frame-Options", "DENY");
    // same-origin, not no-referrer: under no-referrer Chromium sends `Origin: null` on form
    // posts, which the Origin check must refuse; other origins still never see our URLs.
    c.header("Referrer-Policy", "same-origin");
    c.header("Cache-Control", "no-store");
  });
  app.use(
    "*",
    formSizeLimit(FORM_LIMIT_BYTES, (c) =>
      refuseBeforeSessionGuard(c, ctx, 413, "That form is larger than the dashboard accepts."),
    ),
  );
  app.use("*", async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && !fromOurPage(c, ctx.deps.publicBaseUrl))
      return refuseBeforeSessionGuard(
        c,
        ctx,
        403,
        "This change did not come from a dashboard page (Origin check).",
      );
    return next();
  });
}

/**
 * A refusal that fires before the session guard: the session is read (cookies only, never the
 * refused body) so a signed-in user's page keeps the menu and Sign out; a session that cannot be
 * read leaves the plain page.
 */
async function refuseBeforeSessionGuard(
  c: Context<Env>,
  ctx: DashboardContext,
  status: 403 | 413,
  text: string,
): Promise<Response> {
  try {
    const { auth, secret } = await ctx.init();
    const viewer = await viewerOf(c, auth, ctx.db, secret);
    if (viewer) c.set("viewer", viewer);
  } catch {
    // The refusal stands without the menu.
  }
  return ctx.problem(c, status, "Refused", text);
}

/**
 * Every route registered after this needs a session; a change also needs the session's CSRF
 * token and a role that may make it (viewers none; users pages owners only).
 */
export function installSessionGuard(app: DashboardApp, ctx: DashboardContext): void {
  app.use("*", async (c, next) => {
    const { auth, secret } = await ctx.init();
    const viewer = await viewerOf(c, auth, ctx.db, secret);
    if (!viewer) {
      if (c.req.method === "GET") return c.redirect("/dashboard/sign-in", 303);
      return ctx.problem(c, 403, "Refused", "Sign in first.", "/dashboard/sign-in");
    }
    // Set before any refusal below, so its page keeps the menu and Sign out.
    c.set("viewer", viewer);
    // An account's pages do not exist for an organization's users, and the other way round.
    if (sectionBelongsElsewhere(viewer.workspace, c.req.path.split("/")[2] ?? ""))
      return ctx.problem(c, 404, "Not found", "There is no such page.", "/dashboard/keys");
    if (c.req.method === "POST") {
      const form = await formOf(c);
      if (!formTokenMatches(viewer.csrf, form._csrf))
        return ctx.problem(
          c,
          403,
          "Refused",
          "This form is stale (CSRF check); reload the page and try again.",
        );
      // Signing out, one's own second factor and switching workspace are not changes to one.
      const ownSignIn =
        c.req.path === "/dashboard/sign-out" ||
        c.req.path === "/dashboard/workspace" ||
        c.req.path.startsWith("/dashboard/security/");
      if (viewer.role === "viewer" && !ownSignIn)
        return ctx.problem(c, 403, "Refused", "Viewers can look but not change anything.", "/dashboard/keys");
      if (viewer.role !== "owner" && c.req.path.startsWith("/dashboard/users"))
        return ctx.problem(
          c,
          403,
          "Refused",
          "Only owners invite users and change roles.",
          "/dashboard/users",
        );
    }
    return next();
  });
}
