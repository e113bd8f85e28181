/**
 * The generated tables of the knowledge docs whose tables live outside `@svc/engines` (decision
 * 217): the RxNorm and SNOMED CT codes of `@svc/intelligence` (docs/terminology.md) and the MSE
 * risk option levels of `@svc/mse-catalog` (docs/engines/evidence.md). The engines' generator
 * cannot import those packages (engines depends on none), so these blocks are built here, and
 * `pnpm knowledge:docs` writes them beside the engines' own (`knowledgeDocPages(SERVICE_DOC_BLOCKS)`).
 */

import { RXNORM_INGREDIENTS, SNOMED_FINDINGS } from "@svc/intelligence";
import { CODE_SOURCES, CODES, DOMAINS, RISK_OPTION_EVIDENCE, RISK_OPTION_LEVELS } from "@svc/mse-catalog";
import type { KnowledgeDocBlock } from "../../../packages/engines/src/knowledge/doc-tables.js";
import { constantTable } from "../../../packages/engines/src/knowledge/doc-tables-evidence.js";
import { markdownTable } from "../../../packages/engines/src/knowledge/markdown-table.js";
// @svc/fhir is private and not a dependency of this package: its module is read from source.
import { ehrPatientCodeRows } from "../../../packages/fhir/src/patient-code-evidence.js";

/** A source as markdown text: `<code>` in a citation is a placeholder, not an HTML tag. */
const notHtml = (text: string) => text.replace(/<(?=[a-z/])/gi, "&lt;");

/** docs/terminology.md, "RxNorm ingredients": every verified ingredient code with its source. */
export function rxnormIngredientsBlock(): string {
  return markdownTable(
    ["Key", "RxCUI", "Display", "Source"],
    Object.entries(RXNORM_INGREDIENTS).map(([key, entry]) => [
      key,
      entry.code,
      entry.display,
      notHtml(entry.source),
    ]),
  );
}

/** docs/terminology.md, "SNOMED CT": every verified finding code with its source. */
export function snomedFindingsBlock(): string {
  return markdownTable(
    ["Key", "Code", "Display", "Source"],
    Object.entries(SNOMED_FINDINGS).map(([key, entry]) => [key, entry.code, entry.display, entry.source]),
  );
}

/** The MSE catalog options (`domain.option`) that carry a SNOMED CT code, by code. */
function catalogOptionsByCode(): Map<string, string[]> {
  const byCode = new Map<string, string[]>();
  for (const domain of DOMAINS)
    for (const option of domain.options)
      for (const coding of option.codes)
        byCode.set(coding.code, [...(byCode.get(coding.code) ?? []), `${domain.key}.${option.value}`]);
  return byCode;
}

/** docs/mse.md, "SNOMED CT codes and where each was checked": every catalog code, its options and source. */
export function mseCodesBlock(): string {
  const used = catalogOptionsByCode();
  return markdownTable(
    [
      "code",
      "display (as the source gives it)",
      "used on",
      "checked in (all checked 2026-11-23; stored public copies)",
    ],
    (Object.keys(CODES) as (keyof typeof CODES)[]).map((key) => [
      CODES[key].code,
      CODES[key].display,
      (used.get(CODES[key].code) ?? []).join(", "),
      CODE_SOURCES[key],
    ]),
  );
}

/**
 * docs/terminology.md, "Verification": every SNOMED CT code the service emits, from the
 * intelligence block's findings and the MSE catalog, with where it is emitted; the sources are in
 * the two tables that print each code's own.
 */
export function snomedEmittedBlock(): string {
  const used = catalogOptionsByCode();
  const codes = new Map<string, { display: string; where: string[] }>();
  for (const [key, entry] of Object.entries(SNOMED_FINDINGS))
    codes.set(entry.code, { display: entry.display, where: [`terminology.ts \`${key}\``] });
  for (const coding of Object.values(CODES)) {
    const row = codes.get(coding.code) ?? { display: coding.display, where: [] };
    const options = used.get(coding.code) ?? [];
    if (options.length > 0) row.where.push(`catalog ${options.join(", ")}`);
    codes.set(coding.code, row);
  }
  return markdownTable(
    ["Code", "Name", "Where emitted"],
    [...codes].map(([code, row]) => [code, row.display, row.where.join("; ")]),
  );
}

/** docs/engines/evidence.md, "MSE risk logic": every risk-bearing option's level with its evidence. */
export function mseRiskLevelsBlock(): string {
  const rows = Object.entries(RISK_OPTION_LEVELS).map(([option, level]) => {
    const evidence = RISK_OPTION_EVIDENCE[option];
    if (evidence === undefined) throw new Error(`${option} has no evidence`);
    return [`\`${option}\``, level, evidence.level, evidence.source];
  });
  return markdownTable(["Constant", "Value", "Level", "Source"], rows);
}

/** docs/engines/evidence.md, "EHR patient facts and codes": each code and bound with its evidence. */
export function ehrPatientCodesBlock(): string {
  return constantTable(ehrPatientCodeRows());
}

/** The blocks built here, for `knowledgeDocPages`. */
export const SERVICE_DOC_BLOCKS: readonly KnowledgeDocBlock[] = [
  { file: "terminology.md", name: "rxnorm-ingredients", render: rxnormIngredientsBlock },
  { file: "terminology.md", name: "snomed-findings", render: snomedFindingsBlock },
  { file: "terminology.md", name: "snomed-emitted", render: snomedEmittedBlock },
  { file: "mse.md", name: "mse-snomed-codes", render: mseCodesBlock },
  { file: "engines/evidence.md", name: "mse-risk-levels", render: mseRiskLevelsBlock },
  { file: "engines/evidence.md", name: "ehr-patient-codes", render: ehrPatientCodesBlock },
];
