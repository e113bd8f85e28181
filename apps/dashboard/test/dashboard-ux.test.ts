import { apiKeys, eq, webhookDeliveries } from "@svc/db";
import { addWebhookEndpoint } from "@svc/delivery";
import { createInvite } from "@svc/records";
import { call, startTestService } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { EVENT_TYPES } from "@svc/webhooks";
import { describe, expect, it } from "vitest";
import { DashboardClient, PASSWORD } from "./session-client.js";

/**
 * The dashboard as a user meets it, over real HTTP against real PostgreSQL and Redis: revoking a
 * rolled key, the confirmation before revoking, error pages, the usage chart's scale, empty
 * tables, the events filter, one time format, framing headers, origin ports, and the limit on
 * "Send test event" shared by replicas.
 */
const service = useTestService();

async function signedIn(
  accountId: string,
  email: string,
  role: "owner" | "developer" | "viewer" = "owner",
): Promise<DashboardClient> {
  const invite = await createInvite(
    service.db.handle.db,
    { workspace: { accountId }, email, role },
    service.url,
  );
  const client = new DashboardClient(service.url);
  expect((await client.acceptInvite(invite.url, PASSWORD)).status).toBe(303);
  return client;
}

/** The first `<form ...>` tag whose action is `action`, with its method. */
function formTo(html: string, action: string): string | undefined {
  return [...html.matchAll(/<form[^>]*>/g)]
    .map((m) => m[0])
    .find((tag) => tag.includes(`action="${action}"`));
}

/** The date-times a page shows, outside payload blocks (`<pre>`), as written. */
function timesShown(html: string): string[] {
  const text = html.replace(/<pre>[\s\S]*?<\/pre>/g, "");
  return [...text.matchAll(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z| UTC)?/g)].map(
    (m) => m[0],
  );
}
const cookiesOf = (client: DashboardClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
/** The same session posting from another site's page. */
function crossOrigin(client: DashboardClient): DashboardClient {
  const other = new DashboardClient(client.base, "https://elsewhere.example");
  for (const [name, value] of client.cookies) other.cookies.set(name, value);
  return other;
}
const ONE_FORMAT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/;

describe("keys", () => {
  it("a key rolled with a grace period is offered Revoke, and revoking it stops it on the next request", async () => {
    const caller = await service.seed.caller();
    const client = await signedIn(caller.account.id, "grace-revoke@example.com", "developer");
    const csrf = await client.csrf();
    const rolled = await client.post(`/dashboard/keys/${caller.keyId}/roll`, {
      graceHours: "24",
      _csrf: csrf,
    });
    expect(rolled.status).toBe(200);
    // The roll page offers to stop the old key at once (the reason to roll is often a leak).
    expect(rolled.text).toContain(`href="/dashboard/keys/${caller.keyId}/revoke"`);
    expect((await call(service.url, "/v1/ping", { key: caller.key })).status).toBe(200);

    const list = await client.get("/dashboard/keys");
    expect(list.text).toContain("rolled; works until");
    expect(formTo(list.text, `/dashboard/keys/${caller.keyId}/revoke`)).toBeDefined();
    const confirm = await client.get(`/dashboard/keys/${caller.keyId}/revoke`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain("Revoking it stops it now");
    const form = formTo(confirm.text, `/dashboard/keys/${caller.keyId}/revoke`) as string;
    expect(form).toContain('method="post"');
    expect((await client.post(`/dashboard/keys/${caller.keyId}/revoke`, { _csrf: csrf })).status).toBe(303);
    expect((await call(service.url, "/v1/ping", { key: caller.key })).status).toBe(401);
    // Revoked for good: no Revoke on the list and no confirmation page.
    expect(formTo((await client.get("/dashboard/keys")).text, `/dashboard/keys/${caller.keyId}/revoke`)).toBe(
      undefined,
    );
    expect((await client.get(`/dashboard/keys/${caller.keyId}/revoke`)).status).toBe(404);
  });

  it("Revoke asks for confirmation on a page of its own (no JavaScript), and Roll preselects a grace period", async () => {
    const caller = await service.seed.caller();
    const client = await signedIn(caller.account.id, "confirm@example.com", "developer");
    const list = await client.get("/dashboard/keys");
    // The list's Revoke only opens the confirmation page: a GET form changes nothing.
    const revoke = formTo(list.text, `/dashboard/keys/${caller.keyId}/revoke`) as string;
    expect(revoke).toContain('method="get"');
    const confirm = await client.get(`/dashboard/keys/${caller.keyId}/revoke`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain("Revoke this key?");
    expect(confirm.text).toMatch(/cannot be undone/);
    expect(confirm.text).toMatch(/name="_csrf" value="[^"]+"/);
    expect(confirm.text).toContain('href="/dashboard/keys"');
    expect((await call(service.url, "/v1/ping", { key: caller.key })).status).toBe(200);
    // The confirmation's POST is CSRF-guarded as every change is.
    expect((await client.post(`/dashboard/keys/${caller.keyId}/revoke`, { _csrf: "forged" })).status).toBe(
      403,
    );
    expect((await call(service.url, "/v1/ping", { key: caller.key })).status).toBe(200);
    // Roll keeps the old key working a day unless "stops now" is chosen (decision 92).
    expect(list.text).toMatch(/<option value="24" selected="">old key works 24 h more<\/option>/);
    expect(list.text).toMatch(/<option value="0">old key stops now<\/option>/);

    // A viewer has no confirmation page; another account's key is not found.
    const viewer = await signedIn(caller.account.id, "confirm-viewer@example.com", "viewer");
    expect((await viewer.get(`/dashboard/keys/${caller.keyId}/revoke`)).status).toBe(403);
    const other = (await service.seed.account({ name: "Other" })).id;
    const stranger = await signedIn(other, "confirm-stranger@example.com");
    expect((await stranger.get(`/dashboard/keys/${caller.keyId}/revoke`)).status).toBe(404);
  });

  it("refuses an allowed origin whose port is 0, above 65535 or not a number, saying why", async () => {
    const accountId = (await service.seed.account({ name: "Origins" })).id;
    const client = await signedIn(accountId, "origins@example.com", "developer");
    const csrf = await client.csrf();
    for (const origin of ["https://app.example:99999", "https://app.example:0", "http://localhost:abc"]) {
      const refused = await client.post("/dashboard/keys", {
        kind: "publishable",
        origins: origin,
        _csrf: csrf,
      });
      expect(refused.status, origin).toBe(400);
      expect(refused.text).toContain("a port is a number from 1 to 65535, or * for any port");
    }
    const accepted = await client.post("/dashboard/keys", {
      kind: "publishable",
      origins: "https://app.example:65535\nhttp://localhost:*\nhttps://app.example",
      _csrf: csrf,
    });
    expect(accepted.status).toBe(200);
    const [key] = await service.db.handle.db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId));
    const saved = await client.post(`/dashboard/keys/${key?.id}/origins`, {
      origins: "https://app.example:65536",
      _csrf: csrf,
    });
    expect(saved.status).toBe(400);
    expect(saved.text).toContain("1 to 65535");
  });
});

describe("pages", () => {
  it("error pages keep the menu and Sign out when signed in", async () => {
    const accountId = (await service.seed.account({ name: "Errors" })).id;
    const client = await signedIn(accountId, "errors@example.com");
    const viewer = await signedIn(accountId, "errors-viewer@example.com", "viewer");
    const pages = [
      await client.get("/dashboard/no-such-page"),
      await client.get("/dashboard/webhooks/we_doesnotexist"),
      await client.post("/dashboard/keys", { kind: "secret_test", _csrf: "stale" }),
      await client.get("/dashboard/events?mode=staging"),
      await viewer.post("/dashboard/keys", { kind: "secret_test", _csrf: await viewer.csrf() }),
      await client.get("/dashboard/safety-events"),
      // Refused before the session guard: another origin, and a form over the size limit.
      await crossOrigin(client).post("/dashboard/keys", { kind: "secret_test", _csrf: await client.csrf() }),
      await client.post("/dashboard/keys", { kind: "secret_test", note: "x".repeat(70_000) }),
    ];
    expect(pages.map((p) => p.status)).toEqual([404, 404, 403, 400, 403, 404, 403, 413]);
    for (const page of pages) {
      expect(page.text).toContain('<nav aria-label="Dashboard">');
      expect(page.text).toContain('href="/dashboard/keys"');
      expect(page.text).toMatch(/<button type="submit">Sign out<\/button>/);
    }
    // Signed out, a refusal has neither.
    const link = await new DashboardClient(service.url).get(`/dashboard/invite/${"a".repeat(43)}`);
    expect(link.status).toBe(410);
    expect(link.text).not.toContain("Sign out");
  });

  it("the usage chart scales to the data: five requests show as tall bars on round ticks", async () => {
    const caller = await service.seed.caller();
    for (let i = 0; i < 5; i++)
      expect((await call(service.url, "/v1/ping", { key: caller.key })).status).toBe(200);
    await service.deps.usage?.flush();
    const client = await signedIn(caller.account.id, "usage-chart@example.com", "viewer");
    const page = (await client.get("/dashboard/usage?days=7")).text;
    const svg = /<svg viewBox="0 0 960 260"[\s\S]*?<\/svg>/.exec(page)?.[0] as string;
    const ticks = [...svg.matchAll(/<text x="50"[^>]*>([^<]+)<\/text>/g)].map((m) => m[1]);
    expect(ticks).toEqual(["0", "1", "2", "3", "4", "5"]);
    const heights = [...svg.matchAll(/<rect [^>]*height="([\d.]+)"/g)].map((m) => Number(m[1]));
    // Today's bar: five requests fill the plot's height (212 of 260), not 1% of it.
    expect(Math.max(...heights)).toBeGreaterThan(200);
    // The sandbox's 500 a day is far above five: said in words, not drawn as the scale.
    expect(page).toContain("The daily account quota, 500, is above this scale.");
    expect(svg).not.toContain("daily account quota 500");
  });

  it("empty tables say so, with the next step", async () => {
    const accountId = (await service.seed.account({ name: "Empty" })).id;
    const client = await signedIn(accountId, "empty@example.com");
    const expectations: Array<[string, string[]]> = [
      [
        "/dashboard/keys",
        ["No test or publishable key yet. Create one with the form below.", "No live key yet."],
      ],
      [
        "/dashboard/webhooks",
        [
          "No test webhook endpoints yet. Add one with the form below to receive events.",
          "No live webhook endpoints yet.",
        ],
      ],
      ["/dashboard/events", ["No test events yet."]],
      ["/dashboard/events?type=wearable.connected", ["No test events of type wearable.connected"]],
      ["/dashboard/labs", ["No test lab orders yet. Create one with POST /v1/labs/orders"]],
      ["/dashboard/wearables", ["No live wearable connections yet."]],
    ];
    for (const [path, texts] of expectations) {
      const page = await client.get(path);
      expect(page.status, path).toBe(200);
      for (const text of texts) expect(page.text, path).toContain(text);
    }
    const endpoint = await addWebhookEndpoint(service.db.handle.db, {
      accountId,
      url: "http://127.0.0.1:9/empty",
      mode: "test",
      allowPrivate: true,
    });
    expect((await client.get(`/dashboard/webhooks/${endpoint.id}`)).text).toContain(
      "No delivery yet. Send a test event to try this endpoint.",
    );
  });

  it("the events filter's example names a real event type", async () => {
    const accountId = (await service.seed.account({ name: "Filter" })).id;
    const client = await signedIn(accountId, "filter@example.com", "viewer");
    const page = (await client.get("/dashboard/events")).text;
    const example = /<label for="type">Type \(exact, e\.g\. ([a-z_.]+)/.exec(page)?.[1];
    expect(EVENT_TYPES as readonly string[]).toContain(example);
    for (const type of EVENT_TYPES) expect(page).toContain(`<option value="${type}">`);
  });

  it("times are shown in one format on every page", async () => {
    const caller = await service.seed.caller();
    const client = await signedIn(caller.account.id, "times@example.com", "developer");
    const csrf = await client.csrf();
    expect((await call(service.url, "/v1/ping", { key: caller.key })).status).toBe(200);
    const rolled = await client.post(`/dashboard/keys/${caller.keyId}/roll`, {
      graceHours: "24",
      _csrf: csrf,
    });
    expect(rolled.text).toMatch(/keeps working until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC \(24 h\)/);
    const endpoint = await addWebhookEndpoint(service.db.handle.db, {
      accountId: caller.account.id,
      url: "http://127.0.0.1:9/times",
      mode: "test",
      allowPrivate: true,
    });
    expect((await client.post(`/dashboard/webhooks/${endpoint.id}/test`, { _csrf: csrf })).status).toBe(303);
    const pages = [
      rolled.text,
      (await client.get("/dashboard/keys")).text,
      (await client.get(`/dashboard/keys/${caller.keyId}/revoke`)).text,
      (await client.get("/dashboard/webhooks")).text,
      (await client.get(`/dashboard/webhooks/${endpoint.id}`)).text,
      (await client.get("/dashboard/events")).text,
      (await client.get("/dashboard/audit")).text,
      (await client.get("/dashboard/users")).text,
    ];
    const shown = pages.flatMap(timesShown);
    expect(shown.length).toBeGreaterThan(8);
    expect(shown.filter((t) => !ONE_FORMAT.test(t))).toEqual([]);
  });

  it("no page may be framed: X-Frame-Options DENY beside CSP frame-ancestors", async () => {
    const accountId = (await service.seed.account({ name: "Frames" })).id;
    const client = await signedIn(accountId, "frames@example.com");
    const responses = [
      await fetch(`${service.url}/dashboard/sign-in`),
      await fetch(`${service.url}/dashboard/keys`, { headers: { cookie: cookiesOf(client) } }),
      await fetch(`${service.url}/dashboard/no-such-page`, { headers: { cookie: cookiesOf(client) } }),
    ];
    for (const response of responses) {
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    }
  });
});

describe("Send test event", () => {
  it("is limited per endpoint, counted in Redis so replicas share the count, and says when to retry", async () => {
    const accountId = (await service.seed.account({ name: "Test events" })).id;
    const db = service.db.handle.db;
    const [first, second] = await Promise.all(
      ["/one", "/two"].map((path) =>
        addWebhookEndpoint(db, {
          accountId,
          url: `http://127.0.0.1:9${path}`,
          mode: "test",
          allowPrivate: true,
        }),
      ),
    );
    const replica = await startTestService({ db: service.db, redisPrefix: service.redisPrefix });
    try {
      const client = await signedIn(accountId, "test-events@example.com", "developer");
      const csrf = await client.csrf();
      const onReplica = new DashboardClient(replica.url);
      for (const [name, value] of client.cookies) onReplica.cookies.set(name, value);
      const send = (c: DashboardClient, id: string) =>
        c.post(`/dashboard/webhooks/${id}/test`, { _csrf: csrf });
      const statuses: number[] = [];
      for (const c of [client, onReplica, client, onReplica, client])
        statuses.push((await send(c, first?.id as string)).status);
      expect(statuses).toEqual([303, 303, 303, 303, 303]);
      for (const c of [client, onReplica]) {
        const refused = await send(c, first?.id as string);
        expect(refused.status).toBe(429);
        expect(refused.text).toMatch(
          /This endpoint takes at most 5 test events a minute; try again in \d+ s\./,
        );
        expect(refused.text).toContain("Sign out");
      }
      // Another endpoint has its own allowance.
      expect((await send(client, second?.id as string)).status).toBe(303);
      const deliveries = await db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, first?.id as string));
      expect(deliveries).toHaveLength(5);
    } finally {
      await replica.close();
    }
  });

  it("counts nothing for an endpoint of another account", async () => {
    const owner = (await service.seed.account({ name: "Owner of the endpoint" })).id;
    const endpoint = await addWebhookEndpoint(service.db.handle.db, {
      accountId: owner,
      url: "http://127.0.0.1:9/theirs",
      mode: "test",
      allowPrivate: true,
    });
    const stranger = await signedIn(
      (await service.seed.account({ name: "Stranger" })).id,
      "spender@example.com",
    );
    const strangerCsrf = await stranger.csrf();
    for (let i = 0; i < 7; i++)
      expect(
        (await stranger.post(`/dashboard/webhooks/${endpoint.id}/test`, { _csrf: strangerCsrf })).status,
      ).toBe(404);
    const client = await signedIn(owner, "endpoint-owner@example.com", "developer");
    expect(
      (await client.post(`/dashboard/webhooks/${endpoint.id}/test`, { _csrf: await client.csrf() })).status,
    ).toBe(303);
  });
});
