import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ALL_EVENT_TYPES,
  attemptOffsets,
  EventTypes,
  giveUp,
  isEventType,
  MAX_ATTEMPTS,
  newWebhookSecret,
  RETRY_DELAYS_MS,
  RETRY_WINDOW_MS,
  SAFETY_EVENT_TYPE,
  scheduleFor,
  serializeSafetyEvent,
  signPayload,
  verifySignature,
} from "../src/index.js";

const NOW = 1_790_000_000;

describe("verification details", () => {
  it("accepts `now` as well as `nowSeconds`, and a custom tolerance", () => {
    const header = signPayload("whsec_a", "p", NOW);
    expect(verifySignature({ secret: "whsec_a", payload: "p", header, now: NOW + 10 }).ok).toBe(true);
    expect(
      verifySignature({ secret: "whsec_a", payload: "p", header, now: NOW + 10, toleranceSeconds: 5 }),
    ).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" });
  });
  it("a signature of the wrong length is malformed, never a thrown error", () => {
    const header = `t=${NOW},v1=${"ab".repeat(31)}`;
    expect(verifySignature({ secret: "whsec_a", payload: "p", header, now: NOW })).toEqual({
      ok: false,
      reason: "malformed_header",
    });
  });
  it("signs afresh per timestamp: the same payload at another second has another signature", () => {
    expect(signPayload("whsec_a", "p", NOW)).not.toBe(signPayload("whsec_a", "p", NOW + 1));
    expect(signPayload("whsec_a", "p", NOW + 0.9)).toBe(signPayload("whsec_a", "p", NOW));
  });
  it("ignores unknown scheme entries (v0 and future ones) beside a good v1", () => {
    const good = signPayload("whsec_a", "p", NOW);
    const header = `${good},v0=${"f".repeat(64)},v2=whatever`;
    expect(verifySignature({ secret: "whsec_a", payload: "p", header, now: NOW }).ok).toBe(true);
  });
  it("property: a header signed with another secret never verifies", () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (p, a, b) => {
        fc.pre(a !== b);
        const header = signPayload(a, p, NOW);
        expect(verifySignature({ secret: b, payload: p, header, now: NOW })).toEqual({
          ok: false,
          reason: "signature_mismatch",
        });
      }),
    );
  });
  it("property: timestamps within the tolerance verify, those outside do not", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), (skew) => {
        const header = signPayload("whsec_a", "p", NOW + skew);
        const result = verifySignature({ secret: "whsec_a", payload: "p", header, now: NOW });
        expect(result.ok).toBe(Math.abs(skew) <= 300);
      }),
    );
  });
  it("secrets use base62 characters evenly enough (every character appears)", () => {
    const seen = new Set(Array.from({ length: 200 }, newWebhookSecret).join("").replaceAll("whsec_", ""));
    expect(seen.size).toBe(62);
  });
});

describe("schedule helpers", () => {
  it("attempt offsets start at 0, grow, and the last is inside the window", () => {
    const offsets = attemptOffsets();
    expect(offsets).toHaveLength(MAX_ATTEMPTS);
    expect(offsets[0]).toBe(0);
    for (let i = 1; i < offsets.length; i++)
      expect(offsets[i] as number).toBeGreaterThan(offsets[i - 1] as number);
    expect(offsets.at(-1) as number).toBeLessThanOrEqual(RETRY_WINDOW_MS);
  });
  it("backs off: every delay is at least as long as the one before and the first is 30 s", () => {
    expect(RETRY_DELAYS_MS[0]).toBe(30_000);
    for (let i = 1; i < RETRY_DELAYS_MS.length; i++)
      expect(RETRY_DELAYS_MS[i] as number).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[i - 1] as number);
  });
  it("giveUp is true only past the 24 h window", () => {
    expect(giveUp(0, RETRY_WINDOW_MS)).toBe(false);
    expect(giveUp(0, RETRY_WINDOW_MS + 1)).toBe(true);
    expect(giveUp(0, 86_401, { timeScale: 0.001 })).toBe(true);
  });
  it("scheduleFor binds a time scale: a day becomes 86.4 s", () => {
    const s = scheduleFor({ timeScale: 0.001, random: () => 0.5 });
    expect(s.windowMs).toBe(86_400);
    expect(s.delaysMs[0]).toBe(30);
    expect(s.nextAttemptDelay(1, 0, 0)).toBe(30);
    expect(s.nextAttemptDelay(2, 0, 30)).toBe(120);
    expect(s.giveUp(0, 86_401)).toBe(true);
    expect(() => scheduleFor({ timeScale: 0 })).toThrow(RangeError);
  });
  it("property: with any jitter, no attempt is scheduled outside the window", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 0.999999, noNaN: true }), { minLength: 12, maxLength: 12 }),
        (rs) => {
          let now = 0;
          let made = 1;
          for (const r of rs) {
            const delay = scheduleFor({ random: () => r }).nextAttemptDelay(made, 0, now);
            if (delay === null) break;
            now += delay;
            made++;
            expect(now).toBeLessThanOrEqual(RETRY_WINDOW_MS);
          }
          expect(made).toBeLessThanOrEqual(MAX_ATTEMPTS);
        },
      ),
    );
  });
});

describe("event types and safety payload", () => {
  it("lists the five account types and the safety type", () => {
    expect(ALL_EVENT_TYPES).toContain("mse.risk_flagged");
    expect(EventTypes.labOrderResultsReady).toBe("lab_order.results_ready");
    expect(isEventType("wearable.connected")).toBe(true);
    expect(isEventType(SAFETY_EVENT_TYPE)).toBe(false);
  });
  it("serialises the safety event in decision 38's field order, with nothing extra", () => {
    const payload = {
      createdAt: "2026-11-01T00:00:00.000Z",
      risk: { flag: true, level: "high", labels: ["si_plan"] },
      version: 2,
      patientId: "p1",
      visitId: "v1",
      organizationId: "org_1",
      type: SAFETY_EVENT_TYPE,
      object: "mse.safety_event" as const,
      id: "sev_1",
      extra: "free text must not leak",
    };
    const text = serializeSafetyEvent(payload);
    expect(Object.keys(JSON.parse(text))).toEqual([
      "id",
      "object",
      "type",
      "organizationId",
      "visitId",
      "patientId",
      "version",
      "risk",
      "createdAt",
    ]);
    expect(text).not.toContain("free text");
  });
});
