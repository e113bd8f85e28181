import { describe, expect, it } from "vitest";
import {
  FallbackRateLimiter,
  type LimitRule,
  MemoryRateLimiter,
  type RateLimiter,
} from "../../src/rate-limit/index.js";

const NOON = new Date("2026-03-04T12:00:00Z");

describe("the in-process limiter", () => {
  it("daily: the stricter of key and account quota refuses, until 00:00 UTC", async () => {
    const limiter = new MemoryRateLimiter();
    const rule: LimitRule = { kind: "daily", keyId: "k", accountId: "a", keyQuota: 3, accountQuota: 2 };
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await limiter.consume(rule, NOON));
    expect(answers.map((d) => [d.allowed, d.limit, d.remaining])).toEqual([
      [true, 2, 1],
      [true, 2, 0],
      [false, 2, 0],
    ]);
    expect(answers[2]?.retryAfter).toBe(12 * 3600);
    expect((await limiter.consume(rule, new Date("2026-03-05T00:00:01Z"))).allowed).toBe(true);
  });

  it("bucket: refuses when empty and refills at the rate", async () => {
    const limiter = new MemoryRateLimiter();
    const rule: LimitRule = { kind: "bucket", subject: "s", ratePerSecond: 1, burst: 2, monthlyUsageOf: "a" };
    expect((await limiter.consume(rule, NOON)).allowed).toBe(true);
    expect((await limiter.consume(rule, NOON)).allowed).toBe(true);
    const refused = await limiter.consume(rule, NOON);
    expect([refused.allowed, refused.remaining, refused.retryAfter]).toEqual([false, 0, 1]);
    expect((await limiter.consume(rule, new Date(NOON.getTime() + 1_000))).allowed).toBe(true);
  });
});

describe("the fallback limiter", () => {
  it("decides in process while the primary fails, warning once a minute", async () => {
    const failing: RateLimiter = {
      backend: "redis",
      consume: () => Promise.reject(new Error("ECONNREFUSED")),
    };
    const warnings: string[] = [];
    const limiter = new FallbackRateLimiter(failing, (m) => warnings.push(m));
    const rule: LimitRule = { kind: "bucket", subject: "s", ratePerSecond: 1, burst: 1 };
    expect((await limiter.consume(rule, NOON)).allowed).toBe(true);
    expect((await limiter.consume(rule, NOON)).allowed).toBe(false);
    expect(limiter.backend).toBe("redis");
    expect(warnings).toHaveLength(1);
  });
});
