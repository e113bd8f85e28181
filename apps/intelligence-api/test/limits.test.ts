import type { ErrorEnvelope } from "@svc/http";
import { call, startTestService } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { describe, expect, it } from "vitest";
import type { PingResponse } from "../src/index.js";

const svc = useTestService();

function nextUtcMidnight(): number {
  const now = new Date();
  return Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) / 1000);
}

/** `n` pings at once: the tests count statuses and read only the bodies of the 429 refusals. */
async function burst(url: string, key: string, n: number) {
  return Promise.all(Array.from({ length: n }, () => call<ErrorEnvelope>(url, "/v1/ping", { key })));
}

describe("sandbox quota (decisions 30 and 46)", () => {
  it("counts down X-RateLimit-Remaining from 100 per key and resets at 00:00 UTC", async () => {
    const { key } = await svc.seed.caller();
    const first = await call<PingResponse>(svc.url, "/v1/ping", { key });
    expect(first.headers.get("x-ratelimit-limit")).toBe("100");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("99");
    expect(Number(first.headers.get("x-ratelimit-reset"))).toBe(nextUtcMidnight());
    const second = await call<PingResponse>(svc.url, "/v1/ping", { key });
    expect(second.headers.get("x-ratelimit-remaining")).toBe("98");
  });

  it("refuses the 101st request of a key with 429 and a Retry-After that reaches midnight UTC", async () => {
    const { key } = await svc.seed.caller();
    const results = [];
    for (let i = 0; i < 10; i++) results.push(...(await burst(svc.url, key, 10)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const refused = await call<ErrorEnvelope>(svc.url, "/v1/ping", { key });
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe("rate_limited");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    const retryAfter = Number(refused.headers.get("retry-after"));
    const expected = nextUtcMidnight() - Math.floor(Date.now() / 1000);
    expect(Math.abs(retryAfter - expected)).toBeLessThanOrEqual(2);
    // A refused request does not consume: the count stays at the limit.
    const again = await call<ErrorEnvelope>(svc.url, "/v1/ping", { key });
    expect(again.status).toBe(429);
  });

  it("pools 500 requests per account across keys: a fresh key of a spent account is refused", async () => {
    const account = await svc.seed.account();
    const keys = await Promise.all(Array.from({ length: 6 }, () => svc.seed.key("secret_test", account.id)));
    for (const k of keys.slice(0, 5)) {
      for (let i = 0; i < 10; i++) {
        const batch = await burst(svc.url, k.key, 10);
        expect(batch.every((r) => r.status === 200)).toBe(true);
      }
    }
    const sixth = await call<ErrorEnvelope>(svc.url, "/v1/ping", { key: (keys[5] as { key: string }).key });
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get("x-ratelimit-limit")).toBe("500");
    // another account is untouched (isolation)
    const other = await svc.seed.caller();
    expect((await call<PingResponse>(svc.url, "/v1/ping", { key: other.key })).status).toBe(200);
  });
});

describe("paid plans: token bucket per account", () => {
  it("Launch lets a burst of 20 through, then answers 429 with Retry-After 1", async () => {
    const { key } = await svc.seed.caller("launch");
    const results = await burst(svc.url, key, 40);
    const ok = results.filter((r) => r.status === 200).length;
    // 20 at once plus whatever refilled at 10/s while the burst was in flight
    expect(ok).toBeGreaterThanOrEqual(20);
    expect(ok).toBeLessThan(30);
    const refused = results.find((r) => r.status === 429);
    expect(refused?.headers.get("retry-after")).toBe("1");
    expect(refused?.headers.get("x-ratelimit-limit")).toBe("20");
    expect(refused?.json.error.code).toBe("rate_limited");
  });

  it("enterprise limits are set per account", async () => {
    const { key } = await svc.seed.caller("enterprise", { ratePerSecond: 1, burst: 5 });
    const results = await burst(svc.url, key, 10);
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(5);
    expect(ok).toBeLessThanOrEqual(6);
  });

  it("replicas share the counters through Redis", async () => {
    const replica = await startTestService({ db: svc.db, redisPrefix: svc.redisPrefix });
    try {
      const { key } = await svc.seed.caller("launch");
      const [a, b] = await Promise.all([burst(svc.url, key, 20), burst(replica.url, key, 20)]);
      const ok = [...a, ...b].filter((r) => r.status === 200).length;
      expect(ok).toBeGreaterThanOrEqual(20);
      expect(ok).toBeLessThan(30);
    } finally {
      await replica.close();
    }
  });
});

describe("Redis down", () => {
  it("keeps answering with per-process limits and warns in the log", async () => {
    const replica = await startTestService({ db: svc.db });
    try {
      replica.redis.disconnect();
      const { key } = await svc.seed.caller();
      const res = await call<PingResponse>(replica.url, "/v1/ping", { key });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-remaining")).toBe("99");
      expect(replica.logs.some((l) => l.includes("Redis unreachable"))).toBe(true);
    } finally {
      await replica.close();
    }
  });
});
