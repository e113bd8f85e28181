import type { Redis } from "ioredis";
import { BucketLeases, type BucketRule, leaseSizeFor, type TokenGrant } from "./bucket-lease.js";
import { bucketDecision, dailyDecision, nextUtcMidnight, utcDay, utcMonth } from "./decision.js";
import type { LimitDecision, LimitRule, RateLimiter } from "./limiter.js";

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
