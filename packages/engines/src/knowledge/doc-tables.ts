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
import { instrumentsScoredBlock } from "./doc-tables-instruments.js";
import { relapseRulesBlock, trendRulesBlock } from "./doc-tables-rules.js";
import { INSTRUMENT_IDS, INSTRUMENTS } from "./instruments.js";
import type { DrugSelector } from "./interaction-rules.js";
import { INTERACTION_RULES } from "./interaction-rules.js";
import { markdownTable } from "./markdown-table.js";
import {
  COMBINATION_PRODUCTS,
  CYP_ROLES,
  type CypRoles,
  DRUG_CLASSES,
  INGREDIENTS,
  QT_RISK,
  RXNORM_INGREDIENT_SOURCE,
} from "./medicines.js";
import { RELAPSE_INDICATOR_EVIDENCE_LEVELS, RELAPSE_INDICATORS } from "./relapse-signals.js";

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

/** docs/engines/interactions.md, "QT risk": every ingredient's CredibleMeds category with its source. */
export function qtRiskBlock(): string {
  return markdownTable(
    ["Ingredient", "Category", "Source", "Source read"],
    Object.entries(QT_RISK).map(([ingredient, qt]) => [
      ingredient,
      qt.risk,
      qt.source,
      yesNo(qt.sourceChecked),
    ]),
  );
}

function strengths(roles: CypRoles["inhibitor"]): string {
  return Object.entries(roles ?? {})
    .map(([enzyme, strength]) => `${enzyme} ${strength}`)
    .join(", ");
}

/** docs/engines/interactions.md, "CYP roles": every ingredient's roles with its source. */
export function cypRolesBlock(): string {
  return markdownTable(
    ["Ingredient", "Inhibitor", "Inducer", "Substrate of", "Source"],
    Object.entries(CYP_ROLES).map(([ingredient, roles]) => [
      ingredient,
      strengths(roles.inhibitor),
      strengths(roles.inducer),
      (roles.substrate ?? []).join(", "),
      roles.source,
    ]),
  );
}

/** docs/engines/interactions.md, "Classes": every class with the ingredients that hold it. */
export function drugClassesBlock(): string {
  const rows = DRUG_CLASSES.map((drugClass) => [
    `\`${drugClass}\``,
    INGREDIENTS.filter((item) => item.classes.includes(drugClass))
      .map((item) => item.ingredient)
      .join(", "),
  ]);
  // The route class is held by no ingredient: an entry's route gives it (decision 71).
  const route = [
    "`topical_nsaid`",
    "(route class) any NSAID entered as gel, cream, ointment, patch and the like, or as Pennsaid or Flector (decision 71)",
  ];
  return markdownTable(["Class", "Ingredients"], [...rows, route]);
}

/** What an indicator's review thresholds say, as the page writes them. */
function reviewText(review: { immediate?: number; clinician?: number } | undefined): string {
  if (!review) return "—";
  const cut = (value: number) => (value === 0 ? "> 0" : `≥ ${value}`);
  return [
    ...(review.immediate === undefined ? [] : [`immediate ${cut(review.immediate)}`]),
    ...(review.clinician === undefined ? [] : [`clinician ${cut(review.clinician)}`]),
  ].join("; ");
}

/** docs/engines/relapse-signals.md, "Indicators": every indicator, then the sum of the weights. */
export function relapseIndicatorsBlock(): string {
  const total = RELAPSE_INDICATORS.reduce((sum, i) => sum + i.weight, 0);
  const table = markdownTable(
    ["Key", "Label", "Weight", "Review", "Aliases", "Evidence level"],
    RELAPSE_INDICATORS.map((i) => [
      `\`${i.indicator}\``,
      i.label,
      i.weight.toFixed(1),
      reviewText(i.review),
      i.aliases.map((alias) => `\`${alias}\``).join(", "),
      RELAPSE_INDICATOR_EVIDENCE_LEVELS[i.indicator] ?? "",
    ]),
  );
  return `${table}\n\nSum of weights: ${Math.round(total * 10) / 10} (${RELAPSE_INDICATORS.length} indicators).`;
}

/** docs/terminology.md, "LOINC": every verified instrument code, total then panel. */
export function instrumentLoincBlock(): string {
  const rows = INSTRUMENT_IDS.flatMap((id) => {
    const loinc = INSTRUMENTS[id].loinc;
    if (loinc === undefined) return [];
    const parts = [
      ["total", loinc.total] as const,
      ...(loinc.panel ? [["panel", loinc.panel] as const] : []),
    ];
    return parts.map(([part, code]) => [`${id}.${part}`, code.code, code.display, code.source]);
  });
  return markdownTable(["Key", "Code", "Display", "Source"], rows);
}

/** Every generated block of the knowledge docs. */
export const KNOWLEDGE_DOC_BLOCKS: readonly KnowledgeDocBlock[] = [
  { file: "engines/interactions.md", name: "combination-products", render: combinationProductsBlock },
  { file: "engines/interactions.md", name: "interaction-rules", render: interactionRulesBlock },
  { file: "engines/interactions.md", name: "rxnorm-codes", render: rxnormCodesBlock },
  { file: "engines/interactions.md", name: "qt-risk", render: qtRiskBlock },
  { file: "engines/interactions.md", name: "cyp-roles", render: cypRolesBlock },
  { file: "engines/interactions.md", name: "drug-classes", render: drugClassesBlock },
  { file: "engines/relapse-signals.md", name: "relapse-indicators", render: relapseIndicatorsBlock },
  { file: "terminology.md", name: "instrument-loinc", render: instrumentLoincBlock },
  { file: "engines/evidence.md", name: "instruments", render: instrumentsEvidenceBlock },
  { file: "engines/instruments.md", name: "instruments-scored", render: instrumentsScoredBlock },
  ...Object.entries(ENGINE_PARAMETER_TABLES).map(([name, rows]) => ({
    file: "engines/evidence.md",
    name,
    render: () => constantTable(rows()),
  })),
  { file: "engines/evidence.md", name: "analytes", render: analytesEvidenceBlock },
  { file: "engines/evidence.md", name: "patient-factors", render: patientFactorsEvidenceBlock },
  { file: "engines/evidence.md", name: "monitoring-schedules", render: monitoringEvidenceBlock },
  { file: "engines/evidence.md", name: "trend-rules", render: trendRulesBlock },
  { file: "engines/evidence.md", name: "relapse-signal-rules", render: relapseRulesBlock },
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

/**
 * Each page under docs/ with generated blocks, and the blocks it holds, rendered now: the engines'
 * own, then `more` (the blocks built from packages the engines cannot import, decision 217).
 */
export function knowledgeDocPages(
  more: readonly KnowledgeDocBlock[] = [],
): Map<string, Record<string, string>> {
  const pages = new Map<string, Record<string, string>>();
  for (const block of [...KNOWLEDGE_DOC_BLOCKS, ...more]) {
    const blocks = pages.get(block.file) ?? {};
    blocks[block.name] = block.render();
    pages.set(block.file, blocks);
  }
  return pages;
}
