import type { EngineName } from "./registry.js";

/**
 * The unified `intelligence` block every analysis response carries (contract: "Unified
 * intelligence block"). `schema` is versioned independently of the API; additive fields never
 * change it.
 */
export const INTELLIGENCE_SCHEMA = "service.intelligence/v1" as const;

/** Canonical code-system URIs (HL7 FHIR terminology identifiers). */
export const CODE_SYSTEMS = {
  snomed: "http://snomed.info/sct",
  loinc: "http://loinc.org",
  rxnorm: "http://www.nlm.nih.gov/research/umls/rxnorm",
} as const;
export type CodeSystem = (typeof CODE_SYSTEMS)[keyof typeof CODE_SYSTEMS];

export interface TerminologyCode {
  system: CodeSystem;
  code: string;
  display: string;
  /** Pointer into the response `data`, e.g. `summary.status` or `signals.0`. */
  mapsTo: string;
}

/**
 * A concept of the response that has no verified code, said explicitly (decision 91): `codes`
 * keeps no entry for it (the contract: unmapped concepts have no entry) and no code is invented.
 */
export interface UnmappedConcept {
  /** What is not coded, as the response names it (a signal's label). */
  concept: string;
  /** Pointer into the response `data`, as `codes[].mapsTo`. */
  mapsTo: string;
  /** The code system it would belong to and why it has no code. */
  reason: string;
}

export interface IntelligenceBlock {
  schema: typeof INTELLIGENCE_SCHEMA;
  engine: EngineName;
  summary: { status: string; headline: string; flagged: string[]; requiresClinicianReview: boolean };
  confidence: { level: "high" | "moderate" | "low"; score: number; reasons: string[] };
  dataQuality: {
    completeness: number;
    missingInputs: string[];
    freshness: { newestInputAt: string | null; staleInputs: string[] };
  };
  provenance: {
    generatedAt: string;
    engineVersion: string;
    method: string;
    inputs: { name: string; value: unknown; observedAt: string | null; contributed: boolean }[];
  };
  codes: TerminologyCode[];
  /** Additive (decision 91): concepts the engine flagged that have no verified code; absent when none. */
  unmapped?: UnmappedConcept[];
  change: {
    direction: "improved" | "worsened" | "unchanged";
    delta: number | null;
    previousStatus: string | null;
    currentStatus: string;
    explanations: string[];
    previousComputedAt: string | null;
  } | null;
  interpretationScale: Record<string, string>;
  /** `narrator` (additive) says whether the template narrator or a language model wrote it. */
  reasoning: { narrative: string; generatedAt: string; narrator?: "template" | "model" } | null;
}
