import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRoute, z } from "@hono/zod-openapi";
import { createAccount, createApiKey, createDb, type DbHandle } from "@svc/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLogger,
  createServiceApp,
  envelopeErrorBody,
  MemoryRateLimiter,
  runIdempotent,
} from "../src/index.js";
import { type RunningServer, startServer } from "../src/runtime/server.js";

/**
 * The shared HTTP layer on its own: one small API built with `createServiceApp` over embedded
 * PostgreSQL (PGlite), served over loopback, with no app of ours. It checks what every route gets
 * from the layer whatever the app: the guard's refusals in the API's error body, the default
 * policy, the time limit that aborts the handler's signal (decision 111), and `runIdempotent`'s
 * replay. The apps' own tests check the same middleware through their real routes.
 */
const TIME_LIMIT_MS = 300;

let dataDir: string;
let handle: DbHandle;
let server: RunningServer;
let secretKey: string;
let publishableKey: string;
let creates = 0;
let slowSignalAborted: Promise<boolean>;

function buildTestApi() {
  const service = createServiceApp(
    {
      db: handle.db,
      limiter: new MemoryRateLimiter(),
      logger: createLogger({ level: "silent" }),
      publicBaseUrl: "http://127.0.0.1",
      requestTimeoutMs: TIME_LIMIT_MS,
    },
    { errorBody: envelopeErrorBody("http://127.0.0.1") },
  );
  const ping = createRoute({
    method: "get",
    path: "/v1/ping",
    responses: {
      200: {
        description: "pong",
        content: { "application/json": { schema: z.object({ ok: z.boolean() }) } },
      },
    },
  });
  service.openapi(ping, (c) => c.json({ ok: true }, 200));
  const create = createRoute({
    method: "post",
    path: "/v1/things",
    request: { body: { content: { "application/json": { schema: z.object({ name: z.string().min(1) }) } } } },
    responses: {
      201: {
        description: "created",
        content: { "application/json": { schema: z.object({ name: z.string(), serial: z.number() }) } },
      },
    },
  });
  service.openapi(create, async (c) => {
    const { name } = c.req.valid("json");
    const outcome = await runIdempotent(c, handle.db, async () => {
      creates += 1;
      return { status: 201, body: { name, serial: creates } };
    });
    return c.json(outcome.body, 201);
  });
  const slow = createRoute({
    method: "get",
    path: "/v1/slow",
    responses: { 200: { description: "late", content: { "application/json": { schema: z.object({}) } } } },
  });
  service.openapi(slow, async (c) => {
    const signal = c.get("signal");
    slowSignalAborted = new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), 5 * TIME_LIMIT_MS);
      signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    await slowSignalAborted;
    return c.json({}, 200);
  });
  return service.app;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "svc-http-"));
  handle = createDb({ dataDir });
  await handle.migrate();
  const account = await createAccount(handle.db, { name: "HTTP layer test" });
  secretKey = (await createApiKey(handle.db, { accountId: account.id, kind: "secret_test" })).key;
  publishableKey = (
    await createApiKey(handle.db, {
      accountId: account.id,
      kind: "publishable",
      origins: ["http://localhost:*"],
    })
  ).key;
  const app = buildTestApi();
  server = await startServer({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await handle?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(
  method: string,
  route: string,
  init: { key?: string; body?: string; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: {
      ...(init.key ? { Authorization: `Bearer ${init.key}` } : {}),
      ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...init.headers,
    },
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null };
}

describe("an API built on @svc/http alone", () => {
  it("answers a keyed request with a request id", async () => {
    const res = await call("GET", "/v1/ping", { key: secretKey });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("refuses a missing key, an unknown key and a key kind outside the default policy, in the API's envelope", async () => {
    const missing = await call("GET", "/v1/ping");
    expect(missing.status).toBe(401);
    expect(missing.json.error.code).toBe("unauthorized");
    expect(missing.json.requestId).toBe(missing.headers.get("x-request-id"));
    expect(missing.json.error.docs).toMatch(/#error-unauthorized$/);
    const unknown = await call("GET", "/v1/ping", { key: "sk_test_not_a_real_key_000000000000" });
    expect(unknown.status).toBe(401);
    const publishable = await call("GET", "/v1/ping", { key: publishableKey });
    expect(publishable.status).toBe(403);
    expect(publishable.json.error.code).toBe("forbidden");
  });

  it("answers 404 and 405 in the same envelope", async () => {
    const notFound = await call("GET", "/v1/nothing-here", { key: secretKey });
    expect(notFound.status).toBe(404);
    expect(notFound.json.error.code).toBe("not_found");
    const wrongMethod = await call("DELETE", "/v1/ping", { key: secretKey });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.json.error.code).toBe("method_not_allowed");
    expect(wrongMethod.headers.get("allow")).toContain("GET");
  });

  it("refuses a body that fails the route's schema with the issues, and runs nothing", async () => {
    const before = creates;
    const res = await call("POST", "/v1/things", { key: secretKey, body: JSON.stringify({ name: "" }) });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_request");
    expect(res.json.error.issues[0].path).toBe("name");
    const malformed = await call("POST", "/v1/things", { key: secretKey, body: "{" });
    expect(malformed.status).toBe(400);
    expect(creates).toBe(before);
  });

  it("replays an Idempotency-Key's first answer and runs the work once", async () => {
    const body = JSON.stringify({ name: "first" });
    const headers = { "Idempotency-Key": "layer-test-1" };
    const first = await call("POST", "/v1/things", { key: secretKey, body, headers });
    const second = await call("POST", "/v1/things", { key: secretKey, body, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.json).toEqual(first.json);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const reused = await call("POST", "/v1/things", {
      key: secretKey,
      body: JSON.stringify({ name: "other" }),
      headers,
    });
    expect(reused.status).toBe(422);
    expect(reused.json.error.code).toBe("idempotency_key_reused");
  });

  it("answers 503 at the time limit and aborts the handler's signal", async () => {
    const started = Date.now();
    const res = await call("GET", "/v1/slow", { key: secretKey });
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe("service_unavailable");
    expect(Date.now() - started).toBeLessThan(4 * TIME_LIMIT_MS);
    expect(await slowSignalAborted).toBe(true);
  });
});
