import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { buildCombinedApp, type IntelligenceOptions } from "@svc/cli/combined";
import {
  createAccount,
  createApiKey,
  createDb,
  createOrganization,
  type DbHandle,
  type PlanId,
} from "@svc/db";
import {
  type AppDeps,
  createLogger,
  FallbackRateLimiter,
  type Logger,
  MemoryRateLimiter,
  type RateLimiter,
  RedisRateLimiter,
  UsageMeter,
} from "@svc/http";
import { type RunningServer, startServer } from "@svc/http/runtime";
import { Redis } from "ioredis";
import postgres from "postgres";

/**
 * Test harness: a fresh PostgreSQL database per test file (created from TEST_DATABASE_URL, which
 * tooling/scripts/test-services.sh provides), a Redis key prefix of its own, and the real service
 * on a loopback port.
 */
export function requireEnv(name: "TEST_DATABASE_URL" | "TEST_REDIS_URL"): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`${name} is not set: run tests through tooling/scripts/test-services.sh (pnpm test).`);
  return value;
}

export interface TestDatabase {
  url: string;
  name: string;
  handle: DbHandle;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = requireEnv("TEST_DATABASE_URL");
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = createDb({ databaseUrl: url.toString(), maxConnections: 10 });
  await handle.migrate();
  return {
    url: url.toString(),
    name,
    handle,
    async drop() {
      await handle.close();
      const again = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await again.unsafe(`drop database if exists "${name}" with (force)`);
      await again.end();
    },
  };
}

/** Log lines captured in memory, so tests can check what a request logged (and what it did not). */
/**
 * The key with its last character changed: a mistyped key the checksum refuses. Always a change
 * (a fixed replacement letter would leave a key that already ends in it untouched, 1 in 62).
 */
export function mistypedKey(key: string): string {
  return `${key.slice(0, -1)}${key.endsWith("x") ? "y" : "x"}`;
}

export function captureLogger(level = "info"): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { logger: createLogger({ level, destination }), lines };
}

export interface TestService {
  url: string;
  db: TestDatabase;
  redis: Redis;
  redisPrefix: string;
  deps: AppDeps;
  logs: string[];
  server: RunningServer;
  combined: ReturnType<typeof buildCombinedApp>;
  seed: Seeder;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Share a database with another service (replicas). */
  db?: TestDatabase;
  /** Share the Redis key prefix with another service (replicas share counters). */
  redisPrefix?: string;
  limiter?: "redis" | "memory";
  requestTimeoutMs?: number;
  /** Narrator for `explain: true` (the template narrator when absent) and its time limit. */
  narrator?: IntelligenceOptions["narrator"];
  reasoningTimeoutMs?: IntelligenceOptions["reasoningTimeoutMs"];
  /** The agents' chat model (the deterministic tool plan when absent) and its loop limits. */
  chatModel?: IntelligenceOptions["chatModel"];
  agentLimits?: IntelligenceOptions["agentLimits"];
  /** The operator's loopback setting for tenants' test-mode webhook endpoints (unset: not allowed). */
  allowLoopbackWebhooks?: boolean;
  /** Extra routes before the server starts (e.g. a deliberately slow one). */
  extend?: (combined: ReturnType<typeof buildCombinedApp>) => void;
}

export async function startTestService(options: StartOptions = {}): Promise<TestService> {
  const db = options.db ?? (await createTestDatabase());
  const redis = new Redis(requireEnv("TEST_REDIS_URL"), {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
  });
  const redisPrefix = options.redisPrefix ?? `test:${randomBytes(6).toString("hex")}`;
  const { logger, lines } = captureLogger();
  const limiter: RateLimiter =
    options.limiter === "memory"
      ? new MemoryRateLimiter()
      : new FallbackRateLimiter(new RedisRateLimiter(redis, redisPrefix), (m) => logger.warn(m));
  const usage = new UsageMeter(db.handle.db, logger);
  const deps: AppDeps = {
    db: db.handle.db,
    limiter,
    logger,
    usage,
    publicBaseUrl: "http://localhost:3000",
    requestTimeoutMs: options.requestTimeoutMs,
    allowLoopbackWebhooks: options.allowLoopbackWebhooks,
    redisState: () => (redis.status === "ready" ? "ready" : "down"),
  };
  const combined = buildCombinedApp(deps, {
    narrator: options.narrator,
    reasoningTimeoutMs: options.reasoningTimeoutMs,
    chatModel: options.chatModel,
    agentLimits: options.agentLimits,
  });
  options.extend?.(combined);
  const server = await startServer({ fetch: combined.fetch, port: 0, hostname: "127.0.0.1" });
  const ownsDb = !options.db;
  return {
    url: server.url,
    db,
    redis,
    redisPrefix,
    deps,
    logs: lines,
    server,
    combined,
    seed: new Seeder(db.handle),
    async close() {
      await server.close(1_000);
      await usage.stop();
      await limiter.close?.();
      redis.disconnect();
      if (ownsDb) await db.drop();
    },
  };
}

export class Seeder {
  constructor(private readonly handle: DbHandle) {}

  account(
    input: {
      plan?: PlanId;
      production?: boolean;
      ratePerSecond?: number;
      burst?: number;
      name?: string;
    } = {},
  ) {
    return createAccount(this.handle.db, { name: input.name ?? "Test account", ...input });
  }

  async key(kind: "secret_test" | "secret_live" | "publishable", accountId: string, origins?: string[]) {
    return createApiKey(this.handle.db, {
      kind,
      accountId,
      origins: kind === "publishable" ? (origins ?? ["http://localhost:*"]) : undefined,
    });
  }

  /** A sandbox account with one secret test key: the usual caller. */
  async caller(
    plan: PlanId = "sandbox",
    extra: { production?: boolean; ratePerSecond?: number; burst?: number } = {},
  ) {
    const account = await this.account({ plan, ...extra });
    const key = await this.key("secret_test", account.id);
    return { account, key: key.key, keyId: key.id };
  }

  async org(scopes: string[] = ["mse:read", "mse:write", "mse:sign"]) {
    const org = await createOrganization(this.handle.db, { name: "Test clinic" });
    const key = await createApiKey(this.handle.db, { kind: "organization", orgId: org.id, scopes });
    return { org, key: key.key, keyId: key.id };
  }
}

/** What `call` answers: the status, headers, raw text and the body parsed as the caller expects. */
export interface CallResult<Res> {
  status: number;
  headers: Headers;
  /** The parsed body, typed as the test expects it (undefined when the body is not JSON). */
  json: Res;
  text: string;
}

/** What `call` sends: the method, the key, and a JSON body (`body`) or raw text (`rawBody`). */
export interface CallInit<Req> {
  method?: string;
  key?: string;
  body?: Req;
  rawBody?: string;
  headers?: Record<string, string>;
}

/**
 * fetch with a key and JSON helpers. `Res` is the body the test expects (a route's response type,
 * `ErrorEnvelope` / `FlatErrorBody`, or a local shape); `Req` types `body` when the test sends a
 * valid request, and stays `unknown` for deliberately malformed ones.
 */
export async function call<Res = unknown, Req = unknown>(
  base: string,
  path: string,
  init: CallInit<Req> = {},
): Promise<CallResult<Res>> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  let body: string | undefined;
  if (init.rawBody !== undefined) body = init.rawBody;
  else if (init.body !== undefined) body = JSON.stringify(init.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) {
    headers["content-type"] = "application/json";
  }
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: parseBody<Res>(text), text };
}

/**
 * The response text as JSON, or undefined when it is not JSON. The parse result is unknown; the
 * test states what it expects (`Res`) and its assertions check it, as every typed client trusts
 * the server it calls.
 */
function parseBody<Res>(text: string): Res {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return parsed as Res;
}

export * from "./bounds.js";
export * from "./browser.js";
export * from "./cli.js";
export * from "./compiled.js";
export * from "./scripted-model-server.js";
export * from "./tls.js";
// Compiled app processes and nginx in front: the replica test and `pnpm bench:scale`.
export * from "./topology.js";
// A loopback webhook receiver and endpoint rows: the delivery package's and the worker's tests.
export * from "./webhook-receiver.js";
