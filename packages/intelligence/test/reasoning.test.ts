import {
  type Assessment,
  analyzeBiomarkers,
  analyzeDmse,
  analyzeMedication,
  type EngineRun,
  predictRelapse,
  type RelapseInput,
  scoreOutcome,
} from "@svc/engines";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  attachReasoning,
  buildEngineIntelligence,
  type EngineName,
  engineRaisedRisk,
  findReassurance,
  foldForMatching,
  type IntelligenceBlock,
  type Narrator,
  REASSURANCE_PHRASES,
  screenReassurance,
  templateNarrator,
} from "../src/index.js";
import { disguised, neutralText, REASSURING } from "./reassurance-arbitraries.js";

/**
 * `intelligence.reasoning` never carries a language model's reassurance about risk (decision 74):
 * the real engines build the block, a scripted narrator plays the model, attachReasoning screens.
 */
const NOW = new Date("2026-06-22T00:00:00Z");
const at = () => NOW;

/** A narrator that answers with the given text, as a language model would. */
const scripted = (text: string): Narrator => ({ kind: "model", narrate: async () => text });

function block(engine: EngineName, run: EngineRun<unknown>): IntelligenceBlock {
  return buildEngineIntelligence({
    engine,
    facts: run.facts,
    model: run.model,
    now: NOW,
    codes: [],
    currentInputs: {},
  });
}

const phq9 = (score: number, createdAt: string): Assessment => ({
  instrumentId: "phq9",
  instrumentName: "PHQ-9",
  score,
  maxScore: 27,
  createdAt,
});

/** A PHQ-9 rising from 6 to 23 with short sleep: relapse `high`, flagged for review. */
const HIGH_RELAPSE: RelapseInput = {
  assessments: [phq9(6, "2026-05-25"), phq9(14, "2026-06-08"), phq9(23, "2026-06-21")],
  avgSleepHours: 4,
  dmseLatencyPctChange: 40,
  daysSinceMedChange: 10,
  hasActiveMedication: true,
  daysSinceLastVisit: 90,
};
const highRelapse = () => block("relapse", predictRelapse(HIGH_RELAPSE, { now: NOW }));

/** The template narrator's text for a block (what stands in when nothing of the model's is left). */
const templateText = (b: IntelligenceBlock) =>
  templateNarrator.narrate(
    { engine: b.engine, summary: b.summary, confidence: b.confidence, change: b.change, highlights: [] },
    new AbortController().signal,
  );

/**
 * The relapse engine's own caveat when no symptom trajectory could be read ("a low score is not
 * evidence of low risk", "the score cannot show low risk") carries the words "low risk", which the
 * screen drops beside a raised risk. It is why the template narrator's text, which restates the
 * engine, is never screened.
 */
const ENGINE_CAVEATS = ["not evidence of low risk", "cannot show low risk"];

/**
 * The template narrator's text carries no reassurance phrase, and apart from the engine's caveat
 * it passes the screen unchanged, with the contradictions too when the engine raised risk.
 */
function expectTemplatePassesScreen(text: string, b: IntelligenceBlock): void {
  expect(findReassurance(text, { riskRaised: false })).toEqual([]);
  const besideCaveats = ENGINE_CAVEATS.reduce((rest, caveat) => rest.replaceAll(caveat, "a caveat"), text);
  expect(screenReassurance(besideCaveats, { riskRaised: engineRaisedRisk(b.summary) })).toEqual({
    text: besideCaveats,
    dropped: [],
  });
}

describe("a model's narrative in intelligence.reasoning", () => {
  it("beside a high relapse, the disguised reassurance goes and the rest stays (narrator model)", async () => {
    const b = highRelapse();
    expect(b.summary.status).toBe("high");
    // Cyrillic о, і, а and a zero-width space and soft hyphen inside the words.
    const narrative = "Relapse risk is high. Nо rіsk of relapse, s\u200Bаfe to dis\u00ADcharge.";
    const withReasoning = await attachReasoning(b, scripted(narrative), { now: at });
    expect(withReasoning.reasoning).toEqual({
      narrative: "Relapse risk is high.",
      generatedAt: NOW.toISOString(),
      narrator: "model",
    });
    // Nothing else in the block changes.
    expect({ ...withReasoning, reasoning: null }).toEqual(b);
  });

  it("when every sentence reassures, the template narrator's text stands in (never null)", async () => {
    const b = highRelapse();
    const withReasoning = await attachReasoning(b, scripted("Nо rіsk of relapse; s\u200Bаfe to discharge."), {
      now: at,
    });
    expect(withReasoning.reasoning).toEqual({
      narrative: await templateText(b),
      generatedAt: NOW.toISOString(),
      narrator: "template",
    });
  });

  it("a clean narrative is kept exactly as written", async () => {
    const b = highRelapse();
    const narrative =
      "The relapse early-warning score is high. PHQ-9 rose from 6 to 23 and sleep is short; a clinician should review it promptly.";
    const withReasoning = await attachReasoning(b, scripted(narrative), { now: at });
    expect(withReasoning.reasoning?.narrative).toBe(narrative);
    expect(withReasoning.reasoning?.narrator).toBe("model");
  });

  it("beside a raised risk, words that play it down go too", async () => {
    const b = highRelapse();
    expect(engineRaisedRisk(b.summary)).toBe(true);
    const withReasoning = await attachReasoning(b, scripted("PHQ-9 rose to 23. Overall this is reassuring."));
    expect(withReasoning.reasoning?.narrative).toBe("PHQ-9 rose to 23.");
  });

  it("a cut at the length limit cannot leave a fragment that reads as reassurance", async () => {
    // The 2,000-character cut falls right after "The drug is safe" of "safer".
    const filler = `${"Review the sleep diary. ".repeat(82)}Check the dose. `;
    const narrative = `${filler}The drug is safer than before.`;
    expect(`${filler}The drug is safe`.length).toBe(2000);
    const withReasoning = await attachReasoning(highRelapse(), scripted(narrative));
    const kept = withReasoning.reasoning?.narrative ?? "";
    expect(findReassurance(kept, { riskRaised: true })).toEqual([]);
    expect(kept.endsWith("Check the dose.")).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------

const dayArb = fc
  .integer({ min: 0, max: 400 })
  .map((days) => new Date(NOW.getTime() - days * 86_400_000).toISOString());
/** Relapse requests over the contract's ranges (PHQ-9 histories, sleep, latency, cadence). */
const relapseInputArb: fc.Arbitrary<RelapseInput> = fc.record(
  {
    assessments: fc.array(
      fc.tuple(fc.integer({ min: 0, max: 27 }), dayArb).map(([score, day]) => phq9(score, day)),
      { maxLength: 6 },
    ),
    avgSleepHours: fc.double({ min: 0, max: 24, noNaN: true }),
    dmseLatencyPctChange: fc.double({ min: -100, max: 1000, noNaN: true }),
    daysSinceMedChange: fc.integer({ min: 0, max: 3650 }),
    hasActiveMedication: fc.boolean(),
    daysSinceLastVisit: fc.integer({ min: 0, max: 3650 }),
  },
  { requiredKeys: ["assessments"] },
);

describe("properties", () => {
  it("a disguised reassurance phrase never reaches reasoning.narrative, and reasoning is never null for it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...REASSURING, ...REASSURANCE_PHRASES)
          .chain((phrase) => fc.tuple(fc.constant(phrase), disguised(phrase))),
        neutralText,
        relapseInputArb,
        fc.boolean(),
        async ([phrase, disguise], neutral, input, alone) => {
          const b = block("relapse", predictRelapse(input, { now: NOW }));
          const narrative = alone ? `${disguise}.` : `${neutral} ${disguise}. ${neutral}`;
          const reasoning = (await attachReasoning(b, scripted(narrative))).reasoning;
          expect(reasoning).not.toBeNull();
          const folded = foldForMatching(reasoning?.narrative ?? "");
          expect(` ${folded} `, JSON.stringify(disguise)).not.toContain(` ${foldForMatching(phrase)} `);
          // The model's other sentences are kept, without any reassurance; only a narrative left
          // empty falls back to the template narrator's text.
          if (alone)
            expect(reasoning).toMatchObject({ narrative: await templateText(b), narrator: "template" });
          else {
            expect(reasoning).toMatchObject({ narrative: `${neutral} ${neutral}`, narrator: "model" });
            expect(findReassurance(reasoning?.narrative ?? "", { riskRaised: true })).toEqual([]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("the template narrator's text passes the screen unchanged over relapse requests", async () => {
    await fc.assert(
      fc.asyncProperty(relapseInputArb, async (input) => {
        const run = predictRelapse(input, { now: NOW });
        const b = block("relapse", run);
        const text = await templateNarrator.narrate(
          {
            engine: b.engine,
            summary: b.summary,
            confidence: b.confidence,
            change: b.change,
            highlights: run.data.factors.filter((f) => f.points > 0).map((f) => f.detail),
          },
          new AbortController().signal,
        );
        expectTemplatePassesScreen(text, b);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the template narrator over typical outputs of every engine", () => {
  it("keeps the engine's caveat that a low score without symptom data is not evidence of low risk", async () => {
    const b = block("relapse", predictRelapse({ assessments: [], avgSleepHours: 4 }, { now: NOW }));
    expect(engineRaisedRisk(b.summary)).toBe(true);
    const reasoning = (await attachReasoning(b, templateNarrator)).reasoning;
    expect(reasoning?.narrative).toBe(await templateText(b));
    expect(reasoning?.narrative).toContain("not evidence of low risk");
  });

  const runs: [EngineName, EngineRun<unknown>][] = [
    ["relapse", predictRelapse(HIGH_RELAPSE, { now: NOW })],
    [
      "relapse",
      predictRelapse(
        { assessments: [phq9(4, "2026-06-01"), phq9(3, "2026-06-20")], avgSleepHours: 7.5 },
        { now: NOW },
      ),
    ],
    ["relapse", predictRelapse({ assessments: [] }, { now: NOW })],
    [
      "outcome",
      scoreOutcome(
        {
          assessments: [phq9(20, "2026-04-01"), phq9(8, "2026-06-15")],
          avgSleepHours: 7,
          activeMedications: 1,
        },
        { now: NOW },
      ),
    ],
    ["outcome", scoreOutcome({ assessments: [phq9(5, "2026-04-01"), phq9(19, "2026-06-15")] }, { now: NOW })],
    [
      "medication",
      analyzeMedication(
        {
          prescriptions: [
            { id: "rx1", medicationName: "sertraline", status: "active", prescribedAt: "2026-04-01" },
          ],
          assessments: [phq9(18, "2026-03-20"), phq9(9, "2026-06-01")],
        },
        { now: NOW },
      ),
    ],
    [
      "biomarker",
      analyzeBiomarkers(
        {
          labs: [
            {
              id: "lab1",
              labName: "Lab",
              observedAt: "2026-06-20",
              results: {
                biomarkers: [
                  { name: "Lithium", value: 1.6, unit: "mmol/L", flag: "high" },
                  { name: "TSH", value: 2.1, unit: "mIU/L", flag: "normal" },
                ],
              },
            },
          ],
        },
        { now: NOW },
      ),
    ],
    [
      "biomarker",
      analyzeBiomarkers(
        {
          labs: [
            {
              id: "lab2",
              labName: "Lab",
              observedAt: "2026-06-20",
              results: { biomarkers: [{ name: "Sodium", value: 140, unit: "mmol/L", flag: "normal" }] },
            },
          ],
        },
        { now: NOW },
      ),
    ],
    [
      "dmse",
      analyzeDmse(
        { responseLatencySeconds: 2.1, speechRateWpm: 140, sessionDurationSeconds: 600 },
        { now: NOW },
      ),
    ],
    [
      "dmse",
      analyzeDmse(
        { responseLatencySeconds: 9, speechRateWpm: 60, sessionDurationSeconds: 600 },
        { now: NOW },
      ),
    ],
  ];

  it.each(runs.map(([engine, run], index) => [index, engine, run] as const))(
    "case %i (%s): the text passes the screen unchanged and attachReasoning keeps it as written",
    async (_index, engine, run) => {
      const b = block(engine, run);
      const text = await templateText(b);
      expectTemplatePassesScreen(text, b);
      expect((await attachReasoning(b, templateNarrator)).reasoning).toMatchObject({
        narrative: text,
        narrator: "template",
      });
    },
  );
});
