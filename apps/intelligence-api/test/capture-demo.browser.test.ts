import { launchChromium } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * /capture-demo in headless Chromium with a fake microphone: Start checks the key and this page's
 * origin before it opens the microphone, so a session the service would refuse at Finish is
 * never recorded.
 */
const svc = useTestService();
let browser: Browser;
let publishable: string;
let secret: string;
/** The page on 127.0.0.1 (svc.url) and on localhost, the only origin the key allows. */
let localhostOrigin: string;

beforeAll(async () => {
  localhostOrigin = svc.url.replace("127.0.0.1", "localhost");
  const caller = await svc.seed.caller("enterprise");
  secret = caller.key;
  publishable = (await svc.seed.key("publishable", caller.account.id, ["http://localhost:*"])).key;
  browser = await launchChromium([
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    "--autoplay-policy=no-user-gesture-required",
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** The demo page with every microphone request counted. */
async function openDemo(origin: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  // Browser code as text: this package's TypeScript has no DOM types.
  await page.addInitScript({
    content: `window.microphoneRequests = 0;
const open = navigator.mediaDevices?.getUserMedia?.bind(navigator.mediaDevices);
if (open) navigator.mediaDevices.getUserMedia = (constraints) => { window.microphoneRequests += 1; return open(constraints); };`,
  });
  const response = await page.goto(`${origin}/capture-demo`);
  expect(response?.status()).toBe(200);
  return page;
}

async function start(page: Page, key: string): Promise<string> {
  await page.fill("#key", key);
  await page.click("#start");
  return statusWhen(
    page,
    (text) => text !== "" && !text.startsWith("Checking") && !text.startsWith("Asking"),
  );
}

/** The status line once `done` holds (read from here: the page's CSP forbids evaluated strings). */
async function statusWhen(page: Page, done: (text: string) => boolean): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const text = (await page.textContent("#status")) ?? "";
    if (done(text) || Date.now() > deadline) return text;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const microphoneRequests = (page: Page) => page.evaluate<number>("window.microphoneRequests");

describe("capture demo checks the key before recording", () => {
  it("on an origin the key does not allow: says so, names the origin, never opens the microphone", async () => {
    const page = await openDemo(svc.url);
    const status = await start(page, publishable);
    expect(status).toContain(
      `This page's origin (${svc.url}) is not in the key's allow-list (http://localhost:*)`,
    );
    expect(status).toContain("Nothing was recorded");
    expect(await microphoneRequests(page)).toBe(0);
    expect(await page.isEnabled("#start")).toBe(true);
    expect(await page.isDisabled("#finish")).toBe(true);
    expect(await page.textContent("#origin")).toBe(svc.url);
  });

  it("refuses a secret key, an unknown key and no key without opening the microphone", async () => {
    const page = await openDemo(localhostOrigin);
    expect(await start(page, secret)).toMatch(/^forbidden: This is not a publishable key/);
    expect(await start(page, "svc_pk_notarealkey")).toMatch(/^invalid_token: /);
    expect(await start(page, "")).toMatch(/^unauthorized: Enter the publishable key/);
    expect(await microphoneRequests(page)).toBe(0);
  });

  it("on an allowed origin: starts recording, and Stop sends nothing", async () => {
    const page = await openDemo(localhostOrigin);
    const status = await start(page, publishable);
    expect(status).toContain("Listening");
    expect(await microphoneRequests(page)).toBe(1);
    await page.click("#abort");
    expect(await statusWhen(page, (text) => text.startsWith("Stopped"))).toBe("Stopped; nothing was sent.");
  });

  it("the check answers JSON, is never cached, and refuses a foreign Origin", async () => {
    const ok = await fetch(`${svc.url}/capture-demo/check`, {
      method: "POST",
      headers: { authorization: `Bearer ${publishable}`, origin: localhostOrigin },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect(await ok.json()).toEqual({ ok: true, origin: localhostOrigin });
    const refused = await fetch(`${svc.url}/capture-demo/check`, {
      method: "POST",
      headers: { authorization: `Bearer ${publishable}`, origin: "https://evil.example" },
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { ok: boolean }).ok).toBe(false);
  });
});
