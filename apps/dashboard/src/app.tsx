/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import {
  and,
  apiKeys,
  createApiKey,
  dashboardMembers,
  eq,
  isNull,
  listAccountKeys,
  RepoError,
  revokeApiKey,
  rollApiKey,
  setPublishableOrigins,
  webhookDeliveries,
  webhookEndpoints,
} from "@svc/db";
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
import type { AppDeps } from "@svc/http";
import {
  eventCursor,
  eventPosition,
  LabOrderError,
  listEvents,
  listLabOrders,
  transitionLabOrder,
} from "@svc/intelligence-api";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { listAudit, recordAudit } from "./audit.js";
import {
  createDashboardAuth,
  type DashboardAuth,
  loadAuthSecret,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
} from "./auth.js";
import {
  changeMember,
  claimInvite,
  createInvite,
  findOpenInvite,
  InviteInputSchema,
  listAccountUsers,
} from "./invites.js";
import { AuditPage } from "./pages/audit.js";
import { EventsPage } from "./pages/events.js";
import { KeysPage, SecretOncePage } from "./pages/keys.js";
import { LabsPage } from "./pages/labs.js";
import type { Viewer } from "./pages/layout.js";
import { ProblemPage, SetPasswordPage, SignInPage } from "./pages/sign-in.js";
import { DASHBOARD_CSS } from "./pages/style.js";
import { UsersPage } from "./pages/users.js";
import { EndpointPage, WebhooksPage } from "./pages/webhooks.js";
import { csrfMatches, sameOrigin, viewerOf } from "./session.js";

export interface DashboardOptions {
  /** A key was revoked or its origins changed: drop cached key lookups here and on replicas. */
  onKeysChanged?: (keyId: string) => Promise<void> | void;
}

type SignedIn = Viewer & { userId: string };
interface Env {
  Variables: { viewer: SignedIn };
}

const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The largest form the dashboard reads (an origin list of 4,000 characters fits many times). */
const FORM_LIMIT_BYTES = 64 * 1024;

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
const CreateKeySchema = z.object({
  kind: z.enum(["secret_test", "secret_live", "publishable"]),
  origins: z.string().max(4000),
});
const OriginsSchema = z.object({ origins: z.string().max(4000) });
const AddEndpointSchema = z.object({ url: z.string().min(1).max(2000), mode: z.enum(["test", "live"]) });
const EventsQuerySchema = z.object({
  mode: z.enum(["test", "live"]).default("test"),
  type: z
    .string()
    .max(64)
    .regex(/^[a-z0-9_.]*$/)
    .default(""),
  after: z.string().max(200).optional(),
});

function lines(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

async function formOf(c: Context): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  return Object.fromEntries(Object.entries(body).filter(([, v]) => typeof v === "string")) as Record<
    string,
    string
  >;
}

/**
 * The developer dashboard under /dashboard (decision 57): server-rendered pages with plain forms,
 * signed in through better-auth, every change checked for origin, CSRF token and role, and
 * written to the audit log. It calls the same data-access functions as the CLI and the API.
 */
export function buildDashboard(deps: AppDeps, options: DashboardOptions = {}) {
  const { db } = deps;
  let ready: Promise<{ auth: DashboardAuth; secret: string }> | undefined;
  const init = () => {
    ready ??= loadAuthSecret(db).then((secret) => ({
      secret,
      auth: createDashboardAuth({ db, secret, publicBaseUrl: deps.publicBaseUrl, logger: deps.logger }),
    }));
    return ready;
  };
  const app = new Hono<Env>().basePath("/dashboard");

  const problem = (
    c: Context,
    status: 400 | 403 | 404 | 410 | 413 | 429,
    title: string,
    text: string,
    back?: string,
  ) => {
    c.status(status);
    return c.html(<ProblemPage title={title} text={text} back={back} />);
  };
  const refusal = (c: Context, error: unknown, back: string) => {
    if (error instanceof RepoError)
      return error.code === "not_found"
        ? problem(c, 404, "Not found", "There is no such resource in this account.", back)
        : problem(c, 400, "Not changed", error.message, back);
    throw error;
  };

  app.use("*", async (c, next) => {
    await next();
    c.header("Content-Security-Policy", CSP);
    c.header("X-Content-Type-Options", "nosniff");
    // same-origin, not no-referrer: under no-referrer Chromium sends `Origin: null` on form
    // posts, which the Origin check must refuse; other origins still never see our URLs.
    c.header("Referrer-Policy", "same-origin");
    c.header("Cache-Control", "no-store");
  });
  // Forms are small: a larger body is refused before it is read (the API's guard is not in front).
  app.use(
    "*",
    bodyLimit({
      maxSize: FORM_LIMIT_BYTES,
      onError: (c) => problem(c, 413, "Refused", "That form is larger than the dashboard accepts."),
    }),
  );
  // Every state change, signed in or not, must come from our own pages.
  app.use("*", async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && !sameOrigin(c, deps.publicBaseUrl))
      return problem(c, 403, "Refused", "This change did not come from a dashboard page (Origin check).");
    return next();
  });

  app.get("/static/dashboard.css", (c) => {
    c.header("Content-Type", "text/css; charset=utf-8");
    return c.body(DASHBOARD_CSS);
  });
  app.get("/", (c) => c.redirect("/dashboard/keys", 303));

  app.get("/sign-in", (c) => c.html(<SignInPage />));
  app.post("/sign-in", async (c) => {
    const { auth } = await init();
    const parsed = SignInSchema.safeParse(await formOf(c));
    if (!parsed.success) {
      c.status(400);
      return c.html(<SignInPage problem="Enter your email and password." />);
    }
    const email = parsed.data.email.toLowerCase();
    const decision = await deps.limiter.consume({
      kind: "bucket",
      subject: `dashboard-sign-in:${email}`,
      ...SIGN_IN_LIMIT,
    });
    if (!decision.allowed) {
      c.header("Retry-After", String(Math.ceil(decision.retryAfter)));
      c.status(429);
      return c.html(<SignInPage email={email} problem="Too many attempts; wait a minute and try again." />);
    }
    try {
      const result = await auth.api.signInEmail({
        body: { email, password: parsed.data.password },
        headers: c.req.raw.headers,
        returnHeaders: true,
      });
      for (const cookie of result.headers.getSetCookie()) c.header("Set-Cookie", cookie, { append: true });
      return c.redirect("/dashboard/keys", 303);
    } catch {
      c.status(401);
      return c.html(
        <SignInPage email={email} problem="That email and password do not match a dashboard user." />,
      );
    }
  });

  app.get("/invite/:token", async (c) => {
    const invite = await findOpenInvite(db, c.req.param("token"));
    if (!invite)
      return problem(c, 410, "Link not valid", "This link was used already, has expired, or never existed.");
    return c.html(
      <SetPasswordPage
        action={c.req.path}
        email={invite.email}
        role={invite.role}
        accountId={invite.accountId}
      />,
    );
  });
  app.post("/invite/:token", async (c) => {
    const { auth } = await init();
    const invite = await findOpenInvite(db, c.req.param("token"));
    if (!invite)
      return problem(c, 410, "Link not valid", "This link was used already, has expired, or never existed.");
    const parsed = PasswordSchema.safeParse(await formOf(c));
    const email = (invite.email ?? parsed.data?.email)?.toLowerCase();
    if (!parsed.success || !email) {
      c.status(400);
      return c.html(
        <SetPasswordPage
          action={c.req.path}
          email={invite.email}
          role={invite.role}
          accountId={invite.accountId}
          problem={parsed.error?.issues[0]?.message ?? "Enter your email."}
        />,
      );
    }
    const ctx = await auth.$context;
    const existing = await ctx.internalAdapter.findUserByEmail(email, { includeAccounts: true });
    if (existing) {
      const [member] = await db
        .select({ accountId: dashboardMembers.accountId })
        .from(dashboardMembers)
        .where(eq(dashboardMembers.userId, existing.user.id));
      if (member && member.accountId !== invite.accountId)
        return problem(c, 400, "Not changed", "This email already belongs to another account.");
    }
    if (!(await claimInvite(db, invite.id)))
      return problem(c, 410, "Link not valid", "This link was used already, has expired, or never existed.");
    const hash = await ctx.password.hash(parsed.data.password);
    let userId: string;
    if (existing) {
      userId = existing.user.id;
      if (existing.accounts.some((a) => a.providerId === "credential"))
        await ctx.internalAdapter.updatePassword(userId, hash);
      else
        await ctx.internalAdapter.linkAccount({
          userId,
          providerId: "credential",
          accountId: userId,
          password: hash,
        });
    } else {
      const user = await ctx.internalAdapter.createUser(
        { email, name: email, emailVerified: true },
        { method: "admin" },
      );
      userId = user.id;
      await ctx.internalAdapter.linkAccount({
        userId,
        providerId: "credential",
        accountId: userId,
        password: hash,
      });
    }
    await db
      .insert(dashboardMembers)
      .values({ userId, accountId: invite.accountId, role: invite.role })
      .onConflictDoUpdate({ target: dashboardMembers.userId, set: { role: invite.role } });
    await recordAudit(db, {
      accountId: invite.accountId,
      userId,
      actorEmail: email,
      action: "user.password_set",
      targetId: invite.id,
      detail: { role: invite.role },
    });
    const result = await auth.api.signInEmail({
      body: { email, password: parsed.data.password },
      headers: c.req.raw.headers,
      returnHeaders: true,
    });
    for (const cookie of result.headers.getSetCookie()) c.header("Set-Cookie", cookie, { append: true });
    return c.redirect("/dashboard/keys", 303);
  });

  // Everything below needs a session; changes need the CSRF token and a role that may change.
  app.use("*", async (c, next) => {
    const { auth, secret } = await init();
    const viewer = await viewerOf(c, auth, db, secret);
    if (!viewer) {
      if (c.req.method === "GET") return c.redirect("/dashboard/sign-in", 303);
      return problem(c, 403, "Refused", "Sign in first.", "/dashboard/sign-in");
    }
    if (c.req.method === "POST") {
      const form = await formOf(c);
      if (!csrfMatches(viewer.csrf, form._csrf))
        return problem(c, 403, "Refused", "This form is stale (CSRF check); reload the page and try again.");
      const isSignOut = c.req.path === "/dashboard/sign-out";
      if (viewer.role === "viewer" && !isSignOut)
        return problem(c, 403, "Refused", "Viewers can look but not change anything.", "/dashboard/keys");
      if (viewer.role !== "owner" && c.req.path.startsWith("/dashboard/users"))
        return problem(c, 403, "Refused", "Only owners invite users and change roles.", "/dashboard/users");
    }
    c.set("viewer", viewer);
    return next();
  });

  const audit = (c: Context<Env>, action: string, targetId: string, detail: Record<string, unknown> = {}) => {
    const viewer = c.get("viewer");
    return recordAudit(db, {
      accountId: viewer.accountId,
      userId: viewer.userId,
      actorEmail: viewer.email,
      action,
      targetId,
      detail,
    });
  };

  app.post("/sign-out", async (c) => {
    const { auth } = await init();
    const result = await auth.api.signOut({ headers: c.req.raw.headers, returnHeaders: true });
    for (const cookie of result.headers.getSetCookie()) c.header("Set-Cookie", cookie, { append: true });
    return c.redirect("/dashboard/sign-in", 303);
  });

  // --- Keys ---------------------------------------------------------------------------------
  const NOTICES: Record<string, string> = {
    revoked: "Key revoked: the API refuses it from now on.",
    origins: "Origins saved.",
    test: "Test event queued for delivery.",
    redelivered: "Delivery queued again.",
    disabled: "Endpoint disabled.",
    enabled: "Endpoint enabled.",
    moved: "Order moved; its events and webhooks are on their way.",
    role: "Role changed.",
    removed: "User removed; their sessions ended.",
  };
  app.get("/keys", async (c) => {
    const viewer = c.get("viewer");
    const rows = await listAccountKeys(db, viewer.accountId);
    return c.html(<KeysPage viewer={viewer} rows={rows} notice={NOTICES[c.req.query("done") ?? ""]} />);
  });
  app.post("/keys", async (c) => {
    const viewer = c.get("viewer");
    const parsed = CreateKeySchema.safeParse(await formOf(c));
    if (!parsed.success) return problem(c, 400, "Not changed", "Choose a key kind.", "/dashboard/keys");
    const origins = lines(parsed.data.origins);
    try {
      const created = await createApiKey(db, {
        kind: parsed.data.kind,
        accountId: viewer.accountId,
        origins: parsed.data.kind === "publishable" ? origins : undefined,
      });
      await audit(c, "key.created", created.id, { kind: created.kind, prefix: created.prefix, origins });
      return c.html(
        <SecretOncePage
          viewer={viewer}
          section="keys"
          title="Key created"
          label={`Your new ${created.kind} key.`}
          secret={created.key}
          back="/dashboard/keys"
        />,
      );
    } catch (error) {
      return refusal(c, error, "/dashboard/keys");
    }
  });
  app.post("/keys/:id/revoke", async (c) => {
    const viewer = c.get("viewer");
    const id = c.req.param("id");
    const [key] = await db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, viewer.accountId)));
    if (!key) return problem(c, 404, "Not found", "There is no such key in this account.", "/dashboard/keys");
    await revokeApiKey(db, key.id);
    await options.onKeysChanged?.(key.id);
    await audit(c, "key.revoked", key.id);
    return c.redirect("/dashboard/keys?done=revoked", 303);
  });
  app.post("/keys/:id/roll", async (c) => {
    const viewer = c.get("viewer");
    try {
      const rolled = await rollApiKey(db, { accountId: viewer.accountId, keyId: c.req.param("id") });
      await options.onKeysChanged?.(rolled.replaced);
      await audit(c, "key.rolled", rolled.replaced, {
        kind: rolled.kind,
        newKeyId: rolled.id,
        prefix: rolled.prefix,
      });
      return c.html(
        <SecretOncePage
          viewer={viewer}
          section="keys"
          title="Key rolled"
          label={`The new ${rolled.kind} key; the old one is revoked.`}
          secret={rolled.key}
          back="/dashboard/keys"
        />,
      );
    } catch (error) {
      return refusal(c, error, "/dashboard/keys");
    }
  });
  app.post("/keys/:id/origins", async (c) => {
    const viewer = c.get("viewer");
    const parsed = OriginsSchema.safeParse(await formOf(c));
    if (!parsed.success) return problem(c, 400, "Not changed", "List the origins.", "/dashboard/keys");
    try {
      const updated = await setPublishableOrigins(db, {
        accountId: viewer.accountId,
        keyId: c.req.param("id"),
        origins: lines(parsed.data.origins),
      });
      await options.onKeysChanged?.(updated.id);
      await audit(c, "key.origins_changed", updated.id, { origins: updated.origins });
      return c.redirect("/dashboard/keys?done=origins", 303);
    } catch (error) {
      return refusal(c, error, "/dashboard/keys");
    }
  });

  // --- Webhooks -----------------------------------------------------------------------------
  const endpointOfAccount = async (accountId: string, id: string) => {
    const { endpoints } = await listWebhookEndpoints(db, { accountId });
    return endpoints.find((e) => e.id === id);
  };
  app.get("/webhooks", async (c) => {
    const viewer = c.get("viewer");
    const { endpoints } = await listWebhookEndpoints(db, { accountId: viewer.accountId });
    return c.html(<WebhooksPage viewer={viewer} rows={endpoints} />);
  });
  app.post("/webhooks", async (c) => {
    const viewer = c.get("viewer");
    const parsed = AddEndpointSchema.safeParse(await formOf(c));
    if (!parsed.success)
      return problem(c, 400, "Not changed", "Give a URL and a mode.", "/dashboard/webhooks");
    try {
      const created = await addWebhookEndpoint(db, { accountId: viewer.accountId, ...parsed.data });
      await audit(c, "webhook_endpoint.created", created.id, { url: created.url, mode: parsed.data.mode });
      return c.html(
        <SecretOncePage
          viewer={viewer}
          section="webhooks"
          title="Endpoint added"
          label={`The signing secret of ${created.url}.`}
          secret={created.secret}
          back={`/dashboard/webhooks/${created.id}`}
        />,
      );
    } catch (error) {
      return refusal(c, error, "/dashboard/webhooks");
    }
  });
  app.get("/webhooks/:id", async (c) => {
    const viewer = c.get("viewer");
    const endpoint = await endpointOfAccount(viewer.accountId, c.req.param("id"));
    if (!endpoint)
      return problem(
        c,
        404,
        "Not found",
        "There is no such endpoint in this account.",
        "/dashboard/webhooks",
      );
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
        notice={NOTICES[c.req.query("done") ?? ""]}
      />,
    );
  });
  app.post("/webhooks/:id/test", async (c) => {
    const viewer = c.get("viewer");
    const back = `/dashboard/webhooks/${c.req.param("id")}`;
    try {
      const recorded = await sendTestEvent(db, {
        accountId: viewer.accountId,
        endpointId: c.req.param("id"),
      });
      await deps.deliveries?.enqueue(recorded.deliveryIds);
      await audit(c, "webhook_endpoint.test_sent", c.req.param("id"), { eventId: recorded.event.id });
      return c.redirect(`${back}?done=test`, 303);
    } catch (error) {
      return refusal(c, error, back);
    }
  });
  app.post("/webhooks/:id/roll-secret", async (c) => {
    const viewer = c.get("viewer");
    const endpoint = await endpointOfAccount(viewer.accountId, c.req.param("id"));
    if (!endpoint)
      return problem(
        c,
        404,
        "Not found",
        "There is no such endpoint in this account.",
        "/dashboard/webhooks",
      );
    const rolled = await rollWebhookSecret(db, endpoint.id);
    await audit(c, "webhook_endpoint.secret_rolled", endpoint.id);
    return c.html(
      <SecretOncePage
        viewer={viewer}
        section="webhooks"
        title="Signing secret rolled"
        label={`The new signing secret of ${rolled.url}; deliveries are signed with it from now on.`}
        secret={rolled.secret}
        back={`/dashboard/webhooks/${endpoint.id}`}
      />,
    );
  });
  for (const [verb, disabled] of [
    ["disable", true],
    ["enable", false],
  ] as const) {
    app.post(`/webhooks/:id/${verb}`, async (c) => {
      const viewer = c.get("viewer");
      const endpoint = await endpointOfAccount(viewer.accountId, c.req.param("id"));
      if (!endpoint)
        return problem(
          c,
          404,
          "Not found",
          "There is no such endpoint in this account.",
          "/dashboard/webhooks",
        );
      await setWebhookEndpointDisabled(db, { id: endpoint.id, disabled });
      await audit(c, `webhook_endpoint.${verb}d`, endpoint.id);
      return c.redirect(`/dashboard/webhooks/${endpoint.id}?done=${verb}d`, 303);
    });
  }
  app.post("/deliveries/:id/redeliver", async (c) => {
    const viewer = c.get("viewer");
    const [delivery] = await db
      .select({ id: webhookDeliveries.id, endpointId: webhookDeliveries.endpointId })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(
        and(
          eq(webhookDeliveries.id, c.req.param("id")),
          eq(webhookEndpoints.accountId, viewer.accountId),
          isNull(webhookEndpoints.removedAt),
        ),
      );
    if (!delivery)
      return problem(
        c,
        404,
        "Not found",
        "There is no such delivery in this account.",
        "/dashboard/webhooks",
      );
    const back = `/dashboard/webhooks/${delivery.endpointId}`;
    try {
      await redeliverWebhook(db, delivery.id);
      await deps.deliveries?.enqueue([delivery.id]);
      await audit(c, "webhook_delivery.redelivered", delivery.id);
      return c.redirect(`${back}?done=redelivered`, 303);
    } catch (error) {
      return refusal(c, error, back);
    }
  });

  // --- Events and audit ---------------------------------------------------------------------
  app.get("/events", async (c) => {
    const viewer = c.get("viewer");
    const query = EventsQuerySchema.safeParse(c.req.query());
    if (!query.success)
      return problem(
        c,
        400,
        "Bad filter",
        "Mode is test or live; a type is lower case.",
        "/dashboard/events",
      );
    let after: ReturnType<typeof eventPosition> | undefined;
    try {
      after = query.data.after ? eventPosition(query.data.after) : undefined;
    } catch {
      return problem(c, 400, "Bad filter", "That page link is not valid.", "/dashboard/events");
    }
    const { mode, type } = query.data;
    const page = await listEvents(db, {
      scope: { accountId: viewer.accountId, mode },
      type: type || undefined,
      after,
      limit: 100,
    });
    const last = page.rows.at(-1);
    const next =
      page.hasMore && last
        ? `/dashboard/events?${new URLSearchParams({ mode, type, after: eventCursor({ xact: last.xact, seq: String(last.seq) }) })}`
        : undefined;
    return c.html(<EventsPage viewer={viewer} mode={mode} type={type} rows={page.rows} next={next} />);
  });
  app.get("/audit", async (c) => {
    const viewer = c.get("viewer");
    return c.html(<AuditPage viewer={viewer} rows={await listAudit(db, viewer.accountId)} />);
  });

  // --- Lab orders and their sandbox helpers -------------------------------------------------
  app.get("/labs", async (c) => {
    const viewer = c.get("viewer");
    const page = (mode: "test" | "live") =>
      listLabOrders(db, { scope: { accountId: viewer.accountId, mode }, limit: 100 }).then((p) => p.rows);
    const [test, live] = await Promise.all([page("test"), page("live")]);
    return c.html(
      <LabsPage viewer={viewer} test={test} live={live} notice={NOTICES[c.req.query("done") ?? ""]} />,
    );
  });
  // The same moves as the test-helper endpoints, on test-mode orders of this account only.
  for (const [helper, move] of [
    ["authorize", { to: "authorized", expectFrom: "requested" }],
    ["advance", {}],
  ] as const) {
    app.post(`/labs/:id/${helper}`, async (c) => {
      const viewer = c.get("viewer");
      try {
        const outcome = await transitionLabOrder(db, {
          id: c.req.param("id"),
          accountId: viewer.accountId,
          mode: "test",
          ...move,
        });
        await deps.deliveries?.enqueue(outcome.deliveryIds);
        await audit(c, `lab_order.${helper}d`, outcome.order.id, {
          from: outcome.from,
          to: outcome.order.status,
        });
        return c.redirect("/dashboard/labs?done=moved", 303);
      } catch (error) {
        if (!(error instanceof LabOrderError)) throw error;
        return error.code === "not_found"
          ? problem(
              c,
              404,
              "Not found",
              "There is no such test lab order in this account.",
              "/dashboard/labs",
            )
          : problem(c, 400, "Not changed", error.message, "/dashboard/labs");
      }
    });
  }

  // --- Users (owners change; everyone signed in sees) -----------------------------------------
  app.get("/users", async (c) => {
    const viewer = c.get("viewer");
    const users = await listAccountUsers(db, viewer.accountId);
    return c.html(<UsersPage viewer={viewer} users={users} notice={NOTICES[c.req.query("done") ?? ""]} />);
  });
  app.post("/users", async (c) => {
    const viewer = c.get("viewer");
    const form = await formOf(c);
    const parsed = InviteInputSchema.safeParse({
      accountId: viewer.accountId,
      email: form.email,
      role: form.role,
    });
    if (!parsed.success || !parsed.data.email)
      return problem(c, 400, "Not changed", "Give an email and a role.", "/dashboard/users");
    try {
      const invite = await createInvite(db, parsed.data, deps.publicBaseUrl, {
        actor: { userId: viewer.userId, email: viewer.email },
      });
      return c.html(
        <SecretOncePage
          viewer={viewer}
          section="users"
          title="Invitation created"
          label={`Give this one-time link to ${invite.email} (${invite.role}); it works once, for 72 hours.`}
          secret={invite.url}
          back="/dashboard/users"
        />,
      );
    } catch (error) {
      return refusal(c, error, "/dashboard/users");
    }
  });
  const MemberChangeSchema = z.object({ role: z.enum(["owner", "developer", "viewer", "removed"]) });
  const changeMemberRoute =
    (fromForm: (form: Record<string, string>) => unknown) => async (c: Context<Env>) => {
      const viewer = c.get("viewer");
      const parsed = MemberChangeSchema.safeParse({ role: fromForm(await formOf(c)) });
      if (!parsed.success) return problem(c, 400, "Not changed", "Choose a role.", "/dashboard/users");
      try {
        const changed = await changeMember(db, {
          accountId: viewer.accountId,
          userId: c.req.param("id") as string,
          role: parsed.data.role,
        });
        await audit(
          c,
          parsed.data.role === "removed" ? "user.removed" : "user.role_changed",
          changed.userId,
          {
            from: changed.previousRole,
            to: changed.role,
          },
        );
        return c.redirect(
          `/dashboard/users?done=${parsed.data.role === "removed" ? "removed" : "role"}`,
          303,
        );
      } catch (error) {
        return refusal(c, error, "/dashboard/users");
      }
    };
  app.post(
    "/users/:id/role",
    changeMemberRoute((form) => form.role),
  );
  app.post(
    "/users/:id/remove",
    changeMemberRoute(() => "removed"),
  );

  app.notFound((c) => problem(c, 404, "Not found", "There is no such page.", "/dashboard/keys"));
  return app;
}
