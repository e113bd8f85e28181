import type { Redis } from "ioredis";
import { BucketLeases, type BucketRule, leaseSizeFor, type TokenGrant } from "./bucket-lease.js";
import { utcDayOf } from "./utc-day.js";

/**
 * Rate limits (decisions 30, 43 and 46). Two shapes:
 * - `daily`: the sandbox quota, per key and per account, both enforced (the stricter wins), reset
 *   at 00:00 UTC;
 * - `bucket`: a token bucket, refilled at `ratePerSecond` up to `burst` tokens, shared by every
 *   key of an account (or organization). Paid plans also count monthly usage for overage billing,
 *   never refusing on it.
 * The Redis limiter does each decision in one script call, so replicas share the counters and a
 * request costs one Redis round trip.
 */
export type LimitRule =
  | { kind: "daily"; keyId: string; accountId: string; keyQuota: number; accountQuota: number }
  | { kind: "bucket"; subject: string; ratePerSecond: number; burst: number; monthlyUsageOf?: string };

/**
 * Requests without a working key (401) draw on a token bucket per client address (decision 97):
 * its values are the X-RateLimit-* of every 401, and an empty bucket is 429. Requests with a
 * working key never draw on it.
 */
export const UNAUTHENTICATED_RATE = { ratePerSecond: 50, burst: 100 } as const;

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets (daily) or the bucket is full again. */
  resetAt: number;
  /** Seconds to wait before a retry can succeed (only meaningful when refused). */
  retryAfter: number;
}

export interface RateLimiter {
  consume(rule: LimitRule, now?: Date): Promise<LimitDecision>;
  readonly backend: "redis" | "memory";
  /** Writes out what is still counted only in this process (usage of leased tokens). */
  close?(): Promise<void>;
}

function utcDay(now: Date): string {
  return utcDayOf(now.getTime()).compact;
}
function nextUtcMidnight(now: Date): number {
  return utcDayOf(now.getTime()).endMs / 1000;
}
function utcMonth(now: Date): string {
  return utcDayOf(now.getTime()).month;
}

function dailyDecision(
  rule: Extract<LimitRule, { kind: "daily" }>,
  allowed: boolean,
  keyCount: number,
  accountCount: number,
  now: Date,
): LimitDecision {
  const keyLeft = rule.keyQuota - keyCount;
  const accountLeft = rule.accountQuota - accountCount;
  // Report the binding limit: whichever has fewer requests left.
  const binding =
    keyLeft <= accountLeft
      ? { limit: rule.keyQuota, left: keyLeft }
      : { limit: rule.accountQuota, left: accountLeft };
  const resetAt = nextUtcMidnight(now);
  return {
    allowed,
    limit: binding.limit,
    remaining: Math.max(0, binding.left),
    resetAt,
    retryAfter: Math.max(1, resetAt - Math.floor(now.getTime() / 1000)),
  };
}

function bucketDecision(
  rule: Extract<LimitRule, { kind: "bucket" }>,
  allowed: boolean,
  tokens: number,
  nowMs: number,
): LimitDecision {
  const msToNextToken = tokens >= 1 ? 0 : ((1 - tokens) * 1000) / rule.ratePerSecond;
  const msToFull = ((rule.burst - tokens) * 1000) / rule.ratePerSecond;
  return {
    allowed,
    limit: rule.burst,
    remaining: Math.max(0, Math.floor(tokens)),
    resetAt: Math.ceil((nowMs + msToFull) / 1000),
    retryAfter: Math.max(1, Math.ceil(msToNextToken / 1000)),
  };
}

// KEYS[1] key counter, KEYS[2] account counter; ARGV key quota, account quota, ttl seconds.
const DAILY_SCRIPT = `
local k = tonumber(redis.call('GET', KEYS[1]) or '0')
local a = tonumber(redis.call('GET', KEYS[2]) or '0')
if k >= tonumber(ARGV[1]) or a >= tonumber(ARGV[2]) then
  return {0, k, a}
end
k = redis.call('INCR', KEYS[1])
a = redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return {1, k, a}
`;

// KEYS[1] bucket hash, KEYS[2] monthly usage counter ('' when none).
// ARGV rate per second, burst, month ttl, tokens wanted. The granted tokens count as usage now
// when KEYS[2] is given (a leasing caller counts them as it spends them and passes '').
// Time comes from Redis so replicas agree.
// Tokens are kept in thousandths to stay integral across the Lua/Redis boundary.
const BUCKET_SCRIPT = `
local t = redis.call('TIME')
local nowMs = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2]) * 1000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1])
local ts = tonumber(state[2])
if tokens == nil then
  tokens = burst
  ts = nowMs
end
local elapsed = math.max(0, nowMs - ts)
tokens = math.min(burst, tokens + elapsed * rate)
local granted = math.min(tonumber(ARGV[4]), math.floor(tokens / 1000))
if granted > 0 then
  tokens = tokens - granted * 1000
  if KEYS[2] ~= '' then
    redis.call('INCRBY', KEYS[2], granted)
    redis.call('EXPIRE', KEYS[2], ARGV[3])
  end
end
redis.call('HSET', KEYS[1], 'tokens', tokens, 'ts', nowMs)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate) + 1000)
return {granted, tokens, nowMs}
`;

type LimiterRedis = Redis & {
  svcDailyLimit(
    k1: string,
    k2: string,
    keyQuota: number,
    accountQuota: number,
    ttl: number,
  ): Promise<[number, number, number]>;
  svcBucketLimit(
    k1: string,
    k2: string,
    rate: number,
    burst: number,
    monthTtl: number,
    wanted: number,
  ): Promise<[number, number, number]>;
};

const MONTH_TTL_SECONDS = 40 * 24 * 3600;

export class RedisRateLimiter implements RateLimiter {
  readonly backend = "redis" as const;
  private readonly redis: LimiterRedis;
  private readonly leases: BucketLeases;
  constructor(
    redis: Redis,
    private readonly prefix = "svc:rl",
  ) {
    redis.defineCommand("svcDailyLimit", { numberOfKeys: 2, lua: DAILY_SCRIPT });
    redis.defineCommand("svcBucketLimit", { numberOfKeys: 2, lua: BUCKET_SCRIPT });
    this.redis = redis as LimiterRedis;
    this.leases = new BucketLeases(
      (rule, wanted) => this.takeTokens(rule, wanted, ""),
      (counts) => this.addMonthlyUsage(counts),
    );
  }

  /**
   * One script call: up to `wanted` tokens from the shared bucket, with what is left in it; the
   * granted tokens are added to `usageKey` at once unless it is "" (leases count them as spent).
   */
  private async takeTokens(rule: BucketRule, wanted: number, usageKey: string): Promise<TokenGrant> {
    const [granted, milliTokens, nowMs] = await this.redis.svcBucketLimit(
      `${this.prefix}:bucket:${rule.subject}`,
      usageKey,
      rule.ratePerSecond,
      rule.burst,
      MONTH_TTL_SECONDS,
      wanted,
    );
    return { granted, tokensLeft: milliTokens / 1000, nowMs };
  }

  private monthKey(accountId: string, now: Date): string {
    return `${this.prefix}:usage:${utcMonth(now)}:${accountId}`;
  }

  private async addMonthlyUsage(counts: ReadonlyMap<string, number>): Promise<void> {
    const pipeline = this.redis.pipeline();
    for (const [key, n] of counts) pipeline.incrby(key, n).expire(key, MONTH_TTL_SECONDS);
    const results = await pipeline.exec();
    const failed = results?.find(([error]) => error)?.[0];
    if (failed) throw failed;
  }

  async consume(rule: LimitRule, now: Date = new Date()): Promise<LimitDecision> {
    if (rule.kind === "daily") {
      const day = utcDay(now);
      const ttl = nextUtcMidnight(now) - Math.floor(now.getTime() / 1000) + 60;
      const [allowed, k, a] = await this.redis.svcDailyLimit(
        `${this.prefix}:day:${day}:key:${rule.keyId}`,
        `${this.prefix}:day:${day}:acct:${rule.accountId}`,
        rule.keyQuota,
        rule.accountQuota,
        ttl,
      );
      return dailyDecision(rule, allowed === 1, k, a, now);
    }
    const usageKey = rule.monthlyUsageOf ? this.monthKey(rule.monthlyUsageOf, now) : "";
    if (leaseSizeFor(rule) > 1) {
      const spent = await this.leases.consume(rule, usageKey);
      return bucketDecision(rule, spent.allowed, spent.tokensLeft, spent.nowMs);
    }
    const grant = await this.takeTokens(rule, 1, usageKey);
    return bucketDecision(rule, grant.granted === 1, grant.tokensLeft, grant.nowMs);
  }

  /** Requests counted this month for an account (overage = this minus the plan's allowance). */
  async monthlyUsage(accountId: string, now: Date = new Date()): Promise<number> {
    await this.leases.flushUsage();
    return Number((await this.redis.get(this.monthKey(accountId, now))) ?? 0);
  }

  async close(): Promise<void> {
    await this.leases.close();
  }
}

/** In-process limiter: embedded mode, and the fallback while Redis is unreachable. */
export class MemoryRateLimiter implements RateLimiter {
  readonly backend = "memory" as const;
  private readonly counters = new Map<string, number>();
  private readonly buckets = new Map<string, { tokens: number; ts: number }>();
  private readonly usage = new Map<string, number>();
  private day = "";

  async consume(rule: LimitRule, now: Date = new Date()): Promise<LimitDecision> {
    if (rule.kind === "daily") {
      const day = utcDay(now);
      if (day !== this.day) {
        this.counters.clear();
        this.day = day;
      }
      const keyId = `key:${rule.keyId}`;
      const acctId = `acct:${rule.accountId}`;
      const k = this.counters.get(keyId) ?? 0;
      const a = this.counters.get(acctId) ?? 0;
      if (k >= rule.keyQuota || a >= rule.accountQuota) return dailyDecision(rule, false, k, a, now);
      this.counters.set(keyId, k + 1);
      this.counters.set(acctId, a + 1);
      return dailyDecision(rule, true, k + 1, a + 1, now);
    }
    const nowMs = now.getTime();
    const state = this.buckets.get(rule.subject) ?? { tokens: rule.burst, ts: nowMs };
    const tokens = Math.min(
      rule.burst,
      state.tokens + (Math.max(0, nowMs - state.ts) * rule.ratePerSecond) / 1000,
    );
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    this.buckets.set(rule.subject, { tokens: left, ts: nowMs });
    if (allowed && rule.monthlyUsageOf) {
      const key = `${utcMonth(now)}:${rule.monthlyUsageOf}`;
      this.usage.set(key, (this.usage.get(key) ?? 0) + 1);
    }
    return bucketDecision(rule, allowed, left, nowMs);
  }
}

/**
 * Redis first; while Redis is unreachable, decide in process (the API keeps answering,
 * decision 8) and warn at most once a minute.
 */
export class FallbackRateLimiter implements RateLimiter {
  private readonly memory = new MemoryRateLimiter();
  private lastWarn = 0;
  constructor(
    private readonly primary: RateLimiter,
    private readonly warn: (message: string) => void,
  ) {}
  get backend() {
    return this.primary.backend;
  }
  async close(): Promise<void> {
    await this.primary.close?.();
  }
  async consume(rule: LimitRule, now?: Date): Promise<LimitDecision> {
    try {
      return await this.primary.consume(rule, now);
    } catch {
      if (Date.now() - this.lastWarn > 60_000) {
        this.lastWarn = Date.now();
        this.warn("Redis unreachable: rate limits are enforced per process until it is back.");
      }
      return this.memory.consume(rule, now);
    }
  }
}
