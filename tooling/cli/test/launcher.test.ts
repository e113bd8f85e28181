import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import http from "node:http";
import { type AddressInfo, createServer } from "node:net";
import path from "node:path";
import type { LabOrderResponse, PingResponse } from "@svc/intelligence-api";
import { call, freePort } from "@svc/testkit";
import { useCompiledLauncher } from "@svc/testkit/vitest";
import { verifySignature } from "@svc/webhooks";
import { describe, expect, it } from "vitest";

/**
 * `pnpm start` as a new user runs it: the compiled launcher, no DATABASE_URL (embedded PGlite),
 * no REDIS_URL, the compiled operator CLI beside it.
 */
const { root, launcher, cliEntry, dir, started } = useCompiledLauncher("svc-launcher-");

/** The environment of a fresh machine: no DATABASE_URL, no REDIS_URL. */
function cleanEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    LOG_LEVEL: "warn",
    SVC_DATA_DIR: dataDir,
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  return env;
}

async function launch(
  port: number,
  dataDir: string,
  how: { command: string; args: string[]; cwd: string; env?: NodeJS.ProcessEnv } = { ...launcher, cwd: dir },
): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(how.command, how.args, {
    cwd: how.cwd,
    env: { ...cleanEnv(port, dataDir), ...how.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = await started(child, /started in \d+ ms/, { timeoutMs: 150_000, label: "launcher " });
  return { child, output };
}

function svc(port: number, dataDir: string, ...args: string[]) {
  const result = spawnSync(cliEntry.command, [...cliEntry.args, ...args], {
    cwd: dir,
    env: cleanEnv(port, dataDir),
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

describe("pnpm start with no DATABASE_URL and no REDIS_URL (compiled, embedded PGlite)", () => {
  it("prints a sandbox key once and its start time, serves /v1/ping, refuses a second server, and drains on SIGTERM", async () => {
    const port = await freePort();
    const dataDir = path.join(dir, "first");
    const first = await launch(port, dataDir);
    const lines = first.output().split("\n");
    const secret = lines.find((l) => /^svc_sk_test_[0-9A-Za-z]{38}$/.test(l));
    const publishable = lines.find((l) => /^svc_pk_[0-9A-Za-z]{38}$/.test(l));
    expect(secret).toBeDefined();
    expect(publishable).toBeDefined();
    // The owner's one-time dashboard link, next to the keys, opens the set-password form.
    const ownerLink = lines.find((l) => /\/dashboard\/invite\/[A-Za-z0-9_-]{43}$/.test(l));
    expect(ownerLink).toBeDefined();
    const linkPage = await fetch(`http://127.0.0.1:${port}${new URL(ownerLink as string).pathname}`);
    expect(linkPage.status).toBe(200);
    expect(await linkPage.text()).toContain("Set your password");
    expect(first.output()).toMatch(/webhooks delivered in-process from the outbox/);
    expect(first.output()).toMatch(/rate limits in this process/);

    const ping = await call<PingResponse>(`http://127.0.0.1:${port}`, "/v1/ping", { key: secret as string });
    expect(ping.status).toBe(200);
    expect(ping.json.data).toMatchObject({ object: "ping", mode: "test", plan: "sandbox" });

    // A second server on the same data dir is refused, naming the first one's pid.
    const second = spawnSync(launcher.command, launcher.args, {
      cwd: dir,
      env: cleanEnv(await freePort(), dataDir),
      encoding: "utf8",
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`in use by svc server \\(pid ${first.child.pid}\\)`));
    expect(second.stderr).not.toMatch(/at .*\.js:\d+/);

    // The operator endpoint's credential is readable by its owner only.
    expect(statSync(path.join(dataDir, "operator.json")).mode & 0o077).toBe(0);
    // Its own credential: a wrong token is refused, and so is an oversized command.
    const operator = JSON.parse(readFileSync(path.join(dataDir, "operator.json"), "utf8")) as {
      url: string;
      token: string;
    };
    const argv = { argv: ["orgs", "create", "--name", "Intruder"] };
    const wrong = await fetch(`${operator.url}/command`, {
      method: "POST",
      headers: { authorization: "Bearer not-the-token" },
      body: JSON.stringify(argv),
    });
    expect(wrong.status).toBe(401);
    const oversized = await fetch(`${operator.url}/command`, {
      method: "POST",
      headers: { authorization: `Bearer ${operator.token}` },
      body: JSON.stringify({ argv: ["orgs", "create", "--name", "x".repeat(70_000)] }),
    }).catch(() => null);
    expect(oversized === null || oversized.status === 400).toBe(true);
    for (const body of ["not json", JSON.stringify({ argv: "orgs create" }), JSON.stringify({ argv: [1] })]) {
      const malformed = await fetch(`${operator.url}/command`, {
        method: "POST",
        headers: { authorization: `Bearer ${operator.token}` },
        body,
      });
      expect(malformed.status).toBe(400);
    }

    const exited = exitOf(first.child);
    first.child.kill("SIGTERM");
    expect(await exited).toBe(0);

    // Next start: same database, no new keys printed, the old key still works.
    const again = await launch(port, dataDir);
    expect(again.output()).not.toMatch(/^svc_sk_test_/m);
    expect(
      (await call<PingResponse>(`http://127.0.0.1:${port}`, "/v1/ping", { key: secret as string })).status,
    ).toBe(200);
    const exited2 = exitOf(again.child);
    again.child.kill("SIGTERM");
    expect(await exited2).toBe(0);
  }, 120_000);

  it("with the port taken, the first start creates nothing and fails; the next start prints the keys; later starts say how to get a key (decision 162)", async () => {
    const holder = createServer();
    const port = await new Promise<number>((resolve) =>
      holder.listen(0, "0.0.0.0", () => resolve((holder.address() as AddressInfo).port)),
    );
    const dataDir = path.join(dir, "port-taken");
    const refused = spawnSync(launcher.command, launcher.args, {
      cwd: dir,
      env: cleanEnv(port, dataDir),
      encoding: "utf8",
      timeout: 240_000,
      killSignal: "SIGKILL",
    });
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    expect(refused.status).toBe(1);
    expect(`${refused.stdout}${refused.stderr}`).not.toMatch(/svc_sk_test_|svc_pk_|Sandbox account/);

    const first = await launch(port, dataDir);
    expect(first.output()).toMatch(/^svc_sk_test_[0-9A-Za-z]{38}$/m);
    const account = /Sandbox account (\S+) created/.exec(first.output())?.[1];
    expect(account).toBeDefined();
    const stopped = exitOf(first.child);
    first.child.kill("SIGTERM");
    expect(await stopped).toBe(0);

    const later = await launch(port, dataDir);
    expect(later.output()).not.toMatch(/^svc_sk_test_/m);
    expect(later.output()).toContain(`pnpm svc keys create --account ${account} --kind secret_test`);
    const stoppedLater = new Promise<string>((resolve) =>
      later.child.once("exit", (code, signal) => resolve(`${code} ${signal}`)),
    );
    later.child.kill("SIGTERM");
    expect(await stoppedLater, later.output()).toBe("0 null");
  }, 600_000);

  it("as a new user runs it (pnpm start, links on 127.0.0.1): the banner says where the socket listens, the printed key works from the printed links' origin, and SIGTERM ends it cleanly", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = await launch(port, path.join(dir, "newuser"), {
      command: "pnpm",
      args: ["start"],
      cwd: root,
      env: { PUBLIC_BASE_URL: base },
    });
    const out = server.output();
    // Bound on every interface (HOST's default), and says so; the URL to open is separate.
    expect(out).toContain(
      `Listening on 0.0.0.0:${port}: every IPv4 interface, reachable from other machines too (HOST=127.0.0.1`,
    );
    expect(out).toContain(`  open ${base} (reference ${base}/docs, capture demo ${base}/capture-demo`);
    expect(out).not.toMatch(/Listening on http:\/\/127\.0\.0\.1/);
    const publishable = out.split("\n").find((l) => /^svc_pk_[0-9A-Za-z]{38}$/.test(l)) as string;
    expect(publishable).toBeDefined();
    // The key allows the printed links' origin (the demo page's origin) and localhost.
    for (const origin of [base, `http://localhost:${port}`]) {
      const check = await fetch(`${base}/capture-demo/check`, {
        method: "POST",
        headers: { authorization: `Bearer ${publishable}`, origin },
      });
      expect(check.status, origin).toBe(200);
      const analysis = await fetch(`${base}/v1/dmse/analyze`, {
        method: "POST",
        headers: { authorization: `Bearer ${publishable}`, origin, "content-type": "application/json" },
        body: JSON.stringify({
          responseLatencySeconds: 1.2,
          speechRateWpm: 130,
          sessionDurationSeconds: 300,
        }),
      });
      expect(analysis.status, origin).toBe(200);
      expect(analysis.headers.get("access-control-allow-origin")).toBe(origin);
    }
    // The banner's first link: a page for a browser leading to the reference, the dashboard and
    // the capture demo, each of which answers; the same links as JSON for any other client.
    const home = await fetch(`${base}/`, {
      headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" },
    });
    expect(home.status).toBe(200);
    expect(home.headers.get("content-type")).toMatch(/^text\/html/);
    const page = await home.text();
    for (const link of ["/docs", "/dashboard", "/capture-demo"]) {
      expect(page).toContain(`href="${link}"`);
      expect((await fetch(`${base}${link}`, { headers: { accept: "text/html" } })).status, link).toBe(200);
    }
    const homeJson = await fetch(`${base}/`);
    expect(homeJson.status).toBe(200);
    expect(((await homeJson.json()) as { data: { links: Record<string, string> } }).data.links).toMatchObject(
      {
        docs: "/docs",
        dashboard: "/dashboard",
        captureDemo: "/capture-demo",
      },
    );
    // SIGTERM to pnpm reaches the service, which drains and exits 0: pnpm reports no failure.
    const exited = exitOf(server.child);
    server.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(server.output()).not.toContain("ELIFECYCLE");
  }, 240_000);

  it("a webhook added with the CLI while the server runs receives signed deliveries for a lab order walked through its states", async () => {
    const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += String(c);
      });
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const port = await freePort();
    const dataDir = path.join(dir, "walk");
    const server = await launch(port, dataDir);
    try {
      const secret = server
        .output()
        .split("\n")
        .find((l) => /^svc_sk_test_/.test(l)) as string;
      const base = `http://127.0.0.1:${port}`;
      const accountId = (await call<PingResponse>(base, "/v1/ping", { key: secret })).json.data
        .accountId as string;

      // The CLI goes through the running server; a bad command is refused the same way as locally.
      const added = svc(
        port,
        dataDir,
        "webhooks",
        "add",
        "--account",
        accountId,
        "--url",
        receiverUrl,
        "--allow-private",
        "--json",
      );
      expect(added.stderr).toBe("");
      expect(added.status).toBe(0);
      const endpoint = JSON.parse(added.stdout) as { id: string; secret: string };
      expect(endpoint.secret).toMatch(/^whsec_/);
      const refused = svc(port, dataDir, "accounts", "create", "--name", "X", "--plan", "gold", "--json");
      expect(refused.status).toBe(1);
      expect(JSON.parse(refused.stderr.trim()).error).toMatch(/Unknown plan "gold"/);

      const order = await call<LabOrderResponse>(base, "/v1/labs/orders", {
        key: secret,
        body: { patientRef: "pt_walk_1", panelId: "prolactin" },
      });
      expect(order.status).toBe(201);
      const orderId = order.json.data.id as string;
      const authorized = svc(port, dataDir, "labs", "authorize", "--id", orderId, "--json");
      expect(authorized.status).toBe(0);
      for (let i = 0; i < 6; i++) {
        const step = await call<LabOrderResponse>(base, `/v1/test_helpers/labs/orders/${orderId}/advance`, {
          method: "POST",
          key: secret,
        });
        expect(step.status).toBe(200);
      }
      const final = await call<LabOrderResponse>(base, `/v1/labs/orders/${orderId}`, { key: secret });
      expect(final.json.data.status).toBe("completed");

      // requested->authorized->scheduled->collected->in_transit->processing->resulted->completed:
      // 7 status changes and one results_ready, each signed with the endpoint's secret.
      const deadline = Date.now() + 20_000;
      while (received.length < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const events = received.map(
        (r) => JSON.parse(r.body) as { id: string; type: string; data: { status: string } },
      );
      expect(
        events
          .filter((e) => e.type === "lab_order.status_changed")
          .map((e) => e.data.status)
          .sort(),
      ).toEqual(
        ["authorized", "collected", "completed", "in_transit", "processing", "resulted", "scheduled"].sort(),
      );
      expect(events.filter((e) => e.type === "lab_order.results_ready")).toHaveLength(1);
      for (const request of received) {
        const verdict = verifySignature({
          secret: endpoint.secret,
          payload: request.body,
          header: String(request.headers["service-signature"]),
        });
        expect(verdict.ok).toBe(true);
      }
      // The CLI reads the attempt records through the server as well.
      const deliveries = svc(port, dataDir, "webhooks", "deliveries", "--endpoint", endpoint.id, "--json");
      expect(deliveries.status).toBe(0);
      expect(deliveries.stdout).toContain("delivered");
    } finally {
      const exited = exitOf(server.child);
      server.child.kill("SIGTERM");
      expect(await exited).toBe(0);
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  }, 120_000);

  it("refuses a bad configuration listing every problem", () => {
    const result = spawnSync(launcher.command, launcher.args, {
      cwd: dir,
      env: {
        ...cleanEnv(1, dir),
        PORT: "notaport",
        DATABASE_URL: "mysql://x",
        TLS_CERT_FILE: "/tmp/cert.pem",
      },
      encoding: "utf8",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("PORT");
    expect(result.stderr).toContain("DATABASE_URL");
    expect(result.stderr).toContain("TLS_CERT_FILE");
  });

  it("an unreachable DATABASE_URL exits 1 with one clear line, no stack trace and no password", async () => {
    const closedPort = await freePort();
    const result = spawnSync(launcher.command, launcher.args, {
      cwd: dir,
      env: {
        ...cleanEnv(await freePort(), dir),
        DATABASE_URL: `postgres://svc:hunter2@127.0.0.1:${closedPort}/svc`,
      },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(`127.0.0.1:${closedPort}/svc is not reachable (connection refused)`);
    expect(result.stderr).not.toContain("hunter2");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
