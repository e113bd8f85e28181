import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redis } from "ioredis";

/**
 * A scale-out topology on one machine, as in deploy/compose.yaml: compiled app processes (each
 * started the way production starts it, `node --enable-source-maps <dist>.js`, never through
 * pnpm, so a signal reaches the node process itself) and Debian's nginx in front. Used by
 * deploy/test/replicas.test.ts and `pnpm bench:scale`, so both measure the same thing.
 */

export const APP_ENTRIES = {
  intelligence: "apps/intelligence-api/dist/main.js",
  mse: "apps/mse-record-api/dist/main.js",
  worker: "apps/webhook-worker/dist/main.js",
} as const;
export type AppKind = keyof typeof APP_ENTRIES;

/** Every child still running, so an exiting test process never leaves one behind. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function track(child: ChildProcess, signalOnExit: NodeJS.Signals): void {
  live.add(child);
  child.once("exit", () => live.delete(child));
  (child as ChildProcess & { svcExitSignal?: NodeJS.Signals }).svcExitSignal = signalOnExit;
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const c of live) {
      c.kill((c as ChildProcess & { svcExitSignal?: NodeJS.Signals }).svcExitSignal ?? "SIGKILL");
    }
  });
}

/** A port the OS says is free now (someone could take it before we bind; tests accept that). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The same Redis server with another logical database: BullMQ queues and counters stay apart. */
export function redisDatabaseUrl(base: string, database: number): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function flushRedisDatabase(url: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

export interface AppProcess {
  kind: AppKind;
  name: string;
  child: ChildProcess;
  port: number;
  url: string;
  /** Resolves once the process has exited (code, or the signal that ended it). */
  exited: Promise<number | NodeJS.Signals | null>;
  /** What it printed (the last 64 KiB). */
  output(): string;
  /** Send a signal and wait for the exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** SIGTERM (drain), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const LISTENING = /listening on https?:\/\/[^:\s]+:(\d+).*started in \d+ ms/;
const OUTPUT_LIMIT = 64 * 1024;

/** Start one compiled app and resolve when it prints its `listening on ... started in N ms` line. */
export async function startApp(
  root: string,
  kind: AppKind,
  options: { name?: string; env: Record<string, string>; port?: number; startTimeoutMs?: number },
): Promise<AppProcess> {
  const file = path.join(root, APP_ENTRIES[kind]);
  if (!existsSync(file)) throw new Error(`${APP_ENTRIES[kind]} is missing: run \`pnpm build\` first.`);
  const child = spawn(process.execPath, ["--enable-source-maps", file], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(options.port ?? 0),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  track(child, "SIGKILL");
  const name = options.name ?? kind;
  let output = "";
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => {
    child.once("exit", (code, signal) => resolve(code ?? signal));
  });
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  const port = await new Promise<number>((resolve, reject) => {
    let pending = "";
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output = (output + text).slice(-OUTPUT_LIMIT);
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const match = LISTENING.exec(line);
        if (match) resolve(Number(match[1]));
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    void exited.then((how) => reject(new Error(`${name} exited (${how}) before listening:\n${output}`)));
    timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${name} did not start within ${startTimeoutMs} ms:\n${output}`));
    }, startTimeoutMs);
  }).finally(() => clearTimeout(timer));
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    kind,
    name,
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    exited,
    output: () => output,
    kill,
    async stop(graceMs = 3_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

export const NGINX_BIN_CANDIDATES = ["/usr/sbin/nginx", "/usr/bin/nginx"];

/** Debian's nginx binary, or a clear failure (test-services.sh installs it when we are root). */
export function nginxBinary(): string {
  const found = NGINX_BIN_CANDIDATES.find((p) => existsSync(p));
  if (!found)
    throw new Error(
      "nginx is not installed (looked for /usr/sbin/nginx): run through tooling/scripts/test-services.sh " +
        "as root, which installs Debian's nginx, or `apt-get install nginx`.",
    );
  return found;
}

export interface NginxOptions {
  /** Ports of the intelligence-api replicas (everything but /v1/mse). */
  intelligence: number[];
  /** Ports of the mse-record-api replicas (/v1/mse and below); none = those paths get 502. */
  mse?: number[];
  /** Worker processes (default 1: enough for tests; the bench asks for "auto"). */
  workerProcesses?: number | "auto";
  /** Write an access log naming the upstream of every request (default true). */
  accessLog?: boolean;
  /** Idle upstream connections each nginx worker keeps (default 16). */
  keepalive?: number;
}

/** The nginx.conf for a topology; every path it writes to is inside `dir`. */
export function nginxConfig(dir: string, port: number, options: NginxOptions): string {
  const servers = (ports: number[]) =>
    ports.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join("\n");
  const mse = options.mse ?? [];
  // Running as root, nginx would switch its workers to the unprivileged default user, which
  // cannot enter our 0700 temp dir; the test's throwaway nginx keeps root instead.
  const user = process.getuid?.() === 0 ? "user root;\n" : "";
  const accessLog = options.accessLog ?? true;
  const keepalive = options.keepalive ?? 16;
  return `${user}worker_processes ${options.workerProcesses ?? 1};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;

events {
  worker_connections 4096;
}

http {
  client_body_temp_path ${dir}/tmp/client_body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;

  log_format upstreamlog '$msec $request_method $uri $status upstream=$upstream_addr '
                         'upstream_status=$upstream_status rt=$request_time';
  access_log ${accessLog ? `${dir}/access.log upstreamlog` : "off"};
  client_max_body_size 2m;
  server_tokens off;

  upstream intelligence {
${servers(options.intelligence)}
    keepalive ${keepalive};
  }
${
  mse.length > 0
    ? `
  upstream mse {
${servers(mse)}
    keepalive ${keepalive};
  }
`
    : ""
}
  server {
    listen 127.0.0.1:${port};

    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;

    # A dead replica (refused or reset connection, timeout, 502/503) is routed around. We leave out
    # non_idempotent: a POST whose bytes already reached a replica that then died may have been
    # committed there (a lab order moved, an event recorded), and replaying it on the other replica
    # would double the write. nginx still retries a POST whose connection was refused (nothing was
    # sent), which is the common case of a dead replica.
    proxy_next_upstream error timeout http_502 http_503;
    proxy_connect_timeout 1s;
    proxy_read_timeout 60s;

    # Which replica answered (several, comma-separated, when nginx retried): lets tests see both.
    add_header X-Upstream $upstream_addr always;

    location = /v1/mse {
      ${mse.length > 0 ? "proxy_pass http://mse;" : "return 502;"}
    }

    location /v1/mse/ {
      ${mse.length > 0 ? "proxy_pass http://mse;" : "return 502;"}
    }

    location / {
      proxy_pass http://intelligence;
    }
  }
}
`;
}

export interface NginxProcess {
  child: ChildProcess;
  port: number;
  url: string;
  dir: string;
  /** Access-log lines written so far (empty when the log is off). */
  accessLog(): string[];
  output(): string;
  stop(): Promise<void>;
}

/**
 * Debian's nginx as a non-daemon child: master and workers end with it (SIGTERM = fast shutdown;
 * never SIGKILL the master first, its workers would outlive it). Ready once /healthz answers
 * through it.
 */
export async function startNginx(options: NginxOptions): Promise<NginxProcess> {
  const bin = nginxBinary();
  const dir = mkdtempSync(path.join(tmpdir(), "svc-nginx-"));
  mkdirSync(path.join(dir, "tmp"));
  const port = await freePort();
  const conf = path.join(dir, "nginx.conf");
  writeFileSync(conf, nginxConfig(dir, port, options));
  // -e: nginx opens its error log before it reads the config; keep even that one in `dir`.
  const child = spawn(bin, ["-e", path.join(dir, "error.log"), "-c", conf, "-p", dir, "-g", "daemon off;"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  track(child, "SIGTERM");
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_LIMIT);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const errorLog = () => {
    try {
      return readFileSync(path.join(dir, "error.log"), "utf8");
    } catch {
      return "";
    }
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`nginx exited at start:\n${output}\n${errorLog()}`);
    const ok = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) })
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error(`nginx did not answer /healthz within 10 s:\n${output}\n${errorLog()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    port,
    url,
    dir,
    accessLog() {
      try {
        return readFileSync(path.join(dir, "access.log"), "utf8").split("\n").filter(Boolean);
      } catch {
        return [];
      }
    },
    output: () => `${output}${errorLog()}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TopologyOptions {
  /** Repository root (where apps/*\/dist live). */
  root: string;
  databaseUrl: string;
  /** Give the topology a logical database of its own (see redisDatabaseUrl). */
  redisUrl: string;
  intelligence: number;
  mse?: number;
  workers?: number;
  /** Put nginx in front (default true). */
  nginx?: boolean | Omit<NginxOptions, "intelligence" | "mse">;
  /** Extra environment for every app. */
  env?: Record<string, string>;
}

export interface Topology {
  intelligence: AppProcess[];
  mse: AppProcess[];
  workers: AppProcess[];
  nginx: NginxProcess | null;
  /** The environment every app got (for the operator CLI against the same topology). */
  env: Record<string, string>;
  /** Start a replacement for a process that died, on the same port (nginx's config stays valid). */
  replace(process: AppProcess): Promise<AppProcess>;
  /** Stop everything (nginx first, then the apps), even after a failed start. */
  stop(): Promise<void>;
}

export async function startTopology(options: TopologyOptions): Promise<Topology> {
  const env = { DATABASE_URL: options.databaseUrl, REDIS_URL: options.redisUrl, ...(options.env ?? {}) };
  const topology: Topology = {
    intelligence: [],
    mse: [],
    workers: [],
    nginx: null,
    env,
    async replace(old) {
      await old.kill("SIGKILL");
      const next = await startApp(options.root, old.kind, { name: old.name, env, port: old.port });
      for (const list of [topology.intelligence, topology.mse, topology.workers]) {
        const i = list.indexOf(old);
        if (i >= 0) list[i] = next;
      }
      return next;
    },
    async stop() {
      await topology.nginx?.stop();
      await Promise.all(
        [...topology.intelligence, ...topology.mse, ...topology.workers].map((p) => p.stop()),
      );
    },
  };
  const start = (kind: AppKind, count: number, into: AppProcess[], label: string) =>
    Array.from({ length: count }, (_, i) =>
      startApp(options.root, kind, { name: `${label}-${i + 1}`, env }).then((p) => {
        into.push(p);
      }),
    );
  try {
    // The migration runs once in the caller (createTestDatabase); the apps start side by side.
    const started = await Promise.allSettled([
      ...start("intelligence", options.intelligence, topology.intelligence, "intelligence-api"),
      ...start("mse", options.mse ?? 0, topology.mse, "mse-record-api"),
      ...start("worker", options.workers ?? 0, topology.workers, "webhook-worker"),
    ]);
    const failed = started.find((s) => s.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    // Stable order (replica 1, 2, ...) whatever order they came up in.
    for (const list of [topology.intelligence, topology.mse, topology.workers])
      list.sort((a, b) => a.name.localeCompare(b.name));
    if (options.nginx !== false) {
      topology.nginx = await startNginx({
        ...(typeof options.nginx === "object" ? options.nginx : {}),
        intelligence: topology.intelligence.map((p) => p.port),
        mse: topology.mse.map((p) => p.port),
      });
    }
    return topology;
  } catch (error) {
    await topology.stop();
    throw error;
  }
}
