/**
 * The generated rule tables of docs/engines/evidence.md (decision 217): the trend rules, printed
 * from `TREND_RULES` with each rule's own level and source, and the relapse signal model's cuts
 * and floors, printed from the tool's constants and the indicator and combination tables beside
 * their evidence (`RELAPSE_RULE_EVIDENCE`). doc-tables.ts writes the blocks.
 */

import {
  type MedicineSelector,
  SLACK,
  TREND_RULES,
  type TrendRule,
  type TrendTest,
} from "../patient/trends.js";
import {
  RELAPSE_SEVERE_SIGNAL,
  RELAPSE_STRONGEST_SIGNAL_POINTS,
  RELAPSE_TOP_TIER_WEIGHT,
} from "../tools/relapse-signals.js";
import { type ConstantRow, constantTable } from "./doc-tables-evidence.js";
import type { Evidence } from "./parameter-evidence.js";
import { RELAPSE_COMBINATION_RULES, RELAPSE_INDICATORS, RELAPSE_RULE_EVIDENCE } from "./relapse-signals.js";

/** The relative slack every trend threshold is met within; the trend rules carry their own sources. */
const SLACK_EVIDENCE: Evidence = {
  level: "derived",
  source:
    "As in the analyte table: thresholds and category bounds are met within a relative slack far below reported precision and above floating-point error, so every accepted unit gives the same answer.",
};

const medicines = (selectors: readonly MedicineSelector[]) =>
  selectors.map((s) => s.ingredient ?? s.drugClass).join(" or ");

const percent = (fraction: number) => `${Math.round(fraction * 1000) / 10} %`;

/** A rule's test with its figures (canonical units), as one phrase. */
function trendTestText(test: TrendTest): string {
  switch (test.kind) {
    case "rise_ratio":
      return `>= ${test.ratio} x an earlier value${test.withinDays === null ? "" : ` within ${test.withinDays} d`}${test.overDays > 0 ? ` more than ${test.overDays} d before` : ""}`;
    case "rise_absolute":
      return `up >= ${test.amount} within ${test.withinDays} d`;
    case "category_fall":
      return `a fall into a lower category (${test.categories.map((c) => (c.from === null ? c.name : `${c.name} >= ${c.from}`)).join("; ")})${test.minFall > 0 ? ` with a fall of >= ${percent(test.minFall)}` : ""}`;
    case "decline_rate":
      return `falling > ${test.perYear} a year between readings >= ${test.minDays} d apart`;
    case "consecutive_falls":
      return `${test.falls} falls in a row, each <= ${test.maxGapDays} d after the one before, by >= ${percent(test.minFall)} in all`;
    case "gain_since_start":
      return `>= ${percent(test.fraction)} above the baseline since the medicine started`;
    case "rise_above_range":
      return "a reading above the analyte table's range after one within it";
  }
}

/** What a trend rule finds and at which level, as one cell. */
function trendRuleText(rule: TrendRule): string {
  const on = rule.requires ? `on ${medicines(rule.requires)}, ` : "";
  const levels = [
    rule.level,
    ...(rule.names
      ? [
          rule.levelWhenNamed && rule.levelWhenNamed !== rule.level
            ? `${rule.levelWhenNamed} with ${medicines(rule.names)} named`
            : `${medicines(rule.names)} named`,
        ]
      : []),
    ...(rule.levelWhenSustained ? [`${rule.levelWhenSustained} when sustained`] : []),
  ];
  const group = rule.group ? ` (group ${rule.group}: the highest is kept)` : "";
  return `${on}${rule.analytes.join(" or ")}: ${trendTestText(rule.test)}: ${levels.join("; ")}${group}`;
}

/** docs/engines/evidence.md, "Trends": every trend rule, then the slack of its thresholds. */
export function trendRulesBlock(): string {
  const rows: ConstantRow[] = TREND_RULES.map((rule) => ({
    constant: rule.id,
    value: trendRuleText(rule),
    level: rule.evidence,
    source: rule.source,
  }));
  return constantTable([...rows, { constant: "SLACK", value: `${SLACK} relative`, ...SLACK_EVIDENCE }]);
}

/** Every cut and floor of the relapse signal model, by the name the page prints it under. */
export function relapseRuleFigures(): Map<string, number> {
  const figures = new Map<string, number>([
    ["RELAPSE_STRONGEST_SIGNAL_POINTS", RELAPSE_STRONGEST_SIGNAL_POINTS],
    ["RELAPSE_TOP_TIER_WEIGHT", RELAPSE_TOP_TIER_WEIGHT],
    ["RELAPSE_SEVERE_SIGNAL", RELAPSE_SEVERE_SIGNAL],
  ]);
  for (const i of RELAPSE_INDICATORS)
    for (const [kind, value] of Object.entries(i.review ?? {}))
      figures.set(`${i.indicator}.review.${kind}`, value);
  for (const rule of RELAPSE_COMBINATION_RULES) figures.set(`${rule.rule}.minSeverity`, rule.minSeverity);
  return figures;
}

/** docs/engines/evidence.md, "Agent tool `scoreRelapse`": the model's cuts and floors. */
export function relapseRulesBlock(): string {
  const rows = [...relapseRuleFigures()].map(([constant, value]) => {
    const evidence = RELAPSE_RULE_EVIDENCE[constant];
    if (evidence === undefined) throw new Error(`${constant} has no evidence`);
    return { constant, value: String(value), ...evidence };
  });
  return constantTable(rows);
}
