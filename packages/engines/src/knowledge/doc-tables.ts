/**
 * The tabular parts of the knowledge docs, generated from the tables so a page cannot drift from
 * the code (as docs/engines/medicine-coverage.md, decision 175). Each block sits in its page
 * between `<!-- generated:begin <name> -->` and `<!-- generated:end -->`; the prose around it stays
 * hand-written. `pnpm knowledge:docs` writes the blocks, `pnpm knowledge:docs:check` and a test
 * fail when a committed block differs from what the tables give now.
 */

import {
  analytesEvidenceBlock,
  constantTable,
  ENGINE_PARAMETER_TABLES,
  instrumentsEvidenceBlock,
  monitoringEvidenceBlock,
  patientFactorsEvidenceBlock,
} from "./doc-tables-evidence.js";
import type { DrugSelector } from "./interaction-rules.js";
import { INTERACTION_RULES } from "./interaction-rules.js";
import { markdownTable } from "./markdown-table.js";
import { COMBINATION_PRODUCTS, INGREDIENTS, RXNORM_INGREDIENT_SOURCE } from "./medicines.js";

/** One generated block: the page it lives in (under docs/), its name and its text. */
export interface KnowledgeDocBlock {
  /** Path under docs/, e.g. "engines/interactions.md". */
  file: string;
  name: string;
  render: () => string;
}

const yesNo = (value: boolean) => (value ? "yes" : "no");

/** A rule's side as the page writes it: classes in brackets, then ingredients by name. */
function sideText(side: DrugSelector): string {
  return [...(side.classes ?? []).map((c) => `[${c}]`), ...(side.ingredients ?? [])].join(", ");
}

/** docs/engines/interactions.md, "Rules": every explicit rule with its source. */
export function interactionRulesBlock(): string {
  return [
    `${INTERACTION_RULES.length} rules. Sides list classes in brackets and ingredients by name. "Source read" is yes when the cited source, or a faithful public copy of it, was read during this task (see "Sources checked").`,
    "",
    markdownTable(
      ["Id", "Side A", "Side B", "Severity", "Mechanism", "Recommendation", "Source", "Source read"],
      INTERACTION_RULES.map((rule) => [
        `\`${rule.id}\``,
        sideText(rule.a),
        sideText(rule.b),
        rule.severity,
        rule.mechanism,
        rule.recommendation,
        rule.source,
        yesNo(rule.sourceChecked),
      ]),
    ),
  ].join("\n");
}

/** docs/engines/interactions.md, "Combination products": every product with its ingredients. */
export function combinationProductsBlock(): string {
  return markdownTable(
    ["Names", "Ingredients", "Source", "Label read"],
    COMBINATION_PRODUCTS.map((product) => [
      product.names.join(", "),
      product.ingredients.join(" + "),
      product.source,
      yesNo(product.sourceChecked),
    ]),
  );
}

/** docs/engines/interactions.md, "RxNorm ingredient codes": every verified code, by ingredient. */
export function rxnormCodesBlock(): string {
  const coded = INGREDIENTS.filter((item) => item.rxcui !== null)
    .map((item) => ({ ingredient: item.ingredient, rxcui: item.rxcui as string }))
    .sort((a, b) => a.ingredient.localeCompare(b.ingredient));
  return markdownTable(
    ["Ingredient", "RxCUI", "Source"],
    coded.map((item) => [item.ingredient, item.rxcui, RXNORM_INGREDIENT_SOURCE]),
  );
}

/** Every generated block of the knowledge docs. */
export const KNOWLEDGE_DOC_BLOCKS: readonly KnowledgeDocBlock[] = [
  { file: "engines/interactions.md", name: "combination-products", render: combinationProductsBlock },
  { file: "engines/interactions.md", name: "interaction-rules", render: interactionRulesBlock },
  { file: "engines/interactions.md", name: "rxnorm-codes", render: rxnormCodesBlock },
  { file: "engines/evidence.md", name: "instruments", render: instrumentsEvidenceBlock },
  ...Object.entries(ENGINE_PARAMETER_TABLES).map(([name, rows]) => ({
    file: "engines/evidence.md",
    name,
    render: () => constantTable(rows()),
  })),
  { file: "engines/evidence.md", name: "analytes", render: analytesEvidenceBlock },
  { file: "engines/evidence.md", name: "patient-factors", render: patientFactorsEvidenceBlock },
  { file: "engines/evidence.md", name: "monitoring-schedules", render: monitoringEvidenceBlock },
];

const END = "<!-- generated:end -->";
const begin = (name: string) => `<!-- generated:begin ${name} -->`;

/**
 * The page with each named block's text replaced by `blocks[name]`. Throws when a block's markers
 * are missing, so a renamed or deleted marker fails loudly instead of leaving a stale table.
 */
export function fillGeneratedBlocks(page: string, blocks: Readonly<Record<string, string>>): string {
  let out = page;
  for (const [name, text] of Object.entries(blocks)) {
    const start = out.indexOf(begin(name));
    if (start === -1) throw new Error(`no "${begin(name)}" marker`);
    const from = start + begin(name).length;
    const end = out.indexOf(END, from);
    if (end === -1) throw new Error(`no "${END}" after "${begin(name)}"`);
    out = `${out.slice(0, from)}\n${text}\n${out.slice(end)}`;
  }
  return out;
}

/**
 * A page as compared for staleness: table cells without their padding and divider rows as `---`,
 * so the formatter's column alignment (biome formats markdown) is not a difference.
 */
export function comparableDocText(page: string): string {
  return page
    .split("\n")
    .map((line) => (line.startsWith("|") ? line.replace(/ {2,}/g, " ").replace(/-{3,}/g, "---") : line))
    .join("\n");
}

/** True when every generated block of the page is what the tables give now. */
export function generatedBlocksCurrent(page: string, blocks: Readonly<Record<string, string>>): boolean {
  return comparableDocText(fillGeneratedBlocks(page, blocks)) === comparableDocText(page);
}

/** Each page under docs/ with generated blocks, and the blocks it holds, rendered now. */
export function knowledgeDocPages(): Map<string, Record<string, string>> {
  const pages = new Map<string, Record<string, string>>();
  for (const block of KNOWLEDGE_DOC_BLOCKS) {
    const blocks = pages.get(block.file) ?? {};
    blocks[block.name] = block.render();
    pages.set(block.file, blocks);
  }
  return pages;
}
