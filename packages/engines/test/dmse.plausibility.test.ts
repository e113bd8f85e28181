import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  analyzeDmse,
  DMSE_PLAUSIBLE_LIMITS,
  type DmseInput,
  type DmseSignalKey,
  dmseImplausibleValue,
} from "../src/dmse.js";
import { dmseInputArb } from "./arbitraries.js";

/**
 * Physically implausible device values (decision 73): a capture-quality finding, never read as
 * inside the range. Written from the limits in docs/engines/dmse.md, not from the implementation.
 */

const NOW = new Date("2026-07-01T12:00:00Z");
const run = (input: DmseInput) => analyzeDmse(input, { now: NOW }).data;
const METRIC: Record<DmseSignalKey, keyof DmseInput> = {
  response_latency: "responseLatencySeconds",
  psychomotor: "psychomotorFidgetEpisodes",
  speech_rate: "speechRateWpm",
  sustained_attention: "sustainedAttentionPct",
};

/** The rule, written independently: which sent values no human can produce. */
function referenceImplausible(key: DmseSignalKey, v: number, session: number | undefined): boolean {
  if (session !== undefined && session <= 0) return true;
  if (!Number.isFinite(v)) return true;
  if (key === "response_latency") return v <= 0.1 || v > 14_400 || (session !== undefined && v > session);
  // Decision 181: 655 wpm is a record burst; no one sustains more than 500 wpm over a minute.
  if (key === "speech_rate") return v < 0 || v > 655 || (v > 500 && !(session !== undefined && session < 60));
  if (key === "psychomotor") return v < 0 || v > 14_400 || (session !== undefined && v > session);
  return v < 0 || v > 100;
}

describe("implausible device values, the issue's example and each limit", () => {
  it("a 0 s response latency in a 5 s session is not within_normal: low confidence, named as a capture problem", () => {
    const d = run({ responseLatencySeconds: 0, sessionDurationSeconds: 5 });
    const [s] = d.signals;
    expect(s?.interpretation).toBe("subclinical");
    expect(s?.confidence).toBe("low");
    expect(s?.mseLine).toBe(
      "Mean response latency 0 s: implausible device value (a mean response latency of 0 s is at or below the 0.1 s floor of any human response), so it is not read against the range used here; capture quality to be checked.",
    );
    expect(d.summary.status).toBe("subclinical");
    expect(d.summary.flagged).toEqual(["Response latency"]);
    expect(d.summary.headline).toContain(
      "Implausible device value(s), capture quality to be checked: Response latency (a mean response latency of 0 s",
    );
    expect(d.overallConfidence).toBe("low");
    const facts = analyzeDmse({ responseLatencySeconds: 0, sessionDurationSeconds: 5 }, { now: NOW }).facts;
    expect(facts.confidence.level).toBe("low");
    expect(facts.confidence.reasons[0]).toMatch(/^Response latency: implausible device value \(.*0 s.*\)/);
  });

  it("names each limit: latency floor, latency beyond the session, speech ceiling, fidgets per second, a 0 s session", () => {
    expect(dmseImplausibleValue("response_latency", 0.1)).toContain("0.1 s floor");
    expect(dmseImplausibleValue("response_latency", 0.11)).toBeNull();
    expect(dmseImplausibleValue("response_latency", 6, 5)).toContain("longer than the 5 s session");
    expect(dmseImplausibleValue("response_latency", 5, 5)).toBeNull();
    expect(dmseImplausibleValue("speech_rate", 656)).toContain("655 wpm");
    expect(dmseImplausibleValue("speech_rate", 600, 30)).toBeNull();
    expect(dmseImplausibleValue("speech_rate", 600)).toContain("500 wpm no person sustains");
    expect(dmseImplausibleValue("speech_rate", 501, 60)).toContain("500 wpm no person sustains");
    expect(dmseImplausibleValue("speech_rate", 500, 600)).toBeNull();
    expect(dmseImplausibleValue("sustained_attention", 100.5)).toContain("100 %");
    expect(dmseImplausibleValue("psychomotor", -1)).toContain("below 0 episodes");
    expect(dmseImplausibleValue("psychomotor", 11, 10)).toContain("more than one episode per second");
    expect(dmseImplausibleValue("psychomotor", 10, 10)).toBeNull();
    expect(dmseImplausibleValue("sustained_attention", 95, 0)).toContain("session of 0 s");
    expect(dmseImplausibleValue("sustained_attention", 95, 30)).toBeNull();
    expect(DMSE_PLAUSIBLE_LIMITS).toEqual({
      latencyMinSeconds: 0.1,
      speechMaxWpm: 655,
      psychomotorMaxPerSecond: 1,
      speechMaxSustainedWpm: 500,
      speechSustainedFromSeconds: 60,
      attentionMaxPct: 100,
      longestSessionSeconds: 14_400,
    });
  });

  it("gaze share in a 0 s session is not inside the range", () => {
    const [s] = run({ sustainedAttentionPct: 100, sessionDurationSeconds: 0 }).signals;
    expect(s?.interpretation).toBe("subclinical");
    expect(s?.confidence).toBe("low");
  });

  it("an implausible value above a threshold keeps its higher reading (a 100 s latency in a 5 s session)", () => {
    const [s] = run({ responseLatencySeconds: 100, sessionDurationSeconds: 5 }).signals;
    expect(s?.interpretation).toBe("clinical_attention");
    expect(s?.mseLine).toContain("longer than the 5 s session");
  });
});

describe("history", () => {
  it("leaves implausible prior values out of the baseline and says how many", () => {
    const [s] = run({ responseLatencySeconds: 1.5, history: { response_latency: [0, 0, 1.4, 1.6] } }).signals;
    expect(s?.baseline).toEqual({ mean: 1.5, sd: 0.14, n: 2 });
    expect(s?.trendDir).toBe("stable");
    expect(s?.detail).toContain("2 prior value(s) left out of the baseline as implausible device values.");
    const [none] = run({ responseLatencySeconds: 1.5, history: { response_latency: [0.05] } }).signals;
    expect(none?.baseline).toBeUndefined();
    expect(none?.detail).toContain("1 prior value(s) left out of the baseline");
  });
});

describe("properties", () => {
  it("an implausible value never yields within_normal, and its signal and the run are low confidence", () => {
    fc.assert(
      fc.property(dmseInputArb, (input) => {
        const d = run(input);
        let anyImplausible = false;
        for (const s of d.signals) {
          const raw = input[METRIC[s.signalKey]] as number;
          const implausible = referenceImplausible(s.signalKey, raw, input.sessionDurationSeconds);
          expect(dmseImplausibleValue(s.signalKey, raw, input.sessionDurationSeconds) !== null).toBe(
            implausible,
          );
          if (!implausible) continue;
          anyImplausible = true;
          expect(s.interpretation).not.toBe("within_normal");
          expect(s.confidence).toBe("low");
          expect(s.mseLine).toContain("implausible device value");
          expect(d.summary.flagged).toContain(s.label);
        }
        if (anyImplausible) {
          expect(d.summary.status).not.toBe("within_normal");
          expect(d.overallConfidence).toBe("low");
          expect(d.summary.headline).toContain("capture quality to be checked");
        } else {
          expect(d.summary.headline).not.toContain("mplausible");
        }
      }),
      { numRuns: 1000, examples: [[{ responseLatencySeconds: 0, sessionDurationSeconds: 5 }]] },
    );
  });

  it("implausibility never lowers a reading: it is the threshold reading or subclinical, whichever is worse", () => {
    const rank = { within_normal: 0, subclinical: 1, clinical_attention: 2 } as const;
    // The contract's and docs/engines/dmse.md's default thresholds, written independently.
    const thresholdRank = (key: DmseSignalKey, v: number, session: number | undefined): number => {
      if (key === "response_latency") return v >= 2.5 ? 2 : v >= 1.8 ? 1 : 0;
      if (key === "speech_rate") return v < 90 || v > 220 ? 2 : v < 110 || v > 190 ? 1 : 0;
      if (key === "sustained_attention") return v < 60 ? 2 : v < 80 ? 1 : 0;
      const rate = session !== undefined && session >= 60 ? (v / session) * 600 : v;
      return rate >= 12 ? 2 : rate >= 6 ? 1 : 0;
    };
    fc.assert(
      fc.property(dmseInputArb, (input) => {
        for (const s of run(input).signals) {
          const raw = input[METRIC[s.signalKey]] as number;
          const byThreshold = thresholdRank(s.signalKey, raw, input.sessionDurationSeconds);
          const implausible = referenceImplausible(s.signalKey, raw, input.sessionDurationSeconds);
          expect(rank[s.interpretation]).toBe(implausible ? Math.max(byThreshold, 1) : byThreshold);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe("property: every metric has a physical bound (decision 181)", () => {
  /** Library callers are not held to the request bounds: values either side of every bound. */
  const wide = fc.oneof(
    fc.double({ min: -100, max: 20_000, noNaN: true }),
    fc.constantFrom(-1, 0, 0.1, 100, 100.01, 500, 500.01, 655, 655.01, 900, 14_400, 14_401),
  );
  const metricArb = fc.record(
    {
      key: fc.constantFrom<DmseSignalKey>(
        "response_latency",
        "psychomotor",
        "speech_rate",
        "sustained_attention",
      ),
      value: wide,
      session: fc.option(
        fc.oneof(fc.double({ min: 0, max: 14_400, noNaN: true }), fc.constantFrom(30, 59, 60, 600)),
        {
          nil: undefined,
        },
      ),
      history: fc.array(fc.double({ min: 0, max: 3, noNaN: true }), { maxLength: 6 }),
    },
    { requiredKeys: ["key", "value", "session", "history"] },
  );

  it("a value beyond its metric's bound is never within_normal and never above low confidence", () => {
    fc.assert(
      fc.property(metricArb, ({ key, value, session, history }) => {
        const input: DmseInput = {
          [METRIC[key]]: value,
          ...(session === undefined ? {} : { sessionDurationSeconds: session }),
          history: { [key]: history },
        };
        const d = run(input);
        const [s] = d.signals;
        const implausible = referenceImplausible(key, value, session);
        expect(dmseImplausibleValue(key, value, session) !== null).toBe(implausible);
        if (!implausible) return;
        expect(s?.interpretation).not.toBe("within_normal");
        expect(s?.confidence).toBe("low");
        expect(d.overallConfidence).toBe("low");
        expect(d.summary.status).not.toBe("within_normal");
        expect(s?.mseLine).toContain("implausible device value");
      }),
      { numRuns: 2000 },
    );
  });

  it("the issue's examples: speech at 900 wpm and at 600 wpm over ten minutes, gaze share above the session", () => {
    for (const input of [
      { speechRateWpm: 900 },
      { speechRateWpm: 600, sessionDurationSeconds: 600 },
      { sustainedAttentionPct: 150, sessionDurationSeconds: 600 },
      { psychomotorFidgetEpisodes: 900, sessionDurationSeconds: 600 },
    ]) {
      const d = run(input);
      expect(d.signals[0]?.confidence, JSON.stringify(input)).toBe("low");
      expect(d.signals[0]?.interpretation).not.toBe("within_normal");
      expect(d.summary.headline).toContain("capture quality to be checked");
    }
  });
});
