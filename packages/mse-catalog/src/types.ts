/**
 * Shared types of the MSE catalog, the selection a clinician (or the MSE agent) records against it,
 * the narrative lines built from a selection and the risk assessment.
 */

/** The 17 domain keys in catalog order (decision 45). */
export const DOMAIN_KEYS = [
  "appearance",
  "behavior",
  "attitude",
  "eye_contact",
  "psychomotor",
  "speech",
  "mood",
  "affect",
  "thought_process",
  "thought_content",
  "perception",
  "risk",
  "orientation",
  "attention",
  "memory",
  "insight",
  "judgment",
] as const;

export type DomainKey = (typeof DOMAIN_KEYS)[number];

export const SNOMED_CT = "http://snomed.info/sct";
export const LOINC = "http://loinc.org";

/** A terminology coding, FHIR style. */
export interface Coding {
  system: string;
  code: string;
  display: string;
}

export interface CatalogOption {
  /** snake_case value stored in a selection. */
  value: string;
  /** Chip label; the narrative uses it in lower case. */
  label: string;
  /** True when selecting this option raises the record's risk flag. */
  risk: boolean;
  /** Verified codings only; empty when no code was verified. */
  codes: Coding[];
  /**
   * Additive field: option values of the same domain this option contradicts (for example
   * "euthymic" and "depressed"). The validator rejects a selection holding both.
   */
  excludes?: string[];
}

export interface CatalogDomain {
  key: DomainKey;
  label: string;
  type: "chips";
  /** False: single-choice domain, at most one value. */
  multi: boolean;
  /** True when a free-text note (`text`) may be recorded for the domain. */
  hasNote: boolean;
  options: CatalogOption[];
}

export const PROVENANCE_VALUES = ["clinician", "digital_mse", "wearable", "patient_reported"] as const;
export type Provenance = (typeof PROVENANCE_VALUES)[number];

export const CONFIDENCE_VALUES = ["high", "medium", "low"] as const;
export type Confidence = (typeof CONFIDENCE_VALUES)[number];

export interface ObservationMetadata {
  provenanceValues: Provenance[];
  confidenceValues: Confidence[];
  confidenceScore: { min: number; max: number };
  supportingSignals: string[];
}

export const CSSRS_ITEM_IDS = ["q1", "q2", "q3", "q4", "q5", "q6"] as const;
export type CssrsItemId = (typeof CSSRS_ITEM_IDS)[number];

/** Additive key recording whether the behavior reported on q6 happened within the past 3 months. */
export const CSSRS_RECENCY_KEY = "q6_recent";

/** Every key a screen may record: the six items, then the recency of item 6. */
export type CssrsKey = CssrsItemId | typeof CSSRS_RECENCY_KEY;

export type YesNo = "yes" | "no";

export type CssrsTimeframe = "past_month" | "lifetime_and_past_3_months" | "past_3_months";

export interface CssrsQuestion {
  id: CssrsItemId;
  order: number;
  /** Our own paraphrase of the item; not the instrument's wording. */
  text: string;
  timeframe: CssrsTimeframe;
}

export interface CssrsTriageRule {
  level: Exclude<RiskLevel, "none">;
  rule: string;
}

export interface CssrsDefinition {
  appliesTo: "risk";
  questions: CssrsQuestion[];
  /** Additive: how the recency of q6 is recorded in a selection. */
  recency: { id: typeof CSSRS_RECENCY_KEY; appliesTo: "q6"; text: string; timeframe: "past_3_months" };
  /** Additive: the triage table applied by assessRisk, with its source. */
  triage: CssrsTriageRule[];
  triageSource: string;
}

export interface Catalog {
  version: string;
  panel: Coding;
  observationMetadata: ObservationMetadata;
  domains: CatalogDomain[];
  cssrs: CssrsDefinition;
}

/**
 * C-SSRS screener answers recorded on the `risk` domain. Any subset of the items may be present (a
 * draft may be saved part-way); `cssrsCompleteness` says what the skip rule still requires.
 */
export type CssrsAnswers = Partial<Record<CssrsItemId, YesNo>> & { q6_recent?: YesNo };

/** One domain of a selection. */
export interface SelectionEntry {
  values: string[];
  text?: string;
  provenance?: Provenance;
  confidence?: Confidence;
  confidenceScore?: number;
  supportingSignals?: string[];
  cssrs?: CssrsAnswers;
}

/** A selection keyed by domain; at least one domain is present once validated. */
export type Selection = Partial<Record<DomainKey, SelectionEntry>>;

/** A partial amendment (PATCH): a domain set to null is removed from the stored selection. */
export type SelectionPatch = Partial<Record<DomainKey, SelectionEntry | null>>;

/** One validation problem (item of the 422 `errors` array, decision 39). */
export interface SelectionError {
  /** Domain key as sent, or "selection" for a problem with the selection as a whole. */
  domain: string;
  /** The offending option value, field name or C-SSRS key, when there is one. */
  value?: string;
  message: string;
}

export type ValidationResult<T> = { ok: true; selection: T } | { ok: false; errors: SelectionError[] };

export interface ValidateOptions {
  /** PATCH mode: the selection is an amendment; a domain may be null to remove it. */
  partial?: boolean;
}

/** One narrative line per present domain. */
export interface Line {
  key: DomainKey;
  label: string;
  line: string;
  provenance?: Provenance;
  confidence?: Confidence;
  confidenceScore?: number;
  supportingSignals?: string[];
  codes: Coding[];
}

export const RISK_LEVELS = ["none", "low", "moderate", "high"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/**
 * Whether a screen asked everything the screener's skip rule requires: items 1, 2 and 6 always,
 * items 3-5 when item 2 is yes, and the recency of item 6 when item 6 is yes.
 */
export interface CssrsCompleteness {
  complete: boolean;
  /** Required keys not answered "yes" or "no", in item order (q6_recent last). */
  missingItems: CssrsKey[];
}

/** The screen's state as the API shows it (additive field of RiskAssessment and the MSE record). */
export interface CssrsStatus extends CssrsCompleteness {
  triageLevel: RiskLevel;
}

export interface RiskAssessment {
  flag: boolean;
  level: RiskLevel;
  labels: string[];
  /** Additive: present only when the selection records C-SSRS answers. */
  cssrs?: CssrsStatus;
}

export interface CssrsTriage extends CssrsCompleteness {
  /** True when any item is answered yes (a positive screen). */
  positive: boolean;
  /** Never `none` for an incomplete screen. */
  level: RiskLevel;
  /** Items answered yes, in item order. */
  yesItems: CssrsItemId[];
}
