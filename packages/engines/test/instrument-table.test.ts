/**
 * The instrument table as a whole (decision 60): every entry coherent (direction set, bands
 * covering the total range without gaps, totals the items can reach, aliases unique across
 * instruments and never a near name), and the instruments beyond the first six read in their own
 * direction by the engines and scored by the tools: a WEMWBS fall is a deterioration, a MADRS fall
 * an improvement, with the percentage-point rule where no reliable change is sourced.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Assessment,
  analyzeMedication,
  INSTRUMENT_IDS,
  INSTRUMENTS,
  type InstrumentId,
  isPublishedTotal,
  normaliseInstrumentText,
  predictRelapse,
  RELAPSE_LEVELS,
  recogniseInstrument,
  scoreInstruments,
  scoreOutcome,
  ToolInputError,
} from "../src/index.js";
import {
  ALERT_BANDS,
  maximumTotalWithout,
  percentOfScale,
  reachableTotalRange,
  totalOfResponses,
} from "../src/knowledge/instruments.js";
import { UNKNOWN_SCALE_CHANGE_PP } from "../src/symptom-findings.js";
import { assessmentSeries } from "./arbitraries.js";

const DAY = 86_400_000;
const NOW = new Date("2026-07-01T00:00:00Z");

const series = assessmentSeries;

const rx = [{ id: "rx", medicationName: "Sertraline", status: "active", prescribedAt: "2026-06-05" }];

function issuesOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolInputError) return error.issues.map((issue) => issue.message);
    throw error;
  }
  throw new Error("expected a ToolInputError");
}

describe("every entry of the table is coherent", () => {
  it.each(INSTRUMENT_IDS)(
    "%s: direction, bands over the whole total range, reachable totals, sources",
    (id) => {
      const k = INSTRUMENTS[id];
      expect(k.id).toBe(id);
      expect(["higher_is_worse", "higher_is_better"]).toContain(k.direction);
      expect(k.totalMin).toBeLessThan(k.totalMax);
      expect(k.itemMin).toBeLessThan(k.itemMax);
      // Bands: lowest first, from totalMin to totalMax without gaps or overlaps, unique keys.
      expect(k.bands[0]?.min).toBe(k.totalMin);
      expect(k.bands.at(-1)?.max).toBe(k.totalMax);
      for (let i = 1; i < k.bands.length; i++)
        expect(k.bands[i]?.min).toBe((k.bands[i - 1]?.max ?? Number.NaN) + 1);
      for (const band of k.bands) expect(band.max).toBeGreaterThanOrEqual(band.min);
      expect(new Set(k.bands.map((b) => b.key)).size).toBe(k.bands.length);
      // The severe band, the tool's alert band and caseness name things the entry has.
      if (k.severeBandKey !== null) expect(k.bands.map((b) => b.key)).toContain(k.severeBandKey);
      const alert = ALERT_BANDS[id];
      if (alert !== null) expect(k.bands.map((b) => b.key)).toContain(alert.bandKey);
      if (k.casenessMin !== null) {
        expect(k.direction).toBe("higher_is_worse");
        expect(k.casenessMin).toBeGreaterThan(k.totalMin);
        expect(k.casenessMin).toBeLessThanOrEqual(k.totalMax);
      }
      if (k.reliableChangePoints !== null) {
        expect(k.reliableChangePoints).toBeGreaterThan(0);
        expect(k.reliableChangePoints).toBeLessThan(k.totalMax - k.totalMin);
      }
      // The published range is exactly what the items can reach under the instrument's scoring.
      expect(reachableTotalRange(id)).toEqual({ min: k.totalMin, max: k.totalMax });
      // Risk items are real items, scored from 0.
      for (const r of k.riskItems) {
        expect(r.item).toBeGreaterThanOrEqual(1);
        expect(r.item).toBeLessThanOrEqual(k.itemCount);
        expect(k.itemMin).toBe(0);
      }
      // Allowed values and domains name real items.
      for (const item of Object.keys(k.allowedItemValues ?? {}).map(Number)) {
        expect(item).toBeGreaterThanOrEqual(1);
        expect(item).toBeLessThanOrEqual(k.itemCount);
      }
      if (k.domains) {
        const items = k.domains.flat().sort((a, b) => a - b);
        expect(items).toEqual(Array.from({ length: k.itemCount }, (_, i) => i + 1));
      }
      expect(k.source.length).toBeGreaterThan(0);
      expect(k.aliases.length).toBeGreaterThan(0);
      // Whole-number totals whenever every item is scored in whole numbers (SWEMWBS also takes the
      // Rasch metric score, which has decimals).
      if (id !== "swemwbs") expect(k.wholeNumberTotals).toBe(true);
    },
  );

  it("MoCA 27 -> 21 and MMSE 28 -> 20 (cognition falling) read as worsening, never improving", () => {
    for (const [id, name, scores] of [
      ["moca", "MoCA", [27, 24, 21]],
      ["mmse", "MMSE", [28, 24, 20]],
    ] as const) {
      const r = scoreOutcome({ assessments: series(id, name, 30, [...scores], "2026-06-01") }, { now: NOW });
      expect(r.data.direction).toBe("worsening");
      expect(r.facts.summary.requiresClinicianReview).toBe(true);
    }
  });

  it("aliases are normalised, unique across instruments, and each recognises its own instrument", () => {
    const owner = new Map<string, InstrumentId>();
    for (const id of INSTRUMENT_IDS) {
      for (const alias of INSTRUMENTS[id].aliases) {
        expect(normaliseInstrumentText(alias)).toBe(alias);
        expect(owner.get(alias), `${alias} is claimed twice`).toBeUndefined();
        owner.set(alias, id);
        expect(recogniseInstrument(alias, "")).toBe(id);
      }
      expect(recogniseInstrument("", INSTRUMENTS[id].display)).toBe(id);
    }
  });

  it.each([
    ["MADRS", "madrs"],
    ["Montgomery-Åsberg Depression Rating Scale", "madrs"],
    ["HAM-D", "hamd17"],
    ["HAMD-17", "hamd17"],
    ["HDRS", "hamd17"],
    ["Hamilton Depression Rating Scale", "hamd17"],
    ["Hamilton Rating Scale for Depression", "hamd17"],
    ["YMRS", "ymrs"],
    ["Young Mania Rating Scale", "ymrs"],
    ["QIDS-SR16", "qidssr16"],
    ["QIDS-SR", "qidssr16"],
    ["Quick Inventory of Depressive Symptomatology (Self-Report)", "qidssr16"],
    ["BDI-II", "bdi2"],
    ["Beck Depression Inventory-II", "bdi2"],
    ["PHQ-8", "phq8"],
    ["PHQ-2", "phq2"],
    ["GAD-2", "gad2"],
    ["K10", "k10"],
    ["Kessler Psychological Distress Scale", "k10"],
    ["CORE-10", "core10"],
    ["ASRM", "asrm"],
    ["Altman Self-Rating Mania Scale", "asrm"],
    ["WEMWBS", "wemwbs"],
    ["Warwick-Edinburgh Mental Wellbeing Scale", "wemwbs"],
    ["SWEMWBS", "swemwbs"],
    ["Short Warwick-Edinburgh Mental Wellbeing Scale", "swemwbs"],
    ["Y-BOCS", "ybocs"],
    ["Yale-Brown Obsessive Compulsive Scale", "ybocs"],
    ["PANSS", "panss"],
    ["Positive and Negative Syndrome Scale", "panss"],
    ["MoCA", "moca"],
    ["Montreal Cognitive Assessment", "moca"],
    ["MMSE", "mmse"],
    ["Mini-Mental State Examination", "mmse"],
  ])("recognises %s as %s", (name, id) => {
    expect(recogniseInstrument(name, name)).toBe(id);
  });

  it.each([
    "HAM-A",
    "HAM-D 21",
    "HAMD-24",
    "MADRS-S",
    "BDI",
    "BDI-IA",
    "K6",
    "CES-D",
    "PHQ-15",
    "GAD-7 item 1",
    "Y-BOCS-II",
    "CY-BOCS",
    "PANSS-6",
    "3MS",
  ])("recognises no instrument in %s (another instrument, never swallowed by a near name)", (name) => {
    expect(recogniseInstrument(name, name)).toBeNull();
  });

  it("the PHQ-8 and PHQ-2 are never read as the PHQ-9, nor the GAD-2 as the GAD-7", () => {
    expect(recogniseInstrument("PHQ-8", "PHQ-8")).toBe("phq8");
    expect(recogniseInstrument("PHQ-2", "PHQ-2")).toBe("phq2");
    expect(recogniseInstrument("GAD-2", "GAD-2")).toBe("gad2");
  });

  it("maps LOINC only where verified: of the added instruments, the PHQ-2 alone", () => {
    const coded = INSTRUMENT_IDS.filter((id) => INSTRUMENTS[id].loinc !== undefined);
    expect(coded).toEqual(["phq9", "gad7", "audit", "phq2"]);
    expect(INSTRUMENTS.phq2.loinc?.total.code).toBe("55758-7");
    expect(INSTRUMENTS.phq2.loinc?.panel?.code).toBe("55757-9");
  });

  it("a total range that starts above 0 is respected (K10 10-50, WEMWBS 14-70, SWEMWBS 7-35)", () => {
    expect(isPublishedTotal("k10", 9, 50)).toBe(false);
    expect(isPublishedTotal("k10", 10, 50)).toBe(true);
    expect(isPublishedTotal("wemwbs", 13, 70)).toBe(false);
    expect(isPublishedTotal("wemwbs", 14, 70)).toBe(true);
    expect(isPublishedTotal("swemwbs", 23.21, 35)).toBe(true);
    expect(isPublishedTotal("swemwbs", 6.5, 35)).toBe(false);
  });
});

describe("WEMWBS 56 -> 50 -> 42: a fall of 14 points is a deterioration (higher is better)", () => {
  const wemwbs = series("wemwbs", "WEMWBS", 70, [56, 50, 42], "2026-06-01");
  // No reliable change is sourced, so the percentage-point rule applies, on the published range
  // 14-70 (percentOfScale): 14 / 56 = 25 points >= 15 (it read 20, 14 / 70, on the maximum).
  const flag =
    "WEMWBS fell 25 percentage points of the scale maximum toward its worse end (15 or more is counted as deterioration here, an expert-set threshold)";

  it("outcome: worsening with clinician review", () => {
    const r = scoreOutcome({ assessments: wemwbs }, { now: NOW });
    expect(r.data.direction).toBe("worsening");
    expect(r.data.score).toBeLessThan(0);
    expect(r.facts.summary.flagged).toContain(flag);
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
  });

  it("relapse: at least elevated, rising, with review", () => {
    const r = predictRelapse({ assessments: wemwbs }, { now: NOW });
    expect(RELAPSE_LEVELS.indexOf(r.data.level)).toBeGreaterThanOrEqual(RELAPSE_LEVELS.indexOf("elevated"));
    expect(r.data.trend).toBe("rising");
    expect(r.facts.summary.flagged).toContain(flag);
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
  });

  it("medication: worsening", () => {
    const r = analyzeMedication({ assessments: wemwbs, prescriptions: rx }, { now: NOW });
    expect(r.facts.summary.status).toBe("worsening");
    expect(r.data.signals[0]?.detail).toContain("higher is better on this scale");
  });
});

describe("MADRS 36 -> 24 -> 12: a fall is an improvement (higher is worse)", () => {
  const madrs = series("madrs", "MADRS", 60, [36, 24, 12], "2026-06-01");

  it("outcome: improving, read by the percentage-point rule (no sourced reliable change)", () => {
    const r = scoreOutcome({ assessments: madrs }, { now: NOW });
    expect(r.data.direction).toBe("improving");
    expect(r.data.score).toBeGreaterThan(0);
    expect(r.facts.summary.requiresClinicianReview).toBe(false);
    // 36 -> 12 of 60 = -40 percentage points, beyond the 15-point rule.
    expect(r.data.components[0]?.detail).toContain("-40 percentage points");
  });

  it("relapse: low and falling; medication: responding", () => {
    const r = predictRelapse({ assessments: madrs }, { now: NOW });
    expect(r.data).toMatchObject({ level: "low", trend: "falling" });
    const m = analyzeMedication({ assessments: madrs, prescriptions: rx }, { now: NOW });
    expect(m.facts.summary.status).toBe("responding");
    expect(m.data.signals[0]?.detail).toContain("No published reliable change for this scale");
  });

  it("a rise of 9 (15 % of 60) from the best score is a deterioration; a severe latest score flags", () => {
    const rising = series("madrs", "MADRS", 60, [30, 10, 19], "2026-06-01");
    expect(scoreOutcome({ assessments: rising }, { now: NOW }).data.direction).toBe("worsening");
    const severe = series("madrs", "MADRS", 60, [36], "2026-06-20");
    const o = scoreOutcome({ assessments: severe }, { now: NOW });
    expect(o.data.direction).toBe("severe_symptoms");
    expect(o.facts.summary.flagged).toContain("MADRS 36 of 60: severe band (35-60)");
  });
});

describe("the engines read every table instrument in its own direction (property)", () => {
  it("a latest score worse than the first by the threshold is worsening; better by it, never worsening", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...INSTRUMENT_IDS),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.boolean(),
        (id, at, towardWorse) => {
          const k = INSTRUMENTS[id];
          // The instrument's reliable change, else the percentage-point rule on the maximum.
          const threshold = Math.ceil(k.reliableChangePoints ?? (UNKNOWN_SCALE_CHANGE_PP / 100) * k.totalMax);
          const span = k.totalMax - k.totalMin - threshold;
          const low = k.totalMin + Math.round(at * span);
          const high = low + threshold;
          const worseIsHigher = k.direction === "higher_is_worse";
          const [first, last] = towardWorse === worseIsHigher ? [low, high] : [high, low];
          const a = series(id, k.display, k.totalMax, [first, last], "2026-06-01");
          const o = scoreOutcome({ assessments: a }, { now: NOW });
          if (towardWorse) {
            expect(o.data.direction).toBe("worsening");
            expect(o.facts.summary.requiresClinicianReview).toBe(true);
          } else {
            expect(o.data.direction).not.toBe("worsening");
            expect(["improving", "severe_symptoms", "stable"]).toContain(o.data.direction);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("mirroring any higher-is-better scale onto any higher-is-worse one mirrors the reading (property)", () => {
  const better = INSTRUMENT_IDS.filter((id) => INSTRUMENTS[id].direction === "higher_is_better");
  const worse = INSTRUMENT_IDS.filter((id) => INSTRUMENTS[id].direction === "higher_is_worse");

  // Off every published scale, on a maximum of 128: a power of two, so x / 128 * 100 and
  // 100 - that are exact in binary and the mirror is the same series bit for bit (on a maximum of
  // 100, 45 and 100 - 55 can differ in the last bit and tip a threshold comparison).
  const FORM_MAX = 128;

  it("H at x on a 0-128 form reads as W at 128 - x on a 0-128 form (outcome, relapse, medication)", () => {
    expect(better).toEqual(["who5", "wemwbs", "swemwbs", "moca", "mmse"]);
    const pointsArb = fc.uniqueArray(
      fc.record({ day: fc.integer({ min: 1, max: 60 }), score: fc.integer({ min: 0, max: FORM_MAX }) }),
      { selector: (a) => a.day, minLength: 1, maxLength: 5 },
    );
    fc.assert(
      fc.property(fc.constantFrom(...better), fc.constantFrom(...worse), pointsArb, (h, w, points) => {
        const as = (id: InstrumentId, mirror: boolean): Assessment[] =>
          points.map((p) => ({
            instrumentId: id,
            instrumentName: INSTRUMENTS[id].display,
            score: mirror ? FORM_MAX - p.score : p.score,
            maxScore: FORM_MAX,
            createdAt: new Date(NOW.getTime() - p.day * DAY).toISOString(),
          }));
        const hs = as(h, false);
        const ws = as(w, true);
        const o1 = scoreOutcome({ assessments: hs }, { now: NOW });
        const o2 = scoreOutcome({ assessments: ws }, { now: NOW });
        expect([o1.data.direction, o1.data.confidence]).toEqual([o2.data.direction, o2.data.confidence]);
        expect(o1.facts.summary.requiresClinicianReview).toBe(o2.facts.summary.requiresClinicianReview);
        const r1 = predictRelapse({ assessments: hs }, { now: NOW }).data;
        const r2 = predictRelapse({ assessments: ws }, { now: NOW }).data;
        expect([r1.level, r1.trend]).toEqual([r2.level, r2.trend]);
        const m1 = analyzeMedication({ assessments: hs, prescriptions: rx }, { now: NOW });
        const m2 = analyzeMedication({ assessments: ws, prescriptions: rx }, { now: NOW });
        expect(m1.facts.summary.status).toBe(m2.facts.summary.status);
      }),
      { numRuns: 300 },
    );
  });
});

describe("scoreInstruments on the further instruments", () => {
  it("scores the QIDS-SR16 by its nine domains, not by summing 16 items", () => {
    // Sleep items 3, 1, 0, 0 -> 3; appetite/weight 2, 0, 1, 0 -> 2; psychomotor 1, 2 -> 2.
    const responses = [3, 1, 0, 0, 2, 2, 0, 1, 0, 1, 1, 0, 2, 1, 1, 2];
    expect(totalOfResponses("qidssr16", responses)).toBe(3 + 2 + 2 + 1 + 1 + 0 + 2 + 1 + 2);
    const [result] = scoreInstruments([{ instrument: "QIDS-SR16", responses }]).results;
    expect(result).toMatchObject({ instrumentId: "qidssr16", total: 14, severityKey: "moderate" });
    expect(issuesOf(() => scoreInstruments([{ instrument: "QIDS-SR16", responses, total: 19 }]))).toEqual([
      "QIDS-SR16 total 19 does not match its responses, which score to 14",
    ]);
  });

  it("a QIDS-SR16 total of 27 given alone implies item 12 at 3: high risk", () => {
    expect(maximumTotalWithout("qidssr16", 12)).toBe(24);
    const scoring = scoreInstruments([{ instrument: "QIDS-SR16", total: 27 }]);
    expect(scoring.risk.level).toBe("high");
    expect(scoring.risk.labels).toContain(
      "QIDS-SR16 item 12 (thoughts of death or suicide) at least 3, implied by total 27",
    );
  });

  it("flags the suicide items of the MADRS, HAM-D, BDI-II and CORE-10 like PHQ-9 item 9", () => {
    const cases: [string, number[], string][] = [
      ["MADRS", [2, 2, 2, 2, 2, 2, 2, 2, 2, 4], "MADRS item 10 (suicidal thoughts) = 4"],
      ["HAM-D", [2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1], "HAM-D 17 item 3 (suicide) = 1"],
      [
        "BDI-II",
        [1, 1, 1, 1, 1, 1, 1, 1, 2, ...Array<number>(12).fill(0)],
        "BDI-II item 9 (suicidal thoughts or wishes) = 2",
      ],
      ["CORE-10", [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], "CORE-10 item 6 (made plans to end one's life) = 1"],
    ];
    for (const [instrument, responses, label] of cases) {
      const scoring = scoreInstruments([{ instrument, responses }]);
      expect(scoring.risk.labels).toContain(label);
      expect(["moderate", "high"]).toContain(scoring.risk.level);
      expect(scoring.results[0]?.itemFlags).toHaveLength(1);
    }
  });

  it("the PHQ-8 and PHQ-2 never read as suicide risk screened", () => {
    for (const [instrument, total] of [
      ["PHQ-8", 0],
      ["PHQ-2", 1],
    ] as const) {
      const scoring = scoreInstruments([{ instrument, total }]);
      expect(scoring.risk).toMatchObject({ flag: true, level: "low" });
      // Not evaluated, never none (the agent tools' shared rule, decision 80).
      expect(scoring.risk.labels).toContain(
        `Not evaluated: ${instrument} suicide risk (the form has no item that screens it)`,
      );
      expect(scoring.warnings.join(" ")).toMatch(/suicide risk is not screened/);
    }
  });

  it("respects item values and total ranges that are not 0 to n (HAM-D 0-2 items, YMRS 0-8 items, K10 from 10)", () => {
    const hamd = Array<number>(17).fill(0);
    hamd[3] = 3; // item 4 (early insomnia) is scored 0-2
    expect(issuesOf(() => scoreInstruments([{ instrument: "HAM-D", responses: hamd }]))).toEqual([
      "HAM-D 17 item 4 must be 0, 1 or 2, got 3",
    ]);
    const ymrs = [4, 4, 4, 4, 8, 8, 4, 8, 8, 4, 4];
    expect(scoreInstruments([{ instrument: "YMRS", responses: ymrs }]).results[0]?.total).toBe(60);
    expect(issuesOf(() => scoreInstruments([{ instrument: "K10", total: 5 }]))).toEqual([
      "K10 total must be 10-50, got 5",
    ]);
    expect(
      issuesOf(() => scoreInstruments([{ instrument: "K10", responses: Array(10).fill(0) }])),
    ).toHaveLength(10);
    expect(scoreInstruments([{ instrument: "K10", total: 10 }]).results[0]?.severityKey).toBe("low");
  });

  it("reads a WEMWBS fall as worsened and a MADRS fall as improved, reliable by the engines' percentage-point rule (decision 182)", () => {
    const scoring = scoreInstruments([{ instrument: "WEMWBS", total: 42, priorTotal: 56 }]);
    const [w] = scoring.results;
    // 14 of the 56-point range (14-70) is 25 percentage points: a reliable deterioration, as the
    // relapse engine reads it, though the WEMWBS has no sourced reliable-change points.
    expect(w).toMatchObject({
      trajectory: "worsened",
      change: -14,
      reliableChangePoints: null,
      reliableChange: true,
    });
    expect(scoring.risk).toMatchObject({ flag: true, level: "low" });
    const [m] = scoreInstruments([{ instrument: "MADRS", total: 12, priorTotal: 36 }]).results;
    expect(m).toMatchObject({ trajectory: "improved", change: -24, reliableChangePoints: null });
  });

  it("takes a SWEMWBS metric score with decimals, and a CORE-10 reliable change of 6", () => {
    expect(scoreInstruments([{ instrument: "SWEMWBS", total: 23.21 }]).results[0]?.total).toBe(23.21);
    const [c] = scoreInstruments([{ instrument: "CORE-10", total: 20, priorTotal: 14 }]).results;
    expect(c).toMatchObject({ trajectory: "worsened", reliableChange: true, severityKey: "clinical_range" });
  });
});

/** A complete, valid set of item responses for an instrument. */
const responsesArb = (id: InstrumentId) => {
  const k = INSTRUMENTS[id];
  return fc.tuple(
    ...Array.from({ length: k.itemCount }, (_, i) => {
      const listed = k.allowedItemValues?.[i + 1];
      return listed ? fc.constantFrom(...listed) : fc.integer({ min: k.itemMin, max: k.itemMax });
    }),
  );
};

const RISK_RANK = { none: 0, low: 1, moderate: 2, high: 3 } as const;

describe("scoreInstruments over every instrument of the table (properties)", () => {
  it("any valid set of responses is accepted, totalled within the published range and banded", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...INSTRUMENT_IDS).chain((id) => fc.tuple(fc.constant(id), responsesArb(id))),
        ([id, responses]) => {
          const k = INSTRUMENTS[id];
          const scoring = scoreInstruments([{ instrument: k.display, responses }]);
          const result = scoring.results[0];
          expect(result?.instrumentId).toBe(id);
          expect(result?.total).toBe(totalOfResponses(id, responses));
          expect(result?.total).toBeGreaterThanOrEqual(k.totalMin);
          expect(result?.total).toBeLessThanOrEqual(k.totalMax);
          expect(k.bands.map((b) => b.key)).toContain(result?.severityKey);
          // The same total given alone is accepted and banded the same.
          const alone = scoreInstruments([{ instrument: k.display, total: result?.total ?? -1 }]).results[0];
          expect(alone?.severityKey).toBe(result?.severityKey);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a risk item answered above 0 raises risk to at least moderate, and raising it never lowers risk", () => {
    const withRiskItems = INSTRUMENT_IDS.filter((id) => INSTRUMENTS[id].riskItems.length > 0);
    expect(withRiskItems).toEqual(["phq9", "epds", "madrs", "hamd17", "qidssr16", "bdi2", "core10"]);
    fc.assert(
      fc.property(
        fc.constantFrom(...withRiskItems).chain((id) => fc.tuple(fc.constant(id), responsesArb(id))),
        ([id, responses]) => {
          const k = INSTRUMENTS[id];
          const item = (k.riskItems[0] as { item: number }).item;
          const level = (values: readonly number[]) =>
            RISK_RANK[scoreInstruments([{ instrument: k.display, responses: [...values] }]).risk.level];
          const raised = [...responses];
          raised[item - 1] = k.itemMax;
          expect(level(raised)).toBeGreaterThanOrEqual(RISK_RANK.high);
          expect(level(raised)).toBeGreaterThanOrEqual(level(responses));
          if ((responses[item - 1] ?? 0) > 0)
            expect(level(responses)).toBeGreaterThanOrEqual(RISK_RANK.moderate);
          // Given as a total only, the item cannot be read: never none.
          const total = totalOfResponses(id, responses);
          if (total > 0)
            expect(
              RISK_RANK[scoreInstruments([{ instrument: k.display, total }]).risk.level],
            ).toBeGreaterThanOrEqual(RISK_RANK.low);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("a total range that starts above 0 is read on the range, not the maximum (percentOfScale)", () => {
  it("K10 10 is 0 % and 50 is 100 %; WEMWBS 14 is 0 % (the worst wellbeing); scales from 0 and other maxima are unchanged", () => {
    expect(percentOfScale("k10", 10, 50)).toBe(0);
    expect(percentOfScale("k10", 50, 50)).toBe(100);
    expect(percentOfScale("wemwbs", 14, 70)).toBe(0);
    expect(percentOfScale("panss", 120, 210)).toBe(50);
    expect(percentOfScale("phq9", 9, 27)).toBe((9 / 27) * 100);
    expect(percentOfScale("k10", 20, 40)).toBe(50);
    expect(percentOfScale(null, 5, 20)).toBe(25);
  });

  it("property: on a published K10, WEMWBS, SWEMWBS or PANSS, the threshold in points of the range reads as a deterioration", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<InstrumentId>("k10", "wemwbs", "swemwbs", "panss"),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (id, at) => {
          const k = INSTRUMENTS[id];
          const range = k.totalMax - k.totalMin;
          const threshold = Math.ceil((UNKNOWN_SCALE_CHANGE_PP / 100) * range);
          const low = k.totalMin + Math.round(at * (range - threshold));
          const high = low + threshold;
          const [first, last] = k.direction === "higher_is_worse" ? [low, high] : [high, low];
          const r = scoreOutcome(
            { assessments: series(id, k.display, k.totalMax, [first, last], "2026-06-01") },
            { now: NOW },
          );
          expect(r.data.direction).toBe("worsening");
        },
      ),
      { numRuns: 200 },
    );
  });
});
