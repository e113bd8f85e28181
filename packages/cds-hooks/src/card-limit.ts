/**
 * The one bound on cards per answer, for every service (decision 143): the cards are ordered by
 * severity (critical, warning, then the info cards that say data could not be read or checked,
 * then other info cards; each group in the order the service gave), and when there are more than
 * MAX_CARDS the first MAX_CARDS - 1 are kept and a closing card says how many were left out, of
 * which severities and rules. A lesser card is never kept in place of a more severe one.
 */
import { type FoundCard, foundCard, type Indicator } from "./cards.js";
import { MAX_CARDS } from "./limits.js";
import { CARDS_NOT_SHOWN_RULE } from "./rules.js";
import { cardContext, type RunContext } from "./run-context.js";

const INDICATOR_RANK: Readonly<Record<Indicator, number>> = { critical: 0, warning: 1, info: 2 };

/** Info cards saying that data was missing, unread or unchecked come before other info cards. */
function rankOf({ card, rule }: FoundCard): number {
  const rank = INDICATOR_RANK[card.indicator];
  if (card.indicator !== "info") return rank;
  return rule.kind === "data" || rule.kind === "monitoring" ? rank : rank + 1;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function notShownCard(left: readonly FoundCard[], total: number, ctx: RunContext): FoundCard {
  const count = (indicator: Indicator) => left.filter((c) => c.card.indicator === indicator).length;
  const byRule = new Map<string, { title: string; n: number }>();
  for (const { rule } of left)
    byRule.set(rule.id, { title: rule.title, n: (byRule.get(rule.id)?.n ?? 0) + 1 });
  const ruleLines = [...byRule.values()].map(({ title, n }) => `- ${title}: ${plural(n, "card")}`);
  const worst = (left[0]?.card.indicator ?? "info") as Indicator;
  return foundCard(
    {
      rule: CARDS_NOT_SHOWN_RULE,
      indicator: worst,
      summary: `${plural(left.length, "more card")} not shown (at most ${MAX_CARDS} per answer); review the patient's record`,
      detail: [
        `The service found ${total} cards; this answer carries ${MAX_CARDS - 1} of them, the most severe first. Not shown: ${count("critical")} critical, ${count("warning")} warning, ${count("info")} info.`,
        ruleLines.join("\n"),
        "The cards not shown were found, not dismissed: review the patient's orders and results in the EHR.",
      ],
    },
    cardContext(ctx),
  );
}

/** At most MAX_CARDS cards, the most severe first, closed by an "and N more" card when cut. */
export function limitCards(
  cards: readonly FoundCard[],
  ctx: RunContext,
): { cards: FoundCard[]; omitted: number } {
  const ordered = cards
    .map((found, index) => ({ found, index, rank: rankOf(found) }))
    .sort((x, y) => x.rank - y.rank || x.index - y.index)
    .map((item) => item.found);
  if (ordered.length <= MAX_CARDS) return { cards: ordered, omitted: 0 };
  const kept = ordered.slice(0, MAX_CARDS - 1);
  const left = ordered.slice(MAX_CARDS - 1);
  return { cards: [...kept, notShownCard(left, ordered.length, ctx)], omitted: left.length };
}
