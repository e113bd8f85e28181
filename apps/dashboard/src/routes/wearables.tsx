/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { accountOf, completeConnection, listConnections, syncConnection } from "@svc/records";
import type { Context } from "hono";
import { WearablesPage } from "../pages/wearables.js";
import { bothModes, type DashboardApp, type DashboardContext, type Env } from "./context.js";
import type { Page } from "./page.js";

const BACK = "/dashboard/wearables";

/** A refusal of the wearables store as a dashboard page: 404 for another account's id. */
function refused(c: Context<Env>, ctx: DashboardContext, error: unknown): Response | Promise<Response> {
  return ctx.refusal(c, error, BACK, "There is no such test wearable connection in this account.");
}

async function listConnectionsPage(c: Page<"/wearables">, ctx: DashboardContext) {
  const viewer = c.get("viewer");
  const { test, live } = await bothModes(
    (scope) => listConnections(ctx.db, { scope, limit: 100 }).then((p) => p.rows),
    accountOf(viewer.workspace),
  );
  return c.html(<WearablesPage viewer={viewer} test={test} live={live} notice={ctx.notice(c)} />);
}

async function completeTestConnection(c: Page<"/wearables/:id/connect">, ctx: DashboardContext) {
  const viewer = c.get("viewer");
  const form = await c.req.parseBody();
  const provider = typeof form.provider === "string" ? form.provider : "";
  try {
    const scope = { accountId: accountOf(viewer.workspace), mode: "test" as const };
    const outcome = await completeConnection(ctx.db, { id: c.req.param("id"), scope }, provider);
    await ctx.audit(c, "wearable.connected", outcome.connection.id, { provider });
    return c.redirect(`${BACK}?done=connected`, 303);
  } catch (error) {
    return refused(c, ctx, error);
  }
}

async function syncTestConnection(c: Page<"/wearables/:id/sync">, ctx: DashboardContext) {
  const viewer = c.get("viewer");
  try {
    const scope = { accountId: accountOf(viewer.workspace), mode: "test" as const };
    const outcome = await syncConnection(ctx.db, c.req.param("id"), scope);
    await ctx.audit(c, "wearable.synced", outcome.connection.id, { days: outcome.days });
    return c.redirect(`${BACK}?done=synced`, 303);
  } catch (error) {
    return refused(c, ctx, error);
  }
}

/** Wearable connections of both modes; on test connections the sandbox's complete and sync steps. */
export function registerWearables(app: DashboardApp, ctx: DashboardContext): void {
  app.get("/wearables", (c) => listConnectionsPage(c, ctx));
  app.post("/wearables/:id/connect", (c) => completeTestConnection(c, ctx));
  app.post("/wearables/:id/sync", (c) => syncTestConnection(c, ctx));
}
