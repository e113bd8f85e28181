import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { promisify } from "node:util";
import { compileErrors, validate } from "@readme/openapi-parser";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { describe, expect, it } from "vitest";
import { publishedDocument } from "../src/combined.js";

/** The parts of the served OpenAPI document this test reads. */
interface PublishedDocument {
  openapi: string;
  paths: Record<string, unknown>;
}

const svc = useTestService();

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

const ROOT = new URL("../../../", import.meta.url);
const run = promisify(execFile);

/** The committed document as JSON (what /docs renders, servers aside). */
function committed(): {
  info: { description: string; license?: { name: string; identifier?: string } };
  security?: unknown;
  tags: { name: string }[];
  components: { securitySchemes: Record<string, unknown> };
  paths: Record<
    string,
    Record<string, { tags?: string[]; summary?: string; responses: Record<string, unknown> }>
  >;
} {
  return JSON.parse(readFileSync(new URL("docs/openapi.json", ROOT), "utf8"));
}

describe("the document lints clean and reads well in /docs", () => {
  it("passes Redocly's recommended rules with no ignore file and none of them turned off but one", async () => {
    expect(existsSync(new URL(".redocly.lint-ignore.yaml", ROOT))).toBe(false);
    const config = readFileSync(new URL("redocly.yaml", ROOT), "utf8");
    expect(config).toMatch(/extends:\n\s+- recommended(-strict)?\n/);
    const off = [...config.matchAll(/^\s+([a-z0-9-]+): off$/gm)].map((m) => m[1]);
    expect(off).toEqual(["no-empty-servers"]);
    const lint = await run(
      new URL("node_modules/.bin/redocly", ROOT).pathname,
      ["lint", "--config", "redocly.yaml", "--format", "json", "docs/openapi.json"],
      {
        cwd: ROOT.pathname,
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      },
    );
    const report = JSON.parse(lint.stdout) as {
      totals: { errors: number; warnings: number; ignored: number };
    };
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  }, 60_000);

  it("the probes document the 4xx they answer: 405 for another method, with Allow", async () => {
    for (const path of ["/healthz", "/readyz"]) {
      expect(committed().paths[path]?.get?.responses).toHaveProperty("405");
      const res = await fetch(`${svc.url}${path}`, { method: "POST" });
      expect(res.status, path).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD");
    }
  });

  it("tags name what they hold, summaries are short, there is no catch-all scheme, and the introduction says how to get a key", () => {
    const doc = committed();
    expect(doc.paths["/healthz"]?.get?.tags).toEqual(["Health"]);
    expect(doc.paths["/readyz"]?.get?.tags).toEqual(["Health"]);
    expect(doc.paths["/v1/ping"]?.get?.tags).toEqual(["Keys"]);
    const used = new Set(
      Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags ?? [])),
    );
    expect(doc.tags.map((t) => t.name).filter((name) => !used.has(name))).toEqual([]);
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item))
        expect(op.summary?.length ?? 0, `${method} ${path}: ${op.summary}`).toBeLessThanOrEqual(32);
    expect(Object.keys(doc.components.securitySchemes)).toEqual([
      "secretTestKey",
      "secretLiveKey",
      "publishableKey",
      "organizationKey",
    ]);
    expect(doc.security).toBeUndefined();
    expect(doc.info.license?.identifier).toBe("LicenseRef-Proprietary");
    expect(doc.info.description).toContain("## Getting a key");
    expect(doc.info.description).toContain("svc_sk_test_");
    expect(doc.info.description).toContain("pnpm svc keys create");
  });
});
