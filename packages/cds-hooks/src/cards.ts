/**
 * Card rules in one place (CDS Hooks 2.0.1, "Card Attributes"): `summary` under 140 characters
 * (clipped on a code-point boundary, never inside a surrogate pair), `indicator` info | warning |
 * critical, `source` with a label and our rule page, a `uuid`, markdown `detail`, and no null,
 * undefined or empty string, array or object anywhere (optional fields are omitted).
 * `selectionBehavior` is always set when `suggestions` is.
 */
import { type CdsRule, ruleUrl } from "./rules.js";

export type Indicator = "info" | "warning" | "critical";

export interface Coding {
  system: string;
  code: string;
  display: string;
}

export interface CardAction {
  type: "create" | "update" | "delete";
  description: string;
  resourceId?: string;
  resource?: Record<string, unknown>;
}

export interface Suggestion {
  label: string;
  uuid: string;
  isRecommended?: boolean;
  actions: CardAction[];
}

export interface CardLink {
  label: string;
  url: string;
  type: "absolute" | "smart";
}

export interface Card {
  uuid: string;
  summary: string;
  detail?: string;
  indicator: Indicator;
  source: { label: string; url: string; topic?: Coding };
  suggestions?: Suggestion[];
  selectionBehavior?: "at-most-one" | "any";
  overrideReasons?: Coding[];
  links?: CardLink[];
}

/** The summary limit: "<140-character" (CDS Hooks 2.0.1), counted in UTF-16 units to be safe everywhere. */
export const SUMMARY_MAX = 139;
const ELLIPSIS = "…";

/**
 * Text of at most `max` UTF-16 units with its whitespace collapsed: longer text is cut at a
 * code-point boundary (never inside a surrogate pair) and ends with an ellipsis.
 */
export function clipText(text: string, max: number): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  let out = "";
  for (const ch of clean) {
    if (out.length + ch.length > max - ELLIPSIS.length) break;
    out += ch;
  }
  return `${out.trimEnd()}${ELLIPSIS}`;
}

/** A summary of at most SUMMARY_MAX UTF-16 units (clipText). */
export function clipSummary(text: string): string {
  return clipText(text, SUMMARY_MAX);
}

/**
 * Text that is not ours (from the EHR, or an engine's sentence that may quote it), made inert for
 * a card's markdown `detail` (GitHub Flavored Markdown, decision 144): whitespace is collapsed to
 * single spaces, so it cannot start a block (a heading, a list, an indented code block) or break
 * a line, and every ASCII punctuation character is backslash-escaped, which CommonMark allows for
 * each of them and renders as the character itself. Without its punctuation no construct can
 * start: no emphasis, code, link, image, HTML, entity, table or autolink (`www.`, `http:`, an
 * address with `@` each need a `.`, `:` or `@`). The text reads as written.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}

/**
 * Removes null, undefined, empty strings (after trimming), empty arrays and empty objects,
 * recursively; strings are kept as they are otherwise.
 */
export function pruneEmpty<T>(value: T): T | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string") return value.trim() === "" ? undefined : value;
  if (Array.isArray(value)) {
    const items = value.map((item) => pruneEmpty(item)).filter((item) => item !== undefined);
    return (items.length === 0 ? undefined : items) as T | undefined;
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => [k, pruneEmpty(v)] as const)
      .filter(([, v]) => v !== undefined);
    return (entries.length === 0 ? undefined : Object.fromEntries(entries)) as T | undefined;
  }
  if (typeof value === "number" && !Number.isFinite(value)) return undefined;
  return value;
}

/** Whether a JSON value holds no null, undefined, empty string, array or object anywhere. */
export function isCleanJson(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.length > 0 && value.every(isCleanJson);
  if (typeof value === "object") {
    const entries = Object.values(value as Record<string, unknown>);
    return entries.length > 0 && entries.every(isCleanJson);
  }
  return true;
}

export interface CardInput {
  rule: CdsRule;
  summary: string;
  indicator: Indicator;
  /** Markdown lines; empty ones are dropped. */
  detail: readonly (string | null | undefined)[];
  suggestions?: Suggestion[];
  overrideReasons?: Coding[];
}

export interface CardContext {
  baseUrl: string;
  uuid: () => string;
  /** Engine line appended to every detail ("Engine: relapse, version default"). */
  engineLine?: string;
}

/** A card from its parts, with every card rule applied. */
export function buildCard(input: CardInput, ctx: CardContext): Card {
  const url = ruleUrl(ctx.baseUrl, input.rule.id);
  const detail = [...input.detail, ctx.engineLine, `Rule: [${input.rule.title}](${url}) (source attributes).`]
    .filter((line): line is string => typeof line === "string" && line.trim() !== "")
    .join("\n\n");
  const suggestions = pruneEmpty(input.suggestions);
  const card: Card = {
    uuid: ctx.uuid(),
    summary: clipSummary(input.summary) || clipSummary(input.rule.title),
    detail,
    indicator: input.indicator,
    source: { label: clipSummary(`Clinical Intelligence Service: ${input.rule.title}`), url },
    ...(suggestions ? { suggestions, selectionBehavior: "at-most-one" as const } : {}),
    ...(input.overrideReasons ? { overrideReasons: input.overrideReasons } : {}),
    links: [{ label: "Rule source attributes (citation, evidence, version)", url, type: "absolute" }],
  };
  return pruneEmpty(card) as Card;
}

/**
 * A card as a service found it: the JSON the EHR gets, and the rule it comes from, carried
 * beside it so the bound on cards, the log and the rules count never read a rule id back out of
 * the card's URL.
 */
export interface FoundCard {
  card: Card;
  rule: CdsRule;
}

/** `buildCard`, keeping the card's rule with it. */
export function foundCard(input: CardInput, ctx: CardContext): FoundCard {
  return { card: buildCard(input, ctx), rule: input.rule };
}
