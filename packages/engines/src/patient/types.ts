/**
 * The shapes of the patient-over-time review (decision 189): what it reads (the patient, the
 * medicines with their start dates, dated laboratory and ECG readings) and what it finds. Every
 * door maps its own input into `PatientReviewInput` and presents `PatientFinding`s through its
 * own vocabulary (`DOOR_LEVELS`); no door judges a finding itself.
 */
import type { ClinicalLevel, LabFlag } from "../judgement.js";
import type { PatientContext } from "./context.js";

/** One medicine the patient takes, with what is known of when it started. */
export interface ReviewMedicine {
  /** The name as the caller or EHR gave it (with a dose when it had one: "lithium 800 mg"). */
  name: string;
  /**
   * When the medicine was first started (ISO 8601), not the date of the latest renewal; null or
   * absent when unknown (the review says the start is unknown, decision 189).
   */
  startedAt?: string | null;
  /** When the dose last changed (ISO 8601), where known. */
  doseChangedAt?: string | null;
  /** Where the start came from, as a sentence ("MedicationStatement/7 effectivePeriod.start"). */
  startSource?: string;
}

/** One dated reading of an analyte (laboratory, ECG, weight, pregnancy test). */
export interface DatedReading {
  /** The analyte as sent: a name ("QTc", "ANC") or a table key. */
  analyte: string;
  value: number | string | null;
  unit?: string;
  /** ISO 8601; a reading without a date cannot be placed in a series or a schedule. */
  observedAt?: string | null;
  /** The laboratory's flag, when it gave one. */
  flag?: LabFlag | null;
  /** LOINC code when the reading came coded (FHIR, CDS). */
  loinc?: string;
}

export interface PatientReviewInput {
  patient?: PatientContext;
  medicines: readonly ReviewMedicine[];
  readings: readonly DatedReading[];
  /** The review's clock: ages, due dates and staleness are reckoned at this instant. */
  now: Date;
}

/** What part of the review a finding comes from. */
export const PATIENT_FINDING_KINDS = ["patient_factor", "ecg", "monitoring", "trend"] as const;
export type PatientFindingKind = (typeof PATIENT_FINDING_KINDS)[number];

export interface PatientFinding {
  kind: PatientFindingKind;
  /** Stable machine id of the rule, e.g. `teratogen_pregnancy`, `qtc_above_500`, `monitoring_overdue`. */
  rule: string;
  /** The one clinical level (decision 182); a finding that could not be judged is at least `low`. */
  level: ClinicalLevel;
  /** False: something was given (or needed) but could not be judged (decision 80). */
  assessed: boolean;
  /** Short clinician-facing label (a card summary, an agent risk label), at most 140 characters. */
  title: string;
  /** One or two sentences: what was found, on what data, and what the rule asks. */
  detail: string;
  /** The medicine(s) the finding concerns, as the caller named them. */
  medicines?: string[];
  /** The analyte table key the finding concerns (e.g. `anc`, `qtc`, `egfr`). */
  analyte?: string;
  /** ISO date: when a test became due or overdue, or when the trend began. */
  since?: string | null;
  /** Where the rule comes from (guideline, label), as in docs/engines/evidence.md. */
  source: string;
}

export interface PatientReview {
  /** The highest level of any finding; `none` with no finding. */
  level: ClinicalLevel;
  /** True when any finding is `high`. */
  requiresClinicianReview: boolean;
  findings: PatientFinding[];
  /** The patient facts the review used, after reading pregnancy tests and renal results (decision 189). */
  patient: PatientContext;
  /** The age the review used (null: unknown). */
  ageYears: number | null;
}
