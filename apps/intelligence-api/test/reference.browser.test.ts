import { ERROR_CODES } from "@svc/http";
import { launchChromium } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The API reference at /docs (Scalar's renderer served from our own origin) and the error-codes
 * page, in headless Debian Chromium: every operation listed, request examples, nothing fetched
 * from any other origin (so it works offline), no CSP violation.
 */
const svc = useTestService();
let browser: Browser;

interface OpenApiDocument {
  paths: Record<string, Record<string, { summary?: string }>>;
}

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** What a reader sees on the page (rendered text: not the config element's JSON). */
function visibleText(page: Page): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point here.
  return page.locator("body").innerText();
}

interface OpenedReference {
  page: Page;
  foreignRequests: string[];
  cspViolations: string[];
}

async function openReference(): Promise<OpenedReference> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const foreignRequests: string[] = [];
  const cspViolations: string[] = [];
  page.on("request", (r) => {
    const url = r.url();
    if (!url.startsWith(svc.url) && !url.startsWith("data:") && !url.startsWith("blob:"))
      foreignRequests.push(url);
  });
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  await page.goto(`${svc.url}/docs`);
  return { page, foreignRequests, cspViolations };
}

describe("GET /docs", () => {
  it("serves the renderer from our own origin with a CSP that allows no other origin", async () => {
    const res = await fetch(`${svc.url}/docs`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await res.text();
    const bundlePath = /<script src="(\/docs\/assets\/scalar-[\d.]+\.js)">/.exec(html)?.[1];
    expect(bundlePath).toBeDefined();
    const bundle = await fetch(`${svc.url}${bundlePath}`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toContain("text/javascript");
    expect(bundle.headers.get("cache-control")).toContain("immutable");
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
  });

  it("lists every operation with a request example, and fetches nothing from elsewhere", async () => {
    const document = (await (await fetch(`${svc.url}/v1/openapi.json`)).json()) as OpenApiDocument;
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ method, path, summary: op.summary ?? "" })),
    );
    expect(operations.length).toBeGreaterThan(30);
    const { page, foreignRequests, cspViolations } = await openReference();
    await expect
      .poll(() => visibleText(page), { timeout: 30_000 })
      .toContain("Clinical Intelligence Service");
    const listed = await visibleText(page);
    expect(operations.filter((op) => !listed.includes(op.summary)).map((op) => op.summary)).toEqual([]);
    // Each operation, opened from the sidebar, shows a curl example for its own URL (path
    // parameters filled with example values by the renderer).
    const withoutExample: string[] = [];
    for (const op of operations) {
      await page.getByText(op.summary, { exact: true }).first().click();
      const url = new RegExp(
        `curl '?http://localhost:3000${op.path.replace(/\{[^}]+\}/g, "[^\\s/]+")}[\\s?'\\\\]`,
      );
      const shown = await expect
        .poll(() => visibleText(page), { timeout: 5_000 })
        .toMatch(url)
        .then(() => true)
        .catch(() => false);
      if (!shown) withoutExample.push(`${op.method.toUpperCase()} ${op.path}`);
    }
    expect(withoutExample).toEqual([]);
    expect(foreignRequests).toEqual([]);
    expect(cspViolations).toEqual([]);
  }, 180_000);
});

describe("GET /docs/errors", () => {
  it("has an anchor for every error code, which error bodies link to", async () => {
    const res = await fetch(`${svc.url}/docs/errors`);
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const code of ERROR_CODES) expect(html).toContain(`id="error-${code}"`);
    const refused = (await (await fetch(`${svc.url}/v1/ping`)).json()) as { error: { docs: string } };
    expect(refused.error.docs).toMatch(/\/docs\/errors#error-unauthorized$/);
  });
});
