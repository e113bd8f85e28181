import { describe, expect, it } from "vitest";
import { INSTRUMENT_PROFILES, severityBand } from "../src/instruments.js";
import {
  findInstrument,
  getInstruments,
  type InstrumentDefinition,
  type InstrumentId,
} from "../src/knowledge/instrument-catalog.js";
import { reachableTotalRange } from "../src/knowledge/instruments.js";
import {
  type InstrumentScoring,
  type InstrumentSubmission,
  scoreInstruments,
} from "../src/tools/score-instruments.js";
import { ToolInputError, type ToolInputIssue } from "../src/tools/types.js";

/** `count` answers of `value`, with `overrides` (1-based item -> value). */
function answers(count: number, value: number, overrides: Record<number, number> = {}): number[] {
  return Array.from({ length: count }, (_, index) => overrides[index + 1] ?? value);
}

function scoreOne(submission: InstrumentSubmission): InstrumentScoring {
  return scoreInstruments([submission]);
}

function onlyResult(submission: InstrumentSubmission) {
  const [result] = scoreOne(submission).results;
  if (!result) throw new Error("no result");
  return result;
}

function inputIssues(submissions: readonly InstrumentSubmission[]): ToolInputIssue[] {
  try {
    scoreInstruments(submissions);
  } catch (error) {
    if (error instanceof ToolInputError) return error.issues;
    throw error;
  }
  throw new Error("expected a ToolInputError");
}

function definitionOf(id: InstrumentId): InstrumentDefinition {
  const found = getInstruments().find((definition) => definition.id === id);
  if (!found) throw new Error(`no ${id}`);
  return found;
}

describe("getInstruments", () => {
  it("lists every instrument with its published item structure", () => {
    const shape = getInstruments().map((d) => [
      d.id,
      d.itemCount,
      d.itemMin,
      d.itemMax,
      d.totalMin,
      d.totalMax,
    ]);
    expect(shape).toEqual([
      ["phq9", 9, 0, 3, 0, 27],
      ["gad7", 7, 0, 3, 0, 21],
      ["pcl5", 20, 0, 4, 0, 80],
      ["audit", 10, 0, 4, 0, 40],
      ["who5", 5, 0, 5, 0, 25],
      ["epds", 10, 0, 3, 0, 30],
      ["phq8", 8, 0, 3, 0, 24],
      ["phq2", 2, 0, 3, 0, 6],
      ["gad2", 2, 0, 3, 0, 6],
      ["madrs", 10, 0, 6, 0, 60],
      ["hamd17", 17, 0, 4, 0, 52],
      ["qidssr16", 16, 0, 3, 0, 27],
      ["bdi2", 21, 0, 3, 0, 63],
      ["ymrs", 11, 0, 8, 0, 60],
      ["asrm", 5, 0, 4, 0, 20],
      ["k10", 10, 1, 5, 10, 50],
      ["core10", 10, 0, 4, 0, 40],
      ["wemwbs", 14, 1, 5, 14, 70],
      ["swemwbs", 7, 1, 5, 7, 35],
      ["ybocs", 10, 0, 4, 0, 40],
      ["panss", 30, 1, 7, 30, 210],
      ["moca", 7, 0, 6, 0, 30],
      ["mmse", 5, 0, 10, 0, 30],
    ]);
  });

  it("takes the PHQ-9 and GAD-7 bands, maxima and reliable change from instruments.ts", () => {
    for (const id of ["phq9", "gad7"] as const) {
      const definition = definitionOf(id);
      const profile = INSTRUMENT_PROFILES[id];
      expect(definition.bands).toEqual(profile.bands);
      expect(definition.totalMax).toBe(profile.maxScore);
      expect(definition.reliableChangePoints).toBe(profile.reliableChangePoints);
    }
  });

  it("has bands covering totalMin..totalMax without gaps, and a maximum the items can reach", () => {
    for (const definition of getInstruments()) {
      expect(definition.bands[0]?.min).toBe(definition.totalMin);
      expect(definition.bands.at(-1)?.max).toBe(definition.totalMax);
      for (let i = 1; i < definition.bands.length; i++) {
        expect(definition.bands[i]?.min).toBe((definition.bands[i - 1]?.max ?? Number.NaN) + 1);
      }
      expect(reachableTotalRange(definition.id)).toEqual({
        min: definition.totalMin,
        max: definition.totalMax,
      });
      expect(definition.source.length).toBeGreaterThan(0);
    }
  });

  it("has the sourced reliable-change points, and none for the AUDIT", () => {
    const points = Object.fromEntries(getInstruments().map((d) => [d.id, d.reliableChangePoints]));
    expect(points).toEqual({
      phq9: 6,
      gad7: 4,
      pcl5: 10,
      audit: null,
      who5: 2.5,
      epds: 4,
      phq8: null,
      phq2: null,
      gad2: null,
      madrs: null,
      hamd17: null,
      qidssr16: null,
      bdi2: null,
      ymrs: null,
      asrm: null,
      k10: null,
      core10: 6,
      wemwbs: null,
      swemwbs: null,
      ybocs: null,
      panss: null,
      moca: null,
      mmse: null,
    });
  });

  it("marks the suicide and self-harm items as risk items and only those", () => {
    const riskItems = getInstruments().flatMap((d) => d.riskItems.map((r) => [d.id, r.item]));
    expect(riskItems).toEqual([
      ["phq9", 9],
      ["epds", 10],
      ["madrs", 10],
      ["hamd17", 3],
      ["qidssr16", 12],
      ["bdi2", 9],
      ["core10", 6],
    ]);
  });

  it("carries only the verified LOINC total-score codes (PHQ-9, GAD-7, AUDIT, PHQ-2; one table with terminology)", () => {
    const codes = getInstruments().flatMap((d) => (d.loinc ? [[d.id, d.loinc]] : []));
    expect(codes).toEqual([
      ["phq9", "44261-6"],
      ["gad7", "70274-6"],
      ["audit", "75624-7"],
      ["phq2", "55758-7"],
    ]);
  });

  it("returns copies, so a caller cannot change the catalog", () => {
    const first = getInstruments();
    const phq9Band = first[0]?.bands[0];
    if (phq9Band) phq9Band.max = 99;
    expect(getInstruments()[0]?.bands[0]?.max).toBe(4);
    expect(INSTRUMENT_PROFILES.phq9.bands[0]?.max).toBe(4);
  });
});

describe("findInstrument", () => {
  it.each([
    ["PHQ-9", "phq9"],
    ["phq9", "phq9"],
    ["Patient Health Questionnaire-9", "phq9"],
    ["GAD-7", "gad7"],
    ["Generalised Anxiety Disorder 7", "gad7"],
    ["PCL-5", "pcl5"],
    ["PTSD Checklist for DSM-5", "pcl5"],
    ["AUDIT", "audit"],
    ["Alcohol Use Disorders Identification Test", "audit"],
    ["WHO-5", "who5"],
    ["WHO-5 Well-Being Index", "who5"],
    ["EPDS", "epds"],
    ["Edinburgh Postnatal Depression Scale", "epds"],
  ])("reads %s as %s", (name, id) => {
    expect(findInstrument(name)?.id).toBe(id);
  });

  it.each(["PCL-C", "PCL", "AUDIT-C", "WHO-10", "BDI", "HAM-A", "HAM-D 21", "MADRS-S", "K6", "CES-D", ""])(
    "does not read %s as any catalog instrument",
    (name) => {
      expect(findInstrument(name)).toBeNull();
    },
  );
});

describe("scoreInstruments: totals and bands", () => {
  it("sums PHQ-9 responses and bands the total (Kroenke 2001)", () => {
    const result = onlyResult({ instrument: "PHQ-9", responses: [2, 2, 1, 1, 2, 1, 1, 2, 0] });
    expect(result).toMatchObject({
      instrument: "PHQ-9",
      instrumentId: "phq9",
      total: 12,
      severity: "moderate",
      source: "responses",
      trajectory: "no_prior",
      itemFlags: [],
    });
    expect(result).not.toHaveProperty("change");
    expect(result).not.toHaveProperty("reliableChange");
  });

  it("accepts a total alone and bands it the same way", () => {
    expect(onlyResult({ instrument: "phq9", total: 12 })).toMatchObject({
      total: 12,
      severity: "moderate",
      source: "total",
    });
  });

  it("accepts responses with a matching total", () => {
    expect(onlyResult({ instrument: "GAD-7", responses: answers(7, 1), total: 7 }).total).toBe(7);
  });

  it.each<[InstrumentId, number, string]>([
    ["phq9", 4, "minimal"],
    ["phq9", 5, "mild"],
    ["phq9", 9, "mild"],
    ["phq9", 10, "moderate"],
    ["phq9", 14, "moderate"],
    ["phq9", 15, "moderately_severe"],
    ["phq9", 19, "moderately_severe"],
    ["phq9", 20, "severe"],
    ["phq9", 27, "severe"],
    ["gad7", 4, "minimal"],
    ["gad7", 5, "mild"],
    ["gad7", 9, "mild"],
    ["gad7", 10, "moderate"],
    ["gad7", 14, "moderate"],
    ["gad7", 15, "severe"],
    ["gad7", 21, "severe"],
    // PCL-5: NCPTSD provisional cut-point range 31-33.
    ["pcl5", 0, "below_threshold"],
    ["pcl5", 30, "below_threshold"],
    ["pcl5", 31, "possible_ptsd"],
    ["pcl5", 32, "possible_ptsd"],
    ["pcl5", 33, "probable_ptsd"],
    ["pcl5", 80, "probable_ptsd"],
    // AUDIT zones (Babor et al. 2001).
    ["audit", 0, "zone_1"],
    ["audit", 7, "zone_1"],
    ["audit", 8, "zone_2"],
    ["audit", 15, "zone_2"],
    ["audit", 16, "zone_3"],
    ["audit", 19, "zone_3"],
    ["audit", 20, "zone_4"],
    ["audit", 40, "zone_4"],
    // WHO-5 raw: <= 7 (28 %) likely depression, <= 12 (50 %) poor wellbeing (Topp et al. 2015).
    ["who5", 0, "likely_depression"],
    ["who5", 7, "likely_depression"],
    ["who5", 8, "poor_wellbeing"],
    ["who5", 12, "poor_wellbeing"],
    ["who5", 13, "above_poor_wellbeing_cut"],
    ["who5", 25, "above_poor_wellbeing_cut"],
    // EPDS: >= 10 possible, >= 13 probable (Cox et al. 1987).
    ["epds", 0, "below_cut_off"],
    ["epds", 9, "below_cut_off"],
    ["epds", 10, "possible_depression"],
    ["epds", 12, "possible_depression"],
    ["epds", 13, "probable_depression"],
    ["epds", 30, "probable_depression"],
  ])("%s total %i is in band %s", (id, total, bandKey) => {
    expect(onlyResult({ instrument: id, total }).severityKey).toBe(bandKey);
  });

  it("bands every PHQ-9 and GAD-7 total exactly as severityBand does", () => {
    for (const id of ["phq9", "gad7"] as const) {
      for (let total = 0; total <= INSTRUMENT_PROFILES[id].maxScore; total++) {
        expect(onlyResult({ instrument: id, total }).severityKey).toBe(severityBand(id, total).key);
      }
    }
  });

  it.each<[string, number[], number, string]>([
    ["PCL-5", answers(20, 2), 40, "probable_ptsd"],
    ["AUDIT", [4, 4, 4, 2, 2, 1, 1, 1, 4, 2], 25, "zone_4"],
    ["WHO-5", [2, 2, 2, 2, 2], 10, "poor_wellbeing"],
    ["EPDS", answers(10, 1, { 10: 0 }), 9, "below_cut_off"],
  ])("scores %s from responses", (instrument, responses, total, bandKey) => {
    expect(onlyResult({ instrument, responses })).toMatchObject({
      total,
      severityKey: bandKey,
      source: "responses",
    });
  });

  it("reports the WHO-5 raw total and its percentage", () => {
    const scoring = scoreOne({ instrument: "WHO-5", responses: [2, 2, 2, 2, 2] });
    expect(scoring.results[0]?.total).toBe(10);
    expect(scoring.observations[0]?.note).toContain("total 10 of 25 (40 %)");
  });

  it("keeps results in submission order", () => {
    const scoring = scoreInstruments([
      { instrument: "GAD-7", total: 3 },
      { instrument: "PHQ-9", total: 3 },
    ]);
    expect(scoring.results.map((r) => r.instrumentId)).toEqual(["gad7", "phq9"]);
  });
});

describe("scoreInstruments: input errors name the instrument and the path", () => {
  it("rejects a PHQ-9 with 8 responses", () => {
    expect(inputIssues([{ instrument: "PHQ-9", responses: answers(8, 1) }])).toEqual([
      { path: [0, "responses"], message: "PHQ-9 needs 9 responses, got 8" },
    ]);
  });

  it("rejects too many responses, with the path of the submission in the array", () => {
    const issues = inputIssues([
      { instrument: "GAD-7", total: 3 },
      { instrument: "WHO-5", total: 3 },
      { instrument: "GAD-7", responses: answers(8, 0) },
    ]);
    expect(issues).toEqual([{ path: [2, "responses"], message: "GAD-7 needs 7 responses, got 8" }]);
  });

  it("rejects an answer outside the item range, naming the 1-based item", () => {
    expect(inputIssues([{ instrument: "PHQ-9", responses: answers(9, 0, { 3: 5 }) }])).toEqual([
      { path: [0, "responses", 2], message: "PHQ-9 item 3 must be 0-3, got 5" },
    ]);
  });

  it.each([-1, 1.5, Number.NaN])("rejects a PCL-5 answer of %s", (value) => {
    const issues = inputIssues([{ instrument: "PCL-5", responses: answers(20, 0, { 20: value }) }]);
    expect(issues).toEqual([
      { path: [0, "responses", 19], message: `PCL-5 item 20 must be 0-4, got ${value}` },
    ]);
  });

  it("accepts the top of each item range (PCL-5 4, WHO-5 5)", () => {
    expect(onlyResult({ instrument: "PCL-5", responses: answers(20, 4) }).total).toBe(80);
    expect(onlyResult({ instrument: "WHO-5", responses: answers(5, 5) }).total).toBe(25);
  });

  it("rejects AUDIT item 9 = 1 (items 9 and 10 are scored 0, 2 or 4)", () => {
    expect(inputIssues([{ instrument: "AUDIT", responses: answers(10, 0, { 9: 1 }) }])).toEqual([
      { path: [0, "responses", 8], message: "AUDIT item 9 must be 0, 2 or 4, got 1" },
    ]);
  });

  it("accepts AUDIT items 9 and 10 at 2 and 4, and item 8 at 3", () => {
    expect(onlyResult({ instrument: "AUDIT", responses: answers(10, 0, { 8: 3, 9: 2, 10: 4 }) }).total).toBe(
      9,
    );
  });

  it("rejects a total above the maximum", () => {
    expect(inputIssues([{ instrument: "PHQ-9", total: 30 }])).toEqual([
      { path: [0, "total"], message: "PHQ-9 total must be 0-27, got 30" },
    ]);
  });

  it("accepts a total at the maximum and rejects one just above (WHO-5 25 / 26)", () => {
    expect(onlyResult({ instrument: "WHO-5", total: 25 }).total).toBe(25);
    expect(inputIssues([{ instrument: "WHO-5", total: 26 }])).toEqual([
      { path: [0, "total"], message: "WHO-5 total must be 0-25, got 26" },
    ]);
  });

  it("rejects a negative total and a prior total out of range", () => {
    expect(inputIssues([{ instrument: "EPDS", total: -1, priorTotal: 31 }])).toEqual([
      { path: [0, "total"], message: "EPDS total must be 0-30, got -1" },
      { path: [0, "priorTotal"], message: "EPDS prior total must be 0-30, got 31" },
    ]);
  });

  it("rejects a total that disagrees with the responses", () => {
    expect(inputIssues([{ instrument: "GAD-7", responses: answers(7, 1), total: 9 }])).toEqual([
      { path: [0, "total"], message: "GAD-7 total 9 does not match its responses, which sum to 7" },
    ]);
  });

  it("rejects a submission with neither responses nor a total", () => {
    expect(inputIssues([{ instrument: "PHQ-9" }])).toEqual([
      { path: [0], message: "PHQ-9 needs responses or a total" },
    ]);
  });

  it("reports every problem across submissions in one error", () => {
    const issues = inputIssues([
      { instrument: "PHQ-9", responses: answers(8, 4) },
      { instrument: "AUDIT", total: 41 },
    ]);
    expect(issues.map((issue) => issue.path)).toEqual([
      [0, "responses"],
      [0, "responses", 0],
      [0, "responses", 1],
      [0, "responses", 2],
      [0, "responses", 3],
      [0, "responses", 4],
      [0, "responses", 5],
      [0, "responses", 6],
      [0, "responses", 7],
      [1, "total"],
    ]);
  });
});

describe("scoreInstruments: risk items always raise risk", () => {
  it("PHQ-9 item 9 = 1 with a total of 1 (minimal band) still flags risk, level moderate", () => {
    const scoring = scoreOne({ instrument: "PHQ-9", responses: answers(9, 0, { 9: 1 }) });
    expect(scoring.results[0]).toMatchObject({
      total: 1,
      severity: "minimal",
      itemFlags: [{ item: 9, value: 1, label: "thoughts of death or self-harm" }],
    });
    expect(scoring.risk.flag).toBe(true);
    expect(scoring.risk.level).toBe("moderate");
    expect(scoring.risk.labels).toEqual(["PHQ-9 item 9 (thoughts of death or self-harm) = 1"]);
  });

  it.each([2, 3])("PHQ-9 item 9 = %i is high risk", (value) => {
    const scoring = scoreOne({ instrument: "PHQ-9", responses: answers(9, 0, { 9: value }) });
    expect(scoring.risk).toMatchObject({ flag: true, level: "high" });
  });

  it("EPDS item 10 = 1 with a total of 1 flags risk, level moderate", () => {
    const scoring = scoreOne({ instrument: "EPDS", responses: answers(10, 0, { 10: 1 }) });
    expect(scoring.results[0]?.severityKey).toBe("below_cut_off");
    expect(scoring.results[0]?.itemFlags).toEqual([
      { item: 10, value: 1, label: "thoughts of harming oneself" },
    ]);
    expect(scoring.risk).toMatchObject({ flag: true, level: "moderate" });
  });

  it("EPDS item 10 = 3 is high risk", () => {
    expect(scoreOne({ instrument: "EPDS", responses: answers(10, 0, { 10: 3 }) }).risk.level).toBe("high");
  });

  it("no risk item answered and no alert band: risk none", () => {
    const scoring = scoreOne({ instrument: "PHQ-9", responses: answers(9, 1, { 9: 0 }) });
    expect(scoring.risk).toEqual({ flag: false, level: "none", labels: [] });
    expect(scoring.warnings).toEqual([]);
  });

  it("a PHQ-9 total without responses warns that item 9 was not checked and never reads as no risk", () => {
    const scoring = scoreOne({ instrument: "PHQ-9", total: 3 });
    expect(scoring.results[0]?.itemFlags).toEqual([]);
    expect(scoring.risk.level).toBe("low");
    expect(scoring.risk.labels).toEqual([
      "Not evaluated: PHQ-9 item 9 (given as a total only: suicide risk not screened)",
    ]);
    expect(scoring.warnings).toHaveLength(1);
    expect(scoring.warnings[0]).toMatch(/PHQ-9 .*item 9 .*could not be checked/);
    expect(scoring.observations.map((o) => o.note).join(" ")).toMatch(/item 9/);
  });

  it("an EPDS total without responses warns that item 10 was not checked", () => {
    const scoring = scoreOne({ instrument: "EPDS", total: 8 });
    expect(scoring.risk.labels).toEqual([
      "Not evaluated: EPDS item 10 (given as a total only: self-harm risk not screened)",
    ]);
    expect(scoring.risk.flag).toBe(true);
  });

  it("a total of 0 settles the risk item (every item is 0): no warning", () => {
    const scoring = scoreOne({ instrument: "PHQ-9", total: 0 });
    expect(scoring.risk.level).toBe("none");
    expect(scoring.warnings).toEqual([]);
  });

  it("a PHQ-9 total of 26 without responses implies item 9 is at least 2: high", () => {
    const scoring = scoreOne({ instrument: "PHQ-9", total: 26 });
    expect(scoring.risk.level).toBe("high");
    expect(scoring.risk.labels).toContain(
      "PHQ-9 item 9 (thoughts of death or self-harm) at least 2, implied by total 26",
    );
  });

  it("a PHQ-9 total of 24 does not imply anything about item 9 (the other items can reach 24)", () => {
    const labels = scoreOne({ instrument: "PHQ-9", total: 24 }).risk.labels;
    expect(labels.some((label) => label.includes("implied"))).toBe(false);
  });

  it("instruments without risk items give no item warning from a total", () => {
    const scoring = scoreOne({ instrument: "GAD-7", total: 6 });
    expect(scoring.warnings).toEqual([]);
    expect(scoring.risk.level).toBe("none");
  });
});

describe("scoreInstruments: alert bands are never silent", () => {
  it.each<[string, number, string]>([
    ["PHQ-9", 20, "moderate"],
    ["GAD-7", 15, "low"],
    ["PCL-5", 33, "low"],
    ["AUDIT", 20, "moderate"],
    ["WHO-5", 7, "low"],
    ["EPDS", 13, "low"],
  ])("%s total %i raises risk to %s", (instrument, total, level) => {
    const scoring = scoreOne({ instrument, total });
    expect(scoring.risk.flag).toBe(true);
    // Total-only PHQ-9/EPDS also carry the low "not screened" label; the band sets the level here.
    expect(scoring.risk.level).toBe(level);
    expect(scoring.risk.labels.some((label) => label.startsWith(`${instrument} total ${total}:`))).toBe(true);
  });

  it.each<[string, number]>([
    ["GAD-7", 14],
    ["PCL-5", 32],
    ["AUDIT", 19],
    ["WHO-5", 8],
  ])("%s total %i, just outside the alert band, raises nothing", (instrument, total) => {
    expect(scoreOne({ instrument, total }).risk.level).toBe("none");
  });

  it("PHQ-9 19 from responses with item 9 at 0 raises nothing; 20 raises moderate", () => {
    const nineteen = scoreOne({ instrument: "PHQ-9", responses: [3, 3, 3, 2, 2, 2, 2, 2, 0] });
    const twenty = scoreOne({ instrument: "PHQ-9", responses: [3, 3, 3, 3, 2, 2, 2, 2, 0] });
    expect(nineteen.results[0]?.total).toBe(19);
    expect(nineteen.risk.level).toBe("none");
    expect(twenty.results[0]?.total).toBe(20);
    expect(twenty.risk).toEqual({ flag: true, level: "moderate", labels: ["PHQ-9 total 20: severe"] });
  });

  it("the highest level across instruments wins and every label is kept", () => {
    const scoring = scoreInstruments([
      { instrument: "GAD-7", total: 18 },
      { instrument: "PHQ-9", responses: answers(9, 0, { 9: 3 }) },
    ]);
    expect(scoring.risk.level).toBe("high");
    expect(scoring.risk.labels).toEqual([
      "GAD-7 total 18: severe",
      "PHQ-9 item 9 (thoughts of death or self-harm) = 3",
    ]);
  });
});

describe("scoreInstruments: trajectory and reliable change", () => {
  it("PHQ-9 change of -6 is a reliable improvement; -5 is not", () => {
    expect(
      onlyResult({ instrument: "PHQ-9", responses: answers(9, 1, { 9: 0 }), priorTotal: 14 }),
    ).toMatchObject({
      total: 8,
      trajectory: "improved",
      change: -6,
      reliableChange: true,
    });
    expect(
      onlyResult({ instrument: "PHQ-9", responses: answers(9, 1, { 9: 0 }), priorTotal: 13 }),
    ).toMatchObject({
      trajectory: "improved",
      change: -5,
      reliableChange: false,
    });
  });

  it("GAD-7 +4 is a reliable deterioration and raises low risk; +3 does not", () => {
    const reliable = scoreOne({ instrument: "GAD-7", total: 9, priorTotal: 5 });
    expect(reliable.results[0]).toMatchObject({ trajectory: "worsened", change: 4, reliableChange: true });
    expect(reliable.risk.level).toBe("low");
    expect(reliable.risk.labels).toEqual(["GAD-7 reliable deterioration: 5 to 9 (+4 points; threshold 4)"]);

    const notReliable = scoreOne({ instrument: "GAD-7", total: 8, priorTotal: 5 });
    expect(notReliable.results[0]).toMatchObject({ trajectory: "worsened", reliableChange: false });
    expect(notReliable.risk.level).toBe("none");
  });

  it("a reliable improvement raises no risk", () => {
    expect(scoreOne({ instrument: "GAD-7", total: 2, priorTotal: 12 }).risk.level).toBe("none");
  });

  it("WHO-5: a higher score is an improvement, a fall of 3 raw points (12 %) a reliable deterioration", () => {
    expect(onlyResult({ instrument: "WHO-5", total: 18, priorTotal: 10 })).toMatchObject({
      trajectory: "improved",
      change: 8,
      reliableChange: true,
    });
    const fall = scoreOne({ instrument: "WHO-5", total: 15, priorTotal: 18 });
    expect(fall.results[0]).toMatchObject({ trajectory: "worsened", change: -3, reliableChange: true });
    expect(fall.risk.level).toBe("low");
  });

  it("WHO-5: a change of 2 raw points (8 %) is below the 10-point percentage threshold", () => {
    expect(onlyResult({ instrument: "WHO-5", total: 16, priorTotal: 18 }).reliableChange).toBe(false);
  });

  it("EPDS: 4 points is reliable (Matthey 2004), 3 is not", () => {
    expect(onlyResult({ instrument: "EPDS", responses: answers(10, 0), priorTotal: 4 }).reliableChange).toBe(
      true,
    );
    expect(onlyResult({ instrument: "EPDS", responses: answers(10, 0), priorTotal: 3 }).reliableChange).toBe(
      false,
    );
  });

  it("PCL-5: 10 points is reliable, 9 is not", () => {
    expect(onlyResult({ instrument: "PCL-5", total: 20, priorTotal: 30 }).reliableChange).toBe(true);
    expect(onlyResult({ instrument: "PCL-5", total: 21, priorTotal: 30 }).reliableChange).toBe(false);
  });

  it("AUDIT has no sourced reliable change: judged by the engines' 15-percentage-point rule (decision 182)", () => {
    const scoring = scoreOne({ instrument: "AUDIT", total: 24, priorTotal: 12 });
    expect(scoring.results[0]).toMatchObject({ trajectory: "worsened", change: 12, reliableChange: true });
    expect(scoring.observations.map((o) => o.note).join(" ")).toMatch(/no sourced reliable-change points/);
    const small = scoreOne({ instrument: "AUDIT", total: 17, priorTotal: 12 });
    expect(small.results[0]).toMatchObject({ trajectory: "worsened", change: 5, reliableChange: false });
  });

  it("the same total as before is unchanged", () => {
    expect(onlyResult({ instrument: "GAD-7", total: 6, priorTotal: 6 })).toMatchObject({
      trajectory: "unchanged",
      change: 0,
      reliableChange: false,
    });
  });
});

describe("scoreInstruments: unknown and empty input", () => {
  it("lists an unknown instrument as unrecognised with a warning and scores the rest", () => {
    const scoring = scoreInstruments([
      { instrument: "CES-D", total: 40 },
      { instrument: "GAD-7", total: 3 },
    ]);
    expect(scoring.unrecognized).toEqual(["CES-D"]);
    expect(scoring.results.map((r) => r.instrumentId)).toEqual(["gad7"]);
    expect(scoring.warnings).toEqual([
      'Instrument "CES-D" is not recognised: it was not scored and its risk was not assessed.',
    ]);
  });

  it("does not validate an unknown instrument's numbers (it cannot know its ranges)", () => {
    expect(scoreOne({ instrument: "HAM-A", total: 200 }).unrecognized).toEqual(["HAM-A"]);
  });

  it("returns an empty result with a warning for an empty list", () => {
    const scoring = scoreInstruments([]);
    expect(scoring.results).toEqual([]);
    expect(scoring.warnings).toEqual(["No instruments were submitted: nothing was scored."]);
    expect(scoring.risk.flag).toBe(false);
  });
});
