import { utcDayOf } from "../utc-day.js";
import type { LimitDecision, LimitRule } from "./limiter.js";

/** What both limiters answer for a rule, from the counts each keeps its own way. */
export function utcDay(now: Date): string {
  return utcDayOf(now.getTime()).compact;
}
export function nextUtcMidnight(now: Date): number {
  return utcDayOf(now.getTime()).endMs / 1000;
}
export function utcMonth(now: Date): string {
  return utcDayOf(now.getTime()).month;
}

export function dailyDecision(
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

export function bucketDecision(
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
