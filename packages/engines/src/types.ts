/**
 * Shared engine input and output types. They mirror the contract's shared input objects; the
 * HTTP layer validates bounds with zod before an engine sees a value, so engines may assume the
 * bounds hold (but must never throw on any in-bound input).
 */

/** A symptom-scale administration (contract: Assessment). */
export interface Assessment {
  instrumentId: string;
  instrumentName: string;
  score: number;
  maxScore: number;
  severity?: string;
  /** ISO 8601 timestamp. */
  createdAt: string;
}

/** Contract: Prescription. */
export interface Prescription {
  id: string;
  medicationName: string;
  dosage?: string;
  frequency?: string;
  /** e.g. active, discontinued. */
  status: string;
  /** ISO 8601; anchors the before/after comparison. */
  prescribedAt?: string;
  /** Additive, ISO 8601: when the dose last changed, read by the patient review's monitoring (decision 198). */
  doseChangedAt?: string;
}

/** Contract: Biomarker. */
export interface Biomarker {
  name: string;
  value: number | string | null;
  unit?: string;
  flag?: "high" | "low" | "critical" | "normal";
  referenceRange?: string;
  note?: string;
  /** Optional LOINC code of the analyte (additive input; matching also works on names). */
  loinc?: string;
}

/** Contract: Lab panel. */
export interface LabPanel {
  id: string;
  labName: string;
  observedAt?: string;
  results: { biomarkers: Biomarker[] };
}

export type ConfidenceLevel = "high" | "moderate" | "low";

/** Which parameter set ran: the shipped constants or a calibrated database row (decision 44). */
export interface ModelRef {
  key: string;
  version: number | null;
  source: "default" | "calibrated";
}

/** Every engine takes the clock and, optionally, a calibrated parameter set. */
export interface EngineOptions<TParams> {
  /** The clock, passed in so that results are deterministic. */
  now: Date;
  /** Calibrated parameters; the engine's `default` model when omitted. */
  model?: { version: number; params: TParams };
}

/** Signal object shared by the medication and biomarker responses. */
export interface ModuleSignal {
  module: "medication" | "biomarker";
  signalKey: string;
  label: string;
  detail: string;
  tone: "positive" | "neutral" | "watch" | "elevated" | "critical";
  metricValue: number;
  metricUnit: string;
  confidence: ConfidenceLevel;
  summaryLine: string;
  sourceRef: string;
  observedAt: string;
}

/** One accepted input of an engine: whether the caller supplied it and whether it moved the result. */
export interface EngineInput {
  name: string;
  value: unknown;
  /** When the underlying observation was made, if known (ISO 8601). */
  observedAt: string | null;
  supplied: boolean;
  contributed: boolean;
  /**
   * The age in days beyond which this input no longer describes the present (decision 62); the
   * intelligence block lowers confidence when such an input contributed and is older.
   */
  staleAfterDays?: number;
}

/**
 * What an engine tells the unified `intelligence` block builder (`@svc/intelligence`) about one
 * run: the summary, confidence with its reasons, every accepted input, the current score/status
 * and which direction is better. Codes are added by the builder from terminology tables, except
 * those an engine already knows (`codes`, e.g. a LOINC code matched in the biomarker map).
 */
export interface EngineFacts {
  summary: { status: string; headline: string; flagged: string[]; requiresClinicianReview: boolean };
  confidence: { level: ConfidenceLevel; score: number; reasons: string[] };
  inputs: EngineInput[];
  current: { score: number | null; status: string };
  /** How to compare with `previous`: by score, or by status ordered best to worst. */
  polarity: { kind: "score"; higherIs: "better" | "worse" } | { kind: "status"; order: readonly string[] };
  interpretationScale: Record<string, string>;
  /** Codes the engine itself resolved: LOINC/SNOMED/RxNorm with a pointer into the response data. */
  codes?: { system: string; code: string; display: string; mapsTo: string }[];
}

/** Every engine returns its response fields (`data`, without `object`/`intelligence`), the facts and the model. */
export interface EngineRun<TData> {
  data: TData;
  facts: EngineFacts;
  model: ModelRef;
}
