import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_ATTEMPTS,
  newWebhookSecret,
  nextAttemptDelay,
  RETRY_DELAYS_MS,
  RETRY_WINDOW_MS,
  serializeEvent,
  signPayload,
  verifySignature,
} from "../src/index.js";

const SECRET = "whsec_testsecret";
const NOW = 1_790_000_000;

describe("signatures", () => {
  it("round-trips and matches an HMAC computed by hand", async () => {
    const { createHmac } = await import("node:crypto");
    const header = signPayload(SECRET, '{"id":"evt_1"}', NOW);
    const hex = createHmac("sha256", SECRET).update(`${NOW}.{"id":"evt_1"}`).digest("hex");
    expect(header).toBe(`t=${NOW},v1=${hex}`);
    expect(verifySignature({ secret: SECRET, payload: '{"id":"evt_1"}', header, nowSeconds: NOW })).toEqual({
      ok: true,
      timestamp: NOW,
    });
  });
  it("refuses a tampered payload, a wrong secret and a stale or future timestamp", () => {
    const header = signPayload(SECRET, "payload", NOW);
    expect(verifySignature({ secret: SECRET, payload: "payload!", header, nowSeconds: NOW })).toMatchObject({
      reason: "signature_mismatch",
    });
    expect(
      verifySignature({ secret: "whsec_other", payload: "payload", header, nowSeconds: NOW }),
    ).toMatchObject({
      reason: "signature_mismatch",
    });
    expect(
      verifySignature({ secret: SECRET, payload: "payload", header, nowSeconds: NOW + 301 }),
    ).toMatchObject({
      reason: "timestamp_out_of_tolerance",
    });
    expect(
      verifySignature({ secret: SECRET, payload: "payload", header, nowSeconds: NOW - 301 }),
    ).toMatchObject({
      reason: "timestamp_out_of_tolerance",
    });
    expect(verifySignature({ secret: SECRET, payload: "payload", header, nowSeconds: NOW + 300 }).ok).toBe(
      true,
    );
  });
  it("refuses malformed headers", () => {
    for (const header of [
      undefined,
      "",
      "t=abc,v1=00",
      `t=${NOW}`,
      `v1=${"a".repeat(64)}`,
      `t=${NOW},v1=xyz`,
    ])
      expect(verifySignature({ secret: SECRET, payload: "p", header, nowSeconds: NOW })).toMatchObject({
        reason: "malformed_header",
      });
  });
  it("accepts any of several v1 signatures", () => {
    const good = signPayload(SECRET, "p", NOW).split(",")[1];
    const header = `t=${NOW},v1=${"0".repeat(64)},${good}`;
    expect(verifySignature({ secret: SECRET, payload: "p", header, nowSeconds: NOW }).ok).toBe(true);
  });
  it("property: any payload verifies with its own signature and fails with one byte changed", () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), (payload, secret) => {
        const header = signPayload(secret, payload, NOW);
        expect(verifySignature({ secret, payload, header, nowSeconds: NOW }).ok).toBe(true);
        expect(verifySignature({ secret, payload: `${payload}x`, header, nowSeconds: NOW }).ok).toBe(false);
      }),
    );
  });
  it("secrets are whsec_ and 40 base62 characters, all different", () => {
    const secrets = new Set(Array.from({ length: 100 }, newWebhookSecret));
    expect(secrets.size).toBe(100);
    for (const s of secrets) expect(s).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
  });
  it("serialises the event resource in a fixed field order", () => {
    const text = serializeEvent({
      data: { id: "labord_1" },
      createdAt: "2026-11-01T00:00:00.000Z",
      apiVersion: "2026-11-01",
      type: "lab_order.status_changed",
      object: "event",
      id: "evt_1",
    });
    expect(Object.keys(JSON.parse(text))).toEqual([
      "id",
      "object",
      "type",
      "apiVersion",
      "createdAt",
      "data",
    ]);
  });
});

describe("retry schedule", () => {
  it("grows monotonically and stays inside 24 hours without jitter", () => {
    for (let i = 1; i < RETRY_DELAYS_MS.length; i++)
      expect(RETRY_DELAYS_MS[i] as number).toBeGreaterThan(RETRY_DELAYS_MS[i - 1] as number);
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThan(RETRY_WINDOW_MS);
    expect(MAX_ATTEMPTS).toBe(12);
  });
  it("jitters by at most 20 % and ends after the last attempt", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: RETRY_DELAYS_MS.length }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (n, r) => {
          const delay = nextAttemptDelay(n, 0, 0, { random: () => r });
          const base = RETRY_DELAYS_MS[n - 1] as number;
          expect(delay).not.toBeNull();
          expect(delay as number).toBeGreaterThanOrEqual(Math.round(base * 0.8));
          expect(delay as number).toBeLessThanOrEqual(Math.round(base * 1.2));
        },
      ),
    );
    expect(nextAttemptDelay(MAX_ATTEMPTS, 0, 0)).toBeNull();
    expect(nextAttemptDelay(0, 0, 0)).toBeNull();
  });
  it("gives up when the next attempt would fall outside the 24 h window", () => {
    const first = 0;
    expect(nextAttemptDelay(11, first, 20 * 3_600_000, { random: () => 0.5 })).toBeNull();
    expect(nextAttemptDelay(2, first, 60_000, { random: () => 0.5 })).toBe(120_000);
  });
  it("compresses time for tests", () => {
    expect(nextAttemptDelay(1, 0, 0, { random: () => 0.5, timeScale: 0.001 })).toBe(30);
  });
});
