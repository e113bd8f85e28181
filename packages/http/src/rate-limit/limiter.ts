/**
 * Rate limits (decisions 30, 43 and 46). Two shapes:
 * - `daily`: the sandbox quota, per key and per account, both enforced (the stricter wins), reset
 *   at 00:00 UTC;
 * - `bucket`: a token bucket, refilled at `ratePerSecond` up to `burst` tokens, shared by every
 *   key of an account (or organization). Paid plans also count monthly usage for overage billing,
 *   never refusing on it.
 * The Redis limiter does each decision in one script call, so replicas share the counters and a
 * request costs one Redis round trip.
 *
 * One limiter per file behind the `RateLimiter` interface below: `redis.ts` (shared counters),
 * `memory.ts` (one process), `fallback.ts` (Redis, or memory while Redis is unreachable).
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
