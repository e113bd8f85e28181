import { acquireDataDirLock, createDb, type DbHandle } from "@svc/db";
import { Redis } from "ioredis";
import type { AppDeps } from "../app.js";
import { KEYS_CHANGED_CHANNEL, KeyCache } from "../key-cache.js";
import { createLogger, type Logger } from "../logger.js";
import {
  FallbackRateLimiter,
  MemoryRateLimiter,
  type RateLimiter,
  RedisRateLimiter,
} from "../rate-limit/index.js";
import { STATEMENT_TIMEOUT_MS } from "../request-guard.js";
import { UsageMeter } from "../usage-meter.js";
import { loopbackWebhooksAllowed, publicBaseUrl, redisUrlOf, type ServiceEnv } from "./env.js";

/** The shared state one process holds: database, Redis, limiter, logger. */
export interface Runtime {
  env: ServiceEnv;
  dbHandle: DbHandle;
  redis: Redis | null;
  limiter: RateLimiter;
  logger: Logger;
  deps: AppDeps;
  embedded: boolean;
  /** How requests are counted against rate limits and quotas, for the startup line. */
  rateLimiting: string;
  close(): Promise<void>;
}

/** An ioredis client that fails fast while Redis is down instead of queueing requests. */
export function createRedis(url: string, logger: Logger, options: { forWorker?: boolean } = {}): Redis {
  const redis = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: options.forWorker ?? false,
    maxRetriesPerRequest: options.forWorker ? null : 1,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 250, 2_000),
    // Commands issued in the same event-loop tick (concurrent requests' rate-limit checks) go out
    // in one socket write: one write syscall per request was the largest cost on the hot path.
    enableAutoPipelining: !options.forWorker,
  });
  let lastWarn = 0;
  redis.on("error", (error: NodeJS.ErrnoException) => {
    if (Date.now() - lastWarn > 30_000) {
      lastWarn = Date.now();
      logger.warn({ errCode: error.code }, "Redis unreachable; retrying in the background");
    }
  });
  return redis;
}

/** The database of this process, migrated; embedded mode first takes the data directory's lock. */
async function openDatabase(
  env: ServiceEnv,
  name: string,
  onQuery: (() => void) | undefined,
): Promise<{ dbHandle: DbHandle; embedded: boolean; releaseLock: () => void }> {
  const embedded = !env.DATABASE_URL;
  const releaseLock = embedded ? acquireDataDirLock(env.SVC_DATA_DIR, `${name} server`) : () => {};
  const dbHandle = createDb({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.SVC_DATA_DIR,
    onQuery,
    statementTimeoutMs: STATEMENT_TIMEOUT_MS,
  });
  try {
    await dbHandle.migrate();
  } catch (error) {
    releaseLock();
    throw error;
  }
  return { dbHandle, embedded, releaseLock };
}

/** Counters in Redis when there is one (falling back to this process while it is down), else in memory. */
function createLimiter(redis: Redis | null, logger: Logger): RateLimiter {
  return redis
    ? new FallbackRateLimiter(new RedisRateLimiter(redis), (m) => logger.warn(m))
    : new MemoryRateLimiter();
}

/** Channel subscriptions of one process, and the way to close their connection. */
interface Subscriptions {
  subscribe(channel: string, onMessage: (message: string) => void): void;
  disconnect(): void;
}

/**
 * One subscriber connection per process, opened on the first subscription and shared by every
 * channel listener. Without Redis, subscribing does nothing.
 */
function createSubscriptions(
  env: ServiceEnv,
  logger: Logger,
  redis: Redis | null,
  keyCache: KeyCache | undefined,
): Subscriptions {
  let subscriber: Redis | null = null;
  const listeners = new Map<string, ((message: string) => void)[]>();
  const openSubscriber = (): Redis => {
    const sub = createRedis(redisUrlOf(env), logger, { forWorker: true });
    sub.on("message", (ch: string, message: string) => {
      for (const listener of listeners.get(ch) ?? []) listener(message);
    });
    // The key cache is trusted only while revocations can reach us.
    sub.on("ready", () => {
      sub
        .subscribe(...listeners.keys())
        .then(() => keyCache?.setLive(true))
        .catch(() => keyCache?.setLive(false));
    });
    for (const event of ["close", "end", "reconnecting"]) sub.on(event, () => keyCache?.setLive(false));
    return sub;
  };
  const subscribe = (channel: string, onMessage: (message: string) => void) => {
    if (!redis) return;
    if (!subscriber) subscriber = openSubscriber();
    if (!listeners.has(channel)) {
      listeners.set(channel, []);
      if (subscriber.status === "ready") subscriber.subscribe(channel).catch(() => {});
    }
    listeners.get(channel)?.push(onMessage);
  };
  return { subscribe, disconnect: () => subscriber?.disconnect() };
}

/** How requests are counted against rate limits and quotas, for the startup line. */
function rateLimitingOf(redis: Redis | null): string {
  return redis
    ? "rate limits in Redis, shared by every replica (per-process counters only while Redis is unreachable)"
    : "rate limits in this process (exact: the embedded database allows one process)";
}

export async function createRuntime(
  env: ServiceEnv,
  name: string,
  options: { logger?: Logger; onQuery?: () => void } = {},
): Promise<Runtime> {
  const logger = options.logger ?? createLogger({ level: env.LOG_LEVEL, name });
  const { dbHandle, embedded, releaseLock } = await openDatabase(env, name, options.onQuery);
  // Embedded mode is one process: an in-process limiter is exact there. With a real database the
  // apps may run as replicas, so counters live in Redis.
  const redis = embedded ? null : createRedis(redisUrlOf(env), logger);
  const limiter = createLimiter(redis, logger);
  const keyCache = redis ? new KeyCache() : undefined;
  const subscriptions = createSubscriptions(env, logger, redis, keyCache);
  if (keyCache) subscriptions.subscribe(KEYS_CHANGED_CHANNEL, () => keyCache.invalidate());
  const usage = new UsageMeter(dbHandle.db, logger);
  const deps: AppDeps = {
    usage,
    subscribe: subscriptions.subscribe,
    keyCache,
    db: dbHandle.db,
    limiter,
    logger,
    publicBaseUrl: publicBaseUrl(env),
    allowLoopbackWebhooks: loopbackWebhooksAllowed(env),
    redisState: () => (redis ? (redis.status === "ready" ? "ready" : "down") : "disabled"),
  };
  return {
    env,
    dbHandle,
    redis,
    limiter,
    logger,
    deps,
    embedded,
    rateLimiting: rateLimitingOf(redis),
    async close() {
      await usage.stop();
      // Usage of leased rate-limit tokens still counted only here goes to Redis first.
      await limiter.close?.();
      redis?.disconnect();
      subscriptions.disconnect();
      await dbHandle.close();
      releaseLock();
    },
  };
}
