import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  INSTRUMENT_PROFILES,
  normaliseInstrumentText,
  recogniseInstrument,
  reliableChange,
} from "../src/instruments.js";

describe("recogniseInstrument", () => {
  it.each([
    ["phq9", "x"],
    ["PHQ-9", "x"],
    ["phq_9", "x"],
    ["Phq 9", "x"],
    ["PHQ9", "x"],
    ["phq-9-total", "x"],
    ["custom-id", "PHQ-9"],
    ["custom-id", "Patient Health Questionnaire-9"],
    ["custom-id", "patient health questionnaire (9-item)"],
  ])("recognises %s / %s as the PHQ-9", (id, name) => {
    expect(recogniseInstrument(id, name)).toBe("phq9");
  });

  it.each([
    ["gad7", "x"],
    ["GAD-7", "x"],
    ["gad_7", "x"],
    ["custom", "Generalized Anxiety Disorder 7"],
    ["custom", "Generalised Anxiety Disorder-7"],
    ["custom", "Generalized Anxiety Disorder Scale-7"],
  ])("recognises %s / %s as the GAD-7", (id, name) => {
    expect(recogniseInstrument(id, name)).toBe("gad7");
  });

  it.each([
    ["phq2", "PHQ-2"],
    ["phq8", "PHQ-8"],
    ["phq9_item9", "PHQ-9 item 9"],
    ["gad2", "GAD-2"],
    ["bdi", "Beck Depression Inventory"],
  ])("does not read %s / %s as PHQ-9 or GAD-7", (id, name) => {
    expect(recogniseInstrument(id, name)).toBeNull();
  });

  it("tries instrumentId before instrumentName", () => {
    expect(recogniseInstrument("gad7", "PHQ-9")).toBe("gad7");
  });

  it("normalises case, spaces, punctuation and accents", () => {
    expect(normaliseInstrumentText("  P.H.Q – 9 ")).toBe("phq9");
  });
});

describe("INSTRUMENT_PROFILES", () => {
  it("carries the published ranges, SDs and reliabilities", () => {
    expect(INSTRUMENT_PROFILES.phq9).toMatchObject({ maxScore: 27, sd: 3.5, reliability: 0.84 });
    expect(INSTRUMENT_PROFILES.gad7).toMatchObject({ maxScore: 21, sd: 3.5, reliability: 0.83 });
  });
});

describe("reliableChange (Jacobson & Truax 1991)", () => {
  it("matches a hand computation for the PHQ-9", () => {
    // SE = 3.5 * sqrt(0.16) = 1.4; S_diff = sqrt(2) * 1.4 = 1.97990; threshold = 1.96 * 1.97990 = 3.88060
    const rc = reliableChange(19, 10, 3.5, 0.84);
    expect(rc).not.toBeNull();
    expect(rc?.sDiff).toBeCloseTo(1.9799, 4);
    expect(rc?.threshold).toBeCloseTo(3.8806, 4);
    expect(rc?.rci).toBeCloseTo(-9 / 1.979899, 4);
    expect(rc?.reliable).toBe(true);
    expect(rc?.direction).toBe("improved");
  });

  it("matches a hand computation for the GAD-7 (threshold 4.00 points)", () => {
    // SE = 3.5 * sqrt(0.17) = 1.44309; S_diff = 2.04083; threshold = 4.0000
    const rc = reliableChange(8, 12, 3.5, 0.83);
    expect(rc?.threshold).toBeCloseTo(4.0, 3);
    // 1.96 * 2.04083 = 4.00003, so a whole-point change of 4 falls just short; 5 is reliable.
    expect(rc?.direction).toBe("no_reliable_change");
    expect(reliableChange(8, 13, 3.5, 0.83)?.direction).toBe("deteriorated");
  });

  it("is not reliable at or below the threshold and reliable just above it", () => {
    expect(reliableChange(10, 13.88, 3.5, 0.84)?.reliable).toBe(false);
    expect(reliableChange(10, 13.9, 3.5, 0.84)?.reliable).toBe(true);
    expect(reliableChange(10, 6.12, 3.5, 0.84)?.direction).toBe("no_reliable_change");
    expect(reliableChange(10, 6.1, 3.5, 0.84)?.direction).toBe("improved");
  });

  it("returns null when no index can be formed", () => {
    expect(reliableChange(1, 2, 0, 0.8)).toBeNull();
    expect(reliableChange(1, 2, 3, 1)).toBeNull();
    expect(reliableChange(1, 2, 3, -0.1)).toBeNull();
    expect(reliableChange(Number.NaN, 2, 3, 0.8)).toBeNull();
  });

  it("is antisymmetric in before/after", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 27, noNaN: true }),
        fc.double({ min: 0, max: 27, noNaN: true }),
        (a, b) => {
          const ab = reliableChange(a, b, 3.5, 0.84);
          const ba = reliableChange(b, a, 3.5, 0.84);
          expect(ab?.reliable).toBe(ba?.reliable);
          expect((ab?.rci ?? 0) + (ba?.rci ?? 0)).toBeCloseTo(0, 9);
        },
      ),
    );
  });
});
