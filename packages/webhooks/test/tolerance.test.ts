import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  attemptOffsets,
  giveUp,
  MAX_SIGNATURE_HEADER_LENGTH,
  nextAttemptDelay,
  scheduleFor,
  signatureTolerance,
  signPayload,
  verifySignature,
} from "../src/index.js";

/**
 * Decision 153: a verifier's tolerance that is not a finite number >= 0 (NaN from an unset
 * environment variable, Infinity, a negative number, a string) throws, instead of making every
 * comparison false and accepting a signature of any age.
 */
const NOW = 1_800_000_000;
const YEAR = 365 * 24 * 3600;
const secret = "whsec_tolerance";
const payload = '{"id":"evt_1","type":"lab_order.results_ready"}';

/** Tolerances no verifier may use: non-finite, negative, or not a number at all. */
const badTolerances: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0.001, -1, -300),
  fc.double({ max: -Number.MIN_VALUE, noNaN: true }),
  fc.double().filter((d) => !Number.isFinite(d)),
  fc.constantFrom("300", "", null, {}, [], true),
);

describe("verifySignature refuses a tolerance that is not a finite number >= 0", () => {
  it("NaN (an unset variable) throws instead of accepting a year-old signature", () => {
    const old = signPayload(secret, payload, NOW - YEAR);
    expect(() =>
      verifySignature({ secret, payload, header: old, now: NOW, toleranceSeconds: Number(undefined) }),
    ).toThrow(RangeError);
    expect(verifySignature({ secret, payload, header: old, now: NOW })).toEqual({
      ok: false,
      reason: "timestamp_out_of_tolerance",
    });
  });

  it("every bad tolerance throws RangeError, for fresh, old, malformed and missing headers alike", () => {
    fc.assert(
      fc.property(
        badTolerances,
        fc.constantFrom(
          signPayload(secret, payload, NOW),
          signPayload(secret, payload, NOW - YEAR),
          "garbage",
          null,
        ),
        (tolerance, header) => {
          expect(() =>
            verifySignature({ secret, payload, header, now: NOW, toleranceSeconds: tolerance as number }),
          ).toThrow(RangeError);
          expect(() => signatureTolerance(tolerance as number)).toThrow(/finite number of seconds >= 0/);
        },
      ),
    );
  });

  it("every finite tolerance >= 0 is used as given: inside accepted, outside refused", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 * YEAR }),
        fc.integer({ min: 0, max: 10 * YEAR }),
        (tol, age) => {
          const header = signPayload(secret, payload, NOW - age);
          const result = verifySignature({ secret, payload, header, now: NOW, toleranceSeconds: tol });
          expect(result.ok).toBe(age <= tol);
        },
      ),
    );
    expect(signatureTolerance(undefined)).toBe(300);
    expect(signatureTolerance(0)).toBe(0);
  });

  it("a clock that is not finite throws too (it would make every comparison false)", () => {
    const header = signPayload(secret, payload, NOW - YEAR);
    for (const now of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => verifySignature({ secret, payload, header, now })).toThrow(RangeError);
      expect(() => verifySignature({ secret, payload, header, nowSeconds: now })).toThrow(RangeError);
    }
  });

  it("a header longer than MAX_SIGNATURE_HEADER_LENGTH is malformed, though it holds a valid signature", () => {
    const valid = signPayload(secret, payload, NOW);
    const padded = `${valid},${"v0=x,".repeat(MAX_SIGNATURE_HEADER_LENGTH / 5)}`;
    expect(padded.length).toBeGreaterThan(MAX_SIGNATURE_HEADER_LENGTH);
    expect(verifySignature({ secret, payload, header: padded, now: NOW })).toEqual({
      ok: false,
      reason: "malformed_header",
    });
    expect(verifySignature({ secret, payload, header: valid, now: NOW }).ok).toBe(true);
  });
});

describe("the retry schedule refuses a time scale that is not a finite number > 0", () => {
  it("NaN, Infinity, 0 and negatives throw in every function that takes one", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, -0),
          fc.double({ max: 0, noNaN: true }),
        ),
        (timeScale) => {
          expect(() => scheduleFor({ timeScale })).toThrow(RangeError);
          expect(() => nextAttemptDelay(1, 0, 0, { timeScale })).toThrow(RangeError);
          expect(() => giveUp(0, 0, { timeScale })).toThrow(RangeError);
          expect(() => attemptOffsets({ timeScale })).toThrow(RangeError);
        },
      ),
    );
    expect(giveUp(0, 86_401, { timeScale: 0.001 })).toBe(true);
  });
});
