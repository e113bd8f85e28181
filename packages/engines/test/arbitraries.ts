/** fast-check generators shared by the engine tests: one definition of each contract input space. */
import fc from "fast-check";

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
