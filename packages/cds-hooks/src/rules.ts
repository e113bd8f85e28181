/**
 * The rule catalog: every decision-support rule a card can come from, with the source attributes
 * ONC's HTI-1 rule asks an EHR to show for an evidence-based decision support intervention
 * (citation, developer, evidence level, last revision, the engine and its version, intended and
 * cautioned uses). Built from the knowledge model (interaction rules, analyte table, instrument
 * table) and the engine registry, so it cannot drift from what the engines do (decision 114).
 * Each card's `source.url` is `<base>/cds-rules/<rule id>`: public pages, outside `/cds-services`,
 * whose every call needs an EHR's JWT, so a clinician can open them from the card.
 */
import {
  ANALYTES,
  type AnalyteEntry,
  BIOMARKER_DISCLAIMER,
  DAILY_DOSE_LIMITS,
  type DailyDoseLimit,
  DERIVED_RULES,
  INSTRUMENTS,
  INTERACTION_RULES,
  type InteractionRule,
  RELAPSE_DISCLAIMER,
} from "@svc/engines";
import { ENGINE_REGISTRY } from "@svc/intelligence";
import { MAX_CARDS } from "./limits.js";

export const RULE_DEVELOPER = "Clinical Intelligence Service (this service's clinical knowledge team)";

/**
 * Last revision of the knowledge the rules read: the date the sources of the evidence table and
 * of the interaction rules were last read (docs/engines/evidence.md, "Sources were read on
 * 2026-11-22/23"; docs/engines/interactions.md, "Sources checked (2026-11-23)").
 */
export const KNOWLEDGE_REVISED = "2026-11-23";

/**
 * The interaction checker is a deterministic tool, not a registry engine with calibrated
 * parameters; its version is the revision of its rule table.
 */
export const INTERACTIONS_ENGINE = { name: "interactions", version: `rules ${KNOWLEDGE_REVISED}` } as const;

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

const SHIPPED = "default (shipped parameters)";

function interactionRule(rule: InteractionRule): CdsRule {
  return {
    id: `interaction-${rule.id}`,
    kind: "interaction",
    title: `Drug interaction: ${rule.effect}`,
    description: `${rule.mechanism} ${rule.recommendation}`,
    citation: rule.source,
    developer: RULE_DEVELOPER,
    evidenceLevel: `Severity ${rule.severity} (FHIR DetectedIssue scale), assigned by the interaction knowledge base from the cited source; ${
      rule.sourceChecked
        ? "the cited source was read when the rule was written"
        : "the cited source was not re-read for this release"
    }.`,
    lastRevised: KNOWLEDGE_REVISED,
    engine: INTERACTIONS_ENGINE,
    intendedUse:
      "Alert the prescriber to a known interaction between a draft order and the patient's other medicines.",
    cautionedUse:
      "Not a complete interaction compendium: medicines the service does not recognise are reported as not checked, never as safe.",
  };
}

/** A label dose limit of one ingredient (decisions 174 and 184): the card for a dose above it. */
function doseRule(ingredient: string, limit: DailyDoseLimit): CdsRule {
  const reduced = limit.reduced;
  return {
    id: `dose-${ingredient}`,
    kind: "dose",
    title: `Dose above the label maximum: ${ingredient}`,
    description: `Reads the daily dose of a ${ingredient} order (its dosage instructions, or the dose written in its text, times the frequency) against the label maximum of ${limit.maxDailyMg} mg/day${
      reduced === undefined ? "" : ` (${reduced.maxDailyMg} mg/day for ${reduced.appliesTo})`
    }: above it, ${limit.harm}.`,
    citation: limit.source,
    developer: RULE_DEVELOPER,
    evidenceLevel: `Label maximum, severity high (FHIR DetectedIssue scale); ${
      limit.sourceChecked
        ? "the cited label was read when the limit was written"
        : "the cited label was not re-read for this release"
    }.`,
    lastRevised: KNOWLEDGE_REVISED,
    engine: INTERACTIONS_ENGINE,
    intendedUse: "Alert the prescriber to a draft order whose daily dose is above the label maximum.",
    cautionedUse:
      "Applies the label maximum only; doses the service could not read (no mass unit, no timing) are not checked, and a limit that depends on the patient's age is reported as not checked.",
  };
}

/** Sources of an analyte's ranges and limits, each once. */
function measureSources(entry: AnalyteEntry): string[] {
  const m = entry.measure;
  if (!m) return [];
  const sources = [
    ...(m.therapeutic ?? []).map((r) => `${r.indication} range: ${r.source}`),
    ...(m.reference ? [`reference range: ${m.reference.source}`] : []),
    ...(m.criticalLow ? [`critical low: ${m.criticalLow.source}`] : []),
    ...(m.criticalHigh ? [`critical high: ${m.criticalHigh.source}`] : []),
  ];
  return [...new Set(sources)];
}

function labRule(entry: AnalyteEntry): CdsRule {
  const sources = measureSources(entry);
  return {
    id: `lab-${entry.key.replaceAll("_", "-")}`,
    kind: "lab",
    title: `${entry.display} result review`,
    description: `Reads the newest ${entry.display} result (LOINC, UCUM unit checked against the analyte table) against the table's ranges and the laboratory's interpretation, and says what a high or low result can mean in psychiatric care.`,
    citation:
      sources.length > 0
        ? sources.join("; ")
        : "No sourced range: read by the laboratory's own interpretation only.",
    developer: RULE_DEVELOPER,
    evidenceLevel:
      sources.length > 0
        ? "Published reference, therapeutic or critical limits as cited; relevance text expert-written."
        : "Laboratory interpretation only; relevance text expert-written.",
    lastRevised: KNOWLEDGE_REVISED,
    engine: { name: ENGINE_REGISTRY.biomarker.name, version: SHIPPED },
    intendedUse: "Draw attention to an abnormal result with psychiatric relevance.",
    cautionedUse: BIOMARKER_DISCLAIMER,
  };
}

const RELAPSE_RULE: CdsRule = {
  id: "relapse-early-warning",
  kind: "relapse",
  title: "Symptom trajectory and relapse early warning",
  description:
    "Adds expert-set points for the symptom-scale trajectory, medication changes and the other factors the engine reads, into a 0-100 early-warning score with a level and trend.",
  citation: `Instruments: ${INSTRUMENTS.phq9.display}: ${INSTRUMENTS.phq9.source}; ${INSTRUMENTS.gad7.display}: ${INSTRUMENTS.gad7.source}. Weights, windows and bands: expert-set operational defaults, listed with their sources in the service's evidence table (Relapse early warning).`,
  developer: RULE_DEVELOPER,
  evidenceLevel: "Expert-set composite; not fitted to outcome data and not a validated prediction model.",
  lastRevised: KNOWLEDGE_REVISED,
  engine: { name: ENGINE_REGISTRY.relapse.name, version: SHIPPED },
  intendedUse: "Prompt a clinician to review the contributing factors with the patient.",
  cautionedUse: RELAPSE_DISCLAIMER,
};

const MONITORING_RULE: CdsRule = {
  id: "lab-monitoring-due",
  kind: "monitoring",
  title: "Monitoring level not current",
  description:
    "For an active lithium, valproate or clozapine order, says when no readable result of its monitoring analyte (lithium level, valproate level, absolute neutrophil count) is newer than the biomarker engine's staleness limit.",
  citation:
    "Monitoring panels of the analyte table: lithium monitoring (NICE CG185), clozapine ANC monitoring (US clozapine labels; UK Clozaril SmPC monitoring), valproate level.",
  developer: RULE_DEVELOPER,
  evidenceLevel:
    "Guideline-named monitoring; the age limit is the biomarker engine's expert-set staleness limit.",
  lastRevised: KNOWLEDGE_REVISED,
  engine: { name: ENGINE_REGISTRY.biomarker.name, version: SHIPPED },
  intendedUse:
    "Say that a monitoring result is missing or old, so its absence is not read as a normal result.",
  cautionedUse: "Does not schedule tests or replace the local monitoring protocol.",
};

const DATA_RULE: CdsRule = {
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

const NOT_CHECKED_RULE: CdsRule = {
  id: "interaction-not-checked",
  kind: "data",
  title: "Interactions not checked",
  description:
    "Says when a draft order, or the patient's medication list, could not be read, so the interaction check is incomplete.",
  citation: "The interaction checker's rule that an unrecognised medicine is never read as no interaction.",
  developer: RULE_DEVELOPER,
  evidenceLevel: "Service policy.",
  lastRevised: KNOWLEDGE_REVISED,
  engine: INTERACTIONS_ENGINE,
  intendedUse: "Prevent silence from reading as 'no interaction'.",
  cautionedUse: "Check the unread medicines with another source.",
};

const CARDS_NOT_SHOWN_RULE: CdsRule = {
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

function reviewRule(
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
  reviewRule(
    REVIEW_RULE_IDS.patient_factor,
    "patient",
    "Patient factors against the medicines",
    "Reads the patient's age, sex, pregnancy and breastfeeding status, weight, renal and hepatic function (from the Patient and Observations) against the medicines taken or drafted: age-specific dose limits, teratogens in pregnancy or possible pregnancy, renally cleared drugs against eGFR.",
    "Product labels and regulator programmes (MHRA valproate Pregnancy Prevention Programme, FDA labels) and guidelines, as each card names.",
    "Alert the prescriber to a medicine that the patient's own facts make unsafe or call for a lower dose.",
  ),
  reviewRule(
    REVIEW_RULE_IDS.ecg,
    "patient",
    "ECG review (QTc) with the medicines' QT risk",
    "Reads QTc, QT and heart-rate Observations against sourced limits and the QT knowledge of the medicines taken.",
    "QTc thresholds and sex-specific limits as each card names.",
    "Draw attention to a prolonged or rising QTc in a patient taking QT-prolonging medicines.",
  ),
  reviewRule(
    REVIEW_RULE_IDS.monitoring,
    "monitoring",
    "Monitoring due or overdue",
    "Reads each medicine's monitoring schedule (clozapine neutrophil counts by phase, lithium levels, renal and thyroid function, antipsychotic metabolic monitoring, valproate and carbamazepine tests) from its first start date against the dated results, and says what is due or overdue and since when.",
    "UK and US product labels and NICE guidance, as each card names.",
    "Say what monitoring is due or overdue, so a missing or old result is not read as normal.",
  ),
  reviewRule(
    REVIEW_RULE_IDS.trend,
    "patient",
    "Trends in a laboratory series",
    "Reads series of the same analyte over time (renal decline, a falling neutrophil count, weight gain on antipsychotics, a rising prolactin), never outweighed by a normal newest value.",
    "KDIGO and the other guidelines each card names.",
    "Draw attention to a series moving the wrong way while each value may sit in range.",
  ),
  reviewRule(
    REVIEW_RULE_IDS.notAssessed,
    "data",
    "Patient review: not evaluated",
    "Says which patient-review rule could not be judged and what it lacked (an unknown age, start date, unit or date), so missing data is never presented as reassurance.",
    "The service's rule that missing data is said as such; each card names the rule that could not be judged and its source.",
    "Tell the clinician which patient rule could not be applied and what it needs.",
  ),
];

export const CDS_RULES: readonly CdsRule[] = Object.freeze([
  ...INTERACTION_RULES.map(interactionRule),
  // The rules derived from ingredient properties (decision 173), one page per rule id.
  ...DERIVED_RULES.map(interactionRule),
  ...Object.entries(DAILY_DOSE_LIMITS).map(([ingredient, limit]) => doseRule(ingredient, limit)),
  RELAPSE_RULE,
  ...ANALYTES.filter((a) => (a.loinc ?? []).length > 0).map(labRule),
  MONITORING_RULE,
  ...REVIEW_RULES,
  NOT_CHECKED_RULE,
  DATA_RULE,
  CARDS_NOT_SHOWN_RULE,
]);

const BY_ID: ReadonlyMap<string, CdsRule> = new Map(CDS_RULES.map((rule) => [rule.id, rule]));

export function ruleById(id: string): CdsRule | undefined {
  return BY_ID.get(id);
}

/** A rule that must exist (internal lookups); throws on a programming error. */
export function requireRule(id: string): CdsRule {
  const rule = BY_ID.get(id);
  if (rule === undefined) throw new Error(`no CDS rule ${id}`);
  return rule;
}

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
