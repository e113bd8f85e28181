/** fast-check generators shared by the engine tests: one definition of each contract input space. */
import fc from "fast-check";
import { INSTRUMENTS, type InstrumentId } from "../src/knowledge/instruments.js";
import type { Assessment } from "../src/types.js";

const DAY_MS = 86_400_000;

const historyArb = (max: number) => fc.array(fc.double({ min: 0, max, noNaN: true }), { maxLength: 100 });

/** POST /v1/dmse/analyze's whole input space: each metric absent or any in-bound value (decision 40). */
export const dmseInputArb = fc.record(
  {
    psychomotorFidgetEpisodes: fc.double({ min: 0, max: 1000, noNaN: true }),
    responseLatencySeconds: fc.double({ min: 0, max: 120, noNaN: true }),
    speechRateWpm: fc.double({ min: 0, max: 600, noNaN: true }),
    sustainedAttentionPct: fc.double({ min: 0, max: 100, noNaN: true }),
    sessionDurationSeconds: fc.double({ min: 0, max: 14_400, noNaN: true }),
    history: fc.record(
      {
        psychomotor: historyArb(1000),
        response_latency: historyArb(120),
        speech_rate: historyArb(600),
        sustained_attention: historyArb(100),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

export { historyArb };

/**
 * One recognised instrument (drawn from `ids`) given on distinct days within the 60 days before
 * `now`, each total a whole number in its published range.
 */
export const recentPublishedSeriesArb = (ids: readonly InstrumentId[], now: Date, minLength = 2) =>
  fc.constantFrom(...ids).chain((id) => {
    const k = INSTRUMENTS[id];
    return fc
      .uniqueArray(
        fc.record({
          day: fc.integer({ min: 1, max: 60 }),
          score: fc.integer({ min: k.totalMin, max: k.totalMax }),
        }),
        { selector: (a) => a.day, minLength, maxLength: 6 },
      )
      .map((items) => ({
        id,
        items: items.map(
          (a): Assessment => ({
            instrumentId: id,
            instrumentName: k.display,
            score: a.score,
            maxScore: k.totalMax,
            createdAt: new Date(now.getTime() - a.day * DAY_MS).toISOString(),
          }),
        ),
      }));
  });

/** Administrations of one instrument every `step` days from `start`. */
export function assessmentSeries(
  id: string,
  name: string,
  max: number,
  scores: number[],
  start: string,
  step = 14,
): Assessment[] {
  return scores.map((score, i) => ({
    instrumentId: id,
    instrumentName: name,
    score,
    maxScore: max,
    createdAt: new Date(Date.parse(start) + i * step * DAY_MS).toISOString(),
  }));
}
