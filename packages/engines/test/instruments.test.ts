import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  classifyScaleChange,
  INSTRUMENT_PROFILES,
  type KnownInstrument,
  normaliseInstrumentText,
  recogniseInstrument,
  reliableChange,
  severityBand,
} from "../src/instruments.js";
import { readSymptomFindings, UNKNOWN_SCALE_CHANGE_PP } from "../src/symptom-findings.js";
import type { Assessment } from "../src/types.js";

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
    expect(["phq9", "gad7"]).not.toContain(recogniseInstrument(id, name));
  });

  it("tries instrumentId before instrumentName", () => {
    expect(recogniseInstrument("gad7", "PHQ-9")).toBe("gad7");
  });

  it("normalises case, spaces, punctuation and accents", () => {
    expect(normaliseInstrumentText("  P.H.Q – 9 ")).toBe("phq9");
  });
});

describe("INSTRUMENT_PROFILES", () => {
  // Was: { maxScore, sd: 3.5, reliability: 0.84 / 0.83 } (the Jacobson-Truax inputs). The profiles
  // now carry the published bands and the NHS Talking Therapies caseness and reliable-change points.
  it("carries the published ranges, caseness and reliable-change points, with a source", () => {
    expect(INSTRUMENT_PROFILES.phq9).toMatchObject({
      key: "phq9",
      display: "PHQ-9",
      maxScore: 27,
      casenessMin: 10,
      reliableChangePoints: 6,
    });
    expect(INSTRUMENT_PROFILES.gad7).toMatchObject({
      key: "gad7",
      display: "GAD-7",
      maxScore: 21,
      casenessMin: 8,
      reliableChangePoints: 4,
    });
    for (const p of Object.values(INSTRUMENT_PROFILES)) {
      expect(p.source).toMatch(/Clark et al\. 2018/);
      // The Jacobson-Truax population figures are gone from the profiles.
      expect(p).not.toHaveProperty("sd");
      expect(p).not.toHaveProperty("reliability");
    }
  });

  it("has the published bands (Kroenke 2001; Spitzer 2006)", () => {
    expect(INSTRUMENT_PROFILES.phq9.bands.map((b) => [b.key, b.min, b.max])).toEqual([
      ["minimal", 0, 4],
      ["mild", 5, 9],
      ["moderate", 10, 14],
      ["moderately_severe", 15, 19],
      ["severe", 20, 27],
    ]);
    expect(INSTRUMENT_PROFILES.gad7.bands.map((b) => [b.key, b.min, b.max])).toEqual([
      ["minimal", 0, 4],
      ["mild", 5, 9],
      ["moderate", 10, 14],
      ["severe", 15, 21],
    ]);
  });

  it("bands cover 0..maxScore without gaps or overlaps, lowest first", () => {
    for (const p of Object.values(INSTRUMENT_PROFILES)) {
      expect(p.bands[0]?.min).toBe(0);
      expect(p.bands.at(-1)?.max).toBe(p.maxScore);
      for (let i = 1; i < p.bands.length; i++)
        expect(p.bands[i]?.min).toBe((p.bands[i - 1]?.max as number) + 1);
    }
  });
});

describe("severityBand", () => {
  it.each([
    // PHQ-9: every cut-point and the score just below it (Kroenke 2001: 5, 10, 15, 20).
    ["phq9", 0, "minimal"],
    ["phq9", 4, "minimal"],
    ["phq9", 5, "mild"],
    ["phq9", 9, "mild"],
    ["phq9", 10, "moderate"],
    ["phq9", 14, "moderate"],
    ["phq9", 15, "moderately_severe"],
    ["phq9", 19, "moderately_severe"],
    ["phq9", 20, "severe"],
    ["phq9", 27, "severe"],
    // GAD-7: cut-points 5, 10, 15 (Spitzer 2006); no "moderately severe" band.
    ["gad7", 0, "minimal"],
    ["gad7", 4, "minimal"],
    ["gad7", 5, "mild"],
    ["gad7", 9, "mild"],
    ["gad7", 10, "moderate"],
    ["gad7", 14, "moderate"],
    ["gad7", 15, "severe"],
    ["gad7", 21, "severe"],
  ] as const)("%s %d is %s", (instrument, score, key) => {
    expect(severityBand(instrument, score).key).toBe(key);
  });

  it("reads a score above the maximum as the top band and a negative one as the bottom band", () => {
    expect(severityBand("phq9", 28).key).toBe("severe");
    expect(severityBand("phq9", 1000).key).toBe("severe");
    expect(severityBand("gad7", 22).key).toBe("severe");
    expect(severityBand("phq9", -1).key).toBe("minimal");
    expect(severityBand("gad7", -0.5).key).toBe("minimal");
  });

  it("puts a fractional score in the band whose lower cut-point it has reached", () => {
    expect(severityBand("phq9", 4.99).key).toBe("minimal");
    expect(severityBand("phq9", 9.5).key).toBe("mild");
    expect(severityBand("phq9", 19.99).key).toBe("moderately_severe");
    expect(severityBand("phq9", 20.01).key).toBe("severe");
    expect(severityBand("gad7", 14.5).key).toBe("moderate");
    expect(severityBand("gad7", 14.999).key).toBe("moderate");
  });

  it("returns the whole band with its label", () => {
    expect(severityBand("phq9", 17)).toEqual({
      key: "moderately_severe",
      label: "moderately severe",
      min: 15,
      max: 19,
    });
  });

  it("never gets better as the score rises", () => {
    const order = ["minimal", "mild", "moderate", "moderately_severe", "severe"];
    fc.assert(
      fc.property(
        fc.constantFrom<KnownInstrument>("phq9", "gad7"),
        fc.double({ min: -5, max: 40, noNaN: true }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        (instrument, score, rise) => {
          const a = order.indexOf(severityBand(instrument, score).key);
          const b = order.indexOf(severityBand(instrument, score + rise).key);
          expect(b).toBeGreaterThanOrEqual(a);
        },
      ),
    );
  });
});

describe("classifyScaleChange (NHS Talking Therapies definitions)", () => {
  it("PHQ-9: a change of exactly 6 points either way is reliable, 5 is not", () => {
    expect(classifyScaleChange("phq9", 10, 16)).toMatchObject({
      before: 10,
      after: 16,
      change: 6,
      threshold: 6,
      category: "reliable_deterioration",
    });
    expect(classifyScaleChange("phq9", 10, 15).category).toBe("no_reliable_change");
    expect(classifyScaleChange("phq9", 16, 10)).toMatchObject({
      change: -6,
      category: "reliable_improvement",
    });
    expect(classifyScaleChange("phq9", 15, 10).category).toBe("no_reliable_change");
    // The old Jacobson-Truax threshold (3.88 points) called a 4-point change reliable; it is not now.
    expect(classifyScaleChange("phq9", 14, 10).category).toBe("no_reliable_change");
    expect(classifyScaleChange("phq9", 10, 15.99).category).toBe("no_reliable_change");
  });

  it("GAD-7: a change of exactly 4 points either way is reliable, 3 is not", () => {
    expect(classifyScaleChange("gad7", 8, 12)).toMatchObject({
      change: 4,
      threshold: 4,
      category: "reliable_deterioration",
    });
    expect(classifyScaleChange("gad7", 8, 11).category).toBe("no_reliable_change");
    expect(classifyScaleChange("gad7", 12, 8).category).toBe("reliable_improvement");
    expect(classifyScaleChange("gad7", 11, 8).category).toBe("no_reliable_change");
    // Under Jacobson-Truax (threshold 4.00003) a whole 4-point GAD-7 change fell just short.
    expect(classifyScaleChange("gad7", 12, 8.01).category).toBe("no_reliable_change");
  });

  it("no change is no reliable change", () => {
    expect(classifyScaleChange("phq9", 12, 12)).toMatchObject({
      change: 0,
      category: "no_reliable_change",
      recovery: false,
      reliableRecovery: false,
    });
  });

  it("recovery: from caseness (PHQ-9 >= 10, GAD-7 >= 8) to below it; reliable recovery adds a reliable improvement", () => {
    // PHQ-9 12 -> 9: a case becomes a non-case, but -3 is not reliable.
    expect(classifyScaleChange("phq9", 12, 9)).toMatchObject({
      category: "no_reliable_change",
      recovery: true,
      reliableRecovery: false,
    });
    // Exactly at caseness counts as a case.
    expect(classifyScaleChange("phq9", 10, 9).recovery).toBe(true);
    // 15 -> 9: -6 (reliable) and case -> non-case.
    expect(classifyScaleChange("phq9", 15, 9)).toMatchObject({
      category: "reliable_improvement",
      recovery: true,
      reliableRecovery: true,
    });
    // 20 -> 10: reliable improvement, but 10 is still a case.
    expect(classifyScaleChange("phq9", 20, 10)).toMatchObject({
      category: "reliable_improvement",
      recovery: false,
      reliableRecovery: false,
    });
    // 9 -> 3: reliable improvement, but it was never a case.
    expect(classifyScaleChange("phq9", 9, 3)).toMatchObject({
      category: "reliable_improvement",
      recovery: false,
      reliableRecovery: false,
    });
    // GAD-7 caseness is 8.
    expect(classifyScaleChange("gad7", 8, 7)).toMatchObject({ recovery: true, reliableRecovery: false });
    expect(classifyScaleChange("gad7", 12, 7)).toMatchObject({ recovery: true, reliableRecovery: true });
    expect(classifyScaleChange("gad7", 7, 3)).toMatchObject({
      category: "reliable_improvement",
      recovery: false,
    });
    // Deterioration into caseness is never recovery.
    expect(classifyScaleChange("gad7", 3, 12)).toMatchObject({
      category: "reliable_deterioration",
      recovery: false,
      reliableRecovery: false,
    });
  });

  it("accepts a custom threshold (a calibrated set) in place of the published points", () => {
    expect(classifyScaleChange("phq9", 10, 14, 4)).toMatchObject({
      threshold: 4,
      category: "reliable_deterioration",
    });
    expect(classifyScaleChange("phq9", 10, 14).category).toBe("no_reliable_change");
    // GAD-7 12 -> 7 is a reliable recovery at the published 4 points, but not at a threshold of 6.
    expect(classifyScaleChange("gad7", 12, 7).reliableRecovery).toBe(true);
    expect(classifyScaleChange("gad7", 12, 7, 6)).toMatchObject({
      threshold: 6,
      category: "no_reliable_change",
      recovery: true,
      reliableRecovery: false,
    });
    expect(classifyScaleChange("gad7", 12, 6, 6).reliableRecovery).toBe(true);
  });

  it("is antisymmetric and reliable recovery implies recovery and improvement", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<"phq9" | "gad7">("phq9", "gad7"),
        fc.integer({ min: 0, max: 27 }),
        fc.integer({ min: 0, max: 27 }),
        (instrument, a, b) => {
          const ab = classifyScaleChange(instrument, a, b);
          const ba = classifyScaleChange(instrument, b, a);
          const mirror = {
            reliable_improvement: "reliable_deterioration",
            reliable_deterioration: "reliable_improvement",
            no_reliable_change: "no_reliable_change",
          } as const;
          expect(ba.category).toBe(mirror[ab.category]);
          expect(ab.change).toBe(b - a);
          expect(ab.category !== "no_reliable_change").toBe(
            Math.abs(b - a) >= INSTRUMENT_PROFILES[instrument].reliableChangePoints,
          );
          if (ab.reliableRecovery) {
            expect(ab.recovery).toBe(true);
            expect(ab.category).toBe("reliable_improvement");
          }
        },
      ),
    );
  });
});

// Still exported as a generic helper for a caller with its own SD and reliability; the engines no
// longer use it for the PHQ-9 and GAD-7 (the figures below are the caller's, not engine defaults).
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

describe("readSymptomFindings (the one reading of the symptom scales the engines share)", () => {
  const adm = (
    score: number,
    date: string,
    instrument: { id: string; name: string; max: number } = { id: "phq9", name: "PHQ-9", max: 27 },
    severity?: string,
  ): Assessment => ({
    instrumentId: instrument.id,
    instrumentName: instrument.name,
    score,
    maxScore: instrument.max,
    createdAt: `${date}T09:00:00Z`,
    ...(severity === undefined ? {} : { severity }),
  });
  const MOOD = { id: "mood20", name: "Mood scale", max: 20 };
  const phq = (...scores: number[]) =>
    scores.map((s, i) => adm(s, `2026-06-${String(1 + 7 * i).padStart(2, "0")}`));

  it("flags a severe latest score by its published band and a reliable deterioration, deterioration first", () => {
    const f = readSymptomFindings(phq(12, 21));
    expect(f.instruments).toHaveLength(1);
    expect(f.instruments[0]).toMatchObject({
      key: "phq9",
      known: "phq9",
      n: 2,
      severe: true,
      severeBy: "published_band",
      deteriorated: true,
      improved: false,
      offScale: false,
    });
    expect(f.instruments[0]?.band?.key).toBe("severe");
    expect(f.flags).toEqual([
      "PHQ-9 reliable deterioration: 12 -> 21 (+9 points; 6 or more is reliable)",
      "PHQ-9 21 of 27: severe band (20-27)",
    ]);
    expect(f.severe).toHaveLength(1);
    expect(f.deteriorated).toHaveLength(1);
  });

  it("reads severity from the latest administration only", () => {
    const f = readSymptomFindings(phq(22, 14));
    expect(f.instruments[0]).toMatchObject({ severe: false, improved: true, deteriorated: false });
    expect(f.flags).toEqual([]);
    // A single severe administration is flagged; it has no change.
    const one = readSymptomFindings(phq(20));
    expect(one.instruments[0]).toMatchObject({ severe: true, overall: null, recent: null, overallPp: null });
    expect(one.flags).toEqual(["PHQ-9 20 of 27: severe band (20-27)"]);
    // 19 is moderately severe, not severe.
    expect(readSymptomFindings(phq(19)).flags).toEqual([]);
  });

  it("reliable deterioration is first vs latest OR previous vs latest", () => {
    // 5 -> 9 -> 11: +6 overall (reliable), +2 recently.
    expect(readSymptomFindings(phq(5, 9, 11)).instruments[0]?.deteriorated).toBe(true);
    // 10 -> 4 -> 10: 0 overall, +6 recently; the flag names the reliable pair.
    const recent = readSymptomFindings(phq(10, 4, 10));
    expect(recent.instruments[0]?.deteriorated).toBe(true);
    expect(recent.flags).toEqual([
      "PHQ-9 reliable deterioration: 4 -> 10 (+6 points; 6 or more is reliable)",
    ]);
    // 5 -> 7 -> 10: +5 overall and +3 recently, neither reliable.
    expect(readSymptomFindings(phq(5, 7, 10)).flags).toEqual([]);
    // GAD-7: 4 points is reliable.
    const gad = { id: "gad7", name: "GAD-7", max: 21 };
    const g = readSymptomFindings([adm(6, "2026-06-01", gad), adm(10, "2026-06-15", gad)]);
    expect(g.flags).toEqual(["GAD-7 reliable deterioration: 6 -> 10 (+4 points; 4 or more is reliable)"]);
  });

  it("improvement is a reliable fall first vs latest", () => {
    expect(readSymptomFindings(phq(18, 12)).instruments[0]?.improved).toBe(true);
    expect(readSymptomFindings(phq(18, 13)).instruments[0]?.improved).toBe(false);
  });

  it("an unknown scale is not read for change: direction unknown (decision 60)", () => {
    // 8/20 = 40 % -> 16/20 = 80 %: a rise, but whether higher is worse is not known.
    const rise = readSymptomFindings([adm(8, "2026-06-01", MOOD), adm(16, "2026-06-15", MOOD)]);
    expect(rise.instruments[0]).toMatchObject({
      known: null,
      direction: null,
      evaluated: false,
      deteriorated: false,
      improved: false,
    });
    expect(rise.flags).toEqual([]);
    expect(rise.unevaluated).toHaveLength(1);
    expect(rise.notes).toEqual([
      "Mood scale: change not evaluated: direction unknown (not a recognised instrument, so whether a higher score is better or worse is not known)",
    ]);
    // A fall is not an improvement either.
    const fall = readSymptomFindings([adm(16, "2026-06-01", MOOD), adm(8, "2026-06-15", MOOD)]);
    expect(fall.instruments[0]?.improved).toBe(false);
  });

  it(`a recognised scale read off its published scale changes by ${UNKNOWN_SCALE_CHANGE_PP} percentage points`, () => {
    expect(UNKNOWN_SCALE_CHANGE_PP).toBe(15);
    const PHQ20 = { id: "phq9", name: "PHQ-9", max: 20 };
    // 8/20 = 40 % -> 11/20 = 55 %: +15 pp toward the worse end.
    const rise = [adm(8, "2026-06-01", PHQ20), adm(11, "2026-06-15", PHQ20)];
    const f = readSymptomFindings(rise);
    expect(f.instruments[0]).toMatchObject({ known: "phq9", offScale: true, band: null, deteriorated: true });
    expect(f.instruments[0]?.overallPp).toBeCloseTo(15, 9);
    expect(f.flags).toEqual([
      "PHQ-9 rose 15 percentage points of the scale maximum toward its worse end (15 or more is counted as deterioration here, an expert-set threshold)",
    ]);
    // +14.5 pp is not counted; a caller-set threshold replaces 15.
    expect(readSymptomFindings([adm(8, "2026-06-01", PHQ20), adm(10.9, "2026-06-15", PHQ20)]).flags).toEqual(
      [],
    );
    expect(readSymptomFindings(rise, 20).flags).toEqual([]);
    // A fall of 15 pp is an improvement.
    expect(
      readSymptomFindings([adm(11, "2026-06-01", PHQ20), adm(8, "2026-06-15", PHQ20)]).instruments[0]
        ?.improved,
    ).toBe(true);
  });

  it("a caller's severity naming the top band marks the latest score severe; 'moderately severe' does not", () => {
    // CES-D: not in the instrument table, so it has no published band here.
    const bdi = { id: "cesd", name: "CES-D", max: 60 };
    const severe = readSymptomFindings([adm(30, "2026-06-01", bdi, "Severe")]);
    expect(severe.instruments[0]).toMatchObject({ severe: true, severeBy: "caller_severity" });
    expect(severe.flags).toEqual(['CES-D latest administration reported as "Severe" by the caller']);
    expect(readSymptomFindings([adm(50, "2026-06-01", bdi, "Extremely severe")]).severe).toHaveLength(1);
    expect(readSymptomFindings([adm(25, "2026-06-01", bdi, "moderately severe")]).severe).toHaveLength(0);
    // Only the latest administration's label counts.
    expect(
      readSymptomFindings([adm(40, "2026-06-01", bdi, "severe"), adm(20, "2026-06-15", bdi, "mild")]).severe,
    ).toHaveLength(0);
  });

  it("a PHQ-9 on another maximum gets no band and falls back to the percentage rule", () => {
    const off = { id: "phq9", name: "PHQ-9", max: 30 };
    const f = readSymptomFindings([adm(10, "2026-06-01", off), adm(25, "2026-06-15", off)]);
    expect(f.instruments[0]).toMatchObject({ known: "phq9", offScale: true, band: null, overall: null });
    // 33.3 % -> 83.3 %: +50 pp, a deterioration by the percentage rule; no band, so not severe.
    expect(f.instruments[0]?.deteriorated).toBe(true);
    expect(f.instruments[0]?.severe).toBe(false);
  });

  it("pools name variants, skips unreadable administrations and reads nothing from nothing", () => {
    const mixed = [
      adm(12, "2026-06-01", { id: "PHQ-9", name: "x", max: 27 }),
      adm(21, "2026-06-15", { id: "q1", name: "Patient Health Questionnaire-9", max: 27 }),
      { ...adm(0, "2026-06-20"), createdAt: "not a date" },
      { ...adm(0, "2026-06-21"), maxScore: 0 },
    ];
    const f = readSymptomFindings(mixed);
    expect(f.instruments).toHaveLength(1);
    expect(f.instruments[0]).toMatchObject({ key: "phq9", n: 2, severe: true, deteriorated: true });
    expect(readSymptomFindings([])).toEqual({
      instruments: [],
      severe: [],
      deteriorated: [],
      unevaluated: [],
      withInvalid: [],
      flags: [],
      notes: [],
    });
    expect(readSymptomFindings(undefined).flags).toEqual([]);
  });
});
