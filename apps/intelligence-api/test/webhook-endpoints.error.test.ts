import { eq, webhookEndpoints } from "@svc/db";
import { MAX_WEBHOOK_ENDPOINTS } from "@svc/delivery";
import type { ErrorEnvelope } from "@svc/http";
import { type CallResult, call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type { WebhookEndpointResponse, WebhookEndpointSecretResponse } from "../src/index.js";

/**
 * Every 4xx of the webhook endpoint routes. The service runs as a hosted one does: the operator
 * has not allowed loopback webhooks, so a tenant's loopback endpoint is refused in test mode too.
 */
const svc = useTestService();
let key: string;
let endpointId: string;

beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
  endpointId = (
    await call<WebhookEndpointSecretResponse>(svc.url, "/v1/webhook_endpoints", {
      key,
      body: { url: "https://93.184.215.14/hooks" },
    })
  ).json.data.id;
});

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  call<ErrorEnvelope>(svc.url, path, { key, method, headers, ...(body === undefined ? {} : { body }) });
const create = (body: unknown, headers: Record<string, string> = {}) =>
  send("POST", "/v1/webhook_endpoints", body, headers);

function expectInvalid(res: CallResult<ErrorEnvelope>, path: string, says?: RegExp) {
  expect(res.status).toBe(400);
  expect(res.json.error.code).toBe("invalid_request");
  expect(res.json.error.issues?.map((i) => i.path)).toContain(path);
  if (says) expect(res.json.error.message).toMatch(says);
}

describe("400: bodies, URLs and queries", () => {
  it("a create needs a url of 1-2048 characters", async () => {
    expectInvalid(await create({}), "url");
    expectInvalid(await create({ url: "" }), "url");
    expectInvalid(await create({ url: 42 }), "url");
    expectInvalid(await create({ url: `https://93.184.215.14/${"a".repeat(2049)}` }), "url");
  });
  it("refuses what is not an http(s) URL, credentials, and addresses that are not public", async () => {
    expectInvalid(await create({ url: "not a url" }), "url", /not valid/);
    expectInvalid(await create({ url: "ftp://93.184.215.14/x" }), "url", /https:\/\//);
    expectInvalid(await create({ url: "https://user:pw@93.184.215.14/x" }), "url", /credentials/);
    for (const url of [
      "https://10.0.0.1/x",
      "https://192.168.1.10/x",
      "https://169.254.169.254/latest/meta-data",
      "https://[::ffff:10.0.0.1]/x",
      "https://0.0.0.0/x",
    ])
      expectInvalid(await create({ url }), "url", /not public/);
  });
  it("loopback in test mode is refused where the operator has not allowed it, saying why", async () => {
    for (const url of ["http://127.0.0.1:9/hooks", "http://localhost:9/hooks", "http://[::1]:9/hooks"])
      expectInvalid(await create({ url }), "url", /ALLOW_LOOPBACK_WEBHOOKS/);
  });
  it("an update needs url or status, a known status, and the same URL rules", async () => {
    const path = `/v1/webhook_endpoints/${endpointId}`;
    const empty = await send("PATCH", path, {});
    expect(empty.status).toBe(400);
    expect(empty.json.error.code).toBe("invalid_request");
    expectInvalid(await send("PATCH", path, { status: "paused" }), "status");
    expectInvalid(await send("PATCH", path, { url: "https://10.0.0.1/x" }), "url", /not public/);
    const still = await call<WebhookEndpointResponse>(svc.url, path, { key });
    expect(still.json.data).toMatchObject({ url: "https://93.184.215.14/hooks", status: "enabled" });
  });
  it("the list refuses a cursor it did not issue and a limit outside 1-200", async () => {
    for (const cursor of ["nope", Buffer.from('["labord_01jd3k8w6t1x9c0q2m4n5p7r8s"]').toString("base64url")])
      expectInvalid(await send("GET", `/v1/webhook_endpoints?cursor=${cursor}`), "cursor");
    for (const limit of ["0", "201", "abc"])
      expectInvalid(await send("GET", `/v1/webhook_endpoints?limit=${limit}`), "limit");
  });
  it("malformed JSON, another content type and a bad Idempotency-Key are refused", async () => {
    const bad = await call<ErrorEnvelope>(svc.url, "/v1/webhook_endpoints", {
      key,
      method: "POST",
      rawBody: "{x",
    });
    expect(bad.status).toBe(400);
    const text = await call<ErrorEnvelope>(svc.url, "/v1/webhook_endpoints", {
      key,
      method: "POST",
      rawBody: "url=https://93.184.215.14/",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(text.status).toBe(400);
    const longKey = await create({ url: "https://93.184.215.14/k" }, { "idempotency-key": "k".repeat(256) });
    expect(longKey.status).toBe(400);
  });
});

describe("402, 404, 405, 409, 413, 422", () => {
  it("402: a live key of an account without a paid plan and production access", async () => {
    const sandbox = await svc.seed.account({ plan: "sandbox" });
    const live = (await svc.seed.key("secret_live", sandbox.id)).key;
    const res = await call<ErrorEnvelope>(svc.url, "/v1/webhook_endpoints", {
      key: live,
      body: { url: "https://93.184.215.14/live" },
    });
    expect(res.status).toBe(402);
    expect(res.json.error.code).toBe("payment_required");
  });
  it("404: an unknown id, a deleted one, on every route that takes an id", async () => {
    const gone = (
      await call<WebhookEndpointSecretResponse>(svc.url, "/v1/webhook_endpoints", {
        key,
        body: { url: "https://93.184.215.14/gone" },
      })
    ).json.data.id;
    expect((await send("DELETE", `/v1/webhook_endpoints/${gone}`)).status).toBe(200);
    for (const id of ["we_01jd3k8w6t1x9c0q2m4n5p7r8s", gone, "not-an-id"]) {
      for (const [method, suffix, body] of [
        ["GET", "", undefined],
        ["PATCH", "", { status: "disabled" }],
        ["DELETE", "", undefined],
        ["POST", "/rotate_secret", undefined],
      ] as const) {
        const res = await send(method, `/v1/webhook_endpoints/${id}${suffix}`, body);
        expect(res.status, `${method} ${id}${suffix}`).toBe(404);
        expect(res.json.error.code).toBe("not_found");
      }
    }
  });
  it("405: a method the paths do not serve, with Allow", async () => {
    const put = await send("PUT", `/v1/webhook_endpoints/${endpointId}`, { url: "https://93.184.215.14/" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, PATCH, DELETE, HEAD");
    const get = await send("GET", `/v1/webhook_endpoints/${endpointId}/rotate_secret`);
    expect(get.status).toBe(405);
  });
  it(`409: at most ${MAX_WEBHOOK_ENDPOINTS} endpoints per mode, and the refusal adds none`, async () => {
    const caller = await svc.seed.caller("enterprise");
    const results = await Promise.all(
      Array.from({ length: MAX_WEBHOOK_ENDPOINTS + 4 }, (_, i) =>
        call<ErrorEnvelope>(svc.url, "/v1/webhook_endpoints", {
          key: caller.key,
          body: { url: `https://93.184.215.14/n${i}` },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => r.status)).toEqual([409, 409, 409, 409]);
    expect(refused[0]?.json.error.code).toBe("conflict");
    const rows = await svc.db.handle.db
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.accountId, caller.account.id));
    expect(rows).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
  });
  it("413: a body over 1 MB", async () => {
    const res = await create({ url: `https://93.184.215.14/${"a".repeat(1_100_000)}` });
    expect(res.status).toBe(413);
  });
  it("422: an Idempotency-Key used again with another body", async () => {
    const headers = { "idempotency-key": "reuse-1" };
    expect((await create({ url: "https://93.184.215.14/first" }, headers)).status).toBe(201);
    const again = await create({ url: "https://93.184.215.14/second" }, headers);
    expect(again.status).toBe(422);
    expect(again.json.error.code).toBe("idempotency_key_reused");
  });
});
