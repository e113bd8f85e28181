import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { call, createTestDatabase, requireEnv, Seeder, type TestDatabase } from "@svc/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Scale-out: with DATABASE_URL each app starts alone (`pnpm --filter <app> start` runs these
 * entry points), serves, and drains on SIGTERM with exit code 0.
 */
const root = fileURLToPath(new URL("../../../", import.meta.url));
const tsx = `${root}node_modules/.bin/tsx`;

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

function start(entry: string): { child: ChildProcess; port: Promise<number>; output: () => string } {
  const child = spawn(tsx, [`${root}${entry}`], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      REDIS_URL: requireEnv("TEST_REDIS_URL"),
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const port = new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of output.split("\n")) {
        if (!line.includes("listening")) continue;
        try {
          resolve(JSON.parse(line).port as number);
        } catch {
          // not a whole JSON line yet
        }
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
    const app = start("apps/intelligence-api/src/main.ts");
    const url = `http://127.0.0.1:${await app.port}`;
    expect((await call(url, "/healthz")).status).toBe(200);
    const ping = await call(url, "/v1/ping", { key: caller.key });
    expect(ping.status).toBe(200);
    expect(ping.json.data.accountId).toBe(caller.account.id);
    const done = exited(app.child);
    app.child.kill("SIGTERM");
    expect(await done).toBe(0);
  });

  it("the MSE Record API answers with its own envelope and drains on SIGTERM", async () => {
    const app = start("apps/mse-record-api/src/main.ts");
    const url = `http://127.0.0.1:${await app.port}`;
    const ready = await call(url, "/readyz");
    expect(ready.status).toBe(200);
    const res = await call(url, "/v1/mse/domains");
    expect(res.status).toBe(401);
    expect(res.headers.get("x-mse-api-version")).toBe("1");
    expect(res.json.code).toBe("unauthorized");
    const done = exited(app.child);
    app.child.kill("SIGTERM");
    expect(await done).toBe(0);
  });
});
