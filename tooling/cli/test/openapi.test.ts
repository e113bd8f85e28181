import { readFileSync } from "node:fs";
import { compileErrors, validate } from "@readme/openapi-parser";
import { call, startTestService, type TestService } from "@svc/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishedDocument } from "../src/combined.js";

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

  it("matches the committed docs/openapi.json (run `pnpm openapi:write` and review the diff)", () => {
    const committed = JSON.parse(
      readFileSync(new URL("../../../docs/openapi.json", import.meta.url), "utf8"),
    );
    expect(JSON.parse(JSON.stringify(publishedDocument(svc.deps)))).toEqual(committed);
  });

  it("is served at GET /v1/openapi.json with a reference page at /docs, without a key", async () => {
    const res = await call(svc.url, "/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe("3.1.0");
    expect(Object.keys(res.json.paths)).toContain("/v1/ping");
    const page = await fetch(`${svc.url}/docs`);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain("/v1/ping");
    expect(html).toContain('id="error-rate_limited"');
  });
});
