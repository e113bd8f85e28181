/** Cards shared by every service: what could not be read, said as such. */
import type { NotUsed } from "@svc/fhir";
import { clipText, escapeMarkdown, type FoundCard, foundCard } from "./cards.js";
import { NOT_USED_LINE_SHOWN } from "./limits.js";
import type { CdsRule } from "./rules.js";
import { cardContext, type RunContext } from "./run-context.js";

/** At most this many unread resources are listed one by one on a card. */
export const NOT_USED_LISTED = 20;

/**
 * One markdown line per resource not used (the first NOT_USED_LISTED), then a count of the rest.
 * Each line quotes the EHR (an id, a status): cut to NOT_USED_LINE_SHOWN and escaped.
 */
export function notUsedLines(notUsed: readonly NotUsed[]): string[] {
  if (notUsed.length === 0) return [];
  const lines = notUsed
    .slice(0, NOT_USED_LISTED)
    .map(
      (item) =>
        `- ${escapeMarkdown(clipText(item.detail, NOT_USED_LINE_SHOWN))} (${item.reason.replaceAll("_", " ")})`,
    );
  if (notUsed.length > NOT_USED_LISTED) lines.push(`- and ${notUsed.length - NOT_USED_LISTED} more.`);
  return [`**Not used (${notUsed.length}):**\n${lines.join("\n")}`];
}

/** An info card that names missing or unreadable data; never reads as reassurance. */
export function insufficientDataCard(
  rule: CdsRule,
  summary: string,
  lines: readonly string[],
  ctx: RunContext,
): FoundCard {
  return foundCard(
    {
      rule,
      indicator: "info",
      summary,
      detail: [
        ...lines,
        "Missing or unreadable data is not a normal result; no conclusion is drawn from it.",
      ],
    },
    cardContext(ctx),
  );
}
