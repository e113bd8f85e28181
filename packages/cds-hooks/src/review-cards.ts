/**
 * The patient-over-time review's findings as cards (decisions 189 and 203): one card per finding
 * whose level the door table maps to an indicator (`DOOR_LEVELS[level].cds`: low info, moderate
 * warning, high critical; none no card), and every finding that could not be judged as at least
 * the not-assessed indicator (`NOT_ASSESSED_DOORS.cds`), never dropped. The summary is the
 * finding's title; the detail its sentence, the medicines, since when, and its source. Pure: the
 * card context is passed in.
 */
import {
  DOOR_LEVELS,
  higherClinicalLevel,
  levelOfIndicator,
  NOT_ASSESSED_DOORS,
  type PatientFinding,
} from "@svc/engines";
import {
  type CardContext,
  escapeMarkdown,
  type FoundCard,
  foundCard,
  type Indicator,
  type Suggestion,
} from "./cards.js";
import { REVIEW_RULE_IDS, reviewRule } from "./rules.js";

/** The prefix a not-assessed finding's summary carries when its title does not say it already. */
const NOT_EVALUATED = NOT_ASSESSED_DOORS.agent.labelPrefix;

/**
 * The card indicator of a finding, or null for no card: the door table's indicator of its level;
 * a finding that was not assessed is never below the not-assessed indicator.
 */
export function findingIndicator(finding: PatientFinding): Indicator | null {
  if (finding.assessed) return DOOR_LEVELS[finding.level].cds;
  const level = higherClinicalLevel(finding.level, levelOfIndicator(NOT_ASSESSED_DOORS.cds));
  return DOOR_LEVELS[level].cds ?? NOT_ASSESSED_DOORS.cds;
}

/** The rule page a finding's card links to: its part's, or the not-evaluated rule's. */
export function findingRuleId(finding: PatientFinding): string {
  return finding.assessed ? REVIEW_RULE_IDS[finding.kind] : REVIEW_RULE_IDS.notAssessed;
}

function summaryOf(finding: PatientFinding): string {
  if (finding.assessed || /not (evaluated|assessed|judged)/i.test(finding.title)) return finding.title;
  return `${NOT_EVALUATED}${finding.title}`;
}

export interface FindingCardOptions {
  /** Suggestions (a draft order to remove) the card offers. */
  suggestions?: Suggestion[];
  /** Lines naming the orders the finding is about (the order hooks). */
  orderLines?: readonly string[];
}

/** One finding as a card, or null when its level gives no card. */
export function findingCard(
  finding: PatientFinding,
  ctx: CardContext,
  options: FindingCardOptions = {},
): FoundCard | null {
  const indicator = findingIndicator(finding);
  if (indicator === null) return null;
  const medicines = finding.medicines ?? [];
  // The finding's sentences may quote the EHR's medicine names: escaped (decision 144).
  return foundCard(
    {
      rule: reviewRule(findingRuleId(finding)),
      indicator,
      summary: summaryOf(finding),
      detail: [
        escapeMarkdown(finding.detail),
        finding.assessed
          ? null
          : "This rule could not be judged on the data sent; missing data is not a normal result.",
        medicines.length > 0 ? `**Medicines:** ${medicines.map(escapeMarkdown).join(", ")}` : null,
        ...(options.orderLines ?? []),
        finding.since ? `**Since:** ${escapeMarkdown(finding.since.slice(0, 10))}` : null,
        `**Source:** ${escapeMarkdown(finding.source)}`,
      ],
      ...(options.suggestions && options.suggestions.length > 0 ? { suggestions: options.suggestions } : {}),
    },
    ctx,
  );
}

/** Every finding that gives a card, in the review's order (highest level first). */
export function findingCards(findings: readonly PatientFinding[], ctx: CardContext): FoundCard[] {
  return findings.flatMap((finding) => findingCard(finding, ctx) ?? []);
}
