import { call, launchChromium } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventListResponse, WearableConnectionResponse } from "../src/index.js";

/**
 * The hosted connect page in headless Chromium (Debian's /usr/bin/chromium driven by
 * playwright-core), plus its HTTP-level guarantees (headers, 404, CSRF, states).
 */
const svc = useTestService();
let key: string;
let browser: Browser;

beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** connect.url uses the public base URL (http://localhost:3000 in tests); reach it on our port. */
function local(url: string): string {
  const u = new URL(url);
  return `${svc.url}${u.pathname}`;
}

async function newConnection(body: Record<string, unknown> = {}) {
  const res = await call<WearableConnectionResponse>(svc.url, "/v1/wearables/connect", {
    key,
    body: { patientRef: "pt_browser", providers: ["FITBIT", "OURA", "GARMIN"], ...body },
  });
  expect(res.status).toBe(201);
  return res.json.data as { id: string; connect: { url: string } };
}

describe("hosted connect page in Chromium", () => {
  it("lists the providers, connects on click, confirms, and the API shows it connected with an event", async () => {
    const connection = await newConnection();
    const context = await browser.newContext();
    const page = await context.newPage();
    const failed: string[] = [];
    page.on("requestfailed", (r) => failed.push(r.url()));
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    const response = await page.goto(local(connection.connect.url));
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe("Connect your wearable");
    expect(await page.getAttribute("html", "lang")).toBe("en");
    const buttons = page.getByRole("button");
    expect(await buttons.allTextContents()).toEqual(["Connect Fitbit", "Connect Oura", "Connect Garmin"]);

    await page.getByRole("button", { name: "Connect Oura" }).click();
    await page.waitForLoadState();
    expect(await page.getByRole("heading").textContent()).toBe("Connected");
    expect(await page.getByRole("status").textContent()).toContain("Oura is connected");
    expect(failed).toEqual([]);
    expect(violations).toEqual([]);

    const api = await call<WearableConnectionResponse>(
      svc.url,
      `/v1/wearables/connections/${connection.id}`,
      { key },
    );
    expect(api.json.data).toMatchObject({
      status: "connected",
      provider: "OURA",
      connectedAt: expect.any(String),
    });
    const deadline = Date.now() + 10_000;
    let types: string[] = [];
    while (Date.now() < deadline) {
      const events = await call<EventListResponse>(svc.url, "/v1/events?type=wearable.connected", { key });
      types = events.json.data.events
        .filter((e: { data: { id: string } }) => e.data.id === connection.id)
        .map((e: { type: string }) => e.type);
      if (types.length > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(types).toEqual(["wearable.connected"]);

    // Reopening the link shows a clear "already connected" page, not the buttons.
    const again = await page.goto(local(connection.connect.url));
    expect(again?.status()).toBe(409);
    expect(await page.getByRole("status").textContent()).toContain("already been used");
    expect(await page.getByRole("button").count()).toBe(0);
    await context.close();
  });

  it("speaks the connection's language when it has strings for it", async () => {
    const connection = await newConnection({ language: "fr", providers: ["APPLE_HEALTH"] });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(local(connection.connect.url));
    expect(await page.getAttribute("html", "lang")).toBe("fr");
    expect(await page.getByRole("button").allTextContents()).toEqual(["Connecter Apple Health"]);
    await page.getByRole("button").click();
    await page.waitForLoadState();
    expect(await page.getByRole("heading").textContent()).toBe("Connecté");
    await context.close();
  });

  it("falls back to English for a language without strings", async () => {
    const connection = await newConnection({ language: "sw" });
    const res = await fetch(local(connection.connect.url));
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("Connect Fitbit");
  });
});

describe("connect page over HTTP", () => {
  it("sends a strict CSP, nosniff, no-referrer, no-store and no framing", async () => {
    const connection = await newConnection();
    const res = await fetch(local(connection.connect.url));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Strict/);
    const html = await res.text();
    expect(html).not.toMatch(/<script|src=|href=/i);
    expect(html).not.toContain("pt_browser");
  });

  it("answers an unknown or malformed token with a 404 page", async () => {
    for (const token of ["A".repeat(43), "short", "..%2F..%2Fetc"]) {
      const res = await fetch(`${svc.url}/connect/${token}`);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(await res.text()).toContain("Link not found");
    }
    const post = await fetch(`${svc.url}/connect/${"A".repeat(43)}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "provider=FITBIT",
    });
    expect(post.status).toBe(404);
  });

  it("refuses a forged post: no CSRF cookie, wrong value, or a cross-site origin", async () => {
    const connection = await newConnection();
    const url = local(connection.connect.url);
    const get = await fetch(url);
    const cookie = (get.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const csrf = /name="csrf" value="([^"]+)"/.exec(await get.text())?.[1] as string;
    const form = (body: string, headers: Record<string, string>) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body,
        redirect: "manual",
      });
    expect((await form(`csrf=${csrf}&provider=FITBIT`, {})).status).toBe(403);
    expect((await form(`csrf=wrong&provider=FITBIT`, { cookie })).status).toBe(403);
    expect(
      (await form(`csrf=${csrf}&provider=FITBIT`, { cookie, origin: "https://evil.example" })).status,
    ).toBe(403);
    expect(
      (await form(`csrf=${csrf}&provider=FITBIT`, { cookie, "sec-fetch-site": "cross-site" })).status,
    ).toBe(403);
    const still = await call<WearableConnectionResponse>(
      svc.url,
      `/v1/wearables/connections/${connection.id}`,
      { key },
    );
    expect(still.json.data.status).toBe("pending");
    // The same post from the page itself goes through.
    const ok = await form(`csrf=${csrf}&provider=GARMIN`, { cookie, origin: svc.url });
    expect(ok.status).toBe(200);
    const after = await call<WearableConnectionResponse>(
      svc.url,
      `/v1/wearables/connections/${connection.id}`,
      { key },
    );
    expect(after.json.data).toMatchObject({ status: "connected", provider: "GARMIN" });
  });

  it("shows a clear page for a disconnected connection", async () => {
    const connection = await newConnection();
    await call<WearableConnectionResponse>(svc.url, `/v1/wearables/connections/${connection.id}/disconnect`, {
      key,
      method: "POST",
    });
    const res = await fetch(local(connection.connect.url));
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("disconnected");
  });

  it("never writes the token to the logs", async () => {
    const connection = await newConnection();
    await fetch(local(connection.connect.url));
    const token = connection.connect.url.split("/").at(-1) as string;
    expect(svc.logs.join("\n")).not.toContain(token);
    expect(svc.logs.join("\n")).not.toContain("pt_browser");
  });
});
