/**
 * The staleness rule in the intelligence block (decision 62): an input that moved the result and
 * is older than the engine's own age limit lowers the block's confidence to low, names the input,
 * and ageing never raises confidence; inputs without a limit are only listed.
 */
import { predictRelapse, scoreOutcome } from "@svc/engines";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildEngineIntelligence, buildIntelligenceCore, type CoreInput } from "../src/index.js";

const NOW = new Date("2026-07-01T00:00:00Z");
const DAY = 86_400_000;
const RANK = { low: 0, moderate: 1, high: 2 } as const;

function core(inputs: CoreInput["inputs"], level: "high" | "moderate" | "low" = "high"): CoreInput {
  return {
    engine: "outcome",
    now: NOW,
    engineVersion: "default",
    summary: { status: "stable", headline: "Stable.", flagged: [], requiresClinicianReview: false },
    confidence: { level, score: level === "high" ? 0.9 : 0.6, reasons: ["engine reason"] },
    inputs,
    codes: [],
    current: { score: 0, status: "stable" },
    currentInputs: {},
    polarity: { kind: "score", higherIs: "better" },
    interpretationScale: {},
  };
}

const assessmentsInput = (daysAgo: number, contributed = true) => ({
  name: "assessments",
  value: 2,
  observedAt: new Date(NOW.getTime() - daysAgo * DAY).toISOString(),
  supplied: true,
  contributed,
  staleAfterDays: 90,
});

describe("staleness in the intelligence block", () => {
  it("a contributing input older than its limit: listed as stale and confidence capped at low with a reason", () => {
    const block = buildIntelligenceCore(core([assessmentsInput(730)]));
    expect(block.dataQuality.freshness.staleInputs).toEqual(["assessments"]);
    expect(block.confidence.level).toBe("low");
    expect(block.confidence.score).toBeLessThanOrEqual(0.3);
    expect(block.confidence.reasons[0]).toBe(
      "Stale input(s): assessments (older than 90 days); the picture is not current, so confidence is at most low.",
    );
  });

  it("a current input, or a stale one that did not contribute, leaves confidence as the engine gave it", () => {
    expect(buildIntelligenceCore(core([assessmentsInput(10)])).confidence.level).toBe("high");
    const idle = buildIntelligenceCore(core([assessmentsInput(730, false)]));
    expect(idle.dataQuality.freshness.staleInputs).toEqual(["assessments"]);
    expect(idle.confidence.level).toBe("high");
  });

  it("an input without the engine's limit is only listed (the block's 90-day default)", () => {
    const panel = {
      name: "panels",
      value: 1,
      observedAt: "2025-01-01T00:00:00Z",
      supplied: true,
      contributed: true,
    };
    const block = buildIntelligenceCore(core([panel]));
    expect(block.dataQuality.freshness.staleInputs).toEqual(["panels"]);
    expect(block.confidence.level).toBe("high");
  });

  it("ageing never raises the block's confidence", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.constantFrom("high", "moderate", "low") as fc.Arbitrary<"high" | "moderate" | "low">,
        (age, extra, level) => {
          const young = buildIntelligenceCore(core([assessmentsInput(age)], level)).confidence;
          const old = buildIntelligenceCore(core([assessmentsInput(age + extra)], level)).confidence;
          expect(RANK[old.level]).toBeLessThanOrEqual(RANK[young.level]);
          expect(old.score).toBeLessThanOrEqual(young.score);
        },
      ),
    );
  });

  it("the outcome and relapse engines' blocks agree with their own confidence on two-year-old scores", () => {
    const assessments = [20, 8].map((score, i) => ({
      instrumentId: "phq9",
      instrumentName: "PHQ-9",
      score,
      maxScore: 27,
      createdAt: new Date(Date.parse("2024-06-01") + i * 14 * DAY).toISOString(),
    }));
    for (const [engine, run] of [
      ["outcome", scoreOutcome({ assessments, avgSleepHours: 8 }, { now: NOW })],
      ["relapse", predictRelapse({ assessments }, { now: NOW })],
    ] as const) {
      const block = buildEngineIntelligence({
        engine,
        facts: run.facts,
        model: run.model,
        now: NOW,
        codes: [],
        currentInputs: {},
      });
      expect(block.dataQuality.freshness.staleInputs).toEqual(["assessments"]);
      expect(block.confidence).toEqual(run.facts.confidence);
      expect(block.confidence.level).toBe("low");
    }
  });
});
