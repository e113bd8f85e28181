import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { call } from "@svc/testkit";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const tsx = `${root}node_modules/.bin/tsx`;
const dir = mkdtempSync(path.join(tmpdir(), "svc-launcher-"));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The environment of a fresh machine: no DATABASE_URL, no REDIS_URL of ours. */
function cleanEnv(port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), LOG_LEVEL: "warn" };
  delete env.DATABASE_URL;
  delete env.SVC_DATA_DIR;
  env.REDIS_URL = process.env.TEST_REDIS_URL;
  return env;
}

function launch(port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(tsx, [`${root}tooling/cli/src/start.ts`], {
    cwd: dir,
    env: cleanEnv(port),
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  child.stdout?.on("data", (d) => {
    out += String(d);
  });
  child.stderr?.on("data", (d) => {
    out += String(d);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`launcher did not start:\n${out}`)), 60_000);
    const check = () => {
      if (out.includes("Listening on")) {
        clearTimeout(timer);
        resolve({ child, output: () => out });
      } else setTimeout(check, 100);
    };
    child.once("exit", (code) => reject(new Error(`launcher exited ${code}:\n${out}`)));
    check();
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

describe("pnpm start with no DATABASE_URL (embedded PGlite)", () => {
  it("prints a sandbox key once, serves /v1/ping with it, refuses a second opener, and drains on SIGTERM", async () => {
    const port = await freePort();
    const first = await launch(port);
    const lines = first.output().split("\n");
    const secret = lines.find((l) => /^svc_sk_test_[0-9A-Za-z]{38}$/.test(l));
    const publishable = lines.find((l) => /^svc_pk_[0-9A-Za-z]{38}$/.test(l));
    expect(secret).toBeDefined();
    expect(publishable).toBeDefined();

    const ping = await call(`http://127.0.0.1:${port}`, "/v1/ping", { key: secret as string });
    expect(ping.status).toBe(200);
    expect(ping.json.data).toMatchObject({ object: "ping", mode: "test", plan: "sandbox" });

    // The operator CLI must not open the embedded database the server holds.
    const cli = spawnSync(
      tsx,
      [`${root}tooling/cli/src/main.ts`, "orgs", "create", "--name", "X", "--json"],
      {
        cwd: dir,
        env: cleanEnv(port),
        encoding: "utf8",
      },
    );
    expect(cli.status).toBe(1);
    expect(JSON.parse(cli.stderr.trim()).error).toMatch(/in use by svc server \(pid \d+\)/);

    const exited = exitOf(first.child);
    first.child.kill("SIGTERM");
    expect(await exited).toBe(0);

    // Second start: same database, no new keys printed, the old key still works.
    const second = await launch(port);
    expect(second.output()).not.toMatch(/^svc_sk_test_/m);
    expect((await call(`http://127.0.0.1:${port}`, "/v1/ping", { key: secret as string })).status).toBe(200);
    const exited2 = exitOf(second.child);
    second.child.kill("SIGTERM");
    expect(await exited2).toBe(0);
  }, 120_000);

  it("refuses a bad configuration listing every problem", () => {
    const result = spawnSync(tsx, [`${root}tooling/cli/src/start.ts`], {
      cwd: dir,
      env: { ...cleanEnv(1), PORT: "notaport", DATABASE_URL: "mysql://x", TLS_CERT_FILE: "/tmp/cert.pem" },
      encoding: "utf8",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("PORT");
    expect(result.stderr).toContain("DATABASE_URL");
    expect(result.stderr).toContain("TLS_CERT_FILE");
  });
});
