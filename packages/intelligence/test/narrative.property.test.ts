import {
  type Assessment,
  analyzeBiomarkers,
  analyzeDmse,
  analyzeMedication,
  type EngineRun,
  predictRelapse,
  scoreOutcome,
} from "@svc/engines";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dmseInputArb } from "../../engines/test/arbitraries.js";
import {
  attachReasoning,
  buildEngineIntelligence,
  type IntelligenceBlock,
  type PreviousResult,
  templateNarrator,
} from "../src/index.js";

/**
 * The template narrative of `explain: true` for every engine over its input space: 2 to 4
 * sentences (the contract), no finding stated twice, and no broken punctuation (an end mark
 * doubled or next to a separator, "velocity.; Average"). The lines a narrator gets are chosen as
 * the analysis routes choose them; arbitrary text stands in for any other line.
 */
const NOW = new Date("2026-06-30T00:00:00Z");
const DAY = 86_400_000;

/** A sentence ends at an end mark (and closing quotes or brackets) followed by a new sentence. */
function countSentences(text: string): number {
  return (text.match(/[.!?\u2026]["'\u201D\u2019)\]]*\s+(?=[A-Z0-9("'\u201C])/gu)?.length ?? 0) + 1;
}
/** An end mark doubled or beside a separator, a separator doubled, or a space before a mark. */
const BROKEN =
  /[.!?\u2026][;,:]|\u2026\.|[;,:]\s*[.!?;,:]|(?<![.\d])\.\.(?!\.)|\s[.;,:!?]|\.\s*\.(?!\.)|[.!?\u2026]["'\u201D\u2019)\]]+\./u;

function findings(text: string): string[] {
  return text
    .split(/[.;!?]\s+|[.;!?]$/)
    .map((c) =>
      c
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, " ")
        .trim(),
    )
    .filter((c) => c.length >= 12);
}

function expectWellFormed(narrative: string | undefined) {
  expect(narrative).toBeDefined();
  const text = narrative ?? "";
  const sentences = countSentences(text);
  expect(sentences, text).toBeGreaterThanOrEqual(2);
  expect(sentences, text).toBeLessThanOrEqual(4);
  expect(text, text).not.toMatch(BROKEN);
  expect(text, text).toMatch(/\.$/);
  const stated = findings(text);
  expect(new Set(stated).size, text).toBe(stated.length);
}

const SCALES = [
  { id: "phq9", name: "PHQ-9", max: 27 },
  { id: "gad7", name: "GAD-7", max: 21 },
  { id: "cesd", name: "CES-D", max: 60 },
  { id: "custom", name: "Clinic wellbeing scale", max: 40 },
] as const;
const assessmentsArb = fc
  .array(
    fc.record({
      scale: fc.constantFrom(...SCALES),
      day: fc.integer({ min: 0, max: 400 }),
      pct: fc.double({ min: 0, max: 1, noNaN: true }),
      severity: fc.option(fc.constantFrom("severe", "mild", "moderate"), { nil: undefined }),
    }),
    { maxLength: 8 },
  )
  .map((items) =>
    items.map(
      (a): Assessment => ({
        instrumentId: a.scale.id,
        instrumentName: a.scale.name,
        score: Math.round(a.pct * a.scale.max),
        maxScore: a.scale.max,
        createdAt: new Date(NOW.getTime() - a.day * DAY).toISOString(),
        ...(a.severity === undefined ? {} : { severity: a.severity }),
      }),
    ),
  );
const relapseArb = fc.record(
  {
    assessments: assessmentsArb,
    dmseLatencyPctChange: fc.double({ min: -100, max: 1000, noNaN: true }),
    avgSleepHours: fc.double({ min: 0, max: 24, noNaN: true }),
    daysSinceMedChange: fc.integer({ min: 0, max: 3650 }),
    hasActiveMedication: fc.boolean(),
    daysSinceLastVisit: fc.integer({ min: 0, max: 3650 }),
  },
  { requiredKeys: ["assessments"] },
);
const outcomeArb = fc.record(
  {
    assessments: assessmentsArb,
    dmseLatencyPctChange: fc.double({ min: -100, max: 1000, noNaN: true }),
    activeMedications: fc.integer({ min: 0, max: 100 }),
    biomarkerWatchCount: fc.integer({ min: 0, max: 100 }),
    avgSleepHours: fc.double({ min: 0, max: 24, noNaN: true }),
  },
  { requiredKeys: ["assessments"] },
);
const medicationArb = fc.record({
  prescriptions: fc.array(
    fc.record({
      id: fc.constantFrom("p1", "p2", "p3"),
      medicationName: fc.constantFrom("sertraline 50 mg", "lithium carbonate", "Zoloft", "unknown tablet"),
      status: fc.constantFrom("active", "discontinued"),
      prescribedAt: fc.option(
        fc.integer({ min: 0, max: 400 }).map((d) => new Date(NOW.getTime() - d * DAY).toISOString()),
        { nil: undefined },
      ),
    }),
    { maxLength: 4 },
  ),
  assessments: assessmentsArb,
  dmseLatencyPctChange: fc.option(fc.double({ min: -100, max: 1000, noNaN: true }), { nil: undefined }),
});
const biomarkerArb = fc.record({
  labs: fc.array(
    fc.record({
      id: fc.constantFrom("l1", "l2"),
      labName: fc.constant("Lab"),
      observedAt: fc.option(
        fc.integer({ min: 0, max: 400 }).map((d) => new Date(NOW.getTime() - d * DAY).toISOString()),
        { nil: undefined },
      ),
      results: fc.record({
        biomarkers: fc.array(
          fc.record(
            {
              name: fc.constantFrom("lithium", "sodium", "TSH", "ALT", "creatinine", "vitamin D", "mystery"),
              value: fc.oneof(
                fc.double({ min: 0, max: 500, noNaN: true }),
                fc.constant("high"),
                fc.constant(null),
              ),
              unit: fc.constantFrom("mmol/L", "mEq/L", "mIU/L", "U/L", "umol/L", "ng/mL", "g"),
              flag: fc.constantFrom("high", "low", "critical", "normal"),
            },
            { requiredKeys: ["name", "value"] },
          ),
          { maxLength: 5 },
        ),
      }),
    }),
    { maxLength: 3 },
  ),
});
const previousArb: fc.Arbitrary<PreviousResult | undefined> = fc.option(
  fc.record(
    {
      score: fc.double({ min: -100, max: 100, noNaN: true }),
      status: fc.constantFrom("low", "moderate", "high", "improving", "worsening", "stable", "normal"),
      computedAt: fc.constant("2026-06-01T00:00:00.000Z"),
      inputs: fc.constant({ avgSleepHours: 3 }),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);

async function narrate<TData>(
  engine: IntelligenceBlock["engine"],
  run: EngineRun<TData>,
  highlights: string[],
  previous: PreviousResult | undefined,
  input: object,
): Promise<string | undefined> {
  const block = buildEngineIntelligence({
    engine,
    facts: run.facts,
    model: run.model,
    now: NOW,
    codes: [],
    previous,
    currentInputs: input as Record<string, unknown>,
  });
  const explained = await attachReasoning(block, templateNarrator, { highlights, now: () => NOW });
  return explained.reasoning?.narrative;
}

const RUNS = { numRuns: 150 };

describe("template narrative over each engine's input space", () => {
  it("dmse", async () => {
    await fc.assert(
      fc.asyncProperty(dmseInputArb, previousArb, async (input, previous) => {
        const run = analyzeDmse(input, { now: NOW });
        const lines = run.data.signals
          .filter((s) => s.interpretation !== "within_normal")
          .map((s) => s.mseLine);
        expectWellFormed(await narrate("dmse", run, lines, previous, input));
      }),
      RUNS,
    );
  });

  it("relapse", async () => {
    await fc.assert(
      fc.asyncProperty(relapseArb, previousArb, async (input, previous) => {
        const run = predictRelapse(input, { now: NOW });
        const lines = run.data.factors.filter((f) => f.points > 0).map((f) => f.detail);
        expectWellFormed(await narrate("relapse", run, lines, previous, input));
      }),
      RUNS,
    );
  });

  it("outcome", async () => {
    await fc.assert(
      fc.asyncProperty(outcomeArb, previousArb, async (input, previous) => {
        const run = scoreOutcome(input, { now: NOW });
        const lines = run.data.components.filter((c) => c.available).map((c) => c.detail);
        expectWellFormed(await narrate("outcome", run, lines, previous, input));
      }),
      RUNS,
    );
  });

  it("medication", async () => {
    await fc.assert(
      fc.asyncProperty(medicationArb, previousArb, async (input, previous) => {
        const run = analyzeMedication(input, { now: NOW });
        const lines = run.data.signals.map((s) => s.summaryLine);
        expectWellFormed(await narrate("medication", run, lines, previous, input));
      }),
      RUNS,
    );
  });

  it("biomarker", async () => {
    await fc.assert(
      fc.asyncProperty(biomarkerArb, previousArb, async (input, previous) => {
        const run = analyzeBiomarkers(input, { now: NOW });
        const lines = run.data.signals.map((s) => s.summaryLine);
        expectWellFormed(await narrate("biomarker", run, lines, previous, input));
      }),
      RUNS,
    );
  });

  it("any headline, lines, change and reasons", async () => {
    const sentenceArb = fc
      .tuple(
        fc.array(
          fc.constantFrom(
            "Score",
            "high",
            "PHQ-9",
            "sleep",
            "7 h",
            "(expert-set)",
            "1.5",
            "-> 19",
            "at least",
          ),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        fc.constantFrom("", ".", ";", ":", ",", "..", ". ", ".)", "!", '."', " (reported.)", "..."),
      )
      .map(([words, end]) => `${words.join(" ")}${end}`);
    const textArb = fc.array(sentenceArb, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(" "));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("dmse", "biomarker", "medication", "outcome", "relapse" as const),
        textArb,
        fc.array(textArb, { maxLength: 5 }),
        fc.array(textArb, { maxLength: 3 }),
        fc.option(fc.array(textArb, { maxLength: 3 }), { nil: null }),
        fc.boolean(),
        async (engine, headline, highlights, reasons, explanations, review) => {
          const narrative = await templateNarrator.narrate(
            {
              engine,
              summary: { status: "high", headline, flagged: [], requiresClinicianReview: review },
              confidence: { level: "moderate", score: 0.5, reasons },
              change: explanations
                ? {
                    direction: "worsened",
                    delta: 1,
                    previousStatus: "low",
                    currentStatus: "high",
                    explanations,
                    previousComputedAt: null,
                  }
                : null,
              highlights,
            },
            new AbortController().signal,
          );
          expectWellFormed(narrative);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("the relapse example of a reliable deterioration", async () => {
    const input = {
      assessments: [
        {
          instrumentId: "phq9",
          instrumentName: "PHQ-9",
          score: 8,
          maxScore: 27,
          createdAt: "2026-05-01T00:00:00Z",
        },
        {
          instrumentId: "phq9",
          instrumentName: "PHQ-9",
          score: 19,
          maxScore: 27,
          createdAt: "2026-06-20T00:00:00Z",
        },
      ],
      avgSleepHours: 4,
      dmseLatencyPctChange: 40,
      daysSinceLastVisit: 100,
      hasActiveMedication: true,
      daysSinceMedChange: 10,
    };
    const run = predictRelapse(input, { now: NOW });
    const narrative = await narrate(
      "relapse",
      run,
      run.data.factors.filter((f) => f.points > 0).map((f) => f.detail),
      undefined,
      input,
    );
    expectWellFormed(narrative);
    expect(narrative).not.toContain(".;");
    expect(narrative?.match(/reliable deterioration/g)).toHaveLength(1);
  });
});
