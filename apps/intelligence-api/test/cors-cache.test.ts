import { createApiKey, revokeApiKey, setPublishableOrigins } from "@svc/db";
import { KEYS_CHANGED_CHANNEL, ORIGIN_MISS_REFRESH_MS } from "@svc/http";
import { createRuntime, parseEnv, type RunningServer, type Runtime, startServer } from "@svc/http/runtime";
import { createTestDatabase, requireEnv, Seeder, type TestDatabase } from "@svc/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildIntelligenceApi } from "../src/index.js";

/**
 * A CORS preflight carries no key: it is answered from every working publishable key's
 * allow-list. Those lists are cached as key lookups are (only while the replica hears key changes
 * on Redis), so repeated preflights cost no database query, and a revocation or an origin edit
 * announced on the channel applies on every replica at once. Real replicas: the production
 * runtime on real PostgreSQL and Redis, each counting its own database queries.
 */
interface Replica {
  runtime: Runtime;
  server: RunningServer;
  queries: () => number;
}

let db: TestDatabase;
const replicas: Replica[] = [];

async function startReplica(): Promise<Replica> {
  const env = parseEnv({
    DATABASE_URL: db.url,
    REDIS_URL: requireEnv("TEST_REDIS_URL"),
    LOG_LEVEL: "silent",
    PORT: "0",
  });
  let queries = 0;
  const runtime = await createRuntime(env, "replica", { onQuery: () => void queries++ });
  const server = await startServer({
    fetch: buildIntelligenceApi(runtime.deps).app.fetch,
    port: 0,
    hostname: "127.0.0.1",
  });
  const replica = { runtime, server, queries: () => queries };
  replicas.push(replica);
  return replica;
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const preflight = (replica: Replica, origin: string) =>
  fetch(`${replica.server.url}/v1/dmse/analyze`, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type",
    },
  }).then(async (res) => {
    await res.arrayBuffer();
    return { status: res.status, allowOrigin: res.headers.get("access-control-allow-origin") };
  });

const announce = (replica: Replica, keyId: string) =>
  replica.runtime.redis?.publish(KEYS_CHANGED_CHANNEL, keyId) ?? Promise.resolve(0);

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const replica of replicas) {
    await replica.server.close(100);
    await replica.runtime.close();
  }
  await db.drop();
});

describe.sequential("CORS preflight allow-lists, cached as keys are", () => {
  const APP = "https://app.clinic.example";
  let a: Replica;
  let b: Replica;
  let accountId: string;
  let keyId: string;

  beforeAll(async () => {
    a = await startReplica();
    b = await startReplica();
    await until(() => Boolean(a.runtime.deps.keyCache?.isLive && b.runtime.deps.keyCache?.isLive));
    const account = await new Seeder(db.handle).account({ name: "Browser clinic" });
    accountId = account.id;
    keyId = (await createApiKey(db.handle.db, { kind: "publishable", accountId, origins: [APP] })).id;
  });

  it("repeated preflights, allowed or refused, cost no query per preflight", async () => {
    expect(await preflight(a, APP)).toEqual({ status: 204, allowOrigin: APP });
    const before = a.queries();
    for (let i = 0; i < 25; i++) expect(await preflight(a, APP)).toEqual({ status: 204, allowOrigin: APP });
    expect(a.queries() - before).toBe(0);

    // A flood of refused origins: at most one refresh per ORIGIN_MISS_REFRESH_MS.
    const started = Date.now();
    const beforeRefused = a.queries();
    for (let i = 0; i < 25; i++) expect((await preflight(a, "https://evil.example")).status).toBe(403);
    const windows = Math.ceil((Date.now() - started) / ORIGIN_MISS_REFRESH_MS) + 1;
    expect(a.queries() - beforeRefused).toBeLessThanOrEqual(windows);
  });

  it("a key created a moment ago (not announced) works at the next preflight once the refresh window passes", async () => {
    const NEW = "https://new.clinic.example";
    await new Promise((resolve) => setTimeout(resolve, ORIGIN_MISS_REFRESH_MS + 50));
    await createApiKey(db.handle.db, { kind: "publishable", accountId, origins: [NEW] });
    expect(await preflight(a, NEW)).toEqual({ status: 204, allowOrigin: NEW });
  });

  it("an origin edit and a revocation, announced, apply on every replica's next preflight", async () => {
    for (const replica of [a, b]) expect((await preflight(replica, APP)).status).toBe(204);
    const EDITED = "https://edited.clinic.example";
    await setPublishableOrigins(db.handle.db, { accountId, keyId, origins: [EDITED] });
    await announce(a, keyId);
    for (const replica of [a, b]) {
      await until(async () => (await preflight(replica, APP)).status === 403, 2_000);
      expect(await preflight(replica, EDITED)).toEqual({ status: 204, allowOrigin: EDITED });
    }
    await revokeApiKey(db.handle.db, keyId);
    await announce(b, keyId);
    for (const replica of [a, b])
      await until(async () => (await preflight(replica, EDITED)).status === 403, 2_000);
  });
});
