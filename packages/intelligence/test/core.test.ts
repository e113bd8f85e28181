import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  attachReasoning,
  buildIntelligenceCore,
  type CoreInput,
  completeness,
  explainInputChanges,
  freshness,
  type InputDescriptor,
  instrumentCodes,
  medicationCodes,
  type Narrator,
  recogniseInstrumentCode,
  templateNarrator,
} from "../src/index.js";

const NOW = new Date("2026-11-01T12:00:00Z");

const inputArb: fc.Arbitrary<InputDescriptor> = fc.record({
  name: fc.string({ minLength: 1, maxLength: 12 }),
  value: fc.oneof(fc.integer(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 })),
  observedAt: fc.option(
    fc
      .date({ min: new Date("2020-01-01"), max: new Date("2027-01-01"), noInvalidDate: true })
      .map((d) => d.toISOString()),
    { nil: null },
  ),
  supplied: fc.boolean(),
  contributed: fc.boolean(),
});

function core(overrides: Partial<CoreInput> = {}): CoreInput {
  return {
    engine: "relapse",
    now: NOW,
    engineVersion: "default",
    summary: {
      status: "moderate",
      headline: "Moderate relapse risk.",
      flagged: [],
      requiresClinicianReview: false,
    },
    confidence: { level: "moderate", score: 0.5, reasons: ["Three of six inputs supplied."] },
    inputs: [],
    codes: [],
    current: { score: 40, status: "moderate" },
    currentInputs: { avgSleepHours: 5 },
    polarity: { kind: "score", higherIs: "worse" },
    interpretationScale: { low: "routine monitoring" },
    ...overrides,
  };
}

describe("completeness and freshness", () => {
  it("completeness is the supplied fraction, always within [0, 1]", () => {
    fc.assert(
      fc.property(fc.array(inputArb, { maxLength: 20 }), (inputs) => {
        const value = completeness(inputs);
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
        if (inputs.length > 0)
          expect(value).toBeCloseTo(inputs.filter((i) => i.supplied).length / inputs.length, 3);
      }),
    );
  });

  it("the newest supplied observation is never older than a stale one, and stale means > 90 days", () => {
    fc.assert(
      fc.property(fc.array(inputArb, { maxLength: 20 }), (inputs) => {
        const f = freshness(inputs, NOW);
        for (const name of f.staleInputs) {
          const stale = inputs.find((i) => i.name === name && i.supplied && i.observedAt);
          expect(stale).toBeDefined();
        }
        if (f.newestInputAt) {
          for (const i of inputs)
            if (i.supplied && i.observedAt)
              expect(Date.parse(i.observedAt)).toBeLessThanOrEqual(Date.parse(f.newestInputAt));
        }
      }),
    );
    expect(
      freshness(
        [
          { name: "a", value: 1, observedAt: "2026-08-01T12:00:00Z", supplied: true, contributed: true },
          { name: "b", value: 1, observedAt: "2026-08-04T12:00:00Z", supplied: true, contributed: true },
        ],
        NOW,
      ),
    ).toEqual({ newestInputAt: "2026-08-04T12:00:00.000Z", staleInputs: ["a"] });
  });
});

describe("change against previous", () => {
  it("is null without previous", () => {
    expect(buildIntelligenceCore(core()).change).toBeNull();
  });
  it("scores: a higher relapse score is worse, a higher outcome score better", () => {
    const relapse = buildIntelligenceCore(core({ previous: { score: 30, status: "low" } })).change;
    expect(relapse).toMatchObject({
      direction: "worsened",
      delta: 10,
      previousStatus: "low",
      currentStatus: "moderate",
    });
    expect(relapse?.explanations[0]).toBe("Status moved from low to moderate.");
    const outcome = buildIntelligenceCore(
      core({ engine: "outcome", polarity: { kind: "score", higherIs: "better" }, previous: { score: 30 } }),
    ).change;
    expect(outcome?.direction).toBe("improved");
  });
  it("statuses: moving towards the best status is an improvement", () => {
    const order = ["within_normal", "subclinical", "clinical_attention"] as const;
    const change = buildIntelligenceCore(
      core({
        engine: "dmse",
        current: { score: null, status: "subclinical" },
        polarity: { kind: "status", order },
        previous: { status: "clinical_attention" },
      }),
    ).change;
    expect(change).toMatchObject({ direction: "improved", delta: null });
  });
  it("explanations come biggest relative change first", () => {
    const explanations = explainInputChanges(
      { avgSleepHours: 7, daysSinceLastVisit: 10, assessments: [1, 2] },
      { avgSleepHours: 6.5, daysSinceLastVisit: 40, assessments: [1, 2, 3] },
    );
    expect(explanations).toEqual([
      "daysSinceLastVisit rose from 10 to 40 (+30).",
      "assessments went from 2 to 3 entries.",
      "avgSleepHours fell from 7 to 6.5 (-0.5).",
    ]);
  });
  it("never throws and always gives a known direction", () => {
    fc.assert(
      fc.property(
        fc.record({
          score: fc.option(fc.double({ min: -1000, max: 1000, noNaN: true }), { nil: undefined }),
          status: fc.option(fc.string(), { nil: undefined }),
          inputs: fc.option(fc.dictionary(fc.string(), fc.jsonValue()), { nil: undefined }),
        }),
        (previous) => {
          const change = buildIntelligenceCore(core({ previous })).change;
          expect(["improved", "worsened", "unchanged"]).toContain(change?.direction);
        },
      ),
    );
  });
});

describe("codes", () => {
  it("a combination prescription is coded as each verified ingredient, not its first", () => {
    const codes = medicationCodes(
      [{ sourceRef: "rx_1" }],
      [{ id: "rx_1", medicationName: "olanzapine/fluoxetine 6/25 mg" }],
    );
    expect(codes.map((c) => [c.code, c.mapsTo])).toEqual([
      ["61381", "signals.0"],
      ["4493", "signals.0"],
    ]);
  });

  it("RxNorm codes point at the signal of a prescription naming a verified ingredient", () => {
    const codes = medicationCodes(
      [{ sourceRef: "rx_2" }, { sourceRef: "rx_1" }, { sourceRef: "dmse" }],
      [
        { id: "rx_1", medicationName: "Sertraline HCl 50 mg" },
        { id: "rx_2", medicationName: "Quetiapine 25 mg" },
      ],
    );
    expect(codes).toEqual([
      {
        system: "http://www.nlm.nih.gov/research/umls/rxnorm",
        code: "36437",
        display: "sertraline",
        mapsTo: "signals.1",
      },
    ]);
  });
  it("LOINC total-score codes only for recognised PHQ-9 and GAD-7", () => {
    expect(recogniseInstrumentCode("phq_9", "")).toBe("phq9");
    expect(recogniseInstrumentCode("x", "GAD-7")).toBe("gad7");
    expect(recogniseInstrumentCode("phq2", "PHQ-2")).toBeNull();
    const codes = instrumentCodes(
      [
        { instrumentId: "gad7", instrumentName: "GAD-7" },
        { instrumentId: "phq9", instrumentName: "PHQ-9" },
        { instrumentId: "madrs", instrumentName: "MADRS" },
      ],
      "factors.0",
    );
    expect(codes.map((c) => [c.code, c.mapsTo])).toEqual([
      ["70274-6", "factors.0"],
      ["44261-6", "factors.0"],
    ]);
  });
});

describe("reasoning", () => {
  const block = buildIntelligenceCore(core());
  it("the template narrator writes 2-4 sentences from the block", async () => {
    const withReasoning = await attachReasoning(block, templateNarrator, {
      highlights: ["Sleep under 6 h."],
    });
    const sentences = withReasoning.reasoning?.narrative.match(/[^.!?]+[.!?]/g) ?? [];
    expect(sentences.length).toBeGreaterThanOrEqual(2);
    expect(sentences.length).toBeLessThanOrEqual(4);
    expect(withReasoning.reasoning?.narrator).toBe("template");
  });
  it("a failing or slow narrator gives reasoning null", async () => {
    const failing: Narrator = { kind: "model", narrate: async () => Promise.reject(new Error("down")) };
    expect((await attachReasoning(block, failing)).reasoning).toBeNull();
    const slow: Narrator = {
      kind: "model",
      narrate: (_r, signal) =>
        new Promise((resolve) => {
          const t = setTimeout(() => resolve("late"), 5_000);
          signal.addEventListener("abort", () => clearTimeout(t));
        }),
    };
    expect((await attachReasoning(block, slow, { timeoutMs: 50 })).reasoning).toBeNull();
  });
});
