/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import {
  accountOf,
  CDS_FEEDBACK_ID,
  listCdsClients,
  listCdsFeedback,
  registerCdsClient,
  revokeCdsClient,
} from "@svc/records";
import { z } from "zod";
import { CdsClientsPage } from "../pages/cds-clients.js";
import { type DashboardApp, type DashboardContext, formOf, lines } from "./context.js";
import type { Page } from "./page.js";

const BACK = "/dashboard/cds-clients";
/** Feedback reports a page (keyset paging on the time-sortable id, as the other lists page). */
const FEEDBACK_PAGE_SIZE = 50;

const AddClientSchema = z.object({
  iss: z.string().trim().min(1).max(2048),
  mode: z.enum(["test", "live"]).default("test"),
  jku: z.string().max(10_000).default(""),
  jwks: z.string().max(60_000).default(""),
});

/** The form's keys: `jku` URLs one per line, or a pasted JWK Set (JSON); the store checks both. */
function keysOf(form: z.infer<typeof AddClientSchema>): { jkus?: string[]; jwks?: unknown } | string {
  const jkus = lines(form.jku);
  const text = form.jwks.trim();
  if (text === "") return { jkus };
  try {
    return { ...(jkus.length > 0 ? { jkus } : {}), jwks: JSON.parse(text) };
  } catch {
    return "The JWK Set is not valid JSON.";
  }
}

async function listClientsPage(c: Page<"/cds-clients">, ctx: DashboardContext) {
  const viewer = c.get("viewer");
  const accountId = accountOf(viewer.workspace);
  const before = c.req.query("before");
  if (before !== undefined && !CDS_FEEDBACK_ID.test(before))
    return ctx.problem(c, 400, "Bad page link", "That page link is not valid.", BACK);
  const [{ clients }, page] = await Promise.all([
    listCdsClients(ctx.db, accountId),
    listCdsFeedback(ctx.db, { accountId, limit: FEEDBACK_PAGE_SIZE, ...(before ? { before } : {}) }),
  ]);
  const last = page.feedback.at(-1);
  const next = page.hasMore && last ? `${BACK}?${new URLSearchParams({ before: last.id })}` : undefined;
  return c.html(
    <CdsClientsPage
      viewer={viewer}
      clients={clients}
      feedback={page.feedback}
      next={next}
      accountId={accountId}
      notice={ctx.notice(c)}
    />,
  );
}

/** Tenants register without --allow-private (operator only); loopback as the operator set it. */
async function addClient(c: Page<"/cds-clients">, ctx: DashboardContext) {
  const viewer = c.get("viewer");
  const parsed = AddClientSchema.safeParse(await formOf(c));
  if (!parsed.success) return ctx.problem(c, 400, "Not changed", "Give the issuer, a mode and keys.", BACK);
  const keys = keysOf(parsed.data);
  if (typeof keys === "string") return ctx.problem(c, 400, "Not changed", keys, BACK);
  try {
    const created = await registerCdsClient(ctx.db, {
      accountId: accountOf(viewer.workspace),
      iss: parsed.data.iss,
      mode: parsed.data.mode,
      ...keys,
      allowLoopback: ctx.deps.allowLoopbackWebhooks ?? false,
    });
    await ctx.audit(c, "cds_client.created", created.id, { iss: created.iss, mode: created.mode });
    return c.redirect(`${BACK}?done=cds_added`, 303);
  } catch (error) {
    return ctx.refusal(c, error, BACK);
  }
}

async function revokeClient(c: Page<"/cds-clients/:id/revoke">, ctx: DashboardContext) {
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
}

/** An account's CDS clients and their feedback (decisions 121 and 124); revoke, bounded to the account. */
export function registerCdsClients(app: DashboardApp, ctx: DashboardContext): void {
  app.get("/cds-clients", (c) => listClientsPage(c, ctx));
  app.post("/cds-clients", (c) => addClient(c, ctx));
  app.post("/cds-clients/:id/revoke", (c) => revokeClient(c, ctx));
}
