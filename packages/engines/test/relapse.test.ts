import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  predictRelapse,
  RELAPSE_DEFAULT_PARAMS,
  RELAPSE_FACTOR_ORDER,
  RELAPSE_FINDING_LEVEL_FLOOR,
  RELAPSE_INSUFFICIENT_DATA_RECOMMENDATION,
  RELAPSE_INTERPRETATION_SCALE,
  RELAPSE_LEVELS,
  RELAPSE_MODEL_KEY,
  RELAPSE_NO_DRIVER,
  RELAPSE_RECOMMENDATIONS,
  RELAPSE_STALE_DATA_RECOMMENDATION,
  type RelapseInput,
  type RelapseLevel,
  type RelapseParams,
  resolveRelapseParams,
} from "../src/relapse.js";
import { parseTime, readTrajectory, round, slopePer30Days } from "../src/shared.js";
import { readSymptomFindings } from "../src/symptom-findings.js";
import type { Assessment } from "../src/types.js";

const DAY = 86_400_000;
const NOW = new Date("2026-06-20T09:00:00Z");

function series(scores: number[], start: string, stepDays: number, maxScore = 27, id = "phq9"): Assessment[] {
  return scores.map((score, i) => ({
    instrumentId: id,
    instrumentName: id === "phq9" ? "PHQ-9" : id,
    score,
    maxScore,
    createdAt: new Date(Date.parse(start) + i * stepDays * DAY).toISOString(),
  }));
}

const run = (input: Partial<RelapseInput>, now = NOW) =>
  predictRelapse({ assessments: [], ...input }, { now });
const factor = (input: Partial<RelapseInput>, key: string, now = NOW) => {
  const f = run(input, now).data.factors.find((x) => x.key === key);
  if (!f) throw new Error(`no factor ${key}`);
  return f;
};

describe("worked example (docs/engines/relapse.md)", () => {
  const input: RelapseInput = {
    assessments: [
      {
        instrumentId: "pcl5",
        instrumentName: "PCL-5",
        score: 32,
        maxScore: 80,
        createdAt: "2026-05-01T09:00:00Z",
      },
      {
        instrumentId: "pcl5",
        instrumentName: "PCL-5",
        score: 40,
        maxScore: 80,
        createdAt: "2026-05-31T09:00:00Z",
      },
    ],
    avgSleepHours: 6,
    dmseLatencyPctChange: 30,
    daysSinceMedChange: 10,
    hasActiveMedication: true,
    daysSinceLastVisit: 45,
  };
  const result = predictRelapse(input, { now: NOW });

  it("matches the hand computation", () => {
    const points = Object.fromEntries(result.data.factors.map((f) => [f.key, f.points]));
    // slope 10 pp / 30 days -> 10/15 of 35 = 23.33; last administration 20 days old -> weight 0.5.
    expect(points).toEqual({ symptoms: 11.67, sleep: 7.5, dmse: 7.5, medication: 10, cadence: 5 });
    expect(result.data.score).toBe(41.67);
    expect(result.data.level).toBe("elevated");
    expect(result.data.trend).toBe("rising");
    expect(result.data.topDriver).toBe("Symptom trajectory");
    expect(result.data.sourceCount).toBe(5);
    expect(result.data.recommendation).toMatch(/^Consider proactive outreach/);
    expect(result.facts.summary.flagged).toEqual([
      "Symptom trajectory",
      "Medication change",
      "Sleep",
      "Response latency change",
      "Visit cadence",
    ]);
    expect(result.facts.summary.requiresClinicianReview).toBe(true);
    // coverage 5/5 x 0.6 + depth 2/6 x 0.4 = 0.733 -> moderate
    expect(result.facts.confidence.score).toBe(0.733);
    expect(result.data.confidence).toBe("moderate");
  });

  it("lists every factor in the fixed order with maxima summing to 100", () => {
    expect(result.data.factors.map((f) => f.key)).toEqual([...RELAPSE_FACTOR_ORDER]);
    expect(result.data.factors.reduce((s, f) => s + f.maxPoints, 0)).toBe(100);
    expect(result.data.factors.map((f) => f.maxPoints)).toEqual([35, 15, 15, 15, 20]);
  });

  it("reports facts, model and data fields", () => {
    expect(result.model).toEqual({ key: RELAPSE_MODEL_KEY, version: null, source: "default" });
    expect(RELAPSE_MODEL_KEY).toBe("relapse_risk");
    expect(result.data.generatedAt).toBe(NOW.toISOString());
    expect(result.facts.current).toEqual({ score: 41.67, status: "elevated" });
    expect(result.facts.polarity).toEqual({ kind: "score", higherIs: "worse" });
    expect(result.facts.interpretationScale).toEqual(RELAPSE_INTERPRETATION_SCALE);
    expect(result.facts.inputs.map((i) => i.name)).toEqual([
      "assessments",
      "dmseLatencyPctChange",
      "avgSleepHours",
      "daysSinceMedChange",
      "hasActiveMedication",
      "daysSinceLastVisit",
    ]);
    expect(result.facts.inputs[0]).toEqual({
      name: "assessments",
      value: 2,
      observedAt: "2026-05-31T09:00:00.000Z",
      supplied: true,
      contributed: true,
      staleAfterDays: 90,
    });
    expect(result.facts.inputs.every((i) => i.supplied && i.contributed)).toBe(true);
    expect(Object.keys(result.data)).toEqual([
      "generatedAt",
      "score",
      "level",
      "trend",
      "confidence",
      "topDriver",
      "factors",
      "summaryLine",
      "recommendation",
      "sourceCount",
      "disclaimer",
    ]);
  });
});

describe("factors", () => {
  it("symptoms: velocity ramp from 0 to 15 pp per 30 days, full weight within 14 days", () => {
    const now = new Date("2026-06-01T09:00:00Z");
    // 0 -> 6 points of 20 in 30 days = 30 pp? use maxScore 100 for easy percentages.
    const mk = (rise: number) => series([50, 50 + rise], "2026-05-02T09:00:00Z", 30, 100, "phq9");
    expect(factor({ assessments: mk(0) }, "symptoms", now).points).toBe(0);
    expect(factor({ assessments: mk(-10) }, "symptoms", now).points).toBe(0);
    expect(factor({ assessments: mk(3) }, "symptoms", now).points).toBe(7);
    expect(factor({ assessments: mk(7.5) }, "symptoms", now).points).toBe(17.5);
    expect(factor({ assessments: mk(15) }, "symptoms", now).points).toBe(35);
    expect(factor({ assessments: mk(40) }, "symptoms", now).points).toBe(35);
  });

  it("symptoms: recency weight 1 up to 14 days, 0.5 up to 30 days, 0.25 beyond", () => {
    // Was 50 -> 65 (35 / 17.5 / 17.5 / 8.75): a 15 pp rise on a scale without published figures is
    // now a deterioration, which keeps the full 35 points at any age (next describe). A 12 pp rise
    // stays below it: 35 x 12/15 = 28 at weight 1, 14 at 0.5, 7 at 0.25.
    const a = series([50, 62], "2026-05-02T09:00:00Z", 30, 100, "phq9"); // last 2026-06-01T09:00Z
    const at = (days: number) => new Date(Date.parse("2026-06-01T09:00:00Z") + days * DAY);
    expect(factor({ assessments: a }, "symptoms", at(14)).points).toBe(28);
    expect(factor({ assessments: a }, "symptoms", at(14.01)).points).toBe(14);
    expect(factor({ assessments: a }, "symptoms", at(30)).points).toBe(14);
    expect(factor({ assessments: a }, "symptoms", at(30.01)).points).toBe(7);
    // A clock before the last administration counts as age 0.
    expect(factor({ assessments: a }, "symptoms", at(-5)).points).toBe(28);
  });

  it("symptoms: only the 30-day window before the newest administration sets the slope", () => {
    const now = new Date("2026-06-01T09:00:00Z");
    const old = series([90, 10], "2025-01-01T09:00:00Z", 60, 100, "phq9"); // a big fall long ago
    const recent = series([40, 55], "2026-05-02T09:00:00Z", 30, 100, "phq9");
    const f = factor({ assessments: [...old, ...recent] }, "symptoms", now);
    expect(f.points).toBe(35);
    expect(f.detail).toContain("over 2 administration(s)");
  });

  it("symptoms: falls back to the two newest dates when the window holds one", () => {
    const now = new Date("2026-06-01T09:00:00Z");
    const a = series([50, 57.5], "2026-03-03T09:00:00Z", 90, 100, "phq9"); // 7.5 pp in 90 days = 2.5 pp/30 d
    const f = factor({ assessments: a }, "symptoms", now);
    expect(f.available).toBe(true);
    expect(f.points).toBe(5.83); // 35 x 2.5/15 x 1
  });

  it("symptoms: unavailable without two readable dates", () => {
    expect(factor({}, "symptoms").available).toBe(false);
    const one = series([10], "2026-06-01T09:00:00Z", 7);
    expect(factor({ assessments: one }, "symptoms").available).toBe(false);
    const sameTime = [...one, ...one];
    expect(factor({ assessments: sameTime }, "symptoms").available).toBe(false);
    const bad = series([10, 20], "2026-06-01T09:00:00Z", 7).map((a) => ({ ...a, createdAt: "not a date" }));
    const r = run({ assessments: bad });
    expect(r.data.factors[0]?.available).toBe(false);
    expect(r.data.trend).toBe("unknown");
    expect(r.facts.inputs[0]).toMatchObject({ supplied: true, contributed: false, observedAt: null });
  });

  it("symptoms: uses the instrument with the most administrations, in any input order", () => {
    const phq = series([5, 6, 20], "2026-06-01T09:00:00Z", 7);
    const gad = series([20, 2], "2026-06-01T09:00:00Z", 7, 21, "gad7");
    const shuffled = [phq[2], gad[0], phq[0], gad[1], phq[1]] as Assessment[];
    const a = run({ assessments: shuffled });
    const b = run({ assessments: [...phq, ...gad] });
    expect(a.data).toEqual(b.data);
    expect(a.data.factors[0]?.detail).toMatch(/^PHQ-9/);
    expect(a.data.trend).toBe("rising");
  });

  it("trend: rising at +5 pp per 30 days, falling at -5, stable between", () => {
    const now = new Date("2026-06-01T09:00:00Z");
    const mk = (rise: number) => series([50, 50 + rise], "2026-05-02T09:00:00Z", 30, 100, "phq9");
    expect(run({ assessments: mk(5) }, now).data.trend).toBe("rising");
    expect(run({ assessments: mk(4.99) }, now).data.trend).toBe("stable");
    expect(run({ assessments: mk(-4.99) }, now).data.trend).toBe("stable");
    expect(run({ assessments: mk(-5) }, now).data.trend).toBe("falling");
  });

  it("sleep: 0 points at 7 h or more, linear to 15 points at 5 h", () => {
    const pts = (h: number) => factor({ avgSleepHours: h }, "sleep").points;
    expect(pts(9)).toBe(0);
    expect(pts(7)).toBe(0);
    expect(pts(6.9)).toBe(0.75);
    expect(pts(6)).toBe(7.5);
    expect(pts(5)).toBe(15);
    expect(pts(0)).toBe(15);
    expect(factor({}, "sleep").available).toBe(false);
  });

  it("dmse: points from +10 %, full at +50 %; faster never adds points", () => {
    const pts = (x: number) => factor({ dmseLatencyPctChange: x }, "dmse").points;
    expect(pts(-100)).toBe(0);
    expect(pts(10)).toBe(0);
    expect(pts(20)).toBe(3.75);
    expect(pts(50)).toBe(15);
    expect(pts(1000)).toBe(15);
  });

  it("medication: 10 points within 30 days of a change, 5 more when nothing is active", () => {
    const pts = (days: number | undefined, active?: boolean) =>
      factor({ daysSinceMedChange: days, hasActiveMedication: active }, "medication");
    expect(pts(0, true).points).toBe(10);
    expect(pts(30, true).points).toBe(10);
    expect(pts(31, true).points).toBe(0);
    expect(pts(30, false).points).toBe(15);
    expect(pts(31, false).points).toBe(5);
    expect(pts(10).points).toBe(10);
    const none = pts(undefined, false);
    expect(none.available).toBe(false);
    expect(none.points).toBe(0);
    expect(none.maxPoints).toBe(15);
  });

  it("cadence: 0 points up to 30 days, linear to 20 points at 90 days", () => {
    const pts = (d: number) => factor({ daysSinceLastVisit: d }, "cadence").points;
    expect(pts(0)).toBe(0);
    expect(pts(30)).toBe(0);
    expect(pts(60)).toBe(10);
    expect(pts(90)).toBe(20);
    expect(pts(3650)).toBe(20);
  });

  it("tones: neutral at 0, watch below half of the maximum, elevated from half", () => {
    const tone = (h: number) => factor({ avgSleepHours: h }, "sleep").tone;
    expect(tone(8)).toBe("neutral");
    expect(tone(6.1)).toBe("watch");
    expect(tone(6)).toBe("elevated");
  });
});

describe("symptom findings: a severe latest score or a reliable deterioration", () => {
  it("a 15 pp rise on a PHQ-9 read off its published scale keeps the full 35 points at any age and floors the level", () => {
    const a = series([50, 65], "2026-05-02T09:00:00Z", 30, 100, "phq9"); // last 2026-06-01T09:00Z
    const late = new Date(Date.parse("2026-06-01T09:00:00Z") + 30.01 * DAY);
    const r = run({ assessments: a }, late);
    // Was 8.75 (35 x 1 x 0.25) and level low.
    expect(r.data.factors[0]?.points).toBe(35);
    expect(r.data.factors[0]?.detail).toContain("at least 35 points (expert-set) whatever the velocity");
    // 35 scores moderate; the finding raises it to elevated.
    expect(r.data).toMatchObject({ score: 35, level: "elevated" });
    expect(RELAPSE_FINDING_LEVEL_FLOOR).toBe("elevated");
    const flag =
      "PHQ-9 rose 15 percentage points of the scale maximum toward its worse end (15 or more is counted as deterioration here, an expert-set threshold)";
    expect(r.facts.summary.flagged).toEqual([flag, "Symptom trajectory"]);
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
    expect(r.data.summaryLine).toContain(`Level raised from moderate to elevated: ${flag}.`);
    expect(r.data.recommendation).toBe(RELAPSE_RECOMMENDATIONS.elevated);
  });

  it("a severe latest score on a single date gives the symptom factor its full points", () => {
    const r = run({ assessments: series([22], "2026-06-15T09:00:00Z", 7) });
    // Was unavailable (0 points, level low): one date has no velocity.
    expect(r.data.factors[0]).toMatchObject({ available: true, points: 35, tone: "elevated" });
    expect(r.data.factors[0]?.detail).toContain("a velocity needs two dates");
    expect(r.data).toMatchObject({ score: 35, level: "elevated", trend: "unknown" });
    expect(r.facts.summary.flagged).toEqual(["PHQ-9 22 of 27: severe band (20-27)", "Symptom trajectory"]);
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
    expect(r.facts.summary.headline).toBe(
      "Relapse early-warning score 35 of 100: elevated. Consider proactive outreach. Level raised from moderate to elevated: PHQ-9 22 of 27: severe band (20-27).",
    );
    // 0.6 x 1/5 + 0.4 x 1/6 = 0.187: low, but a symptom factor was read, so no insufficient-data text.
    expect(r.facts.confidence.score).toBe(0.187);
    expect(r.data.recommendation).toBe(RELAPSE_RECOMMENDATIONS.elevated);
  });

  it("a slow reliable deterioration is not outweighed by a low velocity; the floor does not depend on the share", () => {
    // PHQ-9 8 -> 14 (+6: reliable) 120 days apart, the latest 50 days old. Velocity alone:
    // 22.22 pp / 120 d = 5.56 pp per 30 d -> 35 x 5.56/15 x 0.25 = 3.24 points.
    const a = [
      {
        instrumentId: "phq9",
        instrumentName: "PHQ-9",
        score: 8,
        maxScore: 27,
        createdAt: "2026-01-01T09:00:00Z",
      },
      {
        instrumentId: "phq9",
        instrumentName: "PHQ-9",
        score: 14,
        maxScore: 27,
        createdAt: "2026-05-01T09:00:00Z",
      },
    ];
    const r = run({ assessments: a });
    expect(r.data.factors[0]?.points).toBe(35);
    expect(r.data).toMatchObject({ level: "elevated", trend: "rising" });
    expect(r.facts.summary.flagged[0]).toBe(
      "PHQ-9 reliable deterioration: 8 -> 14 (+6 points; 6 or more is reliable)",
    );
    // With symptomFindingShare 0 the velocity points come back, and the level is still floored.
    const params = resolveRelapseParams({ symptomFindingShare: 0 });
    const noShare = predictRelapse({ assessments: a }, { now: NOW, model: { version: 1, params } });
    expect(noShare.data.factors[0]?.points).toBe(3.24);
    expect(noShare.data).toMatchObject({ score: 3.24, level: "elevated" });
    expect(noShare.data.summaryLine).toContain("Level raised from low to elevated");
    // A fall of 5 points (not reliable) is no finding: velocity points and the scored level.
    const notReliable = run({ assessments: [a[0], { ...(a[1] as Assessment), score: 13 }] as Assessment[] });
    expect(notReliable.facts.summary.flagged).toEqual(["Symptom trajectory"]);
    expect(notReliable.data.level).toBe("low");
  });

  it("symptomFindingShare scales the finding points; a level above the floor is left as scored", () => {
    const params = resolveRelapseParams({ symptomFindingShare: 0.5 });
    const half = predictRelapse(
      { assessments: series([22], "2026-06-15T09:00:00Z", 7) },
      { now: NOW, model: { version: 2, params } },
    );
    // 35 x 0.5 = 17.5 scores low; floored at elevated.
    expect(half.data).toMatchObject({ score: 17.5, level: "elevated" });
    // 35 + 15 (sleep 5 h) + 15 (latency +50 %) = 65: high, no "raised" text.
    const high = run({
      assessments: series([22], "2026-06-15T09:00:00Z", 7),
      avgSleepHours: 5,
      dmseLatencyPctChange: 50,
    });
    expect(high.data).toMatchObject({ score: 65, level: "high" });
    expect(high.data.summaryLine).not.toContain("Level raised");
    expect(high.data.summaryLine).toContain("PHQ-9 22 of 27: severe band (20-27)");
  });
});

describe("off medication after a recent change, with short sleep (decision 75)", () => {
  const base: RelapseInput = {
    assessments: series([8, 8], "2026-06-01", 7),
    hasActiveMedication: false,
    daysSinceMedChange: 20,
    avgSleepHours: 5.5,
  };

  it("is flagged for review and floors the level at elevated, not 5 points and low", () => {
    const r = predictRelapse(base, { now: NOW });
    expect(r.data.score).toBeLessThan(40);
    expect(r.data.level).toBe("elevated");
    expect(r.facts.summary.requiresClinicianReview).toBe(true);
    expect(r.facts.summary.flagged[0]).toMatch(
      /^No medication active 20 days after a change, with average sleep 5.5 h/,
    );
    expect(r.data.summaryLine).toContain("Level raised from");
  });

  it("holds up to 70 days after the change and 6 h of sleep, and not beyond either", () => {
    const at = (daysSinceMedChange: number, avgSleepHours: number) =>
      predictRelapse({ ...base, daysSinceMedChange, avgSleepHours }, { now: NOW }).facts.summary
        .requiresClinicianReview;
    expect(at(70, 6)).toBe(true);
    expect(at(71, 6)).toBe(false);
    expect(at(70, 6.1)).toBe(false);
  });

  it("needs the medication to be off: active or not sent is not the pattern", () => {
    for (const hasActiveMedication of [true, undefined]) {
      const r = predictRelapse({ ...base, hasActiveMedication }, { now: NOW });
      expect(r.facts.summary.flagged.some((f) => f.startsWith("No medication active"))).toBe(false);
    }
  });

  it("shortening sleep or making the change more recent never lowers the level (property)", () => {
    const rank = (l: RelapseLevel) => RELAPSE_LEVELS.indexOf(l);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3650 }),
        fc.integer({ min: 0, max: 3650 }),
        fc.double({ min: 0, max: 24, noNaN: true }),
        fc.double({ min: 0, max: 24, noNaN: true }),
        (d1, d2, s1, s2) => {
          const [recent, older] = d1 <= d2 ? [d1, d2] : [d2, d1];
          const [shorter, longer] = s1 <= s2 ? [s1, s2] : [s2, s1];
          const worse = predictRelapse(
            { ...base, daysSinceMedChange: recent, avgSleepHours: shorter },
            { now: NOW },
          );
          const better = predictRelapse(
            { ...base, daysSinceMedChange: older, avgSleepHours: longer },
            { now: NOW },
          );
          expect(rank(worse.data.level)).toBeGreaterThanOrEqual(rank(better.data.level));
          if (better.facts.summary.requiresClinicianReview)
            expect(worse.facts.summary.requiresClinicianReview).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("levels and summary", () => {
  // Cadence gives any score 0-20, sleep 0-15, dmse 0-15: combine to hit the band edges exactly.
  const scored = (cadence: number, sleep?: number, latency?: number) =>
    run({ daysSinceLastVisit: cadence, avgSleepHours: sleep, dmseLatencyPctChange: latency });

  it("bands: low < 20 <= moderate < 40 <= elevated < 60 <= high", () => {
    expect(scored(89.97).data).toMatchObject({ score: 19.99, level: "low" });
    expect(scored(90).data).toMatchObject({ score: 20, level: "moderate" });
    expect(scored(59.97, 5, 50).data).toMatchObject({ score: 39.99, level: "moderate" });
    expect(scored(60, 5, 50).data).toMatchObject({ score: 40, level: "elevated" });
    const justBelow = run({
      daysSinceLastVisit: 89.97,
      avgSleepHours: 5,
      dmseLatencyPctChange: 50,
      daysSinceMedChange: 1,
      hasActiveMedication: true,
    });
    expect(justBelow.data).toMatchObject({ score: 59.99, level: "elevated" });
    const high = run({
      daysSinceLastVisit: 90,
      avgSleepHours: 5,
      dmseLatencyPctChange: 50,
      daysSinceMedChange: 1,
      hasActiveMedication: true,
    });
    expect(high.data).toMatchObject({ score: 60, level: "high" });
    expect(high.data.recommendation).toMatch(/^Flag for prompt clinician review/);
    expect(high.facts.summary.requiresClinicianReview).toBe(true);
    expect(scored(0).facts.summary.requiresClinicianReview).toBe(false);
  });

  it("an empty request scores 0, low, with no driver, low confidence and an insufficient-data recommendation", () => {
    const r = run({});
    expect(r.data).toMatchObject({
      score: 0,
      level: "low",
      trend: "unknown",
      topDriver: RELAPSE_NO_DRIVER,
      sourceCount: 0,
      confidence: "low",
    });
    expect(r.facts.summary.flagged).toEqual([]);
    expect(r.facts.summary.requiresClinicianReview).toBe(false);
    expect(r.facts.confidence.score).toBe(0);
    expect(r.facts.inputs.every((i) => !i.supplied)).toBe(true);
    // Was the low level's recommendation; with no symptom data a low score is not low risk.
    expect(r.data.recommendation).toBe(RELAPSE_INSUFFICIENT_DATA_RECOMMENDATION);
    expect(r.facts.summary.headline).toContain("a low score is not evidence of low risk");
  });

  it("the low recommendation no longer says the signals do not suggest a change to the care plan", () => {
    // Was "Continue routine monitoring; these signals do not suggest a change to the care plan."
    expect(RELAPSE_RECOMMENDATIONS.low).toBe(
      "Continue routine monitoring and review these factors at the next scheduled contact; a low score does not rule out relapse.",
    );
    for (const text of Object.values(RELAPSE_RECOMMENDATIONS))
      expect(text).not.toMatch(/do not suggest a change/);
    // PHQ-9 10 -> 10: a readable symptom factor with 0 points -> the low level's own text.
    const r = run({ assessments: series([10, 10], "2026-06-01T09:00:00Z", 14) });
    expect(r.data).toMatchObject({ score: 0, level: "low" });
    expect(r.data.recommendation).toBe(RELAPSE_RECOMMENDATIONS.low);
  });

  it("without a readable symptom factor: confidence low, and a low level says the data are insufficient", () => {
    // Sleep 6.5 h 3.75 + latency +15 % 1.88 + cadence 45 d 5 + medication 60 d (active) 0 = 10.63.
    const rest: Partial<RelapseInput> = {
      avgSleepHours: 6.5,
      dmseLatencyPctChange: 15,
      daysSinceLastVisit: 45,
      daysSinceMedChange: 60,
      hasActiveMedication: true,
    };
    const r = run(rest);
    expect(r.data).toMatchObject({ score: 10.63, level: "low", sourceCount: 4 });
    // Was moderate: 0.6 x 4/5 + 0.4 x 0 = 0.48. Now capped at 0.45 / 2 = 0.225 and low.
    expect(r.data.confidence).toBe("low");
    expect(r.facts.confidence.score).toBe(0.225);
    expect(r.facts.confidence.reasons[0]).toMatch(
      /^No symptom-scale trajectory or severe score could be read/,
    );
    expect(r.data.recommendation).toBe(RELAPSE_INSUFFICIENT_DATA_RECOMMENDATION);
    expect(r.data.summaryLine).toContain("Insufficient data");
    // One non-severe administration is no trajectory either.
    expect(run({ ...rest, assessments: series([12], "2026-06-15T09:00:00Z", 7) }).data.recommendation).toBe(
      RELAPSE_INSUFFICIENT_DATA_RECOMMENDATION,
    );
    // Above low the level's own recommendation is kept (cadence 90 d: 20 + 3.75 + 1.88 = 25.63).
    const moderate = run({ ...rest, daysSinceLastVisit: 90 });
    expect(moderate.data).toMatchObject({ score: 25.63, level: "moderate", confidence: "low" });
    expect(moderate.data.recommendation).toBe(RELAPSE_RECOMMENDATIONS.moderate);
  });

  it("topDriver ties break in the fixed factor order", () => {
    // sleep 7.5 and dmse 7.5: sleep comes first.
    const r = run({ avgSleepHours: 6, dmseLatencyPctChange: 30 });
    expect(r.data.topDriver).toBe("Sleep");
    expect(r.facts.summary.flagged).toEqual(["Sleep", "Response latency change"]);
  });
});

describe("parameters and calibrated models", () => {
  it("resolveRelapseParams merges over the defaults", () => {
    expect(resolveRelapseParams(undefined)).toEqual(RELAPSE_DEFAULT_PARAMS);
    expect(resolveRelapseParams({})).toEqual(RELAPSE_DEFAULT_PARAMS);
    expect(resolveRelapseParams({ sleepZeroHours: 8 }).sleepZeroHours).toBe(8);
    expect(RELAPSE_DEFAULT_PARAMS.symptomFindingShare).toBe(1);
    expect(resolveRelapseParams({ symptomFindingShare: 0 }).symptomFindingShare).toBe(0);
  });

  it("rejects unknown keys, non-finite values, wrong shapes and incoherent sets", () => {
    expect(() => resolveRelapseParams({ nope: 1 })).toThrow(/unknown relapse parameter "nope"/);
    expect(() => resolveRelapseParams({ sleepZeroHours: Number.NaN })).toThrow(/finite number/);
    expect(() => resolveRelapseParams({ sleepZeroHours: Number.POSITIVE_INFINITY })).toThrow(/finite number/);
    expect(() => resolveRelapseParams({ sleepZeroHours: "7" })).toThrow(/finite number/);
    expect(() => resolveRelapseParams([1])).toThrow(/object/);
    expect(() => resolveRelapseParams(5)).toThrow(/object/);
    expect(() => resolveRelapseParams({ cadenceMaxPoints: 30 })).toThrow(/sum to 100/);
    expect(() => resolveRelapseParams({ levelHighMin: 10 })).toThrow(/level cut-offs/);
    expect(() => resolveRelapseParams({ sleepFullHours: 8 })).toThrow(/sleepFullHours/);
    expect(() => resolveRelapseParams({ symptomFindingShare: 1.5 })).toThrow(
      /symptomFindingShare must be in \[0, 1\]/,
    );
    expect(() => resolveRelapseParams({ symptomFindingShare: -0.1 })).toThrow(/symptomFindingShare/);
  });

  it("a calibrated set changes the output and the model block", () => {
    const input: Partial<RelapseInput> = { avgSleepHours: 6 };
    const params: RelapseParams = resolveRelapseParams({ sleepZeroHours: 8, sleepFullHours: 6 });
    const calibrated = predictRelapse(
      { assessments: [], ...input },
      { now: NOW, model: { version: 3, params } },
    );
    expect(calibrated.model).toEqual({ key: "relapse_risk", version: 3, source: "calibrated" });
    expect(calibrated.data.score).toBe(15);
    expect(run(input).data.score).toBe(7.5);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const isoArb = fc.oneof(
  fc
    .integer({ min: Date.parse("2020-01-01T00:00:00Z"), max: Date.parse("2027-01-01T00:00:00Z") })
    .map((t) => new Date(t).toISOString()),
  fc.constantFrom("2026-06-01", "2026-06-01T09:00:00+02:00", "garbage", "", "2026-02-30", "2026-13-01"),
);
export const assessmentArb = fc.record({
  instrumentId: fc.constantFrom("phq9", "PHQ-9", "gad7", "custom", "x"),
  instrumentName: fc.constantFrom("PHQ-9", "GAD-7", "Custom"),
  score: fc.double({ min: 0, max: 1000, noNaN: true }),
  maxScore: fc.double({ min: 1, max: 1000, noNaN: true }),
  createdAt: isoArb,
});
const inputArb = fc.record(
  {
    assessments: fc.array(assessmentArb, { maxLength: 40 }),
    dmseLatencyPctChange: fc.double({ min: -100, max: 1000, noNaN: true }),
    avgSleepHours: fc.double({ min: 0, max: 24, noNaN: true }),
    daysSinceMedChange: fc.integer({ min: 0, max: 3650 }),
    hasActiveMedication: fc.boolean(),
    daysSinceLastVisit: fc.integer({ min: 0, max: 3650 }),
  },
  { requiredKeys: ["assessments"] },
);
const nowArb = fc
  .integer({ min: Date.parse("2020-01-01T00:00:00Z"), max: Date.parse("2028-01-01T00:00:00Z") })
  .map((t) => new Date(t));

describe("properties", () => {
  it("score is the exact sum of the factor points, each within [0, maxPoints]; score in [0, 100]", () => {
    fc.assert(
      fc.property(inputArb, nowArb, (input, now) => {
        const r = predictRelapse(input, { now });
        const sum = r.data.factors.reduce((s, f) => s + f.points, 0);
        expect(Math.abs(r.data.score - sum)).toBeLessThan(1e-9);
        expect(r.data.score).toBe(round(sum));
        expect(r.data.score).toBeGreaterThanOrEqual(0);
        expect(r.data.score).toBeLessThanOrEqual(100);
        for (const f of r.data.factors) {
          expect(f.points).toBeGreaterThanOrEqual(0);
          expect(f.points).toBeLessThanOrEqual(f.maxPoints);
          if (!f.available) expect(f.points).toBe(0);
        }
        expect(r.facts.confidence.score).toBeGreaterThanOrEqual(0);
        expect(r.facts.confidence.score).toBeLessThanOrEqual(1);
        expect(r.data.sourceCount).toBe(r.data.factors.filter((f) => f.available).length);
        // flagged: the symptom findings first, then the off-medication prodrome (decision 75) when
        // present, then the factors with points, worst first.
        const findings = readSymptomFindings(input.assessments);
        const flagged = r.facts.summary.flagged;
        expect(flagged.slice(0, findings.flags.length)).toEqual(findings.flags);
        const prodrome = flagged[findings.flags.length]?.startsWith("No medication active") ? 1 : 0;
        const pts = flagged
          .slice(findings.flags.length + prodrome)
          .map((l) => r.data.factors.find((f) => f.label === l)?.points);
        expect(pts.length).toBe(r.data.factors.filter((f) => f.points > 0).length);
        for (const v of pts) expect(v).toBeGreaterThan(0);
        for (let i = 1; i < pts.length; i++) expect(pts[i - 1]).toBeGreaterThanOrEqual(pts[i] as number);
      }),
      { numRuns: 300 },
    );
  });

  it("level is the score's band, floored at elevated by a finding; review, confidence and recommendation follow", () => {
    const band = (score: number): RelapseLevel =>
      score >= 60 ? "high" : score >= 40 ? "elevated" : score >= 20 ? "moderate" : "low";
    fc.assert(
      fc.property(inputArb, nowArb, (input, now) => {
        const r = predictRelapse(input, { now });
        const findings = readSymptomFindings(input.assessments);
        // Decision 75: off medication within 70 days of a change with sleep of 6 h or less.
        const offMedicationProdrome =
          input.hasActiveMedication === false &&
          input.daysSinceMedChange !== undefined &&
          input.daysSinceMedChange <= 70 &&
          input.avgSleepHours !== undefined &&
          input.avgSleepHours <= 6;
        const found = findings.flags.length > 0 || offMedicationProdrome;
        const scored = band(r.data.score);
        const rank = (l: RelapseLevel) => RELAPSE_LEVELS.indexOf(l);
        expect(r.data.level).toBe(found && rank(scored) < rank("elevated") ? "elevated" : scored);
        const symptoms = r.data.factors[0];
        if (findings.flags.length > 0) {
          // Symptom factor at least its maximum x symptomFindingShare (1): exactly 35.
          expect(symptoms).toMatchObject({ available: true, points: 35 });
        }
        expect(r.facts.summary.requiresClinicianReview).toBe(found || rank(r.data.level) >= rank("elevated"));
        if (!symptoms?.available) expect(r.data.confidence).toBe("low");
        // Decision 62: the newest readable score older than 90 days is not a current picture.
        const newest = readTrajectory(input.assessments)?.trajectory.newestAt;
        const stale = newest !== undefined && now.getTime() - newest > 90 * DAY;
        if (stale) expect(r.data.confidence).toBe("low");
        expect(r.data.recommendation).toBe(
          r.data.level !== "low"
            ? RELAPSE_RECOMMENDATIONS[r.data.level]
            : !symptoms?.available
              ? RELAPSE_INSUFFICIENT_DATA_RECOMMENDATION
              : stale
                ? RELAPSE_STALE_DATA_RECOMMENDATION
                : RELAPSE_RECOMMENDATIONS.low,
        );
      }),
      { numRuns: 300 },
    );
  });

  it("is deterministic: same input and clock give deep-equal output", () => {
    fc.assert(
      fc.property(inputArb, nowArb, (input, now) => {
        const a = predictRelapse(input, { now });
        const b = predictRelapse(structuredClone(input), { now: new Date(now.getTime()) });
        expect(a).toEqual(b);
      }),
      { numRuns: 150 },
    );
  });

  it("never throws on the maximal input (500 assessments, extreme values)", () => {
    const many = Array.from({ length: 500 }, (_, i) => ({
      instrumentId: i % 3 === 0 ? "gad7" : "phq9",
      instrumentName: "x",
      score: (i * 37) % 1001,
      maxScore: 1 + ((i * 13) % 1000),
      createdAt: i % 50 === 0 ? "??" : new Date(Date.UTC(2024, 0, 1) + i * 3_600_000 * 7).toISOString(),
    }));
    const r = predictRelapse(
      {
        assessments: many,
        dmseLatencyPctChange: 1000,
        avgSleepHours: 0,
        daysSinceMedChange: 0,
        hasActiveMedication: false,
        daysSinceLastVisit: 3650,
      },
      { now: NOW },
    );
    expect(r.data.score).toBeLessThanOrEqual(100);
    expect(Number.isFinite(r.data.score)).toBe(true);
  });
});

describe("shared helpers", () => {
  it("parseTime equals Date.parse on ISO forms and odd text", () => {
    const samples = [
      "2026-06-01",
      "2026-06-01T09:00:00Z",
      "2026-06-01T09:00:00.1Z",
      "2026-06-01T09:00:00.12Z",
      "2026-06-01T09:00:00.123456Z",
      "2026-06-01T09:00Z",
      "2026-06-01T09:00:00+02:00",
      "2026-06-01T09:00:00-11:30",
      "2024-02-29T23:59:59.999Z",
      "2026-02-30",
      "2026-13-01",
      "1969-12-31T23:59:59.999Z",
      "0001-01-01T00:00:00Z",
      "+002026-06-01T00:00:00Z",
      "2026-06-01T24:00:00Z",
      "June 1, 2026",
    ];
    for (const s of samples) {
      const expected = Date.parse(s);
      expect(parseTime(s)).toBe(Number.isFinite(expected) ? expected : null);
    }
    expect(parseTime("garbage")).toBeNull();
    expect(parseTime("")).toBeNull();
    expect(parseTime(undefined)).toBeNull();
    fc.assert(
      fc.property(fc.integer({ min: -62_000_000_000_000, max: 253_000_000_000_000 }), (t) => {
        const iso = new Date(t).toISOString();
        expect(parseTime(iso)).toBe(t);
      }),
    );
  });

  it("parseTime equals Date.parse on near-canonical text (mutated characters)", () => {
    const chars = "0123456789-T:.Z+ /a".split("");
    const base = fc
      .integer({ min: -62_000_000_000_000, max: 253_000_000_000_000 })
      .map((t) => new Date(t).toISOString());
    fc.assert(
      fc.property(
        base,
        fc.array(fc.tuple(fc.nat({ max: 23 }), fc.constantFrom(...chars)), { maxLength: 3 }),
        (iso, edits) => {
          const text = iso.split("");
          for (const [i, c] of edits) text[i] = c;
          const s = text.join("");
          const expected = Date.parse(s);
          expect(parseTime(s)).toBe(Number.isFinite(expected) ? expected : null);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("readTrajectory picks the most administered instrument; ties by newest, then key", () => {
    const a = series([10, 20], "2026-01-01T00:00:00Z", 7, 100, "b");
    const b = series([10, 20], "2026-01-02T00:00:00Z", 7, 100, "a");
    expect(readTrajectory([...a, ...b])?.trajectory.instrumentKey).toBe("a");
    const c = series([10, 20], "2026-01-02T00:00:00Z", 7, 100, "c");
    expect(readTrajectory([...c, ...b])?.trajectory.instrumentKey).toBe("a");
    expect(readTrajectory([])).toBeNull();
  });

  it("slopePer30Days is the least-squares slope in pp per 30 days", () => {
    const t0 = Date.parse("2026-06-01T00:00:00Z");
    const fit = slopePer30Days([t0, t0 + 10 * DAY, t0 + 20 * DAY], [10, 20, 30], 30);
    expect(fit.slopePer30Days).toBeCloseTo(30, 10);
    expect(fit.used).toBe(3);
    expect(slopePer30Days([t0], [10], 30).slopePer30Days).toBeNull();
  });
});

describe("symptom window text", () => {
  it("says when the slope reaches back past the window to the previous administration", () => {
    const at = (date: string, score: number): Assessment => ({
      instrumentId: "phq9",
      instrumentName: "PHQ-9",
      score,
      maxScore: 27,
      createdAt: date,
    });
    const sparse = predictRelapse({ assessments: [at("2026-05-01", 8), at("2026-06-10", 16)] }, { now: NOW });
    const detail = sparse.data.factors.find((f) => f.key === "symptoms")?.detail ?? "";
    expect(detail).toContain("since 2026-05-01");
    expect(detail).toContain("reaches back to the previous one");
    const dense = predictRelapse({ assessments: [at("2026-06-01", 8), at("2026-06-10", 16)] }, { now: NOW });
    expect(dense.data.factors.find((f) => f.key === "symptoms")?.detail).toContain(
      "in the 30 days up to the latest",
    );
  });
});

describe("trend at the threshold on a mirrored scale", () => {
  it("WHO-5 93 -> 89 of 100 and PHQ-9 7 -> 11 of 100, 24 days apart (5 points per 30 days): both rising", () => {
    const now = new Date("2026-07-01T00:00:00Z");
    const at = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
    const as = (id: string, name: string, scores: [number, number]): Assessment[] =>
      scores.map((score, i) => ({
        instrumentId: id,
        instrumentName: name,
        score,
        maxScore: 100,
        createdAt: at(i === 0 ? 40 : 16),
      }));
    const who5 = predictRelapse({ assessments: as("who5", "WHO-5", [93, 89]) }, { now }).data;
    const phq9 = predictRelapse({ assessments: as("phq9", "PHQ-9", [7, 11]) }, { now }).data;
    expect([who5.trend, phq9.trend]).toEqual(["rising", "rising"]);
  });
});
