import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { relapseRuleFigures } from "../src/knowledge/doc-tables-rules.js";
import { RELAPSE_RULE_EVIDENCE } from "../src/knowledge/relapse-signals.js";
import { RELAPSE_DEFAULT_PARAMS } from "../src/relapse.js";
import {
  findRelapseIndicator,
  getSignalModel,
  RELAPSE_INDICATORS,
  RELAPSE_STRONGEST_SIGNAL_POINTS,
  relapseSignalBandOf,
  scoreRelapse,
} from "../src/tools/relapse-signals.js";
import { ToolInputError } from "../src/tools/types.js";

const TOTAL_WEIGHT = RELAPSE_INDICATORS.reduce((sum, i) => sum + i.weight, 0);
const KEYS = RELAPSE_INDICATORS.map((i) => i.indicator);

describe("getSignalModel", () => {
  it("documents every indicator with a weight in (0, 1], a source and unique names", () => {
    const model = getSignalModel();
    expect(model.indicators).toHaveLength(RELAPSE_INDICATORS.length);
    expect(model.indicators.length).toBeGreaterThanOrEqual(22);
    const owner = new Map<string, string>();
    for (const i of model.indicators) {
      expect(i.weight).toBeGreaterThan(0);
      expect(i.weight).toBeLessThanOrEqual(1);
      expect(i.source.length).toBeGreaterThan(5);
      const norm = (n: string) => n.toLowerCase().replace(/[^a-z0-9]/g, "");
      const own = new Set([i.indicator, i.label].map(norm));
      for (const alias of i.aliases) {
        expect(own.has(norm(alias)), `${i.indicator}: redundant alias "${alias}"`).toBe(false);
        own.add(norm(alias));
      }
      for (const key of own) {
        expect(owner.get(key) ?? i.indicator, key).toBe(i.indicator);
        owner.set(key, i.indicator);
        expect(findRelapseIndicator(key)?.indicator).toBe(i.indicator);
      }
    }
    expect(model.method).toMatch(/expert-set/);
  });

  it("weighs non-adherence, a stopped mood stabiliser and the safety-critical indicators highest", () => {
    const top = getSignalModel()
      .indicators.filter((i) => i.weight === 1)
      .map((i) => i.indicator);
    expect(top.sort()).toEqual(
      [
        "command_hallucinations",
        "harm_to_others",
        "medication_nonadherence",
        "mood_stabiliser_discontinuation",
        "suicidality",
      ].sort(),
    );
  });

  it("names the safety-critical indicators, their review severities and the combination rules", () => {
    const model = getSignalModel();
    const review = Object.fromEntries(
      model.indicators.filter((i) => i.review).map((i) => [i.indicator, i.review]),
    );
    expect(review).toEqual({
      suicidality: { immediate: 0 },
      harm_to_others: { immediate: 0 },
      command_hallucinations: { immediate: 0 },
      psychotic_symptoms: { clinician: 0, immediate: 0.5 },
      hopelessness: { clinician: 0.5 },
    });
    expect(model.combinationRules.map((r) => [r.rule, r.band])).toEqual([
      ["mood_stabiliser_stopped_with_sleep_loss", "high"],
      ["manic_prodrome", "elevated"],
      ["sleep_loss_with_mania_signs", "elevated"],
    ]);
    const keys = new Set(KEYS);
    for (const rule of model.combinationRules)
      for (const key of rule.groups.flat()) expect(keys.has(key), key).toBe(true);
  });

  it("bands reuse the relapse engine's cut-offs and cover 0-100 without gaps", () => {
    const { bands } = getSignalModel();
    expect(bands).toEqual([
      { band: "low", min: 0, max: RELAPSE_DEFAULT_PARAMS.levelModerateMin },
      { band: "moderate", min: 20, max: 40 },
      { band: "elevated", min: 40, max: RELAPSE_DEFAULT_PARAMS.levelHighMin },
      { band: "high", min: 60, max: 100 },
    ]);
  });
});

describe("the relapse signal model's cuts and floors: evidence", () => {
  // docs/engines/evidence.md prints them from relapseRuleFigures (generated, decision 217).
  it("has one evidence entry per cut and floor, and no other", () => {
    expect(Object.keys(RELAPSE_RULE_EVIDENCE).sort()).toEqual([...relapseRuleFigures().keys()].sort());
  });
});

describe("bands", () => {
  it("min inclusive, max exclusive", () => {
    expect(relapseSignalBandOf(0)).toBe("low");
    expect(relapseSignalBandOf(19.99)).toBe("low");
    expect(relapseSignalBandOf(20)).toBe("moderate");
    expect(relapseSignalBandOf(39.99)).toBe("moderate");
    expect(relapseSignalBandOf(40)).toBe("elevated");
    expect(relapseSignalBandOf(59.99)).toBe("elevated");
    expect(relapseSignalBandOf(60)).toBe("high");
    expect(relapseSignalBandOf(100)).toBe("high");
  });

  it("band and risk at the boundaries, through the floor of one indicator", () => {
    // Non-adherence weight 1: floor = 60 x severity.
    const at = (severity: number) => scoreRelapse([{ indicator: "medication_nonadherence", severity }]);
    expect(at(1)).toMatchObject({ compositeScore: 60, band: "high", risk: { level: "high" } });
    expect(at(2 / 3)).toMatchObject({ compositeScore: 40, band: "elevated", risk: { level: "moderate" } });
    expect(at(0.5)).toMatchObject({ compositeScore: 30, band: "moderate", risk: { level: "low" } });
    expect(at(0.3)).toMatchObject({ compositeScore: 18, band: "low", risk: { level: "none" } });
  });
});

describe("scoreRelapse", () => {
  it("a single severe non-adherence is never low, whatever other low signals are sent", () => {
    const alone = scoreRelapse([{ indicator: "medication_nonadherence", severity: 0.9 }]);
    const diluted = scoreRelapse([
      { indicator: "medication_nonadherence", severity: 0.9 },
      ...KEYS.filter((k) => k !== "medication_nonadherence").map((indicator) => ({ indicator, severity: 0 })),
    ]);
    for (const out of [alone, diluted]) {
      expect(out.compositeScore).toBe(54);
      expect(out.band).toBe("elevated");
      expect(out.risk.level).toBe("moderate");
      expect(out.strongestSignal).toEqual({ indicator: "medication_nonadherence", points: 54 });
    }
    expect(diluted.coverage).toEqual({ supplied: KEYS.length, known: KEYS.length });
  });

  it("the weighted sum uses a fixed denominator, and contributions are its points, largest first", () => {
    const out = scoreRelapse([
      { indicator: "anxiety", severity: 0.5 },
      { indicator: "sleep_disruption", severity: 0.5 },
      { indicator: "social_withdrawal", severity: 0.5 },
    ]);
    const expected = (w: number) => Math.round((100 * w * 0.5 * 100) / TOTAL_WEIGHT) / 100;
    expect(out.contributing).toEqual([
      {
        indicator: "sleep_disruption",
        label: "Sleep disruption",
        severity: 0.5,
        contribution: expected(0.8),
      },
      {
        indicator: "social_withdrawal",
        label: "Social withdrawal",
        severity: 0.5,
        contribution: expected(0.6),
      },
      { indicator: "anxiety", label: "Anxiety", severity: 0.5, contribution: expected(0.5) },
    ]);
    expect(out.weightedSum).toBeCloseTo((100 * 0.95) / TOTAL_WEIGHT, 2);
    // The floor (60 x 0.8 x 0.5 = 24) is above the sum here.
    expect(out.compositeScore).toBe(24);
    expect(out.band).toBe("moderate");
  });

  it("everything at full severity scores 100, high", () => {
    const out = scoreRelapse(KEYS.map((indicator) => ({ indicator, severity: 1 })));
    expect(out).toMatchObject({ compositeScore: 100, band: "high", weightedSum: 100 });
    expect(out.warnings).toEqual([]);
  });

  it("a severe top-tier indicator raises the risk to moderate even in the moderate band", () => {
    // Sleep weight 0.8, severity 0.8: floor 38.4, band moderate (risk low), raised to moderate.
    const out = scoreRelapse([{ indicator: "insomnia", severity: 0.8 }]);
    expect(out.band).toBe("moderate");
    expect(out.risk).toEqual({
      flag: true,
      level: "moderate",
      labels: [
        "Relapse signal composite 38.4 (moderate band)",
        "Sleep disruption at severity 0.8 (a top-tier relapse indicator)",
      ],
    });
    // Just below the severity line the rule does not apply.
    expect(scoreRelapse([{ indicator: "insomnia", severity: 0.79 }]).risk.level).toBe("low");
    // A lower-tier indicator at full severity is not raised by the rule.
    expect(scoreRelapse([{ indicator: "anxiety", severity: 1 }]).risk.level).toBe("low");
  });

  it("matches aliases and labels, whatever the case and punctuation", () => {
    expect(findRelapseIndicator("Missed doses")?.indicator).toBe("medication_nonadherence");
    expect(findRelapseIndicator("SLEEP-DISTURBANCE")?.indicator).toBe("sleep_disruption");
    expect(findRelapseIndicator("Paranoia")?.indicator).toBe("suspiciousness");
    expect(findRelapseIndicator("Increased speech latency")?.indicator).toBe("speech_latency_increase");
    expect(findRelapseIndicator("withdrawal")).toBeNull(); // ambiguous (social or substance)
  });

  it("an unknown indicator goes to unrecognized and warnings, and is not scored", () => {
    const out = scoreRelapse([
      { indicator: "sleep_disruption", severity: 0.4 },
      { indicator: "moon phase", severity: 1 },
    ]);
    expect(out.unrecognized).toEqual(["moon phase"]);
    expect(out.notScored).toEqual([{ indicator: "moon phase", reason: "unrecognised" }]);
    expect(out.warnings).toContain('Unrecognised relapse indicator "moon phase": not scored.');
    expect(out.contributing.map((c) => c.indicator)).toEqual(["sleep_disruption"]);
    // Sleep 0.4 alone would be band low, risk none; the unscored name keeps it at low, named.
    expect(out.band).toBe("low");
    expect(out.risk).toEqual({
      flag: true,
      level: "low",
      labels: ['Not scored: unrecognised indicator "moon phase"'],
    });
  });

  it("partial coverage is said, and a low band from it is not reassurance", () => {
    const out = scoreRelapse([
      { indicator: "anxiety", severity: 0.2 },
      { indicator: "irritability", severity: 0.2 },
      { indicator: "stress", severity: 0.2 },
    ]);
    expect(out.band).toBe("low");
    const n = KEYS.length;
    expect(out.coverage).toEqual({ supplied: 3, known: n });
    expect(out.warnings).toContain(
      `3 of ${n} indicators supplied; absent indicators were not assumed normal.`,
    );
    expect(out.risk).toEqual({
      flag: false,
      level: "none",
      labels: [`Low composite from 3 of ${n} indicators; absent indicators not assessed`],
    });
  });

  it("nothing recognised: score 0 but not assessed, never a reassuring low or none", () => {
    const out = scoreRelapse([{ indicator: "horoscope", severity: 0.9 }]);
    expect(out).toMatchObject({
      compositeScore: 0,
      assessed: false,
      strongestSignal: null,
      contributing: [],
    });
    expect(out.risk).toEqual({
      flag: true,
      level: "low",
      labels: [
        "Relapse signals not assessed: no indicator was recognised",
        'Not scored: unrecognised indicator "horoscope"',
      ],
    });
    expect(out.warnings).toContain(
      "No relapse indicator was recognised: relapse signals were not assessed; the score 0 is not a low risk.",
    );
    expect(scoreRelapse([]).assessed).toBe(false);
    // Nothing supplied at all: nothing to flag.
    expect(scoreRelapse([]).risk.level).toBe("none");
  });

  it("duplicates keep the highest severity, with a warning", () => {
    const out = scoreRelapse([
      { indicator: "sleep_disruption", severity: 0.3 },
      { indicator: "Insomnia", severity: 0.7 },
      { indicator: "sleep", severity: 0.1 },
    ]);
    expect(out.contributing).toHaveLength(1);
    expect(out.contributing[0]?.severity).toBe(0.7);
    expect(out.warnings).toContain(
      "Sleep disruption was supplied 3 times; the highest severity (0.7) was used.",
    );
  });

  it("a severity outside 0-1 or not finite is a ToolInputError at [i, 'severity']", () => {
    for (const severity of [-0.01, 1.01, Number.NaN, Number.POSITIVE_INFINITY]) {
      let error: unknown;
      try {
        scoreRelapse([
          { indicator: "anxiety", severity: 0.5 },
          { indicator: "sleep", severity },
        ]);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ToolInputError);
      expect((error as ToolInputError).issues.map((i) => i.path)).toEqual([[1, "severity"]]);
    }
    expect(() => scoreRelapse([{ indicator: "sleep", severity: 0 }])).not.toThrow();
    expect(() => scoreRelapse([{ indicator: "sleep", severity: 1 }])).not.toThrow();
  });
});

describe("properties", () => {
  const signalArb = fc.record({
    indicator: fc.constantFrom(...KEYS, "unknown_thing"),
    severity: fc.double({ min: 0, max: 1, noNaN: true }),
  });

  it("the composite stays within 0-100 and at or above the strongest floor and the weighted sum", () => {
    fc.assert(
      fc.property(fc.array(signalArb, { maxLength: 30 }), (signals) => {
        const out = scoreRelapse(signals);
        expect(out.compositeScore).toBeGreaterThanOrEqual(0);
        expect(out.compositeScore).toBeLessThanOrEqual(100);
        expect(out.compositeScore).toBeGreaterThanOrEqual(out.weightedSum);
        expect(out.compositeScore).toBeGreaterThanOrEqual(out.strongestSignal?.points ?? 0);
      }),
    );
  });

  it("raising any severity never lowers the composite (monotonic)", () => {
    fc.assert(
      fc.property(
        fc.array(signalArb, { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (signals, pick, raise) => {
          const i = pick % signals.length;
          const before = scoreRelapse(signals).compositeScore;
          const raised = signals.map((s, j) =>
            j === i ? { ...s, severity: Math.min(1, s.severity + raise * (1 - s.severity)) } : s,
          );
          expect(scoreRelapse(raised).compositeScore).toBeGreaterThanOrEqual(before);
        },
      ),
    );
  });

  it("adding a recognised signal never lowers the composite", () => {
    fc.assert(
      fc.property(fc.array(signalArb, { maxLength: 29 }), signalArb, (signals, extra) => {
        expect(scoreRelapse([...signals, extra]).compositeScore).toBeGreaterThanOrEqual(
          scoreRelapse(signals).compositeScore,
        );
      }),
    );
  });

  it("the floor constant is the relapse engine's high cut-off", () => {
    expect(RELAPSE_STRONGEST_SIGNAL_POINTS).toBe(RELAPSE_DEFAULT_PARAMS.levelHighMin);
  });
});
