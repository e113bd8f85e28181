import { apiKeys, eq, webhookDeliveries } from "@svc/db";
import { startInProcessDelivery } from "@svc/delivery";
import { createInvite, listAudit } from "@svc/records";
import { call, type Receiver, startReceiver, startTestService } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { verifySignature } from "@svc/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DashboardClient, PASSWORD } from "./session-client.js";

/**
 * The dashboard over real HTTP against real PostgreSQL and Redis: sign-in through one-time links,
 * cookies, CSRF and Origin checks, roles, other accounts' resources, and the audit log.
 */
const service = useTestService();
let receiver: Receiver;
let delivery: ReturnType<typeof startInProcessDelivery>;
let accountA: string;
let accountB: string;
const secretKeyOf = (text: string) => /svc_sk_test_[0-9A-Za-z]+/.exec(text)?.[0];
const idInPath = (text: string, prefix: string) =>
  new RegExp(`/dashboard/${prefix}/((?:key|we|whd)_[0-9a-z]+)/`).exec(text)?.[1];

beforeAll(async () => {
  receiver = await startReceiver(() => ({ status: 200, body: "thanks" }));
  // The receiver is on loopback: allowed as on a developer's machine (the operator's setting).
  service.deps.allowLoopbackWebhooks = true;
  delivery = startInProcessDelivery({
    allowLoopbackWebhooks: true,
    db: service.db.handle.db,
    logger: service.deps.logger,
    pollIntervalMs: 100,
  });
  service.deps.deliveries = delivery;
  accountA = (await service.seed.account({ name: "A" })).id;
  accountB = (await service.seed.account({ name: "B" })).id;
});
afterAll(async () => {
  await delivery?.close({ force: true });
  await receiver?.close();
});

async function signedIn(accountId: string, email: string, role: "owner" | "developer" | "viewer") {
  const invite = await createInvite(
    service.db.handle.db,
    { workspace: { accountId }, email, role },
    service.url,
  );
  const client = new DashboardClient(service.url);
  const accepted = await client.acceptInvite(invite.url, PASSWORD);
  expect(accepted.status).toBe(303);
  return { client, invite };
}

async function keyCount(accountId: string) {
  return (await service.db.handle.db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId))).length;
}

describe("sign-in", () => {
  it("a one-time link sets the password once and signs in with a strict, HttpOnly, expiring cookie", async () => {
    const invite = await createInvite(
      service.db.handle.db,
      { workspace: { accountId: accountA }, role: "owner" },
      service.url,
    );
    const client = new DashboardClient(service.url);
    expect((await client.get(new URL(invite.url).pathname)).status).toBe(200);
    const short = await client.acceptInvite(invite.url, "short", "first@example.com");
    expect(short.status).toBe(400);
    const accepted = await client.acceptInvite(invite.url, PASSWORD, "First@Example.com");
    expect(accepted.status).toBe(303);
    const cookie = client.lastSetCookies.find((line) => line.startsWith("svc_dashboard.session_token="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Max-Age=\d+/i);
    expect((await client.get("/dashboard/keys")).status).toBe(200);
    // The link is spent.
    expect((await new DashboardClient(service.url).get(new URL(invite.url).pathname)).status).toBe(410);
    expect(
      (await new DashboardClient(service.url).acceptInvite(invite.url, PASSWORD, "x@example.com")).status,
    ).toBe(410);
    // Email and password sign in again; signing out ends the session.
    const again = new DashboardClient(service.url);
    expect(
      (await again.post("/dashboard/sign-in", { email: "first@example.com", password: PASSWORD })).status,
    ).toBe(303);
    const csrf = await again.csrf();
    expect((await again.post("/dashboard/sign-out", { _csrf: csrf })).status).toBe(303);
    expect((await again.get("/dashboard/keys")).location).toBe("/dashboard/sign-in");
  });

  it("a new set-password link ends every session opened with the old password", async () => {
    const email = "reset@example.com";
    const first = await signedIn(accountA, email, "developer");
    const other = new DashboardClient(service.url);
    expect((await other.post("/dashboard/sign-in", { email, password: PASSWORD })).status).toBe(303);
    expect((await first.client.get("/dashboard/keys")).status).toBe(200);
    expect((await other.get("/dashboard/keys")).status).toBe(200);

    const reset = await createInvite(
      service.db.handle.db,
      { workspace: { accountId: accountA }, email, role: "developer" },
      service.url,
    );
    const fresh = new DashboardClient(service.url);
    const newPassword = "a different passphrase entirely";
    expect((await fresh.acceptInvite(reset.url, newPassword)).status).toBe(303);
    // The session that set the password works; the two opened before it are over.
    expect((await fresh.get("/dashboard/keys")).status).toBe(200);
    for (const old of [first.client, other]) {
      const page = await old.get("/dashboard/keys");
      expect(page.status).toBe(303);
      expect(page.location).toBe("/dashboard/sign-in");
    }
    // The old password no longer signs in; the new one does.
    const stale = new DashboardClient(service.url);
    expect((await stale.post("/dashboard/sign-in", { email, password: PASSWORD })).status).toBe(401);
    expect((await stale.post("/dashboard/sign-in", { email, password: newPassword })).status).toBe(303);
    expect((await stale.get("/dashboard/keys")).status).toBe(200);
  });

  it("refuses wrong passwords, then limits attempts per email", async () => {
    await signedIn(accountA, "limited@example.com", "developer");
    const client = new DashboardClient(service.url);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (
          await client.post("/dashboard/sign-in", {
            email: "limited@example.com",
            password: "wrong password!",
          })
        ).status,
      );
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
  });

  it("sends pages to the sign-in form and refuses changes without a session", async () => {
    const anonymous = new DashboardClient(service.url);
    expect((await anonymous.get("/dashboard/keys")).location).toBe("/dashboard/sign-in");
    expect((await anonymous.post("/dashboard/keys", { kind: "secret_test", origins: "" })).status).toBe(403);
  });
});

describe("changes", () => {
  it("need the session's CSRF token and our Origin; nothing changes otherwise", async () => {
    const { client } = await signedIn(accountA, "csrf@example.com", "owner");
    const before = await keyCount(accountA);
    expect((await client.post("/dashboard/keys", { kind: "secret_test", origins: "" })).status).toBe(403);
    expect(
      (await client.post("/dashboard/keys", { kind: "secret_test", origins: "", _csrf: "forged" })).status,
    ).toBe(403);
    const csrf = await client.csrf();
    const foreign = new DashboardClient(service.url, "https://evil.example");
    for (const [k, v] of client.cookies) foreign.cookies.set(k, v);
    expect(
      (await foreign.post("/dashboard/keys", { kind: "secret_test", origins: "", _csrf: csrf })).status,
    ).toBe(403);
    const noOrigin = new DashboardClient(service.url, null);
    for (const [k, v] of client.cookies) noOrigin.cookies.set(k, v);
    expect(
      (await noOrigin.post("/dashboard/keys", { kind: "secret_test", origins: "", _csrf: csrf })).status,
    ).toBe(403);
    expect(await keyCount(accountA)).toBe(before);
  });

  it("keys: a created key works once shown, origins are validated and honoured, a revoked key is refused", async () => {
    const { client } = await signedIn(accountA, "keys@example.com", "developer");
    const csrf = await client.csrf();
    const created = await client.post("/dashboard/keys", { kind: "secret_test", origins: "", _csrf: csrf });
    expect(created.status).toBe(200);
    const key = secretKeyOf(created.text) as string;
    expect((await call(service.url, "/v1/ping", { key })).status).toBe(200);
    // The list shows the prefix, never the key again.
    const list = await client.get("/dashboard/keys");
    expect(list.text).toContain(key.slice(0, 16));
    expect(list.text).not.toContain(key);

    const bad = await client.post("/dashboard/keys", {
      kind: "publishable",
      origins: "https://*.example.com",
      _csrf: csrf,
    });
    expect(bad.status).toBe(400);
    const pk = await client.post("/dashboard/keys", {
      kind: "publishable",
      origins: "https://one.example",
      _csrf: csrf,
    });
    const publishable = /svc_pk_[0-9A-Za-z]+/.exec(pk.text)?.[0] as string;
    const keysPage = (await client.get("/dashboard/keys")).text;
    const pkId = idInPath(keysPage.slice(keysPage.indexOf(publishable.slice(0, 11))), "keys") as string;
    expect(pkId).toMatch(/^key_/);
    expect(
      (await client.post(`/dashboard/keys/${pkId}/origins`, { origins: "ftp://x", _csrf: csrf })).status,
    ).toBe(400);
    const saved = await client.post(`/dashboard/keys/${pkId}/origins`, {
      origins: "https://two.example",
      _csrf: csrf,
    });
    expect(saved.status).toBe(303);
    const analyze = (origin: string) =>
      fetch(`${service.url}/v1/dmse/analyze`, {
        method: "POST",
        headers: { authorization: `Bearer ${publishable}`, "content-type": "application/json", origin },
        body: JSON.stringify({
          responseLatencySeconds: 2.6,
          speechRateWpm: 120,
          sessionDurationSeconds: 600,
        }),
      });
    expect((await analyze("https://two.example")).status).toBe(200);
    expect((await analyze("https://one.example")).status).toBe(403);

    const secretId = (
      await service.db.handle.db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.displayPrefix, key.slice(0, 16)))
    )[0]?.id as string;
    expect((await client.post(`/dashboard/keys/${secretId}/revoke`, { _csrf: csrf })).status).toBe(303);
    expect((await call(service.url, "/v1/ping", { key })).status).toBe(401);
    const actions = (await listAudit(service.db.handle.db, { accountId: accountA })).map((row) => row.action);
    expect(actions).toEqual(
      expect.arrayContaining(["key.created", "key.origins_changed", "key.revoked", "user.password_set"]),
    );
  });

  it("webhooks: where the operator does not allow loopback webhooks, a test-mode loopback endpoint is refused and the page says why", async () => {
    const { client } = await signedIn(accountA, "hooks-hosted@example.com", "owner");
    const csrf = await client.csrf();
    service.deps.allowLoopbackWebhooks = false; // as with DATABASE_URL and no ALLOW_LOOPBACK_WEBHOOKS
    try {
      for (const url of [`${receiver.url}/hosted`, "http://localhost:9/hosted", "http://[::1]:9/hosted"]) {
        const refused = await client.post("/dashboard/webhooks", { url, mode: "test", _csrf: csrf });
        expect(refused.status, url).toBe(400);
        expect(refused.text).toContain("is loopback");
        expect(refused.text).toContain("ALLOW_LOOPBACK_WEBHOOKS");
      }
    } finally {
      service.deps.allowLoopbackWebhooks = true;
    }
    expect(receiver.requests.filter((r) => r.path === "/hosted")).toHaveLength(0);
  });

  it("webhooks: an endpoint on loopback gets the test event, the log shows the attempt, redelivery sends it again", async () => {
    const { client } = await signedIn(accountA, "hooks@example.com", "owner");
    const csrf = await client.csrf();
    const refused = await client.post("/dashboard/webhooks", {
      url: receiver.url,
      mode: "live",
      _csrf: csrf,
    });
    expect(refused.status).toBe(400);
    const added = await client.post("/dashboard/webhooks", {
      url: `${receiver.url}/hook`,
      mode: "test",
      _csrf: csrf,
    });
    expect(added.status).toBe(200);
    expect(added.text).toMatch(/whsec_/);
    const endpointId = /\/dashboard\/webhooks\/(we_[0-9a-z]+)/.exec(added.text)?.[1] as string;
    expect((await client.post(`/dashboard/webhooks/${endpointId}/test`, { _csrf: csrf })).status).toBe(303);
    await expect.poll(() => receiver.requests.length, { timeout: 10_000 }).toBe(1);
    expect(receiver.requests[0]?.headers["service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    await expect
      .poll(async () => (await client.get(`/dashboard/webhooks/${endpointId}`)).text, { timeout: 10_000 })
      .toMatch(/delivered[\s\S]*#1 [^<]*: 200/);
    const [delivery] = await service.db.handle.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId));
    expect(
      (await client.post(`/dashboard/deliveries/${delivery?.id}/redeliver`, { _csrf: csrf })).status,
    ).toBe(303);
    await expect.poll(() => receiver.requests.length, { timeout: 10_000 }).toBe(2);
    await expect
      .poll(async () => (await client.get(`/dashboard/webhooks/${endpointId}`)).text, { timeout: 10_000 })
      .toMatch(/#2 [^<]*: 200/);
    // Disabled endpoints take no test event.
    expect((await client.post(`/dashboard/webhooks/${endpointId}/disable`, { _csrf: csrf })).status).toBe(
      303,
    );
    expect((await client.post(`/dashboard/webhooks/${endpointId}/test`, { _csrf: csrf })).status).toBe(400);
    expect((await client.post(`/dashboard/webhooks/${endpointId}/enable`, { _csrf: csrf })).status).toBe(303);
    const events = await client.get("/dashboard/events?mode=test&type=webhook_endpoint.test");
    expect(events.text).toContain(endpointId);
    expect((await client.get("/dashboard/events?mode=staging")).status).toBe(400);
  });
});

describe("rolling", () => {
  it("a key: the new one works, the old one is refused at once; another account's key is 404", async () => {
    const { client } = await signedIn(accountA, "roll@example.com", "developer");
    const csrf = await client.csrf();
    const old = secretKeyOf(
      (await client.post("/dashboard/keys", { kind: "secret_test", origins: "", _csrf: csrf })).text,
    ) as string;
    const oldId = (
      await service.db.handle.db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.displayPrefix, old.slice(0, 16)))
    )[0]?.id as string;
    const rolled = await client.post(`/dashboard/keys/${oldId}/roll`, { _csrf: csrf });
    expect(rolled.status).toBe(200);
    const fresh = secretKeyOf(rolled.text) as string;
    expect(fresh).not.toBe(old);
    expect((await call(service.url, "/v1/ping", { key: fresh })).status).toBe(200);
    expect((await call(service.url, "/v1/ping", { key: old })).status).toBe(401);
    expect((await client.post(`/dashboard/keys/${oldId}/roll`, { _csrf: csrf })).status).toBe(404);
    const other = await signedIn(accountB, "roll-b@example.com", "owner");
    const freshId = (
      await service.db.handle.db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.displayPrefix, fresh.slice(0, 16)))
    )[0]?.id as string;
    expect(
      (await other.client.post(`/dashboard/keys/${freshId}/roll`, { _csrf: await other.client.csrf() }))
        .status,
    ).toBe(404);
    expect((await call(service.url, "/v1/ping", { key: fresh })).status).toBe(200);
  });

  it("a signing secret: deliveries from then on verify with the new secret only", async () => {
    const { client } = await signedIn(accountA, "roll-secret@example.com", "owner");
    const csrf = await client.csrf();
    const added = await client.post("/dashboard/webhooks", {
      url: `${receiver.url}/rolled`,
      mode: "test",
      _csrf: csrf,
    });
    const oldSecret = /whsec_[0-9A-Za-z]+/.exec(added.text)?.[0] as string;
    const endpointId = /\/dashboard\/webhooks\/(we_[0-9a-z]+)/.exec(added.text)?.[1] as string;
    const rolled = await client.post(`/dashboard/webhooks/${endpointId}/roll-secret`, { _csrf: csrf });
    expect(rolled.status).toBe(200);
    const newSecret = /whsec_[0-9A-Za-z]+/.exec(rolled.text)?.[0] as string;
    expect(newSecret).not.toBe(oldSecret);
    const before = receiver.requests.length;
    expect((await client.post(`/dashboard/webhooks/${endpointId}/test`, { _csrf: csrf })).status).toBe(303);
    await expect
      .poll(() => receiver.requests.filter((r) => r.path === "/rolled").length, { timeout: 10_000 })
      .toBe(1);
    const request = receiver.requests.slice(before).find((r) => r.path === "/rolled");
    const header = request?.headers["service-signature"] as string;
    expect(verifySignature({ secret: newSecret, payload: request?.body ?? "", header }).ok).toBe(true);
    expect(verifySignature({ secret: oldSecret, payload: request?.body ?? "", header }).ok).toBe(false);
  });
});

describe("behind a TLS balancer (PUBLIC_BASE_URL https)", () => {
  it("sets Secure cookies and accepts changes whose Origin is the public one", async () => {
    const tls = await startTestService();
    tls.deps.publicBaseUrl = "https://dashboard.example";
    try {
      const accountId = (await tls.seed.account()).id;
      const invite = await createInvite(
        tls.db.handle.db,
        { workspace: { accountId }, email: "tls@example.com", role: "owner" },
        tls.deps.publicBaseUrl,
      );
      expect(invite.url.startsWith("https://dashboard.example/dashboard/invite/")).toBe(true);
      const client = new DashboardClient(tls.url, "https://dashboard.example");
      expect((await client.acceptInvite(invite.url, PASSWORD)).status).toBe(303);
      const cookie = client.lastSetCookies.find((line) => line.includes("session_token="));
      expect(cookie).toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/SameSite=Strict/i);
      const csrf = await client.csrf();
      expect(
        (await client.post("/dashboard/keys", { kind: "secret_test", origins: "", _csrf: csrf })).status,
      ).toBe(200);
    } finally {
      await tls.close();
    }
  });
});

describe("users", () => {
  it("an owner invites, changes roles and removes users; the last owner stays; others are refused", async () => {
    const accountId = (await service.seed.account({ name: "Users" })).id;
    const owner = await signedIn(accountId, "boss@example.com", "owner");
    const csrf = await owner.client.csrf();
    const invited = await owner.client.post("/dashboard/users", {
      email: "Dev@Example.com",
      role: "developer",
      _csrf: csrf,
    });
    expect(invited.status).toBe(200);
    const link = /https?:\/\/[^<"\s]+\/dashboard\/invite\/[A-Za-z0-9_-]{43}/.exec(
      invited.text,
    )?.[0] as string;
    const developer = new DashboardClient(service.url);
    expect((await developer.acceptInvite(link, PASSWORD)).status).toBe(303);
    const devCsrf = await developer.csrf();
    // A developer changes keys but not users.
    expect(
      (await developer.post("/dashboard/users", { email: "x@example.com", role: "owner", _csrf: devCsrf }))
        .status,
    ).toBe(403);

    const users = await owner.client.get("/dashboard/users");
    const ids = [...users.text.matchAll(/\/dashboard\/users\/([^/"]+)\/role/g)].map((m) => m[1] as string);
    expect(ids).toHaveLength(2);
    const bossId = (await listAudit(service.db.handle.db, { accountId })).find(
      (r) => r.actorEmail === "boss@example.com",
    )?.userId as string;
    const developerId = ids.find((id) => id !== bossId) as string;
    expect(
      (await owner.client.post(`/dashboard/users/${developerId}/role`, { role: "viewer", _csrf: csrf }))
        .status,
    ).toBe(303);
    expect(
      (await developer.post("/dashboard/keys", { kind: "secret_test", origins: "", _csrf: devCsrf })).status,
    ).toBe(403);
    expect(
      (await owner.client.post(`/dashboard/users/${bossId}/role`, { role: "viewer", _csrf: csrf })).status,
    ).toBe(400);
    expect(
      (await owner.client.post(`/dashboard/users/${developerId}/role`, { role: "admin", _csrf: csrf }))
        .status,
    ).toBe(400);
    const stranger = await signedIn(accountB, "stranger@example.com", "owner");
    const strangerCsrf = await stranger.client.csrf();
    expect(
      (await stranger.client.post(`/dashboard/users/${developerId}/remove`, { _csrf: strangerCsrf })).status,
    ).toBe(404);
    expect((await owner.client.post(`/dashboard/users/${developerId}/remove`, { _csrf: csrf })).status).toBe(
      303,
    );
    expect((await developer.get("/dashboard/keys")).location).toBe("/dashboard/sign-in");
    const actions = (await listAudit(service.db.handle.db, { accountId })).map(
      (r) => `${r.action}:${r.actorEmail}`,
    );
    expect(actions).toEqual(
      expect.arrayContaining([
        "user.invited:boss@example.com",
        "user.role_changed:boss@example.com",
        "user.removed:boss@example.com",
      ]),
    );
  });
});

describe("wearable connections", () => {
  it("test-mode connections complete and sync through the sandbox helpers; bad steps, viewers and other accounts change nothing", async () => {
    const accountId = (await service.seed.account({ name: "Wearables" })).id;
    const key = (await service.seed.key("secret_test", accountId)).key;
    const created = await call<{ data: { id: string } }>(service.url, "/v1/wearables/connect", {
      method: "POST",
      key,
      body: { patientRef: "pt_dash_w1", providers: ["OURA", "FITBIT"] },
    });
    expect(created.status).toBe(201);
    const id = created.json.data.id;
    const connection = async () =>
      (
        await call<{ data: { status: string; provider: string | null; lastSyncAt: string | null } }>(
          service.url,
          `/v1/wearables/connections/${id}`,
          { key },
        )
      ).json.data;

    const { client } = await signedIn(accountId, "wearables@example.com", "developer");
    const csrf = await client.csrf();
    const page = await client.get("/dashboard/wearables");
    expect(page.text).toContain(id);
    expect(page.text).toContain("pt_dash_w1");
    // Only the connection's own providers, and only while pending.
    expect(
      (await client.post(`/dashboard/wearables/${id}/connect`, { _csrf: csrf, provider: "GARMIN" })).status,
    ).toBe(400);
    expect((await client.post(`/dashboard/wearables/${id}/sync`, { _csrf: csrf })).status).toBe(400);
    expect((await connection()).status).toBe("pending");
    expect(
      (await client.post(`/dashboard/wearables/${id}/connect`, { _csrf: csrf, provider: "OURA" })).status,
    ).toBe(303);
    expect(await connection()).toMatchObject({ status: "connected", provider: "OURA", lastSyncAt: null });
    expect((await client.post(`/dashboard/wearables/${id}/sync`, { _csrf: csrf })).status).toBe(303);
    expect((await connection()).lastSyncAt).not.toBeNull();

    const viewer = await signedIn(accountId, "wearables-viewer@example.com", "viewer");
    expect((await viewer.client.get("/dashboard/wearables")).text).not.toContain(
      `/dashboard/wearables/${id}/sync`,
    );
    expect(
      (await viewer.client.post(`/dashboard/wearables/${id}/sync`, { _csrf: await viewer.client.csrf() }))
        .status,
    ).toBe(403);
    const other = await signedIn(accountB, "wearables-other@example.com", "owner");
    expect((await other.client.get("/dashboard/wearables")).text).not.toContain(id);
    expect(
      (await other.client.post(`/dashboard/wearables/${id}/sync`, { _csrf: await other.client.csrf() }))
        .status,
    ).toBe(404);
    const actions = (await listAudit(service.db.handle.db, { accountId })).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(["wearable.connected", "wearable.synced"]));
    expect(actions.filter((a) => a.startsWith("wearable."))).toHaveLength(2);
  });
});

describe("lab orders", () => {
  it("test-mode orders move through the sandbox helpers; bad moves, viewers and other accounts change nothing", async () => {
    const accountId = (await service.seed.account({ name: "Labs" })).id;
    const key = (await service.seed.key("secret_test", accountId)).key;
    const created = await call<{ data: { id: string } }>(service.url, "/v1/labs/orders", {
      method: "POST",
      key,
      body: { patientRef: "pt_dash_1", panelId: "lithium_monitoring" },
    });
    expect(created.status).toBe(201);
    const orderId = created.json.data.id;
    const status = async () =>
      (await call<{ data: { status: string } }>(service.url, `/v1/labs/orders/${orderId}`, { key })).json.data
        .status;

    const { client } = await signedIn(accountId, "labs@example.com", "developer");
    const csrf = await client.csrf();
    expect((await client.get("/dashboard/labs")).text).toContain(orderId);
    expect((await client.post(`/dashboard/labs/${orderId}/authorize`, { _csrf: csrf })).status).toBe(303);
    expect(await status()).toBe("authorized");
    expect((await client.post(`/dashboard/labs/${orderId}/authorize`, { _csrf: csrf })).status).toBe(400);
    expect((await client.post(`/dashboard/labs/${orderId}/advance`, { _csrf: csrf })).status).toBe(303);
    expect(await status()).toBe("scheduled");

    const viewer = await signedIn(accountId, "labs-viewer@example.com", "viewer");
    expect(
      (await viewer.client.post(`/dashboard/labs/${orderId}/advance`, { _csrf: await viewer.client.csrf() }))
        .status,
    ).toBe(403);
    const other = await signedIn(accountB, "labs-other@example.com", "owner");
    expect((await other.client.get("/dashboard/labs")).text).not.toContain(orderId);
    expect(
      (await other.client.post(`/dashboard/labs/${orderId}/advance`, { _csrf: await other.client.csrf() }))
        .status,
    ).toBe(404);
    expect(await status()).toBe("scheduled");
    const actions = (await listAudit(service.db.handle.db, { accountId })).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(["lab_order.authorized", "lab_order.advanced"]));
  });
});

describe("hostile input", () => {
  it("markup is escaped, malformed links, filters, ids and oversized fields are refused without a change", async () => {
    const { client } = await signedIn(accountA, "hostile@example.com", "owner");
    const csrf = await client.csrf();
    const script = "<script>alert(1)</script>";
    const added = await client.post("/dashboard/webhooks", {
      url: `${receiver.url}/x?q=${script}`,
      mode: "test",
      _csrf: csrf,
    });
    expect(added.status).toBe(200);
    const list = await client.get("/dashboard/webhooks");
    expect(list.text).not.toContain(script);
    expect(list.text).toContain("&lt;script&gt;");
    expect((await client.get("/dashboard/events?type=x'%3Bdrop")).status).toBe(400);
    expect((await client.get("/dashboard/events?after=garbage")).status).toBe(400);
    expect((await client.get("/dashboard/webhooks/we_doesnotexist")).status).toBe(404);
    expect((await client.post("/dashboard/keys/..%2F..%2Fv1%2Fping/revoke", { _csrf: csrf })).status).toBe(
      404,
    );
    const before = await keyCount(accountA);
    const huge = await client.post("/dashboard/keys", {
      kind: "publishable",
      origins: "https://a.example\n".repeat(400),
      _csrf: csrf,
    });
    expect(huge.status).toBe(400);
    expect(
      (await client.post("/dashboard/keys", { kind: "organization", origins: "", _csrf: csrf })).status,
    ).toBe(400);
    const oversized = await client.post("/dashboard/keys", {
      kind: "secret_test",
      origins: "x".repeat(100_000),
      _csrf: csrf,
    });
    expect(oversized.status).toBe(413);
    expect(await keyCount(accountA)).toBe(before);
    for (const token of ["short", "a".repeat(43), `${"a".repeat(42)}%00`])
      expect((await new DashboardClient(service.url).get(`/dashboard/invite/${token}`)).status).toBe(410);
    const page = await client.get("/dashboard/keys");
    expect(page.text.length).toBeGreaterThan(0);
    const headers = await fetch(`${service.url}/dashboard/sign-in`);
    expect(headers.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(headers.headers.get("cache-control")).toBe("no-store");
  });
});

describe("roles and accounts", () => {
  it("a viewer sees the pages but every change is refused with 403 and nothing changes", async () => {
    const { client } = await signedIn(accountA, "viewer@example.com", "viewer");
    expect((await client.get("/dashboard/keys")).status).toBe(200);
    expect((await client.get("/dashboard/audit")).status).toBe(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(
      (await client.get("/dashboard/keys")).text,
    )?.[1] as string;
    const before = await keyCount(accountA);
    expect(
      (await client.post("/dashboard/keys", { kind: "secret_test", origins: "", _csrf: csrf })).status,
    ).toBe(403);
    expect(
      (await client.post("/dashboard/webhooks", { url: `${receiver.url}/v`, mode: "test", _csrf: csrf }))
        .status,
    ).toBe(403);
    expect(await keyCount(accountA)).toBe(before);
  });

  it("another account's keys, endpoints and deliveries are 404, not 403", async () => {
    const owner = await signedIn(accountA, "owner-a@example.com", "owner");
    const csrfA = await owner.client.csrf();
    const created = await owner.client.post("/dashboard/keys", {
      kind: "secret_test",
      origins: "",
      _csrf: csrfA,
    });
    const key = secretKeyOf(created.text) as string;
    const keyId = (
      await service.db.handle.db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.displayPrefix, key.slice(0, 16)))
    )[0]?.id as string;
    const added = await owner.client.post("/dashboard/webhooks", {
      url: `${receiver.url}/a`,
      mode: "test",
      _csrf: csrfA,
    });
    const endpointId = /\/dashboard\/webhooks\/(we_[0-9a-z]+)/.exec(added.text)?.[1] as string;

    const other = await signedIn(accountB, "owner-b@example.com", "owner");
    const csrfB = await other.client.csrf();
    expect((await other.client.get("/dashboard/keys")).text).not.toContain(key.slice(0, 16));
    expect((await other.client.post(`/dashboard/keys/${keyId}/revoke`, { _csrf: csrfB })).status).toBe(404);
    expect(
      (
        await other.client.post(`/dashboard/keys/${keyId}/origins`, {
          origins: "https://x.example",
          _csrf: csrfB,
        })
      ).status,
    ).toBe(404);
    expect((await other.client.get(`/dashboard/webhooks/${endpointId}`)).status).toBe(404);
    expect((await other.client.post(`/dashboard/webhooks/${endpointId}/test`, { _csrf: csrfB })).status).toBe(
      404,
    );
    expect(
      (await other.client.post(`/dashboard/webhooks/${endpointId}/disable`, { _csrf: csrfB })).status,
    ).toBe(404);
    expect((await call(service.url, "/v1/ping", { key })).status).toBe(200);
    // An email of one account may be invited into another too (a person may work in several):
    // the invitation is made and gives nothing of the first account away.
    const invitedAgain = await createInvite(
      service.db.handle.db,
      { workspace: { accountId: accountB }, email: "owner-a@example.com", role: "viewer" },
      service.url,
    );
    expect(invitedAgain).toMatchObject({ accountId: accountB, email: "owner-a@example.com", role: "viewer" });
  });
});
