import { DOMAINS, getOption } from "./catalog.js";
import {
  CSSRS_ITEM_IDS,
  CSSRS_RECENCY_KEY,
  type CssrsAnswers,
  type CssrsCompleteness,
  type CssrsItemId,
  type CssrsKey,
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

/** How strong a risk option's level is, and where it comes from. */
export interface RiskOptionEvidence {
  level: "published cut-off" | "derived" | "expert-set";
  source: string;
}

/**
 * The evidence of each level of `RISK_OPTION_LEVELS`, by the same keys: docs/engines/evidence.md
 * ("MSE risk logic") prints the two side by side, generated (decision 217). Beside the levels, not
 * in them, because `assessRisk` reads the levels alone; a test keeps the keys one to one.
 */
export const RISK_OPTION_EVIDENCE: Readonly<Record<string, RiskOptionEvidence>> = {
  "risk.passive_si": { level: "derived", source: "C-SSRS triage: wish to be dead (item 1) → low." },
  "risk.active_si": {
    level: "expert-set",
    source: "Unqualified active ideation read conservatively with item 3 (moderate), not 2.",
  },
  "risk.si_with_plan": { level: "derived", source: "C-SSRS triage: plan (item 5) → high." },
  "risk.si_with_intent": { level: "derived", source: "C-SSRS triage: intent (item 4) → high." },
  "risk.recent_suicide_attempt": {
    level: "derived",
    source: "C-SSRS triage: behaviour within 3 months → high.",
  },
  "risk.past_suicide_attempt": {
    level: "derived",
    source: "C-SSRS triage: behaviour more than 3 months ago → moderate.",
  },
  "risk.non_suicidal_self_injury": { level: "expert-set", source: "Calls for further evaluation." },
  "risk.homicidal_ideation": { level: "expert-set", source: "Calls for further evaluation." },
  "risk.hi_with_plan_or_intent": { level: "expert-set", source: "Mirrors plan/intent for self-harm." },
  "risk.access_to_means": { level: "expert-set", source: "Calls for further evaluation." },
  "appearance.visible_self_harm": { level: "expert-set", source: "Calls for further evaluation." },
  "behavior.aggressive": { level: "expert-set", source: "Calls for further evaluation." },
  "thought_content.suicidal_ideation": { level: "expert-set", source: "As `risk.active_si`." },
  "thought_content.homicidal_ideation": { level: "expert-set", source: "As `risk.homicidal_ideation`." },
  "perception.command_hallucinations": {
    level: "expert-set",
    source: "Commands may direct harm; calls for further evaluation.",
  },
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

const answered = (answers: CssrsAnswers | undefined, key: CssrsKey) =>
  answers?.[key] === "yes" || answers?.[key] === "no";

/**
 * Which answers the screener still needs (Columbia Lighthouse Project, C-SSRS screen version):
 * items 1, 2 and 6 are always asked; items 3, 4 and 5 only after a yes to item 2; and when item 6
 * is yes, whether the behavior was within the past 3 months (q6_recent) is part of that item.
 * An answer other than "yes" or "no" counts as not answered. No answers at all is incomplete.
 */
export function cssrsCompleteness(answers: CssrsAnswers | undefined): CssrsCompleteness {
  const required: CssrsKey[] = ["q1", "q2"];
  if (answers?.q2 === "yes") required.push("q3", "q4", "q5");
  required.push("q6");
  if (answers?.q6 === "yes") required.push(CSSRS_RECENCY_KEY);
  const missingItems = required.filter((key) => !answered(answers, key));
  return { complete: missingItems.length === 0, missingItems };
}

/** Items the screener asks only after a yes to item 2 (the form's routing: "If YES to 2, ask 3, 4, 5"). */
export const CSSRS_FOLLOW_UP_ITEMS: readonly CssrsItemId[] = ["q3", "q4", "q5"];

/**
 * Level floor of a screen whose item 2 is yes while any of items 3-5 is not answered (decision 72):
 * a yes to item 3 reads moderate and a yes to 4 or 5 high, so the unasked follow-ups are read at
 * least at the middle of what they could still show, never at item 2's own low.
 */
export const CSSRS_UNASKED_FOLLOW_UP_FLOOR: Exclude<RiskLevel, "none" | "low"> = "moderate";

/**
 * The follow-up items (3, 4, 5) still to ask: item 2 is yes and they are not answered yes or no.
 * Empty when item 2 is not yes (the screener then goes straight to item 6).
 */
export function cssrsUnaskedFollowUps(answers: CssrsAnswers | undefined): CssrsItemId[] {
  if (answers?.q2 !== "yes") return [];
  return CSSRS_FOLLOW_UP_ITEMS.filter((id) => !answered(answers, id));
}

/**
 * The C-SSRS screener triage (Columbia Lighthouse Project, screen version with triage points):
 * high = yes to item 4 or 5, or suicidal behavior (item 6) within the past 3 months;
 * moderate = yes to item 3, or behavior more than 3 months ago;
 * low = yes to item 1 or 2 only.
 * Recency of item 6 comes from the additive key q6_recent. When item 6 is yes and q6_recent is
 * absent, the behavior is treated as recent (high): the conservative reading of missing data.
 * Answers are scored as given even when they break the instrument's skip rule (items 3-5 asked
 * only after a yes to item 2), since a recorded yes is safety-relevant whatever the order it was
 * asked in.
 * An incomplete screen (see cssrsCompleteness) is at least low: unasked items are unknown, not
 * "no", so a part-done screen must never read as a negative one. Once item 2 is yes, a screen with
 * any of items 3-5 unasked is at least moderate (decision 72): those items decide between low,
 * moderate and high, and a missing answer to them must not read as item 2's low.
 */
export function triageCssrs(answers: CssrsAnswers | undefined): CssrsTriage {
  const yesItems = CSSRS_ITEM_IDS.filter((id) => answers?.[id] === "yes");
  const yes = (id: CssrsItemId) => yesItems.includes(id);
  const { complete, missingItems } = cssrsCompleteness(answers);
  let level: RiskLevel = complete ? "none" : "low";
  if (cssrsUnaskedFollowUps(answers).length > 0) level = maxLevel(level, CSSRS_UNASKED_FOLLOW_UP_FLOOR);
  if (yes("q1") || yes("q2")) level = maxLevel(level, "low");
  if (yes("q3")) level = maxLevel(level, "moderate");
  if (yes("q6")) level = maxLevel(level, answers?.q6_recent === "no" ? "moderate" : "high");
  if (yes("q4") || yes("q5")) level = "high";
  return { positive: yesItems.length > 0, level, yesItems, complete, missingItems };
}

/** "item 6", "items 2 and 6", "items 3, 4, 5 and 6 recency": screener keys in words with numbers. */
export function cssrsItemsPhrase(keys: readonly CssrsKey[]): string {
  const numbers = keys.map((key) => (key === CSSRS_RECENCY_KEY ? "6 recency" : key.slice(1)));
  const list =
    numbers.length <= 1
      ? (numbers[0] ?? "")
      : `${numbers.slice(0, -1).join(", ")} and ${numbers[numbers.length - 1]}`;
  return `${numbers.length === 1 ? "item" : "items"} ${list}`;
}

/** True when a risk entry carries a screen (at least one key); the narrative uses the same test. */
export function hasCssrs(answers: unknown): answers is CssrsAnswers {
  return (
    typeof answers === "object" &&
    answers !== null &&
    !Array.isArray(answers) &&
    Object.keys(answers).length > 0
  );
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
 * levels, so an incomplete screen makes it at least low. When a screen is recorded, `cssrs` gives
 * its completeness and triage level. Unknown domains or values are ignored, so the function never
 * throws on stored data.
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
  if (!hasCssrs(cssrs)) return { flag, level, labels };
  const triage = triageCssrs(cssrs);
  // An incomplete negative screen raises the level (to low) but not the flag: the flag means a
  // risk finding, and a missing answer is not one.
  if (triage.positive) flag = true;
  level = maxLevel(level, triage.level);
  for (const id of triage.yesItems) {
    const suffix = id === "q6" ? ` (${q6RecencyPhrase(cssrs)})` : "";
    labels.push(`C-SSRS item ${id.slice(1)}: ${CSSRS_ITEM_LABELS[id]}${suffix}`);
  }
  if (!triage.complete) labels.push(incompleteLabel(cssrs, triage));
  return {
    flag,
    level,
    labels,
    cssrs: { complete: triage.complete, missingItems: triage.missingItems, triageLevel: triage.level },
  };
}

/**
 * The label of an incomplete screen: the items not answered and, after a yes to item 2 with items
 * 3-5 unasked, that those are still to ask and why the level is read at least moderate.
 */
function incompleteLabel(answers: CssrsAnswers, triage: CssrsTriage): string {
  const missing = `C-SSRS screen incomplete: ${cssrsItemsPhrase(triage.missingItems)} not answered`;
  const followUps = cssrsUnaskedFollowUps(answers);
  if (followUps.length === 0) return missing;
  return `${missing}; ${cssrsItemsPhrase(followUps)} still to ask after the yes to item 2 (a yes to item 4 or 5 is high risk), read as at least ${CSSRS_UNASKED_FOLLOW_UP_FLOOR} until asked`;
}

/** True when the option is risk-bearing (convenience for callers holding raw values). */
export function isRiskOption(domainKey: string, value: string): boolean {
  return getOption(domainKey, value)?.risk === true;
}
