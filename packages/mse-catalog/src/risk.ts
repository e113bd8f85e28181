import { DOMAINS, getOption } from "./catalog.js";
import {
  CSSRS_ITEM_IDS,
  type CssrsAnswers,
  type CssrsItemId,
  type CssrsTriage,
  type DomainKey,
  RISK_LEVELS,
  type RiskAssessment,
  type RiskLevel,
  type Selection,
} from "./types.js";

/**
 * Level contributed by each risk-bearing option, keyed "domain.value". The mapping mirrors the
 * C-SSRS screener's triage (see docs/mse.md): a passive death wish sits with items 1-2 (low);
 * unqualified active ideation is read conservatively alongside item 3 (moderate); a plan or intent
 * sits with items 4-5 (high); an attempt within 3 months with recent behavior on item 6 (high) and
 * an older attempt with past behavior (moderate). Other risk-bearing findings call for further
 * evaluation and are moderate. Every option with `risk: true` must appear here (a test checks it).
 */
export const RISK_OPTION_LEVELS: Readonly<Record<string, Exclude<RiskLevel, "none">>> = {
  "appearance.visible_self_harm": "moderate",
  "behavior.aggressive": "moderate",
  "thought_content.suicidal_ideation": "moderate",
  "thought_content.homicidal_ideation": "moderate",
  "perception.command_hallucinations": "moderate",
  "risk.passive_si": "low",
  "risk.active_si": "moderate",
  "risk.si_with_plan": "high",
  "risk.si_with_intent": "high",
  "risk.recent_suicide_attempt": "high",
  "risk.past_suicide_attempt": "moderate",
  "risk.non_suicidal_self_injury": "moderate",
  "risk.homicidal_ideation": "moderate",
  "risk.hi_with_plan_or_intent": "high",
  "risk.access_to_means": "moderate",
};

/** Short labels of the screener items, used in risk labels and the narrative. */
export const CSSRS_ITEM_LABELS: Readonly<Record<CssrsItemId, string>> = {
  q1: "wish to be dead",
  q2: "non-specific active suicidal thoughts",
  q3: "suicidal thoughts with a method, without intent",
  q4: "suicidal thoughts with some intent to act, without a specific plan",
  q5: "suicidal thoughts with a specific plan and intent",
  q6: "suicidal behavior",
};

const rank = (level: RiskLevel): number => RISK_LEVELS.indexOf(level);

export function maxLevel(a: RiskLevel, b: RiskLevel): RiskLevel {
  return rank(a) >= rank(b) ? a : b;
}

/**
 * The C-SSRS screener triage (Columbia Lighthouse Project, screen version with triage points):
 * high = yes to item 4 or 5, or suicidal behavior (item 6) within the past 3 months;
 * moderate = yes to item 3, or behavior more than 3 months ago;
 * low = yes to item 1 or 2 only.
 * Recency of item 6 comes from the additive key q6_recent. When item 6 is yes and q6_recent is
 * absent, the behavior is treated as recent (high): the conservative reading of missing data.
 * Unanswered items count as not endorsed; answers are scored as given even when they break the
 * instrument's skip rule (items 3-5 asked only after a yes to item 2), since a recorded yes is
 * safety-relevant whatever the order it was asked in.
 */
export function triageCssrs(answers: CssrsAnswers | undefined): CssrsTriage {
  const yesItems = CSSRS_ITEM_IDS.filter((id) => answers?.[id] === "yes");
  const yes = (id: CssrsItemId) => yesItems.includes(id);
  let level: RiskLevel = "none";
  if (yes("q1") || yes("q2")) level = "low";
  if (yes("q3")) level = "moderate";
  if (yes("q6")) level = maxLevel(level, answers?.q6_recent === "no" ? "moderate" : "high");
  if (yes("q4") || yes("q5")) level = "high";
  return { positive: yesItems.length > 0, level, yesItems };
}

/** Describes the item 6 answer's recency for labels and narrative. */
export function q6RecencyPhrase(answers: CssrsAnswers | undefined): string {
  if (answers?.q6_recent === "yes") return "within the past 3 months";
  if (answers?.q6_recent === "no") return "more than 3 months ago";
  return "recency not recorded, treated as within the past 3 months";
}

/**
 * Risk of a (validated) selection: the flag is raised by any risk-bearing option or a positive
 * C-SSRS screen (any item yes); the level is the higher of the option-derived and screener-derived
 * levels. Unknown domains or values are ignored, so the function never throws on stored data.
 */
export function assessRisk(selection: Selection): RiskAssessment {
  let level: RiskLevel = "none";
  let flag = false;
  const labels: string[] = [];
  for (const domain of DOMAINS) {
    const entry = selection?.[domain.key as DomainKey];
    if (!entry || !Array.isArray(entry.values)) continue;
    for (const option of domain.options) {
      if (!option.risk || !entry.values.includes(option.value)) continue;
      flag = true;
      level = maxLevel(level, RISK_OPTION_LEVELS[`${domain.key}.${option.value}`] ?? "moderate");
      labels.push(`${domain.label}: ${option.label}`);
    }
  }
  const cssrs = selection?.risk?.cssrs;
  const triage = triageCssrs(cssrs);
  if (triage.positive) {
    flag = true;
    level = maxLevel(level, triage.level);
    for (const id of triage.yesItems) {
      const suffix = id === "q6" ? ` (${q6RecencyPhrase(cssrs)})` : "";
      labels.push(`C-SSRS item ${id.slice(1)}: ${CSSRS_ITEM_LABELS[id]}${suffix}`);
    }
  }
  return { flag, level, labels };
}

/** True when the option is risk-bearing (convenience for callers holding raw values). */
export function isRiskOption(domainKey: string, value: string): boolean {
  return getOption(domainKey, value)?.risk === true;
}
