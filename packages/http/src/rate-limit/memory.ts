import { bucketDecision, dailyDecision, utcDay } from "./decision.js";
import type { LimitDecision, LimitRule, RateLimiter } from "./limiter.js";

/**
 * In-process limiter: embedded mode, and the fallback while Redis is unreachable. It counts no
 * monthly usage (`monthlyUsageOf`): overage is billed from the Redis count only, so requests
 * decided here were never counted, and a map of them nobody read was dropped.
 */
export class MemoryRateLimiter implements RateLimiter {
  readonly backend = "memory" as const;
  private readonly counters = new Map<string, number>();
  private readonly buckets = new Map<string, { tokens: number; ts: number }>();
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
    return bucketDecision(rule, allowed, left, nowMs);
  }
}
