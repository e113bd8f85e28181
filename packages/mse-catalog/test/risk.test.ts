import { describe, expect, it } from "vitest";
import {
  assessRisk,
  CATALOG,
  CSSRS_ITEM_IDS,
  type CssrsAnswers,
  type CssrsKey,
  cssrsCompleteness,
  cssrsUnaskedFollowUps,
  RISK_OPTION_LEVELS,
  type RiskLevel,
  type Selection,
  triageCssrs,
  type YesNo,
} from "../src/index.js";

/**
 * The triage table as published for the C-SSRS screener (Columbia Lighthouse Project), written
 * independently of the implementation: high = yes to 4 or 5, or behavior within 3 months;
 * moderate = yes to 3, or behavior more than 3 months ago; low = yes to 1 or 2 only.
 * Our decision: item 6 yes with unknown recency counts as within 3 months.
 */
function yesTriage(a: CssrsAnswers): RiskLevel {
  const y = (k: keyof CssrsAnswers) => a[k] === "yes";
  const recentBehavior = y("q6") && a.q6_recent !== "no";
  const olderBehavior = y("q6") && a.q6_recent === "no";
  if (y("q4") || y("q5") || recentBehavior) return "high";
  if (y("q3") || olderBehavior) return "moderate";
  if (y("q1") || y("q2")) return "low";
  return "none";
}

/**
 * The screener's skip rule, written independently: 1, 2 and 6 are always asked; 3, 4 and 5 after a
 * yes to 2; item 6's recency after a yes to 6.
 */
function referenceMissing(a: CssrsAnswers): CssrsKey[] {
  const asked: CssrsKey[] = a.q2 === "yes" ? ["q1", "q2", "q3", "q4", "q5", "q6"] : ["q1", "q2", "q6"];
  if (a.q6 === "yes") asked.push("q6_recent");
  return asked.filter((k) => a[k] === undefined);
}

/**
 * Our rules: an incomplete screen is at least low; after a yes to item 2, a screen with any of
 * items 3-5 unanswered is at least moderate (decision 72).
 */
function referenceTriage(a: CssrsAnswers): RiskLevel {
  const level = yesTriage(a);
  const missing = referenceMissing(a);
  const followUpsUnasked = a.q2 === "yes" && missing.some((k) => k === "q3" || k === "q4" || k === "q5");
  if (followUpsUnasked && (level === "none" || level === "low")) return "moderate";
  return level === "none" && missing.length > 0 ? "low" : level;
}

describe("C-SSRS triage, case by case", () => {
  const cases: [string, CssrsAnswers, RiskLevel, CssrsKey[]][] = [
    ["nothing answered", {}, "low", ["q1", "q2", "q6"]],
    ["all no", { q1: "no", q2: "no", q3: "no", q4: "no", q5: "no", q6: "no" }, "none", []],
    ["items 1, 2 and 6 no (3-5 not asked)", { q1: "no", q2: "no", q6: "no" }, "none", []],
    ["q1 no alone", { q1: "no" }, "low", ["q2", "q6"]],
    ["q1 and q2 no, q6 not asked", { q1: "no", q2: "no" }, "low", ["q6"]],
    ["q2 yes, 3-5 not asked", { q1: "no", q2: "yes", q6: "no" }, "moderate", ["q3", "q4", "q5"]],
    [
      "q1 and q2 yes, 3-5 not asked (issue example)",
      { q1: "yes", q2: "yes" },
      "moderate",
      ["q3", "q4", "q5", "q6"],
    ],
    ["q2 yes, q5 not asked", { q1: "no", q2: "yes", q3: "no", q4: "no", q6: "no" }, "moderate", ["q5"]],
    [
      "q2 yes, 3-5 answered no, q6 not asked",
      { q2: "yes", q3: "no", q4: "no", q5: "no" },
      "low",
      ["q1", "q6"],
    ],
    ["q6 yes, recency not recorded", { q1: "no", q2: "no", q6: "yes" }, "high", ["q6_recent"]],
    ["q1 only", { q1: "yes", q2: "no", q6: "no" }, "low", []],
    ["q2 only", { q1: "no", q2: "yes", q3: "no", q4: "no", q5: "no", q6: "no" }, "low", []],
    ["q1 and q2", { q1: "yes", q2: "yes", q3: "no", q4: "no", q5: "no", q6: "no" }, "low", []],
    [
      "q3 (method, no intent)",
      { q1: "yes", q2: "yes", q3: "yes", q4: "no", q5: "no", q6: "no" },
      "moderate",
      [],
    ],
    ["q4 (some intent)", { q1: "yes", q2: "yes", q3: "yes", q4: "yes", q5: "no", q6: "no" }, "high", []],
    ["q5 (plan and intent)", { q1: "yes", q2: "yes", q3: "yes", q4: "no", q5: "yes", q6: "no" }, "high", []],
    ["q4 without q3", { q2: "yes", q4: "yes" }, "high", ["q1", "q3", "q5", "q6"]],
    ["q6 within 3 months", { q1: "no", q2: "no", q6: "yes", q6_recent: "yes" }, "high", []],
    ["q6 more than 3 months ago", { q1: "no", q2: "no", q6: "yes", q6_recent: "no" }, "moderate", []],
    ["q1 and older behavior", { q1: "yes", q2: "no", q6: "yes", q6_recent: "no" }, "moderate", []],
    [
      "q3 and older behavior",
      { q2: "yes", q3: "yes", q6: "yes", q6_recent: "no" },
      "moderate",
      ["q1", "q4", "q5"],
    ],
    [
      "q5 and older behavior",
      { q2: "yes", q5: "yes", q6: "yes", q6_recent: "no" },
      "high",
      ["q1", "q3", "q4"],
    ],
    ["q3 out of skip order (q2 no)", { q1: "no", q2: "no", q3: "yes", q6: "no" }, "moderate", []],
  ];
  it.each(cases)("%s", (_name, answers, level, missing) => {
    const t = triageCssrs(answers);
    expect(t.level).toBe(level);
    expect(t.positive).toBe(t.yesItems.length > 0);
    expect(t.missingItems).toEqual(missing);
    expect(t.complete).toBe(missing.length === 0);
    expect(cssrsCompleteness(answers)).toEqual({ complete: missing.length === 0, missingItems: missing });
    expect(referenceTriage(answers)).toBe(level);
    expect(referenceMissing(answers)).toEqual(missing);
  });

  it("agrees with the reference table on every answer pattern", () => {
    const states: (YesNo | undefined)[] = [undefined, "no", "yes"];
    let checked = 0;
    const walk = (i: number, acc: CssrsAnswers) => {
      if (i === CSSRS_ITEM_IDS.length) {
        const variants: CssrsAnswers[] =
          acc.q6 === "yes" ? [acc, { ...acc, q6_recent: "yes" }, { ...acc, q6_recent: "no" }] : [acc];
        for (const v of variants) {
          const t = triageCssrs(v);
          expect(t.level, JSON.stringify(v)).toBe(referenceTriage(v));
          expect(t.missingItems, JSON.stringify(v)).toEqual(referenceMissing(v));
          if (!t.complete) expect(t.level, JSON.stringify(v)).not.toBe("none");
          checked++;
        }
        return;
      }
      for (const s of states) {
        const id = CSSRS_ITEM_IDS[i];
        if (!id) continue;
        walk(i + 1, s === undefined ? acc : { ...acc, [id]: s });
      }
    };
    walk(0, {});
    expect(checked).toBe(3 ** 5 * (2 + 3));
  });

  it("lists the endorsed items", () => {
    expect(triageCssrs({ q5: "yes", q1: "yes", q3: "no" }).yesItems).toEqual(["q1", "q5"]);
  });

  it("reads no answers at all as an incomplete screen, not a negative one", () => {
    expect(triageCssrs(undefined)).toEqual({
      positive: false,
      level: "low",
      yesItems: [],
      complete: false,
      missingItems: ["q1", "q2", "q6"],
    });
  });

  it("counts an answer other than yes or no as not answered", () => {
    const odd = { q1: "no", q2: "maybe", q6: "no" } as unknown as CssrsAnswers;
    expect(triageCssrs(odd)).toMatchObject({ level: "low", complete: false, missingItems: ["q2"] });
  });
});

describe("assessRisk", () => {
  it("is none without risk-bearing options or a positive screen", () => {
    expect(
      assessRisk({
        mood: { values: ["depressed"] },
        risk: { values: ["denies_si_hi", "protective_factors"] },
      }),
    ).toEqual({ flag: false, level: "none", labels: [] });
    expect(assessRisk({ risk: { values: [], cssrs: { q1: "no", q2: "no", q6: "no" } } }).flag).toBe(false);
  });

  const riskOptions = Object.entries(RISK_OPTION_LEVELS).map(([k, level]) => {
    const [domain, value] = k.split(".") as [string, string];
    return [domain, value, level] as const;
  });
  it.each(riskOptions)("option %s.%s gives level %s", (domain, value, level) => {
    const r = assessRisk({ [domain]: { values: [value] } } as Selection);
    expect(r.flag).toBe(true);
    expect(r.level).toBe(level);
    const d = CATALOG.domains.find((x) => x.key === domain);
    const o = d?.options.find((x) => x.value === value);
    expect(r.labels).toEqual([`${d?.label}: ${o?.label}`]);
  });

  it("documents the key option levels", () => {
    expect(RISK_OPTION_LEVELS["risk.passive_si"]).toBe("low");
    expect(RISK_OPTION_LEVELS["risk.active_si"]).toBe("moderate");
    expect(RISK_OPTION_LEVELS["risk.si_with_plan"]).toBe("high");
    expect(RISK_OPTION_LEVELS["risk.si_with_intent"]).toBe("high");
    expect(RISK_OPTION_LEVELS["perception.command_hallucinations"]).toBe("moderate");
  });

  it("takes the higher of the option and screener levels", () => {
    const optionHigher = assessRisk({ risk: { values: ["si_with_plan"], cssrs: { q1: "yes" } } });
    expect(optionHigher.level).toBe("high");
    const screenerHigher = assessRisk({ risk: { values: ["passive_si"], cssrs: { q2: "yes", q4: "yes" } } });
    expect(screenerHigher.level).toBe("high");
    const mixed = assessRisk({
      thought_content: { values: ["suicidal_ideation"] },
      risk: { values: [], cssrs: { q1: "yes", q2: "yes" } },
    });
    expect(mixed).toEqual({
      flag: true,
      level: "moderate",
      labels: [
        "Thought content: Suicidal ideation",
        "C-SSRS item 1: wish to be dead",
        "C-SSRS item 2: non-specific active suicidal thoughts",
        "C-SSRS screen incomplete: items 3, 4, 5 and 6 not answered; items 3, 4 and 5 still to ask after the yes to item 2 (a yes to item 4 or 5 is high risk), read as at least moderate until asked",
      ],
      cssrs: { complete: false, missingItems: ["q3", "q4", "q5", "q6"], triageLevel: "moderate" },
    });
  });

  it("flags a positive screen even at low level, and labels item 6 recency", () => {
    expect(assessRisk({ risk: { values: [], cssrs: { q1: "yes" } } })).toMatchObject({
      flag: true,
      level: "low",
    });
    expect(assessRisk({ risk: { values: [], cssrs: { q6: "yes" } } }).labels).toEqual([
      "C-SSRS item 6: suicidal behavior (recency not recorded, treated as within the past 3 months)",
      "C-SSRS screen incomplete: items 1, 2 and 6 recency not answered",
    ]);
    expect(assessRisk({ risk: { values: [], cssrs: { q6: "yes", q6_recent: "no" } } }).labels).toEqual([
      "C-SSRS item 6: suicidal behavior (more than 3 months ago)",
      "C-SSRS screen incomplete: items 1 and 2 not answered",
    ]);
    expect(
      assessRisk({ risk: { values: [], cssrs: { q1: "no", q2: "no", q6: "yes", q6_recent: "no" } } }).labels,
    ).toEqual(["C-SSRS item 6: suicidal behavior (more than 3 months ago)"]);
  });

  it("reads { q1: no } alone as incomplete: low, not flagged, naming items 2 and 6", () => {
    expect(assessRisk({ risk: { values: [], cssrs: { q1: "no" } } })).toEqual({
      flag: false,
      level: "low",
      labels: ["C-SSRS screen incomplete: items 2 and 6 not answered"],
      cssrs: { complete: false, missingItems: ["q2", "q6"], triageLevel: "low" },
    });
  });

  it("needs items 3-5 after a yes to item 2, and item 6 recency after a yes to item 6", () => {
    const q2 = assessRisk({ risk: { values: [], cssrs: { q1: "no", q2: "yes", q6: "no" } } });
    expect(q2).toMatchObject({ flag: true, level: "moderate" });
    expect(q2.cssrs).toEqual({ complete: false, missingItems: ["q3", "q4", "q5"], triageLevel: "moderate" });
    expect(q2.labels).toContain(
      "C-SSRS screen incomplete: items 3, 4 and 5 not answered; items 3, 4 and 5 still to ask after the yes to item 2 (a yes to item 4 or 5 is high risk), read as at least moderate until asked",
    );
    const q6 = assessRisk({ risk: { values: [], cssrs: { q1: "no", q2: "no", q6: "yes" } } });
    expect(q6).toMatchObject({ flag: true, level: "high" });
    expect(q6.labels).toContain("C-SSRS screen incomplete: item 6 recency not answered");
  });

  it("issue example: q1 yes, q2 yes, items 3-5 not asked is moderate, flagged, and names items 3, 4 and 5", () => {
    const r = assessRisk({ risk: { values: [], cssrs: { q1: "yes", q2: "yes", q6: "no" } } });
    expect(r.level).toBe("moderate");
    expect(r.flag).toBe(true);
    expect(r.cssrs).toEqual({ complete: false, missingItems: ["q3", "q4", "q5"], triageLevel: "moderate" });
    expect(r.labels).toEqual([
      "C-SSRS item 1: wish to be dead",
      "C-SSRS item 2: non-specific active suicidal thoughts",
      "C-SSRS screen incomplete: items 3, 4 and 5 not answered; items 3, 4 and 5 still to ask after the yes to item 2 (a yes to item 4 or 5 is high risk), read as at least moderate until asked",
    ]);
    expect(cssrsUnaskedFollowUps({ q1: "yes", q2: "yes", q3: "no" })).toEqual(["q4", "q5"]);
    expect(cssrsUnaskedFollowUps({ q1: "yes", q2: "no" })).toEqual([]);
  });

  it("keeps a complete negative screen at none, and records its completeness", () => {
    expect(assessRisk({ risk: { values: [], cssrs: { q1: "no", q2: "no", q6: "no" } } })).toEqual({
      flag: false,
      level: "none",
      labels: [],
      cssrs: { complete: true, missingItems: [], triageLevel: "none" },
    });
  });

  it("keeps a risk option's higher level beside an incomplete screen, and adds the screen's label", () => {
    const r = assessRisk({ risk: { values: ["si_with_plan"], cssrs: { q1: "no" } } });
    expect(r.level).toBe("high");
    expect(r.flag).toBe(true);
    expect(r.labels).toEqual([
      "Risk: Suicidal ideation with a plan",
      "C-SSRS screen incomplete: items 2 and 6 not answered",
    ]);
  });

  it("leaves a record without a screen as it was (no cssrs field, no label)", () => {
    expect(assessRisk({ risk: { values: ["denies_si_hi"] } })).toEqual({
      flag: false,
      level: "none",
      labels: [],
    });
    expect(assessRisk({ risk: { values: ["denies_si_hi"], cssrs: {} } })).toEqual({
      flag: false,
      level: "none",
      labels: [],
    });
  });

  it("ignores unknown domains and values instead of throwing", () => {
    const junk = {
      mood: { values: ["nope"] },
      sleep: { values: ["x"] },
      risk: { values: "active_si" },
    } as unknown as Selection;
    expect(assessRisk(junk)).toEqual({ flag: false, level: "none", labels: [] });
  });
});
