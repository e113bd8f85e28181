/**
 * Decision-support rules: what a rule is (the source attributes ONC's HTI-1 rule asks an EHR to
 * show for an evidence-based decision support intervention: citation, developer, evidence level,
 * last revision, the engine and its version, intended and cautioned uses), and the rules every
 * service shares. Each service's own rules are in its module, built from the knowledge model
 * (interaction rules, analyte table, instrument table) and the engine registry, so they cannot
 * drift from what the engines do (decision 114); the registry (services.ts) lists them all.
 * Each card's `source.url` is `<base>/cds-rules/<rule id>`: public pages, outside `/cds-services`,
 * whose every call needs an EHR's JWT, so a clinician can open them from the card.
 */
import { MAX_CARDS } from "./limits.js";

export const RULE_DEVELOPER = "Clinical Intelligence Service (this service's clinical knowledge team)";

/**
 * Last revision of the knowledge the rules read: the date the sources of the evidence table and
 * of the interaction rules were last read (docs/engines/evidence.md, "Sources were read on
 * 2026-11-22/23"; docs/engines/interactions.md, "Sources checked (2026-11-23)").
 */
export const KNOWLEDGE_REVISED = "2026-11-23";

export type RuleKind = "interaction" | "dose" | "relapse" | "lab" | "monitoring" | "patient" | "data";

export interface CdsRule {
  id: string;
  kind: RuleKind;
  title: string;
  /** What the rule does, in one or two sentences. */
  description: string;
  citation: string;
  developer: string;
  evidenceLevel: string;
  lastRevised: string;
  /** Engine (or tool) and the version of its shipped defaults; cards say the version that ran. */
  engine: { name: string; version: string };
  intendedUse: string;
  cautionedUse: string;
}

/** The version a rule page names for a registry engine: its shipped defaults (cards say what ran). */
export const SHIPPED = "default (shipped parameters)";

export const DATA_RULE: CdsRule = {
  id: "insufficient-data",
  kind: "data",
  title: "Insufficient data",
  description:
    "Names the FHIR data that could not be read (unknown code or unit, no value or date, a status that does not count, data the EHR did not provide), so missing data is never presented as reassurance.",
  citation:
    "CDS Hooks 2.0.1 prefetch semantics; the service's FHIR input mapping (docs: FHIR in) and its rule that missing, stale or unreadable data is said as such.",
  developer: RULE_DEVELOPER,
  evidenceLevel: "Service policy.",
  lastRevised: KNOWLEDGE_REVISED,
  engine: { name: "fhir-inbound", version: KNOWLEDGE_REVISED },
  intendedUse: "Tell the clinician which data the other cards could not use.",
  cautionedUse: "The absence of other cards never means the patient is well.",
};

export const CARDS_NOT_SHOWN_RULE: CdsRule = {
  id: "cards-not-shown",
  kind: "data",
  title: "Cards not shown",
  description:
    "Closes an answer that found more cards than one answer carries: says how many were left out and of which severities and rules. The cards shown are the most severe.",
  citation: `The service's bound on cards per answer (at most ${MAX_CARDS}, the most severe first).`,
  developer: RULE_DEVELOPER,
  evidenceLevel: "Service policy.",
  lastRevised: KNOWLEDGE_REVISED,
  engine: { name: "cds-hooks", version: KNOWLEDGE_REVISED },
  intendedUse: "Say that the answer is not complete, so what is not shown is never read as nothing found.",
  cautionedUse:
    "Review the patient's orders and results in the EHR; the cards not shown were found, not dismissed.",
};

/**
 * The patient-over-time review (decision 189), one rule per part: each card names its finding's
 * own rule and source (docs/engines/evidence.md holds every threshold and interval with its
 * source), so a page per part says what the part reads and where its rules come from.
 */
const REVIEW_ENGINE = { name: "patient-review", version: KNOWLEDGE_REVISED } as const;

function reviewPartRule(
  id: string,
  kind: RuleKind,
  title: string,
  description: string,
  citation: string,
  intendedUse: string,
): CdsRule {
  return {
    id,
    kind,
    title,
    description,
    citation,
    developer: RULE_DEVELOPER,
    evidenceLevel:
      "Label, regulator and guideline rules as each card's source names; the source of every threshold and interval is listed in the service's evidence table.",
    lastRevised: KNOWLEDGE_REVISED,
    engine: REVIEW_ENGINE,
    intendedUse,
    cautionedUse:
      "Reads only what the EHR sent (Patient, Observations, MedicationRequests, MedicationStatements): a fact it did not get is said to be unknown, never assumed normal; it does not replace the local protocol.",
  };
}

/** Rule ids of the review's cards by finding kind; not-assessed findings use `patient-not-evaluated`. */
export const REVIEW_RULE_IDS = {
  patient_factor: "patient-factors",
  ecg: "patient-ecg",
  monitoring: "patient-monitoring",
  trend: "patient-trends",
  notAssessed: "patient-not-evaluated",
} as const;

const REVIEW_RULES: readonly CdsRule[] = [
  reviewPartRule(
    REVIEW_RULE_IDS.patient_factor,
    "patient",
    "Patient factors against the medicines",
    "Reads the patient's age, sex, pregnancy and breastfeeding status, weight, renal and hepatic function (from the Patient and Observations) against the medicines taken or drafted: age-specific dose limits, teratogens in pregnancy or possible pregnancy, renally cleared drugs against eGFR.",
    "Product labels and regulator programmes (MHRA valproate Pregnancy Prevention Programme, FDA labels) and guidelines, as each card names.",
    "Alert the prescriber to a medicine that the patient's own facts make unsafe or call for a lower dose.",
  ),
  reviewPartRule(
    REVIEW_RULE_IDS.ecg,
    "patient",
    "ECG review (QTc) with the medicines' QT risk",
    "Reads QTc, QT and heart-rate Observations against sourced limits and the QT knowledge of the medicines taken.",
    "QTc thresholds and sex-specific limits as each card names.",
    "Draw attention to a prolonged or rising QTc in a patient taking QT-prolonging medicines.",
  ),
  reviewPartRule(
    REVIEW_RULE_IDS.monitoring,
    "monitoring",
    "Monitoring due or overdue",
    "Reads each medicine's monitoring schedule (clozapine neutrophil counts by phase, lithium levels, renal and thyroid function, antipsychotic metabolic monitoring, valproate and carbamazepine tests) from its first start date against the dated results, and says what is due or overdue and since when.",
    "UK and US product labels and NICE guidance, as each card names.",
    "Say what monitoring is due or overdue, so a missing or old result is not read as normal.",
  ),
  reviewPartRule(
    REVIEW_RULE_IDS.trend,
    "patient",
    "Trends in a laboratory series",
    "Reads series of the same analyte over time (renal decline, a falling neutrophil count, weight gain on antipsychotics, a rising prolactin), never outweighed by a normal newest value.",
    "KDIGO and the other guidelines each card names.",
    "Draw attention to a series moving the wrong way while each value may sit in range.",
  ),
  reviewPartRule(
    REVIEW_RULE_IDS.notAssessed,
    "data",
    "Patient review: not evaluated",
    "Says which patient-review rule could not be judged and what it lacked (an unknown age, start date, unit or date), so missing data is never presented as reassurance.",
    "The service's rule that missing data is said as such; each card names the rule that could not be judged and its source.",
    "Tell the clinician which patient rule could not be applied and what it needs.",
  ),
];

/**
 * The rules every service's cards may come from: the patient review's parts (both kinds of hook
 * read the review), missing data and the bound on cards. Each service's own rules are in its
 * module; the catalog of all of them is the registry's (`CDS_RULES`, services.ts).
 */
export const SHARED_RULES: readonly CdsRule[] = Object.freeze([
  ...REVIEW_RULES,
  DATA_RULE,
  CARDS_NOT_SHOWN_RULE,
]);

/** A lookup by id over a list of rules; throws on an id it lacks (a programming error). */
export function ruleLookup(rules: readonly CdsRule[]): (id: string) => CdsRule {
  const byId = new Map(rules.map((rule) => [rule.id, rule]));
  return (id) => {
    const rule = byId.get(id);
    if (rule === undefined) throw new Error(`no CDS rule ${id}`);
    return rule;
  };
}

/** The review part's rule of a finding kind, or the not-evaluated rule (review-cards.ts). */
export const reviewRule = ruleLookup(REVIEW_RULES);

/** Where the service serves the rule pages and the override-reason CodeSystem (no key, no JWT). */
export const RULE_PAGES_PATH = "/cds-rules";

/** The CodeSystem of the override reasons an interaction card offers. */
export const OVERRIDE_REASONS_PATH = `${RULE_PAGES_PATH}/override-reasons`;

export function ruleUrl(baseUrl: string, id: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${RULE_PAGES_PATH}/${encodeURIComponent(id)}`;
}

/** The rule's page as JSON (its source attributes). */
export function rulePageJson(rule: CdsRule): CdsRule {
  return rule;
}
