import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { revokeApiKey } from "@svc/db";
import type { ErrorEnvelope } from "@svc/http";
import { createRuntime, parseEnv, type RunningServer, type Runtime, startServer } from "@svc/http/runtime";
import type { PingResponse } from "@svc/intelligence-api";
import { call, createTestDatabase, requireEnv, Seeder, svcCliCommand, type TestDatabase } from "@svc/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCombinedApp } from "../src/combined.js";

/**
 * Decision 12: a revoked key fails on the very next request on every replica. Replicas cache key
 * lookups only while subscribed to the revocation channel; these tests run real replicas (the
 * production runtime, real PostgreSQL and Redis) and revoke through the operator CLI.
 */
const root = fileURLToPath(new URL("../../../", import.meta.url));

interface Replica {
  runtime: Runtime;
  server: RunningServer;
}

let db: TestDatabase;
const replicas: Replica[] = [];

async function startReplica(redisUrl: string): Promise<Replica> {
  const env = parseEnv({ DATABASE_URL: db.url, REDIS_URL: redisUrl, LOG_LEVEL: "silent", PORT: "0" });
  const runtime = await createRuntime(env, "replica");
  const combined = buildCombinedApp(runtime.deps);
  const server = await startServer({ fetch: combined.fetch, port: 0, hostname: "127.0.0.1" });
  const replica = { runtime, server };
  replicas.push(replica);
  return replica;
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

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

describe("key revocation with cached key lookups", () => {
  it("`keys revoke` takes effect on the very next request on every replica", async () => {
    const redisUrl = requireEnv("TEST_REDIS_URL");
    const a = await startReplica(redisUrl);
    const b = await startReplica(redisUrl);
    await until(() => Boolean(a.runtime.deps.keyCache?.isLive && b.runtime.deps.keyCache?.isLive));

    const caller = await new Seeder(db.handle).caller();
    // Warm both caches: the second request on each replica is served from the cache.
    for (const replica of [a, b]) {
      for (let i = 0; i < 2; i++) {
        const res = await call<PingResponse>(replica.server.url, "/v1/ping", { key: caller.key });
        expect(res.status).toBe(200);
      }
    }

    const cli = svcCliCommand(["keys", "revoke", "--id", caller.keyId, "--json"]);
    const out = spawnSync(cli.command, cli.args, {
      cwd: root,
      env: { ...process.env, DATABASE_URL: db.url, REDIS_URL: redisUrl, LOG_LEVEL: "silent" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ id: caller.keyId });

    for (const replica of [a, b]) {
      const res = await call<ErrorEnvelope>(replica.server.url, "/v1/ping", { key: caller.key });
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe("invalid_token");
    }
  });

  it("without a live subscription nothing is cached, so a silent revocation still applies at once", async () => {
    // Port 1 refuses connections: the replica runs without Redis pub/sub.
    const replica = await startReplica("redis://127.0.0.1:1");
    expect(replica.runtime.deps.keyCache?.isLive ?? false).toBe(false);
    const caller = await new Seeder(db.handle).caller();
    expect((await call<PingResponse>(replica.server.url, "/v1/ping", { key: caller.key })).status).toBe(200);
    expect((await call<PingResponse>(replica.server.url, "/v1/ping", { key: caller.key })).status).toBe(200);

    // Revoked straight in the database: no announcement reaches anyone.
    await revokeApiKey(db.handle.db, caller.keyId);
    const res = await call<ErrorEnvelope>(replica.server.url, "/v1/ping", { key: caller.key });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe("invalid_token");
  });
});
