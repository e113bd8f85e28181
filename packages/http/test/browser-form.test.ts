import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { declaredFormWithin, formSizeLimit, formTokenMatches, fromOurPage } from "../src/browser-form.js";

const PUBLIC = "https://svc.example.com";

/** An app that answers 204 when the form passes the rule under test and 403 when it does not. */
function originApp(): Hono {
  const app = new Hono();
  app.post("/form", (c) => c.body(null, fromOurPage(c, PUBLIC) ? 204 : 403));
  return app;
}

async function post(headers: Record<string, string>, url = "http://127.0.0.1:3000/form"): Promise<number> {
  return (await originApp().request(url, { method: "POST", headers })).status;
}

describe("fromOurPage (the same-origin rule of every browser form)", () => {
  it("accepts the request's own origin and the public base URL's", async () => {
    expect(await post({ origin: "http://127.0.0.1:3000" })).toBe(204);
    expect(await post({ origin: PUBLIC })).toBe(204);
    expect(await post({ origin: PUBLIC, "sec-fetch-site": "same-origin" })).toBe(204);
  });

  it("refuses a missing Origin, another site's, and another port or scheme of ours", async () => {
    expect(await post({})).toBe(403);
    expect(await post({ "sec-fetch-site": "same-origin" })).toBe(403);
    expect(await post({ origin: "https://evil.example" })).toBe(403);
    expect(await post({ origin: "http://127.0.0.1:3001" })).toBe(403);
    expect(await post({ origin: "http://svc.example.com" })).toBe(403);
  });

  it("refuses any Sec-Fetch-Site but same-origin, even with our Origin", async () => {
    for (const site of ["cross-site", "same-site", "none"])
      expect(await post({ origin: PUBLIC, "sec-fetch-site": site })).toBe(403);
  });

  it("accepts Origin: null only when the browser says the post is same-origin", async () => {
    expect(await post({ origin: "null", "sec-fetch-site": "same-origin" })).toBe(204);
    expect(await post({ origin: "null" })).toBe(403);
    expect(await post({ origin: "null", "sec-fetch-site": "cross-site" })).toBe(403);
  });

  it("does not trust X-Forwarded-Proto or Host beyond the request URL", async () => {
    expect(await post({ origin: "https://127.0.0.1:3000", "x-forwarded-proto": "https" })).toBe(403);
  });

  it("allows only the request's own origin when the public base URL is invalid", async () => {
    const app = new Hono();
    app.post("/form", (c) => c.body(null, fromOurPage(c, "not a url") ? 204 : 403));
    const from = async (origin: string) =>
      (await app.request("http://127.0.0.1:3000/form", { method: "POST", headers: { origin } })).status;
    expect(await from("http://127.0.0.1:3000")).toBe(204);
    expect(await from(PUBLIC)).toBe(403);
  });
});

describe("formTokenMatches", () => {
  it("matches only the same non-empty string", () => {
    expect(formTokenMatches("abc123", "abc123")).toBe(true);
    expect(formTokenMatches("abc123", "abc124")).toBe(false);
    expect(formTokenMatches("abc123", "abc12")).toBe(false);
    expect(formTokenMatches("abc123", undefined)).toBe(false);
    expect(formTokenMatches("abc123", ["abc123"])).toBe(false);
    expect(formTokenMatches("", "")).toBe(false);
    expect(formTokenMatches("é", "é")).toBe(true);
  });
});

describe("the form size limit", () => {
  it("declaredFormWithin needs a declared length within the limit", async () => {
    const app = new Hono();
    app.post("/form", (c) => c.body(null, declaredFormWithin(c, 10) ? 204 : 413));
    const at = async (headers: Record<string, string>) =>
      (await app.request("http://localhost/form", { method: "POST", headers })).status;
    expect(await at({ "content-length": "10" })).toBe(204);
    expect(await at({ "content-length": "11" })).toBe(413);
    expect(await at({ "content-length": "ten" })).toBe(413);
    expect(await at({})).toBe(413);
  });

  it("formSizeLimit refuses a larger body with the caller's answer", async () => {
    const app = new Hono();
    app.use(
      "*",
      formSizeLimit(10, (c) => c.text("too large", 413)),
    );
    app.post("/form", async (c) => c.text(await c.req.text()));
    const send = (body: string) => app.request("http://localhost/form", { method: "POST", body });
    expect((await send("a=123456")).status).toBe(200);
    const refused = await send("a=1234567890");
    expect(refused.status).toBe(413);
    expect(await refused.text()).toBe("too large");
  });
});
