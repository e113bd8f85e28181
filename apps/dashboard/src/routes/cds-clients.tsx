/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { listCdsClients, listCdsFeedback, revokeCdsClient } from "@svc/records";
import { CdsClientsPage } from "../pages/cds-clients.js";
import { accountOf } from "../workspace.js";
import type { DashboardApp, DashboardContext } from "./context.js";

const BACK = "/dashboard/cds-clients";

/** An account's CDS clients and their feedback (decisions 121 and 124); revoke, bounded to the account. */
export function registerCdsClients(app: DashboardApp, ctx: DashboardContext): void {
  app.get("/cds-clients", async (c) => {
    const viewer = c.get("viewer");
    const accountId = accountOf(viewer.workspace);
    const [{ clients }, { feedback }] = await Promise.all([
      listCdsClients(ctx.db, accountId),
      listCdsFeedback(ctx.db, { accountId, limit: 100 }),
    ]);
    return c.html(
      <CdsClientsPage viewer={viewer} clients={clients} feedback={feedback} notice={ctx.notice(c)} />,
    );
  });

  app.post("/cds-clients/:id/revoke", async (c) => {
    const viewer = c.get("viewer");
    try {
      const revoked = await revokeCdsClient(ctx.db, c.req.param("id"), {
        accountId: accountOf(viewer.workspace),
      });
      await ctx.audit(c, "cds_client.revoked", revoked.id);
      return c.redirect(`${BACK}?done=cds_revoked`, 303);
    } catch (error) {
      return ctx.refusal(c, error, BACK);
    }
  });
}
