import { type AppDeps, handOffAfterCommit } from "@svc/http";
import { Hono } from "hono";
import { DASHBOARD_CSS } from "./pages/style.js";
import { registerCdsClients } from "./routes/cds-clients.js";
import { createContext, type DashboardOptions, type Env } from "./routes/context.js";
import { registerEventsAndAudit } from "./routes/events.js";
import { installRequestGuards, installSessionGuard } from "./routes/guards.js";
import { registerKeys } from "./routes/keys.js";
import { registerLabs } from "./routes/labs.js";
import { registerSafetyEvents } from "./routes/safety-events.js";
import { registerSignIn, registerSignOut } from "./routes/sign-in.js";
import { registerSecurity, registerSignInCode } from "./routes/two-factor.js";
import { registerUsage } from "./routes/usage.js";
import { registerUsers, registerWorkspaceSwitch } from "./routes/users.js";
import { registerWearables } from "./routes/wearables.js";
import { registerWebhooks } from "./routes/webhooks.js";

export type { DashboardOptions } from "./routes/context.js";

/**
 * The developer dashboard under /dashboard (decision 57): server-rendered pages with plain forms,
 * signed in through better-auth, every change checked for origin, CSRF token and role, and
 * written to the audit log. It calls the same data-access functions as the CLI and the API.
 */
export function buildDashboard(deps: AppDeps, options: DashboardOptions = {}) {
  const ctx = createContext(deps, options);
  const app = new Hono<Env>().basePath("/dashboard");
  installRequestGuards(app, ctx);
  // Webhook deliveries a page's change writes go to the queue once its handler has returned, as
  // on the APIs: no page hands them off itself (decision 125).
  app.use("*", handOffAfterCommit(deps));
  app.get("/static/dashboard.css", (c) => {
    c.header("Content-Type", "text/css; charset=utf-8");
    return c.body(DASHBOARD_CSS);
  });
  app.get("/", (c) => c.redirect("/dashboard/keys", 303));
  registerSignIn(app, ctx);
  registerSignInCode(app, ctx);
  // Everything below needs a session.
  installSessionGuard(app, ctx);
  registerSignOut(app, ctx);
  registerKeys(app, ctx);
  registerWebhooks(app, ctx);
  registerEventsAndAudit(app, ctx);
  registerLabs(app, ctx);
  registerWearables(app, ctx);
  registerCdsClients(app, ctx);
  registerSafetyEvents(app, ctx);
  registerUsage(app, ctx);
  registerUsers(app, ctx);
  registerWorkspaceSwitch(app, ctx);
  registerSecurity(app, ctx);
  app.notFound((c) => ctx.problem(c, 404, "Not found", "There is no such page.", "/dashboard/keys"));
  return app;
}
