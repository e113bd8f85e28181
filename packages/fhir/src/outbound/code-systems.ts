/**
 * Our own CodeSystems, built from the knowledge model (the engine registry, the engines' label and
 * scale constants, the MSE catalog), so each concept is defined once and the served CodeSystem
 * cannot disagree with what the engines emit. Used where no verified standard code exists.
 */
import type { CodeSystem, CodeSystemConcept, Coding } from "@medplum/fhirtypes";
import {
  DMSE_INSUFFICIENT_DATA_LEGEND,
  DMSE_INTERPRETATION_SCALE,
  DMSE_SIGNAL_LABELS,
  DMSE_SIGNAL_ORDER,
  OUTCOME_COMPONENT_LABELS,
  OUTCOME_COMPONENT_ORDER,
  RELAPSE_FACTOR_LABELS,
  RELAPSE_FACTOR_ORDER,
  RELAPSE_INTERPRETATION_SCALE,
  RELAPSE_LEVELS,
} from "@svc/engines";
import { ENGINE_DESCRIPTORS } from "@svc/intelligence";
import { CSSRS, CSSRS_ITEM_LABELS, CSSRS_RECENCY_KEY, DOMAINS, RISK_LEVELS } from "@svc/mse-catalog";
import { type CodeSystemId, codeSystemUrl } from "./canonical.js";

/** Version of our CodeSystems and Questionnaire; raised when a concept's meaning changes. */
export const CONFORMANCE_VERSION = "1";

const PUBLISHER = "Clinical Intelligence Service";

/** Observation and component codes of the analysis answers (no standard code was verified for them). */
export const ANALYSIS_CODES = {
  dmseSignal: (key: string) => `dmse.${key}`,
  outcomeScore: "outcome.score",
  outcomeComponent: (key: string) => `outcome.${key}`,
  relapseScore: "relapse.score",
  relapseFactor: (key: string) => `relapse.${key}`,
  relapseRisk: "relapse.risk",
  medicationSignal: "medication.signal",
  biomarkerSignal: "biomarker.signal",
  biomarkerValueFinding: "biomarker.value-finding",
  patientReviewNotEvaluated: "patient-review.not-evaluated",
  codedConcept: "coded-concept",
} as const;

function concept(code: string, display: string, definition?: string): CodeSystemConcept {
  return definition === undefined ? { code, display } : { code, display, definition };
}

function analysisObservationConcepts(): CodeSystemConcept[] {
  return [
    ...DMSE_SIGNAL_ORDER.map((key) =>
      concept(ANALYSIS_CODES.dmseSignal(key), DMSE_SIGNAL_LABELS[key], "Digital MSE signal (dmse engine)."),
    ),
    concept(
      ANALYSIS_CODES.outcomeScore,
      "Treatment-response composite",
      "Signed composite from -100 to +100 (outcome engine); not a probability.",
    ),
    ...OUTCOME_COMPONENT_ORDER.map((key) =>
      concept(ANALYSIS_CODES.outcomeComponent(key), `Outcome component: ${OUTCOME_COMPONENT_LABELS[key]}`),
    ),
    concept(
      ANALYSIS_CODES.relapseScore,
      "Relapse early-warning score",
      "Additive 0-100 points score (relapse engine). It is not a probability.",
    ),
    ...RELAPSE_FACTOR_ORDER.map((key) =>
      concept(ANALYSIS_CODES.relapseFactor(key), `Relapse factor: ${RELAPSE_FACTOR_LABELS[key]}`),
    ),
    concept(ANALYSIS_CODES.relapseRisk, "Relapse", "The outcome the relapse early-warning level is about."),
    concept(
      ANALYSIS_CODES.medicationSignal,
      "Medication response signal",
      "Symptom-scale change around one prescription's start date, or the latency corroboration (medication engine).",
    ),
    concept(
      ANALYSIS_CODES.biomarkerSignal,
      "Biomarker signal",
      "Psychiatric relevance of an abnormally flagged lab reading (biomarker engine).",
    ),
    concept(
      ANALYSIS_CODES.biomarkerValueFinding,
      "Lab value finding",
      "A reading beyond a sourced critical limit, not evaluated for its unit, or implausible (biomarker engine).",
    ),
    ...ENGINE_DESCRIPTORS.flatMap((engine) =>
      (engine.concepts ?? []).map((c) => concept(c.code, c.display, c.definition)),
    ),
    concept(
      ANALYSIS_CODES.patientReviewNotEvaluated,
      "Patient review rule not evaluated",
      "A rule of the patient-over-time review (patient factors, ECG, monitoring, trends) that could not be judged on the data given; the note says what it lacked. Never a normal result.",
    ),
    concept(
      ANALYSIS_CODES.codedConcept,
      "Coded concept",
      "A standard code (LOINC, RxNorm, SNOMED CT) the engine attached to this result; the value carries it.",
    ),
  ];
}

/** The MSE catalog's codes: domains, options (`<domain>.<value>`), C-SSRS items, risk levels. */
export const MSE_CODES = {
  domain: (key: string) => key,
  option: (domain: string, value: string) => `${domain}.${value}`,
  cssrsItem: (id: string) => `cssrs.${id}`,
  riskLevel: (level: string) => `risk-level.${level}`,
  recordRisk: "record-risk",
  cssrsStatus: "cssrs-status",
} as const;

function mseConcepts(): CodeSystemConcept[] {
  const cssrsText = new Map<string, string>(CSSRS.questions.map((q) => [q.id, q.text]));
  cssrsText.set(CSSRS_RECENCY_KEY, CSSRS.recency.text);
  return [
    ...DOMAINS.map((domain) =>
      concept(MSE_CODES.domain(domain.key), domain.label, `MSE domain "${domain.label}".`),
    ),
    ...DOMAINS.flatMap((domain) =>
      domain.options.map((option) => concept(MSE_CODES.option(domain.key, option.value), option.label)),
    ),
    ...[...Object.entries(CSSRS_ITEM_LABELS), [CSSRS_RECENCY_KEY, "behavior within the past 3 months"]].map(
      ([id, label]) =>
        concept(
          MSE_CODES.cssrsItem(id as string),
          `C-SSRS screener ${id}: ${label}`,
          cssrsText.get(id as string),
        ),
    ),
    ...RISK_LEVELS.map((level) => concept(MSE_CODES.riskLevel(level), `Risk level ${level}`)),
    concept(MSE_CODES.recordRisk, "MSE record risk", "The risk level the record was written with."),
    concept(MSE_CODES.cssrsStatus, "C-SSRS screen status", "Completeness and triage level of the screen."),
  ];
}

interface CodeSystemSpec {
  name: string;
  title: string;
  description: string;
  concepts: () => CodeSystemConcept[];
  /** `not-present`: the codes are defined elsewhere (the request fields of the OpenAPI document). */
  content?: "complete" | "not-present";
}

const SPECS: Readonly<Record<CodeSystemId, CodeSystemSpec>> = {
  engine: {
    name: "ClinicalIntelligenceEngine",
    title: "Clinical Intelligence engines",
    description:
      "The engines of the service (its engine registry); each answer's Provenance and GuidanceResponse name one.",
    concepts: () =>
      ENGINE_DESCRIPTORS.map((engine) => concept(engine.name, engine.label, `model key ${engine.modelKey}`)),
  },
  "analysis-observation": {
    name: "ClinicalIntelligenceAnalysisObservation",
    title: "Clinical Intelligence analysis observations",
    description:
      "Observation and component codes of the analysis answers, for concepts without a verified standard code.",
    concepts: analysisObservationConcepts,
  },
  "dmse-interpretation": {
    name: "ClinicalIntelligenceDmseInterpretation",
    title: "Digital MSE interpretations",
    description: "Interpretation of a digital MSE signal against its reference range (dmse engine).",
    concepts: () => [
      ...Object.entries(DMSE_INTERPRETATION_SCALE).map(([code, definition]) =>
        concept(code, code.replace(/_/g, " "), definition),
      ),
      concept("insufficient_data", "insufficient data", DMSE_INSUFFICIENT_DATA_LEGEND),
    ],
  },
  "relapse-level": {
    name: "ClinicalIntelligenceRelapseLevel",
    title: "Relapse early-warning levels",
    description:
      "Levels of the additive relapse early-warning score. They are not probability categories: the score is points, not a probability.",
    concepts: () => RELAPSE_LEVELS.map((level) => concept(level, level, RELAPSE_INTERPRETATION_SCALE[level])),
  },
  "analysis-input": {
    name: "ClinicalIntelligenceAnalysisInput",
    title: "Analysis request inputs",
    description:
      "Codes are the request field names of the analysis endpoints (their OpenAPI document defines them); a GuidanceResponse's dataRequirement names the ones missing, stale or not used.",
    concepts: () => [],
    content: "not-present",
  },
  mse: {
    name: "ClinicalIntelligenceMse",
    title: "Mental status exam catalog",
    description:
      "The 17-domain MSE catalog: domains, options (domain.value), C-SSRS screener items and risk levels.",
    concepts: mseConcepts,
  },
};

/** One of our CodeSystems as a FHIR R4 resource, its `url` under the deployment's public base URL. */
export function codeSystemResource(publicBaseUrl: string, id: CodeSystemId): CodeSystem {
  const spec = SPECS[id];
  const concepts = spec.concepts();
  return {
    resourceType: "CodeSystem",
    id,
    url: codeSystemUrl(publicBaseUrl, id),
    version: CONFORMANCE_VERSION,
    name: spec.name,
    title: spec.title,
    status: "active",
    experimental: false,
    publisher: PUBLISHER,
    description: spec.description,
    caseSensitive: true,
    content: spec.content ?? "complete",
    ...(concepts.length > 0 ? { count: concepts.length, concept: concepts } : {}),
  };
}

/** A coding of one of our CodeSystems with its display looked up there (throws for an unknown code). */
export function ourCoding(publicBaseUrl: string, id: CodeSystemId, code: string): Coding {
  const found = conceptIndex(id).get(code);
  if (found === undefined) throw new Error(`No code ${code} in our CodeSystem ${id}`);
  return { system: codeSystemUrl(publicBaseUrl, id), code, display: found };
}

/** A coding of `analysis-input` (codes are request field names; no display is defined here). */
export function inputCoding(publicBaseUrl: string, field: string): Coding {
  return { system: codeSystemUrl(publicBaseUrl, "analysis-input"), code: field };
}

const indexes = new Map<CodeSystemId, Map<string, string>>();
function conceptIndex(id: CodeSystemId): Map<string, string> {
  let index = indexes.get(id);
  if (!index) {
    index = new Map(SPECS[id].concepts().map((c) => [c.code as string, c.display ?? (c.code as string)]));
    indexes.set(id, index);
  }
  return index;
}
