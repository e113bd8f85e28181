import { apiKeys, createOrganization, dashboardAuditLog, eq } from "@svc/db";
import { addWebhookEndpoint } from "@svc/delivery";
import type { Workspace } from "@svc/records";
import { createInvite } from "@svc/records";
import { call, mistypedKey } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { describe, expect, it } from "vitest";
import { DashboardClient, PASSWORD } from "./session-client.js";

/**
 * Usage, key last use and grace periods, and organization workspaces (the MSE Record API), over
 * real HTTP against real PostgreSQL and Redis.
 */
const service = useTestService();

async function signedIn(workspace: Workspace, email: string, role: "owner" | "developer" | "viewer") {
  const invite = await createInvite(service.db.handle.db, { workspace, email, role }, service.url);
  const client = new DashboardClient(service.url);
  expect((await client.acceptInvite(invite.url, PASSWORD)).status).toBe(303);
  return client;
}

const keyIdOf = async (key: string) =>
  (
    await service.db.handle.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.displayPrefix, key.slice(0, key.lastIndexOf("_") + 5)))
  )[0]?.id as string;

/** The cells of the usage page's detail table, one array per row. */
function usageRows(html: string): string[][] {
  const body = /<tbody data-testid="usage-rows">([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? "";
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] as string).matchAll(/<td>([\s\S]*?)<\/td>/g)].map((cell) =>
      (cell[1] as string).replace(/<[^>]+>/g, "").trim(),
    ),
  );
}

describe("usage", () => {
  it("counts requests per day, key and operation with their 429s, and each key's last use, for its own account only", async () => {
    // An account with a tiny bucket: 2 requests at once, then 429s.
    const caller = await service.seed.caller("enterprise", { ratePerSecond: 1, burst: 2 });
    const owner = await signedIn({ accountId: caller.account.id }, "usage@example.com", "viewer");
    const before = await owner.get("/dashboard/keys");
    expect(before.text).toContain("never");
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1)
      statuses.push((await call(service.url, "/v1/ping", { key: caller.key })).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    const refused = statuses.filter((s) => s === 429).length;
    await service.deps.usage?.flush();
    const page = await owner.get("/dashboard/usage");
    expect(page.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(usageRows(page.text)).toEqual([
      [today, `${caller.key.slice(0, 16)}…`, "GET /v1/ping", "5", String(refused)],
    ]);
    expect(page.text).toMatch(/<svg viewBox="0 0 960 260" width="100%" role="img"/);
    expect(page.text).toContain(`5 requests in all, ${refused} of them refused with 429`);
    expect(/data-testid="month-to-date">(\d+)</.exec(page.text)?.[1]).toBe(String(5 - refused));
    // Last use is shown on the keys page.
    const keys = await owner.get("/dashboard/keys");
    expect(keys.text).not.toMatch(/<td>never<\/td>/);
    expect(keys.text).toContain(`<td>${today}`);
    // Another account's page shows none of it; a bad window is a 400.
    const other = await service.seed.caller();
    const stranger = await signedIn({ accountId: other.account.id }, "usage-b@example.com", "owner");
    const strangerPage = await stranger.get("/dashboard/usage?days=7");
    expect(usageRows(strangerPage.text)).toEqual([]);
    expect(strangerPage.text).toContain("100 requests per UTC day per key; 500 per day for the account");
    // No traffic: the quota is named, not drawn as the scale (the chart scales to the data).
    expect(strangerPage.text).toContain("The daily account quota is 500.");
    expect((await stranger.get("/dashboard/usage?days=12")).status).toBe(400);
  });

  it("counts a path no operation has as unmatched, and a request without a valid key not at all", async () => {
    const caller = await service.seed.caller();
    const owner = await signedIn({ accountId: caller.account.id }, "usage-404@example.com", "owner");
    expect((await call(service.url, "/v1/nothing-here", { key: caller.key })).status).toBe(404);
    expect((await call(service.url, "/v1/ping", { key: mistypedKey(caller.key) })).status).toBe(401);
    expect((await call(service.url, "/v1/ping", { key: caller.key })).status).toBe(200);
    await service.deps.usage?.flush();
    const rows = usageRows((await owner.get("/dashboard/usage")).text);
    expect(rows.map((r) => [r[2], r[3], r[4]]).sort()).toEqual([
      ["GET /v1/ping", "1", "0"],
      ["unmatched", "1", "0"],
    ]);
  });
});

describe("rolling with a grace period", () => {
  it("keeps the old key working until the grace period ends, and revoking it then stops it at once", async () => {
    const caller = await service.seed.caller();
    const owner = await signedIn({ accountId: caller.account.id }, "grace@example.com", "developer");
    const csrf = await owner.csrf();
    const tooLong = await owner.post(`/dashboard/keys/${caller.keyId}/roll`, {
      graceHours: "500",
      _csrf: csrf,
    });
    expect(tooLong.status).toBe(400);
    expect((await call(service.url, "/v1/ping", { key: caller.key })).status).toBe(200);
    const rolled = await owner.post(`/dashboard/keys/${caller.keyId}/roll`, {
      graceHours: "24",
      _csrf: csrf,
    });
    expect(rolled.status).toBe(200);
    expect(rolled.text).toContain("keeps working until");
    const fresh = /svc_sk_test_[0-9A-Za-z]+/.exec(rolled.text)?.[0] as string;
    expect((await call(service.url, "/v1/ping", { key: fresh })).status).toBe(200);
    expect((await call(service.url, "/v1/ping", { key: caller.key })).status).toBe(200);
    const keys = await owner.get("/dashboard/keys");
    expect(keys.text).toContain("rolled; works until");
    // A key in its grace period is not rolled again, but can be revoked at once.
    expect((await owner.post(`/dashboard/keys/${caller.keyId}/roll`, { _csrf: csrf })).status).toBe(404);
    expect((await owner.post(`/dashboard/keys/${caller.keyId}/revoke`, { _csrf: csrf })).status).toBe(303);
    expect((await call(service.url, "/v1/ping", { key: caller.key })).status).toBe(401);
    expect((await call(service.url, "/v1/ping", { key: fresh })).status).toBe(200);
  });
});

describe("organizations", () => {
  it("an organization's owner manages scoped keys, sees its safety events and deliveries, and none of an account's pages", async () => {
    const db = service.db.handle.db;
    const org = await createOrganization(db, { name: "North clinic" });
    const owner = await signedIn({ orgId: org.id }, "clinic-owner@example.com", "owner");
    const csrf = await owner.csrf();
    const keysPage = await owner.get("/dashboard/keys");
    expect(keysPage.text).toContain("Create an organization key");
    expect(keysPage.text).toContain(`organization ${org.id}`);
    // Scopes are required and must be known; account key kinds do not belong here.
    expect((await owner.post("/dashboard/keys", { kind: "organization", _csrf: csrf })).status).toBe(400);
    expect((await owner.post("/dashboard/keys", { kind: "secret_test", _csrf: csrf })).status).toBe(400);
    const created = await owner.post("/dashboard/keys", {
      kind: "organization",
      scope_mse_read: "on",
      scope_mse_write: "on",
      _csrf: csrf,
    });
    expect(created.status).toBe(200);
    const key = /mse_live_[0-9A-Za-z]+/.exec(created.text)?.[0] as string;
    const written = await call<{ risk: { safetyEventId: string } }>(service.url, "/v1/mse/visit-org-1", {
      method: "POST",
      key,
      body: { patientId: "pat-org-1", selection: { risk: { values: ["passive_si"] } } },
    });
    expect(written.status).toBe(200);
    expect(written.json.risk.safetyEventId).toMatch(/^sev_/);
    // No mse:sign scope on this key.
    const sign = await call(service.url, "/v1/mse/visit-org-1/sign", {
      method: "POST",
      key,
      body: { patientId: "pat-org-1", signedByName: "Dr A" },
    });
    expect(sign.status).toBe(403);
    // The organization's endpoints are live: loopback is refused here.
    expect(
      (await owner.post("/dashboard/webhooks", { url: "http://127.0.0.1:9/hook", _csrf: csrf })).status,
    ).toBe(400);
    const endpoint = await addWebhookEndpoint(db, {
      orgId: org.id,
      url: "https://hooks.north-clinic.example/mse",
      resolve: async () => [{ address: "93.184.216.34", family: 4 }],
    });
    const second = await call<{ risk: { safetyEventId: string } }>(service.url, "/v1/mse/visit-org-2", {
      method: "POST",
      key,
      body: { patientId: "pat-org-2", selection: { risk: { values: ["passive_si"] } } },
    });
    const events = await owner.get("/dashboard/safety-events");
    expect(events.status).toBe(200);
    expect(events.text).toContain(written.json.risk.safetyEventId);
    expect(events.text).toContain(second.json.risk.safetyEventId);
    expect(events.text).toContain("no endpoint was active");
    expect(events.text).toContain("https://hooks.north-clinic.example/mse</a>: pending");
    const hooks = await owner.get("/dashboard/webhooks");
    expect(hooks.text).toContain(endpoint.id);
    expect(hooks.text).not.toContain("Send test event");
    expect((await owner.post(`/dashboard/webhooks/${endpoint.id}/test`, { _csrf: csrf })).status).toBe(404);
    const endpointPage = await owner.get(`/dashboard/webhooks/${endpoint.id}`);
    expect(endpointPage.text).toContain("Roll signing secret");
    expect(endpointPage.text).not.toContain("Send test event");
    // Usage of the organization's key.
    await service.deps.usage?.flush();
    const usage = await owner.get("/dashboard/usage");
    expect(usage.text).toContain("POST /v1/mse/{visitId}");
    expect(usage.text).toContain("20 per second (bursts of 40)");
    // An account's pages do not exist here; the navigation has the organization's.
    for (const path of ["/dashboard/events", "/dashboard/labs", "/dashboard/wearables"])
      expect((await owner.get(path)).status).toBe(404);
    expect(keysPage.text).toContain('href="/dashboard/safety-events"');
    expect(keysPage.text).not.toContain('href="/dashboard/labs"');
    // Rolling an organization key keeps its scopes.
    const keyId = await keyIdOf(key);
    const rolled = await owner.post(`/dashboard/keys/${keyId}/roll`, { graceHours: "0", _csrf: csrf });
    const fresh = /mse_live_[0-9A-Za-z]+/.exec(rolled.text)?.[0] as string;
    const [freshRow] = await db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.id, await keyIdOf(fresh)));
    expect(freshRow?.scopes).toEqual(["mse:read", "mse:write"]);
    expect(freshRow?.orgId).toBe(org.id);
    const audit = await db.select().from(dashboardAuditLog).where(eq(dashboardAuditLog.orgId, org.id));
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(["user.invited", "user.password_set", "key.created", "key.rolled"]),
    );
  });

  it("keeps organizations and accounts apart: 404s across them, viewers change nothing", async () => {
    const db = service.db.handle.db;
    const org = await service.seed.org(["mse:read"]);
    const otherOrg = await createOrganization(db, { name: "South clinic" });
    const viewer = await signedIn({ orgId: org.org.id }, "clinic-viewer@example.com", "viewer");
    const stranger = await signedIn({ orgId: otherOrg.id }, "south-owner@example.com", "owner");
    const account = await service.seed.caller();
    const accountOwner = await signedIn({ accountId: account.account.id }, "acct-owner@example.com", "owner");
    // The viewer sees the organization's key but cannot create, roll or revoke.
    expect((await viewer.get("/dashboard/keys")).text).toContain(`${org.key.slice(0, 13)}…`);
    const viewerCsrf = await viewer.csrf();
    expect(
      (
        await viewer.post("/dashboard/keys", {
          kind: "organization",
          scope_mse_read: "on",
          _csrf: viewerCsrf,
        })
      ).status,
    ).toBe(403);
    expect((await viewer.post(`/dashboard/keys/${org.keyId}/revoke`, { _csrf: viewerCsrf })).status).toBe(
      403,
    );
    // Another organization and an account: 404, and the key still works.
    const strangerCsrf = await stranger.csrf();
    expect((await stranger.post(`/dashboard/keys/${org.keyId}/revoke`, { _csrf: strangerCsrf })).status).toBe(
      404,
    );
    expect((await stranger.post(`/dashboard/keys/${org.keyId}/roll`, { _csrf: strangerCsrf })).status).toBe(
      404,
    );
    const accountCsrf = await accountOwner.csrf();
    expect(
      (await accountOwner.post(`/dashboard/keys/${org.keyId}/revoke`, { _csrf: accountCsrf })).status,
    ).toBe(404);
    expect((await accountOwner.get("/dashboard/safety-events")).status).toBe(404);
    expect((await stranger.get("/dashboard/keys")).text).not.toContain(org.keyId);
    expect((await call(service.url, "/v1/mse/safety_events", { key: org.key })).status).toBe(200);
    // An organization's user may be invited into an account as well (a person may work in both).
    const invitedAgain = await createInvite(
      db,
      { workspace: { accountId: account.account.id }, email: "clinic-viewer@example.com", role: "owner" },
      service.url,
    );
    expect(invitedAgain).toMatchObject({ accountId: account.account.id, role: "owner" });
  });
});
