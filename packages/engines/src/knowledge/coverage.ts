/**
 * The medicine coverage table (docs/engines/medicine-coverage.md), generated from the model so it
 * cannot drift from it (decision 175): per property, how many ingredients have it known; per WHO
 * ATC group of the psychotropic scope, which ingredients are covered; every QT category and label
 * dose limit with its source; one row per ingredient. Written by `pnpm knowledge:coverage`; a test
 * fails when the committed file differs.
 */
import {
  MEDICINE_PROPERTIES,
  type MedicineProperties,
  MOIETY_LINKS,
  PROPERTY_LABELS,
  PROPERTY_SOURCES,
  type PropertyName,
  propertiesOf,
} from "./medicine-properties.js";
import { COMBINATION_PRODUCTS, CYP_ROLES, DAILY_DOSE_LIMITS, INGREDIENTS, QT_RISK } from "./medicines.js";

/** The WHO ATC groups of the psychotropic scope (decision 172). */
export const ATC_SCOPE: Readonly<Record<string, string>> = {
  N05A: "Antipsychotics",
  N05B: "Anxiolytics",
  N05C: "Hypnotics and sedatives",
  N06A: "Antidepressants",
  N06B: "Psychostimulants, agents for ADHD and nootropics",
  N03A: "Antiepileptics",
  N07B: "Drugs used in addictive disorders",
};

function known(props: MedicineProperties, property: PropertyName): boolean {
  switch (property) {
    case "qt":
      return QT_RISK[props.ingredient] !== undefined;
    case "atc":
      return props.atc !== undefined && /^[A-Z]\d\d[A-Z][A-Z]\d\d$/.test(props.atc);
    default:
      return props[property] !== undefined;
  }
}

/** Per property: how many ingredients of the model have it known (QT: a category recorded). */
export function propertyCounts(): { property: PropertyName; known: number; total: number }[] {
  const all = INGREDIENTS.map((item) => propertiesOf(item.ingredient));
  return (Object.keys(PROPERTY_LABELS) as PropertyName[]).map((property) => ({
    property,
    known: all.filter((props) => known(props, property)).length,
    total: all.length,
  }));
}

/** Per ATC group of the scope: the ingredients of the model whose ATC code is in it. */
export function atcGroupCoverage(): { group: string; name: string; ingredients: string[] }[] {
  return Object.entries(ATC_SCOPE).map(([group, name]) => ({
    group,
    name,
    ingredients: INGREDIENTS.map((item) => item.ingredient)
      .filter((ingredient) => MEDICINE_PROPERTIES.get(ingredient)?.atc?.startsWith(group))
      .sort(),
  }));
}

function yesNo(value: boolean | undefined): string {
  return value === undefined ? "?" : value ? "yes" : "no";
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|");
}

function ingredientRow(ingredient: string): string {
  const props = propertiesOf(ingredient);
  const entry = INGREDIENTS.find((item) => item.ingredient === ingredient);
  const roles = CYP_ROLES[ingredient];
  const perpetrator = [
    ...Object.entries(roles?.inhibitor ?? {}).map(([enzyme, strength]) => `${strength} ${enzyme} inhibitor`),
    ...Object.entries(roles?.inducer ?? {}).map(([enzyme, strength]) => `${strength} ${enzyme} inducer`),
  ].join(", ");
  const limit = DAILY_DOSE_LIMITS[ingredient];
  const dose =
    limit === undefined
      ? "?"
      : `${limit.maxDailyMg}${limit.reduced ? ` (${limit.reduced.maxDailyMg} over ${limit.reduced.aboveAgeYears})` : ""}`;
  const cells = [
    ingredient,
    props.atc ?? "?",
    props.subclass === undefined ? "?" : (props.subclass ?? "-"),
    yesNo(props.serotonergic),
    QT_RISK[ingredient]?.risk ?? "?",
    yesNo(props.cnsDepressant),
    props.acb === undefined ? "?" : String(props.acb),
    props.cypSubstrate === undefined
      ? "?"
      : props.cypSubstrate.length === 0
        ? "none"
        : props.cypSubstrate.join(", "),
    perpetrator === "" ? "-" : perpetrator,
    yesNo(props.narrowTherapeuticIndex),
    yesNo(props.teratogenic),
    yesNo(props.renal),
    dose,
    (entry?.brands ?? []).join(", "),
  ];
  return `| ${cells.map(cell).join(" | ")} |`;
}

/** The whole markdown document. */
export function medicineCoverageMarkdown(): string {
  const lines: string[] = [
    "# Medicine coverage",
    "",
    'Generated from `packages/engines/src/knowledge/` by `pnpm knowledge:coverage` (decision 175); do not edit by hand. A test fails when this file differs from the model. `?` is unknown: a rule that needs an unknown property says "not evaluated" (decision 173).',
    "",
    "## Properties known",
    "",
    "| Property | Ingredients with it known | Of | Source (unless the row names another) |",
    "| --- | --- | --- | --- |",
    ...propertyCounts().map(
      ({ property, known: count, total }) =>
        `| ${PROPERTY_LABELS[property]} | ${count} | ${total} | ${cell(PROPERTY_SOURCES[property])} |`,
    ),
    `| label maximum daily dose | ${Object.keys(DAILY_DOSE_LIMITS).length} | ${INGREDIENTS.length} | DAILY_DOSE_LIMITS (below) |`,
    `| active metabolite, prodrug or enantiomer pairs | ${MOIETY_LINKS.length} pairs | | MOIETY_LINKS (below) |`,
    "",
    `Ingredients in the model: ${INGREDIENTS.length}; combination products: ${COMBINATION_PRODUCTS.length}.`,
    "",
    "## WHO ATC groups of the psychotropic scope",
    "",
    "| Group | Name | Ingredients covered | Count |",
    "| --- | --- | --- | --- |",
    ...atcGroupCoverage().map(
      ({ group, name, ingredients }) =>
        `| ${group} | ${name} | ${ingredients.join(", ")} | ${ingredients.length} |`,
    ),
    "",
    "## QT categories",
    "",
    "| Ingredient | Category | Source | Source checked |",
    "| --- | --- | --- | --- |",
    ...Object.entries(QT_RISK).map(
      ([ingredient, qt]) =>
        `| ${ingredient} | ${qt.risk} | ${cell(qt.source)} | ${qt.sourceChecked ? "yes" : "no"} |`,
    ),
    "",
    "## Label maximum daily doses (mg)",
    "",
    "| Ingredient | Adult maximum | Lower maximum | Applies above age | Source | Source checked |",
    "| --- | --- | --- | --- | --- | --- |",
    ...Object.entries(DAILY_DOSE_LIMITS).map(
      ([ingredient, limit]) =>
        `| ${ingredient} | ${limit.maxDailyMg} | ${limit.reduced?.maxDailyMg ?? "-"} | ${limit.reduced?.aboveAgeYears ?? "-"} | ${cell(limit.source)} | ${limit.sourceChecked ? "yes" : "no"} |`,
    ),
    "",
    "## One active moiety (duplicate therapy)",
    "",
    "| Parent | Other | Relation | Source |",
    "| --- | --- | --- | --- |",
    ...MOIETY_LINKS.map(
      (link) => `| ${link.parent} | ${link.other} | ${link.relation} | ${cell(link.source)} |`,
    ),
    "",
    "## Every ingredient",
    "",
    "Sub = duplicate-therapy subclass (`-` none); 5-HT = serotonergic; CNS = CNS depressant; ACB = Anticholinergic Cognitive Burden score; CYP = enzymes that clear it; NTI = narrow therapeutic index; Terat. = teratogenic; Renal = mainly renally eliminated; Max = label maximum mg/day (lower maximum over the age given).",
    "",
    "| Ingredient | ATC | Sub | 5-HT | QT | CNS | ACB | CYP | Inhibits / induces | NTI | Terat. | Renal | Max | Brands |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...INGREDIENTS.map((item) => item.ingredient)
      .sort()
      .map(ingredientRow),
    "",
  ];
  return lines.join("\n");
}
