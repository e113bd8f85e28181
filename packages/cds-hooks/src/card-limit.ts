/**
 * The one bound on cards per answer, for every service (decision 143): the cards are ordered by
 * severity (critical, warning, then the info cards that say data could not be read or checked,
 * then other info cards; each group in the order the service gave), and when there are more than
 * MAX_CARDS the first MAX_CARDS - 1 are kept and a closing card says how many were left out, of
 * which severities and rules. A lesser card is never kept in place of a more severe one.
 */
import { buildCard, type Card, type Indicator } from "./cards.js";
import { MAX_CARDS } from "./limits.js";
import { type CdsRule, requireRule, ruleById } from "./rules.js";
import { cardContext, type RunContext } from "./run-context.js";

/** The rule id a card's `source.url` names (`<base>/cds-rules/<id>`). */
export function ruleIdOf(card: Card): string {
  return decodeURIComponent(card.source.url.slice(card.source.url.lastIndexOf("/") + 1));
}

const INDICATOR_RANK: Readonly<Record<Indicator, number>> = { critical: 0, warning: 1, info: 2 };

/** Info cards saying that data was missing, unread or unchecked come before other info cards. */
function rankOf(card: Card): number {
  const rank = INDICATOR_RANK[card.indicator];
  if (card.indicator !== "info") return rank;
  const kind = ruleById(ruleIdOf(card))?.kind;
  return kind === "data" || kind === "monitoring" ? rank : rank + 1;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function notShownCard(left: readonly Card[], total: number, ctx: RunContext): Card {
  const count = (indicator: Indicator) => left.filter((c) => c.indicator === indicator).length;
  const byRule = new Map<string, number>();
  for (const card of left) byRule.set(ruleIdOf(card), (byRule.get(ruleIdOf(card)) ?? 0) + 1);
  const ruleLines = [...byRule].map(([id, n]) => `- ${ruleById(id)?.title ?? id}: ${plural(n, "card")}`);
  const rule: CdsRule = requireRule("cards-not-shown");
  const worst = (left[0]?.indicator ?? "info") as Indicator;
  return buildCard(
    {
      rule,
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
export function limitCards(cards: readonly Card[], ctx: RunContext): { cards: Card[]; omitted: number } {
  const ordered = cards
    .map((card, index) => ({ card, index, rank: rankOf(card) }))
    .sort((x, y) => x.rank - y.rank || x.index - y.index)
    .map((item) => item.card);
  if (ordered.length <= MAX_CARDS) return { cards: ordered, omitted: 0 };
  const kept = ordered.slice(0, MAX_CARDS - 1);
  const left = ordered.slice(MAX_CARDS - 1);
  return { cards: [...kept, notShownCard(left, ordered.length, ctx)], omitted: left.length };
}
