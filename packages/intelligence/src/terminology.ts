/**
 * Verified terminology tables for decision-support output.
 *
 * Policy: a code appears here only if it was seen in a public source that pairs the exact code
 * with the concept name (see docs/terminology.md for the full provenance and the list of concepts
 * that were deliberately left unmapped). If a concept is not in these tables, emit no code for it.
 *
 * Pure module: no I/O; the instrument LOINC codes are read from the engines' instrument table.
 */
import { INSTRUMENTS } from "@svc/engines";
import type { CODE_SYSTEMS } from "./types.js";

export interface TerminologyEntry {
  /** Code in the table's system (digits only for RxNorm, LOINC without check-digit split, SNOMED). */
  code: string;
  /** Display name as given by the cited source. */
  display: string;
  /** Short citation of where the code/name pairing was verified. */
  source: string;
}

export type RxNormEntry = TerminologyEntry;
export type LoincEntry = TerminologyEntry;
export type SnomedEntry = TerminologyEntry;

/** System URIs, typed against `CODE_SYSTEMS` so a drift fails type-checking. */
export const RXNORM_SYSTEM: (typeof CODE_SYSTEMS)["rxnorm"] = "http://www.nlm.nih.gov/research/umls/rxnorm";
export const LOINC_SYSTEM: (typeof CODE_SYSTEMS)["loinc"] = "http://loinc.org";
export const SNOMED_SYSTEM: (typeof CODE_SYSTEMS)["snomed"] = "http://snomed.info/sct";

const CPIC = "CPIC drug table (github.com/cpicpgx/cpic-schema drug.sql, 'RxNorm:<code>\\t<name>')";

/**
 * RxNorm ingredient (TTY=IN) RxCUIs keyed by lowercase ingredient name.
 * Deliberately absent (unverified): lithium / lithium carbonate, quetiapine, lorazepam, clonazepam,
 * trazodone, zolpidem, divalproex. See docs/terminology.md.
 */
export const RXNORM_INGREDIENTS: Readonly<Record<string, RxNormEntry>> = {
  sertraline: { code: "36437", display: "sertraline", source: CPIC },
  fluoxetine: { code: "4493", display: "fluoxetine", source: CPIC },
  paroxetine: { code: "32937", display: "paroxetine", source: CPIC },
  citalopram: { code: "2556", display: "citalopram", source: CPIC },
  escitalopram: { code: "321988", display: "escitalopram", source: CPIC },
  venlafaxine: { code: "39786", display: "venlafaxine", source: CPIC },
  duloxetine: { code: "72625", display: "duloxetine", source: CPIC },
  bupropion: { code: "42347", display: "bupropion", source: CPIC },
  mirtazapine: { code: "15996", display: "mirtazapine", source: CPIC },
  clozapine: { code: "2626", display: "clozapine", source: CPIC },
  olanzapine: { code: "61381", display: "olanzapine", source: CPIC },
  risperidone: { code: "35636", display: "risperidone", source: CPIC },
  aripiprazole: { code: "89013", display: "aripiprazole", source: CPIC },
  haloperidol: { code: "5093", display: "haloperidol", source: CPIC },
  lamotrigine: { code: "28439", display: "lamotrigine", source: CPIC },
  "valproic acid": { code: "11118", display: "valproic acid", source: CPIC },
  carbamazepine: { code: "2002", display: "carbamazepine", source: CPIC },
  oxcarbazepine: { code: "32624", display: "oxcarbazepine", source: CPIC },
  methylphenidate: { code: "6901", display: "methylphenidate", source: CPIC },
};

/**
 * Alternative names -> key in RXNORM_INGREDIENTS. Only mappings a source supports are listed;
 * none were verified (CPIC lists divalproex sodium as a separate concept, so it is NOT mapped to
 * valproic acid), hence the map is intentionally empty. Brand names are never added unverified.
 */
export const RXNORM_SYNONYMS: Readonly<Record<string, string>> = {};

/**
 * LOINC codes for instrument total scores and panels: a view of the engines' instrument table
 * (`INSTRUMENTS[id].loinc`), where each verified code is written once with its source.
 */
export const LOINC_INSTRUMENTS = {
  phq9: INSTRUMENTS.phq9.loinc as { total: LoincEntry; panel: LoincEntry },
  gad7: INSTRUMENTS.gad7.loinc as { total: LoincEntry },
  audit: INSTRUMENTS.audit.loinc as { total: LoincEntry },
} as const satisfies Record<string, Record<string, LoincEntry>>;

/**
 * SNOMED CT clinical findings keyed by snake_case concept key. Re-verified 2026-11-23 (sources in
 * docs/terminology.md, "Verification (2026-11-23)").
 * Deliberately absent (unverified): psychomotor retardation/agitation, slow/pressured speech,
 * poor concentration, at risk for suicide, relapse, improving, worsening, sleep deprivation,
 * adverse reaction to drug, auditory hallucinations. See docs/terminology.md.
 */
export const SNOMED_FINDINGS = {
  depressed_mood: {
    code: "366979004",
    display: "Depressed mood (finding)",
    source:
      "India NRCeS ABDM FHIR IG ValueSet MentalStatus (github.com/gauravvaishnav17/abdm-fhir-ig-fsh, input/fsh/valuesets/MentalStatus.fsh: SNOMED_CT#366979004 'Depressed mood'); checked 2026-11-23",
  },
  anxiety: {
    code: "48694002",
    display: "Anxiety (finding)",
    source:
      "HL7 mCODE IG example Condition (github.com/HL7/fhir-mCODE-ig, input/fsh); ABDM FHIR IG ValueSet MentalStatus (SNOMED_CT#48694002 'Anxiety'); checked 2026-11-23",
  },
  suicidal_thoughts: {
    code: "6471006",
    display: "Suicidal thoughts (finding)",
    source:
      "SNOMED International MBH CRG (confluence.snomedtools.org/display/MBHCRG/Is+Suicidal+ideation+a+synonym+of+Suicidal+thoughts); SPiER-Project/adoption-guide ig/input/fsh/suicide-related-conditions.fsh (tx.fhir.org $validate-code); checked 2026-11-23",
  },
} as const satisfies Record<string, SnomedEntry>;

export type LoincInstrumentKey = keyof typeof LOINC_INSTRUMENTS;
export type SnomedFindingKey = keyof typeof SNOMED_FINDINGS;

/** Ingredient names plus synonyms, longest first so "escitalopram" wins over "citalopram". */
const MATCH_TERMS: readonly [term: string, key: string][] = [
  ...Object.keys(RXNORM_INGREDIENTS).map((k): [string, string] => [k, k]),
  ...Object.entries(RXNORM_SYNONYMS),
].sort((a, b) => b[0].length - a[0].length);

function normalise(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()} `;
}

/**
 * Every verified ingredient named inside a free-text medication name, in order of appearance,
 * each once: "olanzapine / fluoxetine 6/25 mg" -> olanzapine, fluoxetine. Whole-word matching,
 * longest name first, so "escitalopram" is never also read as citalopram; brand names and
 * unverified ingredients give nothing.
 */
export function matchIngredients(medicationName: string): RxNormEntry[] {
  if (typeof medicationName !== "string" || medicationName.trim() === "") return [];
  let haystack = normalise(medicationName);
  const found: { at: number; entry: RxNormEntry }[] = [];
  for (const [term, key] of MATCH_TERMS) {
    const needle = normalise(term);
    const at = haystack.indexOf(needle);
    const entry = RXNORM_INGREDIENTS[key];
    if (at < 0 || entry === undefined) continue;
    if (!found.some((item) => item.entry === entry)) found.push({ at, entry });
    // Blank the match out (same length) so a shorter name cannot match inside it.
    haystack = haystack.replaceAll(needle, " ".repeat(needle.length));
  }
  return found.sort((x, y) => x.at - y.at).map((item) => item.entry);
}

/**
 * The one verified ingredient of a free-text medication name, e.g. "Sertraline HCl 50 mg tablet"
 * -> sertraline. Null when no verified ingredient is present (including brand names and
 * unverified ingredients) and when the name holds more than one (a combination product is never
 * coded as its first ingredient; use matchIngredients for each).
 */
export function matchIngredient(medicationName: string): RxNormEntry | null {
  const found = matchIngredients(medicationName);
  return found.length === 1 ? (found[0] ?? null) : null;
}
