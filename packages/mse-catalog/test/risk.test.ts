import { describe, expect, it } from "vitest";
import {
  assessRisk,
  CATALOG,
  CSSRS_ITEM_IDS,
  type CssrsAnswers,
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
function referenceTriage(a: CssrsAnswers): RiskLevel {
  const y = (k: keyof CssrsAnswers) => a[k] === "yes";
  const recentBehavior = y("q6") && a.q6_recent !== "no";
  const olderBehavior = y("q6") && a.q6_recent === "no";
  if (y("q4") || y("q5") || recentBehavior) return "high";
  if (y("q3") || olderBehavior) return "moderate";
  if (y("q1") || y("q2")) return "low";
  return "none";
}

describe("C-SSRS triage, case by case", () => {
  const cases: [string, CssrsAnswers, RiskLevel][] = [
    ["nothing answered", {}, "none"],
    ["all no", { q1: "no", q2: "no", q3: "no", q4: "no", q5: "no", q6: "no" }, "none"],
    ["q1 only", { q1: "yes", q2: "no", q6: "no" }, "low"],
    ["q2 only", { q1: "no", q2: "yes", q3: "no", q4: "no", q5: "no", q6: "no" }, "low"],
    ["q1 and q2", { q1: "yes", q2: "yes", q3: "no", q4: "no", q5: "no", q6: "no" }, "low"],
    ["q3 (method, no intent)", { q1: "yes", q2: "yes", q3: "yes", q4: "no", q5: "no", q6: "no" }, "moderate"],
    ["q4 (some intent)", { q1: "yes", q2: "yes", q3: "yes", q4: "yes", q5: "no", q6: "no" }, "high"],
    ["q5 (plan and intent)", { q1: "yes", q2: "yes", q3: "yes", q4: "no", q5: "yes", q6: "no" }, "high"],
    ["q4 without q3", { q2: "yes", q4: "yes" }, "high"],
    ["q6 within 3 months", { q1: "no", q2: "no", q6: "yes", q6_recent: "yes" }, "high"],
    ["q6 more than 3 months ago", { q1: "no", q2: "no", q6: "yes", q6_recent: "no" }, "moderate"],
    ["q6 with recency not recorded", { q1: "no", q2: "no", q6: "yes" }, "high"],
    ["q1 and older behavior", { q1: "yes", q2: "no", q6: "yes", q6_recent: "no" }, "moderate"],
    ["q3 and older behavior", { q2: "yes", q3: "yes", q6: "yes", q6_recent: "no" }, "moderate"],
    ["q5 and older behavior", { q2: "yes", q5: "yes", q6: "yes", q6_recent: "no" }, "high"],
    ["q3 out of skip order (q2 no)", { q1: "no", q2: "no", q3: "yes" }, "moderate"],
  ];
  it.each(cases)("%s", (_name, answers, level) => {
    const t = triageCssrs(answers);
    expect(t.level).toBe(level);
    expect(t.positive).toBe(level !== "none");
    expect(referenceTriage(answers)).toBe(level);
  });

  it("agrees with the reference table on every answer pattern", () => {
    const states: (YesNo | undefined)[] = [undefined, "no", "yes"];
    let checked = 0;
    const walk = (i: number, acc: CssrsAnswers) => {
      if (i === CSSRS_ITEM_IDS.length) {
        const variants: CssrsAnswers[] =
          acc.q6 === "yes" ? [acc, { ...acc, q6_recent: "yes" }, { ...acc, q6_recent: "no" }] : [acc];
        for (const v of variants) {
          expect(triageCssrs(v).level, JSON.stringify(v)).toBe(referenceTriage(v));
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
    expect(triageCssrs(undefined)).toEqual({ positive: false, level: "none", yesItems: [] });
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
      ],
    });
  });

  it("flags a positive screen even at low level, and labels item 6 recency", () => {
    expect(assessRisk({ risk: { values: [], cssrs: { q1: "yes" } } })).toMatchObject({
      flag: true,
      level: "low",
    });
    expect(assessRisk({ risk: { values: [], cssrs: { q6: "yes" } } }).labels).toEqual([
      "C-SSRS item 6: suicidal behavior (recency not recorded, treated as within the past 3 months)",
    ]);
    expect(assessRisk({ risk: { values: [], cssrs: { q6: "yes", q6_recent: "no" } } }).labels).toEqual([
      "C-SSRS item 6: suicidal behavior (more than 3 months ago)",
    ]);
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
