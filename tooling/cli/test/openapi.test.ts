import { compileErrors, validate } from "@readme/openapi-parser";
import { call, startTestService, type TestService } from "@svc/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishedDocument } from "../src/combined.js";

/** The parts of the served OpenAPI document this test reads. */
interface PublishedDocument {
  openapi: string;
  paths: Record<string, unknown>;
}

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.close();
});

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document (independent validator)", async () => {
    const doc = structuredClone(publishedDocument(svc.deps));
    const result = await validate(doc as never);
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.valid).toBe(true);
  });

  it("is served at GET /v1/openapi.json with a reference page at /docs, without a key", async () => {
    const res = await call<PublishedDocument>(svc.url, "/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe("3.1.0");
    expect(Object.keys(res.json.paths)).toContain("/v1/ping");
    const page = await fetch(`${svc.url}/docs`);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain('"url":"/v1/openapi.json"');
    const errors = await (await fetch(`${svc.url}/docs/errors`)).text();
    expect(errors).toContain('id="error-rate_limited"');
  });

  it("/docs/errors carries the HTML security headers, and its one style element carries the CSP nonce", async () => {
    const page = await fetch(`${svc.url}/docs/errors`);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("script-src");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    const html = await page.text();
    expect(html).toContain(`<style nonce="${nonce}">`);
    // A fresh nonce per response.
    const again = (await fetch(`${svc.url}/docs/errors`)).headers.get("content-security-policy");
    expect(again).not.toBe(csp);
  });
});
