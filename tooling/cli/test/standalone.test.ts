import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { z } from "@hono/zod-openapi";
import type { FlatErrorBody, HealthSchema } from "@svc/http";
import type { PingResponse } from "@svc/intelligence-api";
import { createInvite } from "@svc/records";
import { call, compiledEntry, createTestDatabase, requireEnv, Seeder, type TestDatabase } from "@svc/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Scale-out: with DATABASE_URL each app starts alone from its compiled bundle (what
 * `pnpm --filter <app> start` runs), says how long it took, serves, and drains on SIGTERM.
 */
const root = fileURLToPath(new URL("../../../", import.meta.url));

/** The body of /healthz and /readyz. */
type HealthBody = z.infer<typeof HealthSchema>;

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

function start(
  entry: string,
  overrides: Record<string, string> = {},
): { child: ChildProcess; port: Promise<number>; output: () => string } {
  const { command, args } = compiledEntry(root, entry);
  const child = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      REDIS_URL: requireEnv("TEST_REDIS_URL"),
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      ...overrides,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const port = new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of output.split("\n")) {
        const listening = /listening on https?:\/\/[^:]+:(\d+).*started in \d+ ms/.exec(line);
        if (listening) resolve(Number(listening[1]));
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${entry} exited with ${code}: ${output}`)));
    setTimeout(() => reject(new Error(`${entry} did not start: ${output}`)), 30_000).unref();
  });
  return { child, port, output: () => output };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

describe("each app starts alone with DATABASE_URL", () => {
  it("the Intelligence API serves ping and drains on SIGTERM", async () => {
    const caller = await new Seeder(db.handle).caller();
    const app = start("apps/intelligence-api/dist/main.js");
    const url = `http://127.0.0.1:${await app.port}`;
    expect((await call<HealthBody>(url, "/healthz")).status).toBe(200);
    const ping = await call<PingResponse>(url, "/v1/ping", { key: caller.key });
    expect(ping.status).toBe(200);
    expect(ping.json.data.accountId).toBe(caller.account.id);
    const done = exited(app.child);
    app.child.kill("SIGTERM");
    expect(await done).toBe(0);
  });

  it("the MSE Record API answers with its own envelope and drains on SIGTERM", async () => {
    const app = start("apps/mse-record-api/dist/main.js");
    const url = `http://127.0.0.1:${await app.port}`;
    const ready = await call<HealthBody>(url, "/readyz");
    expect(ready.status).toBe(200);
    const res = await call<FlatErrorBody>(url, "/v1/mse/domains");
    expect(res.status).toBe(401);
    expect(res.headers.get("x-mse-api-version")).toBe("1");
    expect(res.json.code).toBe("unauthorized");
    const done = exited(app.child);
    app.child.kill("SIGTERM");
    expect(await done).toBe(0);
  });

  it("the webhook worker answers its probes and drains on SIGTERM", async () => {
    const worker = start("apps/webhook-worker/dist/main.js");
    const url = `http://127.0.0.1:${await worker.port}`;
    expect((await call<HealthBody>(url, "/healthz")).json).toEqual({ ok: true, status: "alive" });
    const ready = await call<HealthBody>(url, "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.json).toMatchObject({ ok: true, database: "ready" });
    expect((await call(url, "/v1/ping")).status).toBe(404);
    const done = exited(worker.child);
    worker.child.kill("SIGTERM");
    expect(await done).toBe(0);
  });

  it("the dashboard serves its pages, and a revocation there reaches an API replica's key cache", async () => {
    const seed = new Seeder(db.handle);
    const caller = await seed.caller();
    const api = start("apps/intelligence-api/dist/main.js");
    const dashboard = start("apps/dashboard/dist/main.js");
    const apiUrl = `http://127.0.0.1:${await api.port}`;
    const dashboardUrl = `http://127.0.0.1:${await dashboard.port}`;
    expect((await call<HealthBody>(dashboardUrl, "/healthz")).status).toBe(200);
    expect((await call<HealthBody>(dashboardUrl, "/readyz")).json).toMatchObject({
      ok: true,
      database: "ready",
    });
    // The API replica caches the key lookup while it hears revocations.
    expect((await call(apiUrl, "/v1/ping", { key: caller.key })).status).toBe(200);

    const invite = await createInvite(
      db.handle.db,
      { workspace: { accountId: caller.account.id }, email: "ops@example.com", role: "owner" },
      dashboardUrl,
    );
    const form = (fields: Record<string, string>, cookie = "") => ({
      method: "POST",
      redirect: "manual" as const,
      headers: { origin: dashboardUrl, cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
    const accepted = await fetch(
      invite.url,
      form({ password: "a long enough password", confirm: "a long enough password" }),
    );
    expect(accepted.status).toBe(303);
    const cookie = accepted.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const keysPage = await (await fetch(`${dashboardUrl}/dashboard/keys`, { headers: { cookie } })).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(keysPage)?.[1] as string;
    const revoked = await fetch(
      `${dashboardUrl}/dashboard/keys/${caller.keyId}/revoke`,
      form({ _csrf: csrf }, cookie),
    );
    expect(revoked.status).toBe(303);
    await expect
      .poll(async () => (await call(apiUrl, "/v1/ping", { key: caller.key })).status, { timeout: 5_000 })
      .toBe(401);

    for (const app of [api, dashboard]) {
      const done = exited(app.child);
      app.child.kill("SIGTERM");
      expect(await done).toBe(0);
    }
  });

  it("an app whose DATABASE_URL is unreachable exits 1 with one clear line and no stack trace", async () => {
    for (const entry of ["apps/intelligence-api/dist/main.js", "apps/webhook-worker/dist/main.js"]) {
      const app = start(entry, { DATABASE_URL: "postgres://svc:secret@127.0.0.1:1/svc" });
      app.port.catch(() => {});
      expect(await exited(app.child)).toBe(1);
      const lines = app.output().trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain("127.0.0.1:1/svc is not reachable (connection refused)");
      expect(app.output()).not.toContain("secret");
    }
  });
});
