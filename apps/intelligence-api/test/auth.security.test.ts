import { generateKey, revokeApiKey } from "@svc/db";
import type { ErrorEnvelope } from "@svc/http";
import { type CallResult, call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { describe, expect, it } from "vitest";
import type { PingResponse } from "../src/index.js";

const svc = useTestService();

function expectEnvelope(res: CallResult<ErrorEnvelope>, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.json.ok).toBe(false);
  expect(res.json.error.code).toBe(code);
  expect(typeof res.json.error.message).toBe("string");
  expect(res.json.error.docs).toMatch(/^http:\/\/localhost:3000\/docs\/errors#error-/);
  expect(res.json.requestId).toMatch(/^req_[0-9a-z]{26}$/);
  expect(res.headers.get("x-request-id")).toBe(res.json.requestId);
}

describe("401 unauthorized: missing or malformed Authorization header", () => {
  it("refuses a request without the header", async () => {
    expectEnvelope(await call<ErrorEnvelope>(svc.url, "/v1/ping"), 401, "unauthorized");
  });
  it.each([["Basic dXNlcjpwYXNz"], ["Bearer"], ["Bearer "], ["bearer"], ["Token abc"], ["Bearer a b"]])(
    "refuses the header %j",
    async (header) => {
      expectEnvelope(
        await call<ErrorEnvelope>(svc.url, "/v1/ping", { headers: { authorization: header } }),
        401,
        "unauthorized",
      );
    },
  );
});

describe("401 invalid_token: unknown, mistyped or revoked keys", () => {
  it("refuses a string that is not a key", async () => {
    expectEnvelope(
      await call<ErrorEnvelope>(svc.url, "/v1/ping", { key: "not-a-key" }),
      401,
      "invalid_token",
    );
  });
  it("refuses a key with one character changed (checksum) and a truncated key", async () => {
    const { key } = await svc.seed.caller();
    const last = key.at(-1) === "a" ? "b" : "a";
    expectEnvelope(
      await call<ErrorEnvelope>(svc.url, "/v1/ping", { key: key.slice(0, -1) + last }),
      401,
      "invalid_token",
    );
    expectEnvelope(
      await call<ErrorEnvelope>(svc.url, "/v1/ping", { key: key.slice(0, -1) }),
      401,
      "invalid_token",
    );
    // the real key still works
    expect((await call<PingResponse>(svc.url, "/v1/ping", { key })).status).toBe(200);
  });
  it("refuses a well-formed key that was never issued", async () => {
    expectEnvelope(
      await call<ErrorEnvelope>(svc.url, "/v1/ping", { key: generateKey("secret_test").key }),
      401,
      "invalid_token",
    );
  });
  it("refuses a revoked key on the very next request", async () => {
    const { key, keyId } = await svc.seed.caller();
    expect((await call<PingResponse>(svc.url, "/v1/ping", { key })).status).toBe(200);
    await revokeApiKey(svc.db.handle.db, keyId);
    const res = await call<ErrorEnvelope>(svc.url, "/v1/ping", { key });
    expectEnvelope(res, 401, "invalid_token");
    expect(res.json.error.message).toMatch(/revoked/);
  });
});

describe("403 forbidden: valid key, wrong resource", () => {
  it("refuses a publishable key on GET /v1/ping (decision 31)", async () => {
    const account = await svc.seed.account();
    const pk = await svc.seed.key("publishable", account.id);
    expectEnvelope(
      await call<ErrorEnvelope>(svc.url, "/v1/ping", {
        key: pk.key,
        headers: { origin: "http://localhost:5173" },
      }),
      403,
      "forbidden",
    );
  });
  it("refuses an organization key on the Intelligence API", async () => {
    const { key } = await svc.seed.org();
    expectEnvelope(await call<ErrorEnvelope>(svc.url, "/v1/ping", { key }), 403, "forbidden");
  });
});

describe("402 payment_required: live keys", () => {
  it("refuses a live key on a sandbox account", async () => {
    const account = await svc.seed.account({ plan: "sandbox" });
    const live = await svc.seed.key("secret_live", account.id);
    expectEnvelope(
      await call<ErrorEnvelope>(svc.url, "/v1/ping", { key: live.key }),
      402,
      "payment_required",
    );
  });
  it("refuses a live key on a paid plan without production approval", async () => {
    const account = await svc.seed.account({ plan: "launch" });
    const live = await svc.seed.key("secret_live", account.id);
    expectEnvelope(
      await call<ErrorEnvelope>(svc.url, "/v1/ping", { key: live.key }),
      402,
      "payment_required",
    );
  });
  it("serves a live key on a paid, approved account in live mode", async () => {
    const account = await svc.seed.account({ plan: "scale", production: true });
    const live = await svc.seed.key("secret_live", account.id);
    const res = await call<PingResponse>(svc.url, "/v1/ping", { key: live.key });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      object: "ping",
      mode: "live",
      keyKind: "secret_live",
      plan: "scale",
      accountId: account.id,
    });
  });
});

describe("GET /v1/ping (decision 32)", () => {
  it("confirms key, plan and account in the success envelope", async () => {
    const { key, account } = await svc.seed.caller("launch");
    const res = await call<PingResponse>(svc.url, "/v1/ping", { key });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      ok: true,
      data: {
        object: "ping",
        mode: "test",
        keyKind: "secret_test",
        plan: "launch",
        accountId: account.id,
        time: expect.any(String),
      },
    });
    expect(Math.abs(Date.parse(res.json.data.time) - Date.now())).toBeLessThan(60_000);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });
  it("answers each account with its own identity (isolation)", async () => {
    const a = await svc.seed.caller();
    const b = await svc.seed.caller();
    const [ra, rb] = await Promise.all([
      call<PingResponse>(svc.url, "/v1/ping", { key: a.key }),
      call<PingResponse>(svc.url, "/v1/ping", { key: b.key }),
    ]);
    expect(ra.json.data.accountId).toBe(a.account.id);
    expect(rb.json.data.accountId).toBe(b.account.id);
  });
});
