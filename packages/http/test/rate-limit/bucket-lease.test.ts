import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it, vi } from "vitest";
import { BucketLeases, leaseSizeFor } from "../../src/rate-limit/bucket-lease.js";
import { type LimitDecision, RedisRateLimiter } from "../../src/rate-limit/index.js";

const url = process.env.TEST_REDIS_URL;
if (!url) throw new Error("TEST_REDIS_URL is not set (run through tooling/scripts/test-services.sh)");

/** One replica: its own Redis connection and limiter, counting the script calls it makes. */
function replica(prefix: string) {
  const redis = new Redis(url as string, { maxRetriesPerRequest: 1 });
  let scriptCalls = 0;
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((command: Parameters<typeof send>[0]) => {
    if (/^eval/i.test(command.name)) scriptCalls++;
    return send(command);
  }) as typeof redis.sendCommand;
  return { redis, limiter: new RedisRateLimiter(redis, prefix), scriptCalls: () => scriptCalls };
}

const opened: ReturnType<typeof replica>[] = [];
function replicas(n: number) {
  const prefix = `test:lease:${randomBytes(6).toString("hex")}`;
  const made = Array.from({ length: n }, () => replica(prefix));
  opened.push(...made);
  return made;
}
afterAll(async () => {
  for (const r of opened) {
    await r.limiter.close();
    r.redis.disconnect();
  }
});

describe("leased token buckets (fast plans)", () => {
  it("leases only where a bucket refills fast: slow plans and the MSE organizations stay exact", () => {
    expect(leaseSizeFor({ kind: "bucket", subject: "a", ratePerSecond: 10, burst: 20 })).toBe(1);
    expect(leaseSizeFor({ kind: "bucket", subject: "a", ratePerSecond: 20, burst: 40 })).toBe(1);
    expect(leaseSizeFor({ kind: "bucket", subject: "a", ratePerSecond: 50, burst: 100 })).toBe(2);
    expect(leaseSizeFor({ kind: "bucket", subject: "a", ratePerSecond: 1000, burst: 2000 })).toBe(50);
    expect(leaseSizeFor({ kind: "bucket", subject: "a", ratePerSecond: 1e6, burst: 1e6 })).toBe(100);
    // A small burst caps the lease whatever the rate.
    expect(leaseSizeFor({ kind: "bucket", subject: "a", ratePerSecond: 1000, burst: 8 })).toBe(2);
  });

  it("two replicas together never admit more than the shared bucket holds, with far fewer Redis calls", async () => {
    const [a, b] = replicas(2) as [ReturnType<typeof replica>, ReturnType<typeof replica>];
    // 40 tokens and a slow refill (1 token per 10 ms): the lease is 5 tokens.
    const rule = { kind: "bucket", subject: "acct:x", ratePerSecond: 100, burst: 40 } as const;
    const started = Date.now();
    const decisions: LimitDecision[] = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).limiter.consume(rule)),
    );
    const elapsedS = (Date.now() - started) / 1000;
    const allowed = decisions.filter((d) => d.allowed).length;
    expect(allowed).toBeGreaterThanOrEqual(30);
    expect(allowed).toBeLessThanOrEqual(40 + Math.ceil(100 * elapsedS));
    for (const refused of decisions.filter((d) => !d.allowed)) {
      expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
      expect(refused.remaining).toBe(0);
    }
    // One script call per lease of 5 (plus the refusals' calls, shared by concurrent waiters).
    expect(a.scriptCalls() + b.scriptCalls()).toBeLessThan(200 / 2);
  });

  it("counts down X-RateLimit-Remaining one by one within a lease", async () => {
    const [a] = replicas(1) as [ReturnType<typeof replica>];
    const rule = { kind: "bucket", subject: "acct:y", ratePerSecond: 1000, burst: 2000 } as const;
    const remaining: number[] = [(await a.limiter.consume(rule)).remaining];
    // The lease taken by the first request (EVALSHA, and EVAL once while Redis lacks the script).
    const callsForFirst = a.scriptCalls();
    for (let i = 1; i < 10; i++) remaining.push((await a.limiter.consume(rule)).remaining);
    expect(remaining[0]).toBe(1999);
    for (let i = 1; i < remaining.length; i++) expect(remaining[i]).toBe((remaining[i - 1] as number) - 1);
    expect(a.scriptCalls()).toBe(callsForFirst);
  });

  it("counts every admitted request, and only those, as monthly usage", async () => {
    const [a, b] = replicas(2) as [ReturnType<typeof replica>, ReturnType<typeof replica>];
    const rule = {
      kind: "bucket",
      subject: "acct:z",
      ratePerSecond: 200,
      burst: 30,
      monthlyUsageOf: "acct_z",
    } as const;
    const decisions = await Promise.all(
      Array.from({ length: 80 }, (_, i) => (i % 2 ? a : b).limiter.consume(rule)),
    );
    const allowed = decisions.filter((d) => d.allowed).length;
    expect(allowed).toBeLessThan(80);
    // Leased tokens that were never spent are not billed; spent ones reach Redis on flush.
    await a.limiter.monthlyUsage("acct_z");
    expect(await b.limiter.monthlyUsage("acct_z")).toBe(allowed);
  });

  it("keeps spent-token usage when a flush fails (Redis down) and writes it once on the next", async () => {
    const written: Map<string, number>[] = [];
    let redisDown = true;
    const leases = new BucketLeases(
      async (_rule, wanted) => ({ granted: wanted, tokensLeft: 100, nowMs: Date.now() }),
      async (counts) => {
        if (redisDown) throw new Error("connection refused");
        written.push(new Map(counts));
      },
    );
    const rule = { kind: "bucket", subject: "acct:w", ratePerSecond: 1000, burst: 2000 } as const;
    for (let i = 0; i < 7; i++) expect((await leases.consume(rule, "usage:w")).allowed).toBe(true);
    await expect(leases.flushUsage()).rejects.toThrow("connection refused");
    redisDown = false;
    for (let i = 0; i < 3; i++) await leases.consume(rule, "usage:w");
    await leases.flushUsage();
    await leases.flushUsage();
    expect(written).toEqual([new Map([["usage:w", 10]])]);
    await leases.close();
  });

  it("does not keep one lease per account forever: expired leases are swept once 10,000 are held", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const leases = new BucketLeases(
        async (_rule, wanted) => ({ granted: wanted, tokensLeft: 100, nowMs: Date.now() }),
        async () => {},
      );
      const rule = (i: number) =>
        ({ kind: "bucket", subject: `acct:${i}`, ratePerSecond: 1000, burst: 2000 }) as const;
      for (let i = 0; i < 10_000; i++) await leases.consume(rule(i), "");
      expect(leases.heldLeases).toBe(10_000);
      vi.setSystemTime(Date.now() + 2_000);
      await leases.consume(rule(10_000), "");
      expect(leases.heldLeases).toBe(1);
      await leases.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
