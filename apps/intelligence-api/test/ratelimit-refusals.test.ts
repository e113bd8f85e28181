import { readFileSync } from "node:fs";
import { revokeApiKey } from "@svc/db";
import { type ErrorEnvelope, UNAUTHENTICATED_RATE } from "@svc/http";
import { type CallResult, call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The contract: every response carries X-RateLimit-Limit, -Remaining and -Reset. Refusals too,
 * on both APIs (decision 97): a 401 carries the per-address limit of requests without a working
 * key, a working key's 403 on an endpoint it may not call carries that key's own limit (the
 * request counts against it).
 */
// The in-process limiter: exact counts for the per-address bucket.
const svc = useTestService({ limiter: "memory" });
let secret: string;
let publishable: string;
let revoked: string;
let organization: string;
const ORIGIN = "https://clinic.example.com";

beforeAll(async () => {
  const caller = await svc.seed.caller();
  secret = caller.key;
  publishable = (await svc.seed.key("publishable", caller.account.id, [ORIGIN])).key;
  const old = await svc.seed.key("secret_test", caller.account.id);
  await revokeApiKey(svc.db.handle.db, old.id);
  revoked = old.key;
  organization = (await svc.seed.org(["mse:read", "mse:write", "mse:sign"])).key;
});

function rateLimitHeaders(res: CallResult<unknown>) {
  return {
    limit: res.headers.get("x-ratelimit-limit"),
    remaining: res.headers.get("x-ratelimit-remaining"),
    reset: res.headers.get("x-ratelimit-reset"),
  };
}

function expectRateLimitHeaders(res: CallResult<unknown>, what: string) {
  const headers = rateLimitHeaders(res);
  expect(headers.limit, what).toMatch(/^\d+$/);
  expect(headers.remaining, what).toMatch(/^\d+$/);
  expect(headers.reset, what).toMatch(/^\d+$/);
  expect(Number(headers.reset), what).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
  return headers;
}

// One path per API, each with a body that would be valid for the right key.
const paths: [string, string, { method?: string; body?: unknown }][] = [
  ["intelligence", "/v1/outcome/score", { body: { assessments: [] } }],
  ["intelligence", "/v1/ping", {}],
  ["mse", "/v1/mse/visit-rl-1", {}],
  ["mse", "/v1/mse/visit-rl-1/agent", { body: { instruction: "summarise" } }],
];

describe("X-RateLimit-* on refusals, both APIs", () => {
  it("401: no header, a malformed header, a mistyped key, a revoked key; the per-address limit's values", async () => {
    const refusals: [string, Record<string, string>][] = [
      ["no Authorization header", {}],
      ["a malformed header", { authorization: "Basic abc" }],
      ["a mistyped key", { authorization: "Bearer svc_sk_test_notavalidkey" }],
      ["a revoked key", { authorization: `Bearer ${revoked}` }],
    ];
    for (const [api, path, init] of paths) {
      for (const [why, headers] of refusals) {
        const what = `${api} ${path}: ${why}`;
        const res = await call<ErrorEnvelope>(svc.url, path, { ...init, headers });
        expect(res.status, what).toBe(401);
        const values = expectRateLimitHeaders(res, what);
        expect(values.limit, what).toBe(String(UNAUTHENTICATED_RATE.burst));
        // Each 401 draws on this address's bucket (which refills at its rate meanwhile).
        expect(Number(values.remaining), what).toBeLessThan(UNAUTHENTICATED_RATE.burst);
      }
    }
  });

  it("a publishable key's 403 on another endpoint carries its own plan's values and counts", async () => {
    const first = await call<ErrorEnvelope>(svc.url, "/v1/outcome/score", {
      key: publishable,
      body: { assessments: [] },
      headers: { origin: ORIGIN },
    });
    expect(first.status).toBe(403);
    // A sandbox key: 100 requests a day per key (decision 30), reset at 00:00 UTC.
    expect(expectRateLimitHeaders(first, "intelligence 403")).toMatchObject({
      limit: "100",
      remaining: "99",
    });
    const mse = await call<ErrorEnvelope>(svc.url, "/v1/mse/visit-rl-2", {
      key: publishable,
      headers: { origin: ORIGIN },
    });
    expect(mse.status).toBe(403);
    expect(expectRateLimitHeaders(mse, "mse 403")).toMatchObject({ limit: "100", remaining: "98" });
    expect(rateLimitHeaders(mse).reset).toBe(rateLimitHeaders(first).reset);
    // The account's secret key on an organization-only endpoint, and the reverse: 403 with headers.
    const secretOnMse = await call<ErrorEnvelope>(svc.url, "/v1/mse/visit-rl-3", { key: secret });
    expect(secretOnMse.status).toBe(403);
    expectRateLimitHeaders(secretOnMse, "secret key on the MSE API");
    const orgOnIntelligence = await call<ErrorEnvelope>(svc.url, "/v1/ping", { key: organization });
    expect(orgOnIntelligence.status).toBe(403);
    expectRateLimitHeaders(orgOnIntelligence, "organization key on the intelligence API");
  });

  it("requests without a working key past the per-address limit are 429 with Retry-After; working keys are unaffected", async () => {
    const burst = UNAUTHENTICATED_RATE.burst * 2;
    const answers = await Promise.all(
      Array.from({ length: burst }, () => call<ErrorEnvelope>(svc.url, "/v1/ping", {})),
    );
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(answers.every((a) => a.status === 401 || a.status === 429)).toBe(true);
    for (const res of limited) {
      expect(res.json.error.code).toBe("rate_limited");
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(expectRateLimitHeaders(res, "429").remaining).toBe("0");
    }
    const ok = await call(svc.url, "/v1/ping", { key: secret });
    expect(ok.status).toBe(200);
    expectRateLimitHeaders(ok, "200");
  });
});

describe("the OpenAPI document says so", () => {
  it("declares X-RateLimit-* on every 401, 402, 403 and 429 it lists, and Retry-After on 429", () => {
    type Responses = Record<string, { headers?: Record<string, unknown> }>;
    const document = JSON.parse(
      readFileSync(new URL("../../../docs/openapi.json", import.meta.url), "utf8"),
    ) as { paths: Record<string, Record<string, { responses: Responses }>> };
    const missing: string[] = [];
    let refusals = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (!["401", "402", "403", "429"].includes(status)) continue;
          refusals += 1;
          const declared = Object.keys(response.headers ?? {});
          const needed = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];
          if (status === "429") needed.push("Retry-After");
          for (const header of needed)
            if (!declared.includes(header))
              missing.push(`${method.toUpperCase()} ${path} ${status} ${header}`);
        }
      }
    }
    expect(refusals).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });
});
