/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { and, eq, isNull, webhookDeliveries, webhookEndpoints } from "@svc/db";
import {
  addWebhookEndpoint,
  listDeliveryAttempts,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  rollWebhookSecret,
  sendTestEvent,
  setWebhookEndpointDisabled,
} from "@svc/delivery";
import { accountOf, isOrganization, type Workspace } from "@svc/records";
import type { Context } from "hono";
import { z } from "zod";
import { SecretOncePage } from "../pages/keys.js";
import { EndpointPage, WebhooksPage } from "../pages/webhooks.js";
import { type DashboardApp, type DashboardContext, formOf } from "./context.js";
import type { Page } from "./page.js";

const AddEndpointSchema = z.object({
  url: z.string().min(1).max(2000),
  mode: z.enum(["test", "live"]).default("live"),
});
const BACK = "/dashboard/webhooks";
/**
 * "Send test event" per endpoint: bursts of 5, refilled at 5 a minute (decision 93). Counted by
 * the service's rate limiter, in Redis where the replicas share it (process memory only in the
 * embedded single-process mode), so a second replica does not double the allowance.
 */
export const TEST_EVENT_LIMIT = { burst: 5, ratePerSecond: 5 / 60 } as const;

/** The workspace's endpoint with this id, if any. */
async function endpointOf(ctx: DashboardContext, workspace: Workspace, id: string) {
  const { endpoints } = await listWebhookEndpoints(ctx.db, workspace);
  return endpoints.find((e) => e.id === id);
}

const noEndpoint = (c: Context, ctx: DashboardContext) =>
  ctx.problem(c, 404, "Not found", "There is no such endpoint here.", BACK);

async function listEndpoints(c: Page<"/webhooks">, ctx: DashboardContext) {
  const { db } = ctx;
  const viewer = c.get("viewer");
  const { endpoints } = await listWebhookEndpoints(db, viewer.workspace);
  return c.html(<WebhooksPage viewer={viewer} rows={endpoints} />);
}

async function addEndpoint(c: Page<"/webhooks">, ctx: DashboardContext) {
  const { db, deps } = ctx;
  const viewer = c.get("viewer");
  const parsed = AddEndpointSchema.safeParse(await formOf(c));
  if (!parsed.success) return ctx.problem(c, 400, "Not changed", "Give a URL and a mode.", BACK);
  try {
    // Refusals (a loopback endpoint where the operator does not allow one, say) name the reason.
    const created = await addWebhookEndpoint(db, {
      ...viewer.workspace,
      ...parsed.data,
      allowLoopbackWebhooks: deps.allowLoopbackWebhooks ?? false,
    });
    await ctx.audit(c, "webhook_endpoint.created", created.id, {
      url: created.url,
      mode: parsed.data.mode,
    });
    return c.html(
      <SecretOncePage
        viewer={viewer}
        section="webhooks"
        title="Endpoint added"
        label={`The signing secret of ${created.url}.`}
        secret={created.secret}
        back={`${BACK}/${created.id}`}
      />,
    );
  } catch (error) {
    return ctx.refusal(c, error, BACK);
  }
}

async function showEndpoint(c: Page<"/webhooks/:id">, ctx: DashboardContext) {
  const { db } = ctx;
  const viewer = c.get("viewer");
  const endpoint = await endpointOf(ctx, viewer.workspace, c.req.param("id"));
  if (!endpoint) return noEndpoint(c, ctx);
  const { deliveries } = await listWebhookDeliveries(db, { endpointId: endpoint.id, limit: 50 });
  const attempts = await listDeliveryAttempts(
    db,
    deliveries.map((d) => d.id),
  );
  return c.html(
    <EndpointPage
      viewer={viewer}
      endpoint={endpoint}
      deliveries={deliveries}
      attempts={attempts}
      notice={ctx.notice(c)}
    />,
  );
}

async function sendTest(c: Page<"/webhooks/:id/test">, ctx: DashboardContext) {
  const { db, deps } = ctx;
  const viewer = c.get("viewer");
  const back = `${BACK}/${c.req.param("id")}`;
  if (isOrganization(viewer.workspace)) return noEndpoint(c, ctx);
  // Only the workspace's own endpoint is counted: another account cannot spend its allowance.
  const endpoint = await endpointOf(ctx, viewer.workspace, c.req.param("id"));
  if (!endpoint) return noEndpoint(c, ctx);
  const decision = await deps.limiter.consume({
    kind: "bucket",
    subject: `dashboard-test-event:${endpoint.id}`,
    ...TEST_EVENT_LIMIT,
  });
  if (!decision.allowed) {
    const wait = Math.max(1, Math.ceil(decision.retryAfter));
    c.header("Retry-After", String(wait));
    return ctx.problem(
      c,
      429,
      "Too many test events",
      `This endpoint takes at most ${TEST_EVENT_LIMIT.burst} test events a minute; try again in ${wait} s.`,
      back,
    );
  }
  try {
    const recorded = await sendTestEvent(db, {
      accountId: accountOf(viewer.workspace),
      endpointId: c.req.param("id"),
    });
    await ctx.audit(c, "webhook_endpoint.test_sent", c.req.param("id"), { eventId: recorded.event.id });
    return c.redirect(`${back}?done=test`, 303);
  } catch (error) {
    return ctx.refusal(c, error, back);
  }
}

async function rollSecret(c: Page<"/webhooks/:id/roll-secret">, ctx: DashboardContext) {
  const { db } = ctx;
  const viewer = c.get("viewer");
  const endpoint = await endpointOf(ctx, viewer.workspace, c.req.param("id"));
  if (!endpoint) return noEndpoint(c, ctx);
  const rolled = await rollWebhookSecret(db, endpoint.id);
  await ctx.audit(c, "webhook_endpoint.secret_rolled", endpoint.id);
  return c.html(
    <SecretOncePage
      viewer={viewer}
      section="webhooks"
      title="Signing secret rolled"
      label={`The new signing secret of ${rolled.url}; deliveries are signed with it from now on.`}
      secret={rolled.secret}
      back={`${BACK}/${endpoint.id}`}
    />,
  );
}

async function setDisabled(
  c: Page<"/webhooks/:id/disable" | "/webhooks/:id/enable">,
  ctx: DashboardContext,
  verb: "disable" | "enable",
) {
  const { db } = ctx;
  const disabled = verb === "disable";
  const viewer = c.get("viewer");
  const endpoint = await endpointOf(ctx, viewer.workspace, c.req.param("id"));
  if (!endpoint) return noEndpoint(c, ctx);
  await setWebhookEndpointDisabled(db, { id: endpoint.id, disabled });
  await ctx.audit(c, `webhook_endpoint.${verb}d`, endpoint.id);
  return c.redirect(`${BACK}/${endpoint.id}?done=${verb}d`, 303);
}

async function redeliver(c: Page<"/deliveries/:id/redeliver">, ctx: DashboardContext) {
  const { db } = ctx;
  const viewer = c.get("viewer");
  const [delivery] = await db
    .select({ id: webhookDeliveries.id, endpointId: webhookDeliveries.endpointId })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        eq(webhookDeliveries.id, c.req.param("id")),
        isOrganization(viewer.workspace)
          ? eq(webhookEndpoints.orgId, viewer.workspace.orgId)
          : eq(webhookEndpoints.accountId, viewer.workspace.accountId),
        isNull(webhookEndpoints.removedAt),
      ),
    );
  if (!delivery) return ctx.problem(c, 404, "Not found", "There is no such delivery here.", BACK);
  const back = `${BACK}/${delivery.endpointId}`;
  try {
    await redeliverWebhook(db, delivery.id);
    await ctx.audit(c, "webhook_delivery.redelivered", delivery.id);
    return c.redirect(`${back}?done=redelivered`, 303);
  } catch (error) {
    return ctx.refusal(c, error, back);
  }
}

/**
 * Webhook endpoints and their deliveries: the CLI's functions, bounded to the user's workspace.
 * An organization's endpoints are live and receive its MSE safety events (decision 28); the test
 * event is an account event, so organizations have no "send test event".
 */
export function registerWebhooks(app: DashboardApp, ctx: DashboardContext): void {
  app.get("/webhooks", (c) => listEndpoints(c, ctx));
  app.post("/webhooks", (c) => addEndpoint(c, ctx));
  app.get("/webhooks/:id", (c) => showEndpoint(c, ctx));
  app.post("/webhooks/:id/test", (c) => sendTest(c, ctx));
  app.post("/webhooks/:id/roll-secret", (c) => rollSecret(c, ctx));
  app.post("/webhooks/:id/disable", (c) => setDisabled(c, ctx, "disable"));
  app.post("/webhooks/:id/enable", (c) => setDisabled(c, ctx, "enable"));
  app.post("/deliveries/:id/redeliver", (c) => redeliver(c, ctx));
}
