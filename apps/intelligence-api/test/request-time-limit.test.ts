import { createDb, type DbHandle, sql } from "@svc/db";
import {
  ApiError,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type ErrorEnvelope,
  runIdempotent,
  STATEMENT_TIMEOUT_MS,
} from "@svc/http";
import { createRuntime, parseEnv } from "@svc/http/runtime";
import { call, requireEnv } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The request time limit stops the work, not only the answer (decision 111): past the limit the
 * request's signal is aborted, `runIdempotent` rolls back instead of committing, and the
 * database cancels a statement at its statement timeout, so nothing commits after the caller was
 * told 503 (retry).
 */
const LIMIT_MS = 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const svc = useTestService({
  requestTimeoutMs: LIMIT_MS,
  // Test-only routes: a write whose work outlives the limit, a handler waiting on the signal,
  // and a statement the database cancels.
  extend: ({ intelligence }) => {
    intelligence.plain("POST", "/v1/test/slow-write", async (c) => {
      const id = c.req.query("id") ?? "";
      const ms = Number(c.req.query("ms") ?? "0");
      const outcome = await runIdempotent(c, svc.deps.db, async (tx) => {
        await tx.execute(sql`insert into time_limit_probe (id) values (${id})`);
        await sleep(ms);
        return { status: 201, body: { ok: true } };
      });
      return c.json(outcome.body, 201);
    });
    intelligence.plain("GET", "/v1/test/wait-for-abort", async (c) => {
      const signal = c.get("signal");
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      seenAbort = signal.reason;
      return c.json({ ok: true });
    });
    intelligence.plain("GET", "/v1/test/slow-statement", async (c) => {
      await shortTimeout.db.execute(sql`select pg_sleep(0.3)`);
      return c.json({ ok: true });
    });
  },
});
let key: string;
/** A second pool on the test database with a short statement timeout. */
let shortTimeout: DbHandle;
let seenAbort: unknown;

async function probeRows(id: string): Promise<number> {
  const rows = (await svc.db.handle.db.execute(
    sql`select count(*)::int as n from time_limit_probe where id = ${id}`,
  )) as unknown as { n: number }[];
  return rows[0]?.n ?? -1;
}

/** The test-only write: inserts `id`, then waits `ms` inside its transaction. */
function slowWrite(id: string, ms: number, idempotencyKey?: string) {
  const headers: Record<string, string> = idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {};
  return call<ErrorEnvelope>(svc.url, `/v1/test/slow-write?id=${id}&ms=${ms}`, {
    key,
    method: "POST",
    body: {},
    headers,
  });
}

beforeAll(async () => {
  await svc.db.handle.db.execute(sql`create table time_limit_probe (id text not null)`);
  shortTimeout = createDb({ databaseUrl: svc.db.url, maxConnections: 2, statementTimeoutMs: 100 });
  key = (await svc.seed.caller("enterprise")).key;
});
afterAll(async () => {
  await shortTimeout?.close();
});

describe("the request time limit", () => {
  it("aborts the request's signal with the 503 it answers", async () => {
    const res = await call<ErrorEnvelope>(svc.url, "/v1/test/wait-for-abort", { key });
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe("service_unavailable");
    expect(seenAbort).toBeInstanceOf(ApiError);
    expect((seenAbort as ApiError).code).toBe("service_unavailable");
  });

  it("rolls back a write that finishes after the 503", async () => {
    const res = await slowWrite("plain", 900);
    expect(res.status).toBe(503);
    await sleep(900); // the work has finished by now
    expect(await probeRows("plain")).toBe(0);
  });

  it("rolls back under an Idempotency-Key and frees the key for the retry", async () => {
    const idempotencyKey = "time-limit-1";
    expect((await slowWrite("keyed", 900, idempotencyKey)).status).toBe(503);
    await sleep(900);
    expect(await probeRows("keyed")).toBe(0);
    // Same key and body (the query string is not in the fingerprint): the retry runs and commits.
    expect((await slowWrite("keyed", 0, idempotencyKey)).status).toBe(201);
    expect(await probeRows("keyed")).toBe(1);
  });

  it("commits a write that finishes in time", async () => {
    expect((await slowWrite("quick", 0)).status).toBe(201);
    expect(await probeRows("quick")).toBe(1);
  });
});

describe("the statement timeout", () => {
  it("cancels a slow statement and rolls back its transaction", async () => {
    const slow = shortTimeout.db.transaction(async (tx) => {
      await tx.execute(sql`insert into time_limit_probe (id) values ('cancelled')`);
      await tx.execute(sql`select pg_sleep(1)`);
    });
    const error = await slow.then(
      () => undefined,
      (e: unknown) => e as { code?: string; cause?: { code?: string } },
    );
    expect(error?.code ?? error?.cause?.code).toBe("57014");
    expect(await probeRows("cancelled")).toBe(0);
  });

  it("answers a cancelled statement with 503 service_unavailable", async () => {
    const res = await call<ErrorEnvelope>(svc.url, "/v1/test/slow-statement", { key });
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe("service_unavailable");
  });

  it("is set on the runtime's connections a little under the request limit, not on migrations", async () => {
    expect(STATEMENT_TIMEOUT_MS).toBeLessThan(DEFAULT_REQUEST_TIMEOUT_MS);
    const env = parseEnv({
      DATABASE_URL: svc.db.url,
      REDIS_URL: requireEnv("TEST_REDIS_URL"),
      LOG_LEVEL: "silent",
      PORT: "0",
    });
    // createRuntime migrates first: that must pass with the timeout configured.
    const runtime = await createRuntime(env, "time-limit");
    try {
      const rows = (await runtime.deps.db.execute(sql`show statement_timeout`)) as unknown as {
        statement_timeout: string;
      }[];
      expect(rows[0]?.statement_timeout).toBe(`${STATEMENT_TIMEOUT_MS / 1000}s`);
    } finally {
      await runtime.close();
    }
  });
});
