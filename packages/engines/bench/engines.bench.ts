/**
 * Micro-benchmark of the dmse, outcome and relapse engines on their maximal inputs (500
 * assessments, 100-value histories). Target: under 50 µs per call. Run:
 * `pnpm exec vitest bench --run packages/engines/bench/engines.bench.ts`.
 */
import { bench, describe } from "vitest";
import { analyzeDmse, type DmseInput } from "../src/dmse.js";
import { type OutcomeInput, scoreOutcome } from "../src/outcome.js";
import { predictRelapse, type RelapseInput } from "../src/relapse.js";
import type { Assessment } from "../src/types.js";

const NOW = new Date("2026-07-01T00:00:00Z");
const START = Date.parse("2025-01-01T09:00:00Z");

/** 500 administrations of three instruments, newest first (the worst order for a naive sort). */
const assessments: Assessment[] = Array.from({ length: 500 }, (_, i) => {
  const instrument = i % 5 === 0 ? "gad7" : i % 7 === 0 ? "custom" : "phq9";
  return {
    instrumentId: instrument,
    instrumentName: instrument === "phq9" ? "PHQ-9" : instrument === "gad7" ? "GAD-7" : "Custom scale",
    score: (i * 7) % 28,
    maxScore: instrument === "gad7" ? 21 : 27,
    createdAt: new Date(START + (499 - i) * 86_400_000).toISOString(),
  };
});

const relapseInput: RelapseInput = {
  assessments,
  dmseLatencyPctChange: 25,
  avgSleepHours: 6.2,
  daysSinceMedChange: 12,
  hasActiveMedication: true,
  daysSinceLastVisit: 48,
};
const outcomeInput: OutcomeInput = {
  assessments,
  dmseLatencyPctChange: -12,
  activeMedications: 2,
  biomarkerWatchCount: 1,
  avgSleepHours: 6.5,
};
const hundred = (base: number, spread: number) =>
  Array.from({ length: 100 }, (_, i) => base + ((i * 37) % 11) * (spread / 10));
const dmseInput: DmseInput = {
  psychomotorFidgetEpisodes: 7,
  responseLatencySeconds: 2.1,
  speechRateWpm: 118,
  sustainedAttentionPct: 74,
  sessionDurationSeconds: 900,
  history: {
    psychomotor: hundred(4, 4),
    response_latency: hundred(1.5, 0.6),
    speech_rate: hundred(140, 30),
    sustained_attention: hundred(85, 10),
  },
};

describe("engines, maximal input", () => {
  bench("predictRelapse (500 assessments)", () => {
    predictRelapse(relapseInput, { now: NOW });
  });
  bench("scoreOutcome (500 assessments)", () => {
    scoreOutcome(outcomeInput, { now: NOW });
  });
  bench("analyzeDmse (4 signals, 4 x 100 history)", () => {
    analyzeDmse(dmseInput, { now: NOW });
  });
});
