import { mkdirSync, readFileSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { addApiUsage, createOrganization, listKeys } from "@svc/db";
import { startInProcessDelivery } from "@svc/delivery";
import { createInvite, recordAudit } from "@svc/records";
import { call, launchChromium, type Receiver, startReceiver } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD } from "./session-client.js";

/**
 * The evidence in headless Debian Chromium: the owner signs in through a one-time link,
 * creates a key and uses it, lets a page's origin call POST /v1/dmse/analyze with a publishable
 * key, adds a webhook endpoint on a loopback receiver, sends a test event and sees it delivered,
 * redelivers, revokes the key and sees the API refuse it. A viewer is offered no change, another
 * account sees 404, and axe-core finds no serious or critical violation on any page.
 * With SCREENSHOT_DIR set, each page is saved there at 1280x800 (pnpm screenshots).
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const screenshotDir = process.env.SCREENSHOT_DIR;

const service = useTestService();
let receiver: Receiver;
let delivery: ReturnType<typeof startInProcessDelivery>;
let browser: Browser;
let clientSite: http.Server;
let clientOrigin: string;
let accountId: string;

beforeAll(async () => {
  receiver = await startReceiver(() => ({ status: 200, body: "received" }));
  // The receiver is on loopback: allowed as on a developer's machine (the operator's setting).
  service.deps.allowLoopbackWebhooks = true;
  delivery = startInProcessDelivery({
    allowLoopbackWebhooks: true,
    db: service.db.handle.db,
    logger: service.deps.logger,
    pollIntervalMs: 100,
  });
  service.deps.deliveries = delivery;
  accountId = (await service.seed.account({ name: "Browser clinic" })).id;
  // A customer's web page on another origin, which calls the API with the publishable key.
  clientSite = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<!doctype html><title>Customer app</title><p>capture</p>");
  });
  await new Promise<void>((resolve) => clientSite.listen(0, "127.0.0.1", resolve));
  clientOrigin = `http://127.0.0.1:${(clientSite.address() as AddressInfo).port}`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => clientSite?.close(resolve));
  await delivery?.close({ force: true });
  await receiver?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

/** Reload and read: what the page shows now. */
async function reloaded(page: Page, read: () => Promise<string | null>): Promise<string | null> {
  await page.reload();
  return read();
}

/** axe-core run in the page: serious and critical violations, by rule id. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> } }
    ).axe;
    return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact }));
  });
  return result.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
}

async function checkPage(page: Page, name: string): Promise<void> {
  expect(await axeViolations(page), `axe on ${name}`).toEqual([]);
  if (screenshotDir) {
    mkdirSync(screenshotDir, { recursive: true });
    await page.screenshot({ path: `${screenshotDir}/${name}.png` });
  }
}

async function signInThroughLink(page: Page, url: string, email?: string): Promise<void> {
  await page.goto(url);
  await checkPage(page, "set-password");
  if (email) await page.getByLabel("Email").fill(email);
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByLabel("Repeat the password").fill(PASSWORD);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await page.waitForURL("**/dashboard/keys");
}

describe("the dashboard in Chromium", () => {
  it("owner: link, key, origin, webhook test event, redelivery, revocation", async () => {
    const invite = await createInvite(
      service.db.handle.db,
      { workspace: { accountId }, role: "owner" },
      service.url,
    );
    const page = await newPage();
    await signInThroughLink(page, invite.url, "owner@clinic.example");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("API keys");

    // A secret key, shown once, works with the API.
    await page.getByLabel("Kind").selectOption("secret_test");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByTestId("secret").textContent())?.trim() as string;
    expect(key).toMatch(/^svc_sk_test_/);
    await checkPage(page, "key-created");
    expect((await call(service.url, "/v1/ping", { key })).status).toBe(200);

    // A publishable key; its allow-list edited to the customer's origin, which may then call dmse.
    await page.goto(`${service.url}/dashboard/keys`);
    await page.getByLabel("Kind").selectOption("publishable");
    await page.getByLabel("Origins for a publishable key").fill("https://placeholder.example");
    await page.getByRole("button", { name: "Create key" }).click();
    const publishable = (await page.getByTestId("secret").textContent())?.trim() as string;
    await page.getByRole("link", { name: "Done" }).click();
    await page.getByLabel("Allowed origins").fill(`https://placeholder.example\n${clientOrigin}`);
    await page.getByRole("button", { name: "Save origins" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Origins saved.");
    await checkPage(page, "keys");

    const customer = await newPage();
    await customer.goto(clientOrigin);
    const analyze = (pk: string) =>
      customer.evaluate(
        async ({ url, pk }) => {
          const response = await fetch(`${url}/v1/dmse/analyze`, {
            method: "POST",
            headers: { authorization: `Bearer ${pk}`, "content-type": "application/json" },
            body: JSON.stringify({
              responseLatencySeconds: 2.6,
              speechRateWpm: 120,
              sessionDurationSeconds: 600,
            }),
          });
          return response.status;
        },
        { url: service.url, pk },
      );
    expect(await analyze(publishable)).toBe(200);

    // A webhook endpoint on a loopback receiver: test event, delivery log, redelivery.
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByLabel("URL").fill(`${receiver.url}/hook`);
    await page.getByLabel("Mode", { exact: true }).selectOption("test");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    expect(await page.getByTestId("secret").textContent()).toMatch(/^whsec_/);
    await page.getByRole("link", { name: "Done" }).click();
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => receiver.requests.length, { timeout: 10_000 }).toBe(1);
    await expect
      .poll(() => reloaded(page, () => page.getByTestId("delivery-status").first().textContent()), {
        timeout: 10_000,
      })
      .toBe("delivered");
    await page.getByRole("button", { name: "Redeliver" }).first().click();
    await expect.poll(() => receiver.requests.length, { timeout: 10_000 }).toBe(2);
    await expect
      .poll(() => reloaded(page, () => page.locator("main").textContent()), { timeout: 10_000 })
      .toMatch(/#2 [^,]*: 200/);
    await checkPage(page, "webhook-endpoint");
    await page.getByRole("link", { name: "Webhooks" }).click();
    await checkPage(page, "webhooks");

    await page.getByRole("link", { name: "Events" }).click();
    await expect.poll(() => page.locator("main").textContent()).toContain("webhook_endpoint.test");
    await checkPage(page, "events");

    // A lab order made with the key, authorized with the sandbox helper button.
    const order = await call<{ data: { id: string } }>(service.url, "/v1/labs/orders", {
      method: "POST",
      key,
      body: { patientRef: "pt_browser_1", panelId: "lithium_monitoring" },
    });
    expect(order.status).toBe(201);
    await page.getByRole("link", { name: "Lab orders" }).click();
    await page.getByRole("button", { name: `Authorize ${order.json.data.id}` }).click();
    await expect.poll(() => page.getByTestId("lab-status").first().textContent()).toBe("authorized");
    await checkPage(page, "labs");

    // A wearable connection made with the key, completed and synced with the sandbox helpers.
    const connection = await call<{ data: { id: string } }>(service.url, "/v1/wearables/connect", {
      method: "POST",
      key,
      body: { patientRef: "pt_browser_2", providers: ["OURA"] },
    });
    expect(connection.status).toBe(201);
    await page.getByRole("link", { name: "Wearables" }).click();
    await page.getByRole("button", { name: `Connect ${connection.json.data.id}` }).click();
    await expect.poll(() => page.getByTestId("wearable-status").first().textContent()).toBe("connected");
    await page.getByRole("button", { name: `Sync ${connection.json.data.id}` }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toMatch(/synced/);
    await checkPage(page, "wearables");

    // Usage: the requests made with the keys above, per day and operation, as a chart and a table;
    // two earlier weeks of traffic stored as the meter would have, one day over the quota.
    const secretKeyId = (await listKeys(service.db.handle.db, { accountId })).find(
      (k) => k.kind === "secret_test",
    )?.id as string;
    const history = Array.from({ length: 14 }, (_, i) => ({
      day: new Date(Date.now() - (14 - i) * 86_400_000).toISOString().slice(0, 10),
      keyId: secretKeyId,
      operation: "POST /v1/relapse/analyze",
      requests: i === 9 ? 130 : 20 + ((i * 37) % 70),
      rateLimited: i === 9 ? 30 : 0,
    }));
    await addApiUsage(service.db.handle.db, history, new Map());
    await service.deps.usage?.flush();
    await page.getByRole("link", { name: "Usage" }).click();
    await expect.poll(() => page.getByTestId("usage-rows").textContent()).toContain("POST /v1/labs/orders");
    expect(await page.getByRole("img", { name: /Requests per UTC day/ }).count()).toBe(1);
    await checkPage(page, "usage");

    // Revoking the secret key, after its confirmation page: the API refuses it at once.
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByRole("button", { name: `Revoke ${key.slice(0, 16)}…` }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Revoke this key?");
    expect((await call(service.url, "/v1/ping", { key })).status).toBe(200);
    await checkPage(page, "revoke-confirm");
    await page.getByRole("button", { name: `Revoke ${key.slice(0, 16)}…` }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toMatch(/Key revoked/);
    expect((await call(service.url, "/v1/ping", { key })).status).toBe(401);

    await page.getByRole("link", { name: "Audit log" }).click();
    const actions = await page.getByTestId("audit-action").allTextContents();
    expect(actions).toEqual(
      expect.arrayContaining([
        "key.created",
        "key.origins_changed",
        "webhook_endpoint.created",
        "webhook_endpoint.test_sent",
        "webhook_delivery.redelivered",
        "key.revoked",
      ]),
    );
    await checkPage(page, "audit");
    await page.getByRole("link", { name: "Users" }).click();
    await expect.poll(() => page.locator("main").textContent()).toContain("owner@clinic.example");
    await checkPage(page, "users");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL("**/dashboard/sign-in");
    await checkPage(page, "sign-in");
  }, 120_000);

  it("a viewer is offered no change; another account's endpoint is a 404 page", async () => {
    const viewerInvite = await createInvite(
      service.db.handle.db,
      { workspace: { accountId }, email: "viewer@clinic.example", role: "viewer" },
      service.url,
    );
    const viewer = await newPage();
    await signInThroughLink(viewer, viewerInvite.url);
    expect(await viewer.getByRole("button", { name: "Create key" }).count()).toBe(0);
    expect(await viewer.getByRole("button", { name: /^Revoke/ }).count()).toBe(0);
    // Their own second factor is theirs to set up, viewer or not.
    await viewer.getByRole("link", { name: "Security" }).click();
    await checkPage(viewer, "security");
    await viewer.getByLabel("Your password").fill(PASSWORD);
    await viewer.getByRole("button", { name: "Set up an authenticator app" }).click();
    expect(await viewer.getByTestId("totp-secret").textContent()).toMatch(/^[A-Z2-7]{16,}$/);
    await checkPage(viewer, "two-factor-setup");
    await viewer.goto(`${service.url}/dashboard/sign-in/code`);
    await checkPage(viewer, "sign-in-code");
    await viewer.goto(`${service.url}/dashboard/keys`);
    await viewer.getByRole("link", { name: "Webhooks" }).click();
    const endpointLink = viewer.getByRole("link", { name: `${receiver.url}/hook` });
    const endpointPath = (await endpointLink.getAttribute("href")) as string;
    await endpointLink.click();
    expect(await viewer.getByRole("button", { name: "Send test event" }).count()).toBe(0);

    const other = (await service.seed.account({ name: "Other clinic" })).id;
    const otherInvite = await createInvite(
      service.db.handle.db,
      { workspace: { accountId: other }, email: "owner@other.example", role: "owner" },
      service.url,
    );
    const stranger = await newPage();
    await signInThroughLink(stranger, otherInvite.url);
    const response = await stranger.goto(`${service.url}${endpointPath}`);
    expect(response?.status()).toBe(404);
    expect(await stranger.locator("main").textContent()).not.toContain(receiver.url);
  }, 60_000);
  it("an organization's owner: a scoped key made with checkboxes, its safety events, its usage", async () => {
    const org = await createOrganization(service.db.handle.db, { name: "Browser organization" });
    const invite = await createInvite(
      service.db.handle.db,
      { workspace: { orgId: org.id }, email: "owner@org.example", role: "owner" },
      service.url,
    );
    const page = await newPage();
    await signInThroughLink(page, invite.url);
    await page.getByLabel("mse:read").check();
    await page.getByLabel("mse:write").check();
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByTestId("secret").textContent())?.trim() as string;
    expect(key).toMatch(/^mse_live_/);
    const written = await call<{ risk: { safetyEventId: string } }>(service.url, "/v1/mse/visit-browser-1", {
      method: "POST",
      key,
      body: { patientId: "pat-browser-1", selection: { risk: { values: ["passive_si"] } } },
    });
    expect(written.status).toBe(200);
    await page.getByRole("link", { name: "Done" }).click();
    await expect.poll(() => page.locator("main").textContent()).toContain("mse:read, mse:write");
    await checkPage(page, "organization-keys");
    await page.getByRole("link", { name: "Safety events" }).click();
    await expect.poll(() => page.locator("main").textContent()).toContain(written.json.risk.safetyEventId);
    await checkPage(page, "safety-events");
    await page.getByRole("link", { name: "Webhooks" }).click();
    await checkPage(page, "organization-webhooks");
    await service.deps.usage?.flush();
    await page.getByRole("link", { name: "Usage" }).click();
    await expect.poll(() => page.getByTestId("usage-rows").textContent()).toContain("POST /v1/mse/{visitId}");
    await checkPage(page, "organization-usage");
    expect(await page.getByRole("link", { name: "Lab orders" }).count()).toBe(0);
  }, 60_000);

  it("the audit log fits 1280 px without scrolling sideways, long origins and URLs included", async () => {
    const wide = (await service.seed.account({ name: "Wide audit" })).id;
    const invite = await createInvite(
      service.db.handle.db,
      { workspace: { accountId: wide }, email: "wide@clinic.example", role: "owner" },
      service.url,
    );
    const page = await newPage();
    await signInThroughLink(page, invite.url);
    // What the dashboard writes for long allow-lists and endpoint URLs (no spaces to break at).
    const longHost = `${"a".repeat(60)}.${"b".repeat(60)}.example`;
    await recordAudit(service.db.handle.db, {
      workspace: { accountId: wide },
      actorEmail: `${"c".repeat(60)}@clinic.example`,
      action: "key.origins_changed",
      targetId: "key_01jd3k8w6t1x9c0q2m4n5p7r8s",
      detail: { origins: [`https://${longHost}`, `https://www.${longHost}:8443`, "http://localhost:*"] },
    });
    await recordAudit(service.db.handle.db, {
      workspace: { accountId: wide },
      actorEmail: "wide@clinic.example",
      action: "webhook_endpoint.created",
      targetId: "we_01jd3k8w6t1x9c0q2m4n5p7r8s",
      detail: { url: `https://${longHost}/hooks/${"d".repeat(300)}?token=${"e".repeat(200)}`, mode: "test" },
    });
    await page.getByRole("link", { name: "Audit log" }).click();
    await expect.poll(() => page.getByTestId("audit-action").count()).toBeGreaterThanOrEqual(3);
    const widths = await page.evaluate(() => {
      const root = (
        globalThis as unknown as {
          document: { documentElement: { scrollWidth: number; clientWidth: number } };
        }
      ).document.documentElement;
      return { scroll: root.scrollWidth, client: root.clientWidth };
    });
    expect(widths.client).toBeLessThanOrEqual(1280);
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    await checkPage(page, "audit-wide");
  }, 60_000);

  it("a person of two workspaces joins the second with their sign-in and switches between them", async () => {
    const db = service.db.handle.db;
    const second = (await service.seed.account({ name: "Second clinic" })).id;
    const first = await createInvite(
      db,
      { workspace: { accountId }, email: "two@clinic.example", role: "developer" },
      service.url,
    );
    const page = await newPage();
    await signInThroughLink(page, first.url);
    // Single workspace: no switcher.
    expect(await page.getByLabel("Workspace").count()).toBe(0);
    const join = await createInvite(
      db,
      { workspace: { accountId: second }, email: "two@clinic.example", role: "viewer" },
      service.url,
      { actor: { userId: "usr_test", email: "owner@second.example" } },
    );
    await page.goto(join.url);
    await checkPage(page, "join-workspace");
    await page.getByLabel("Your password").fill(PASSWORD);
    await page.getByRole("button", { name: "Join and sign in" }).click();
    await page.waitForURL("**/dashboard/keys");
    expect(await page.locator("header").textContent()).toContain(`account ${second}`);
    await checkPage(page, "workspace-switcher");
    await page.getByLabel("Workspace").selectOption(accountId);
    await page.getByRole("button", { name: "Switch workspace" }).click();
    await page.waitForURL("**/dashboard/keys?done=switched");
    expect(await page.locator("header").textContent()).toContain(`(developer, account ${accountId})`);
    expect(await page.getByLabel("Workspace").inputValue()).toBe(accountId);
  }, 60_000);
});
