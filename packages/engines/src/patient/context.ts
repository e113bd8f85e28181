/**
 * Who the patient is (decision 189): the structured facts a prescriber asks first (age, sex,
 * pregnancy and breastfeeding, weight, renal and hepatic function), given by a caller or read
 * from the EHR. Every field is optional and an absent field is unknown, never "normal": a rule
 * that needs it says it was not evaluated. Every door builds one `PatientContext` and hands it to
 * `reviewPatient` (review.ts); no door reads these facts on its own.
 */
import { parseTime } from "../shared.js";

export const SEXES = ["female", "male", "other", "unknown"] as const;
export type PatientSex = (typeof SEXES)[number];

/** `possible`: may become pregnant (of childbearing potential, no pregnancy excluded). */
export const PREGNANCY_STATUSES = ["pregnant", "possible", "not_pregnant", "unknown"] as const;
export type PregnancyStatus = (typeof PREGNANCY_STATUSES)[number];

export const HEPATIC_IMPAIRMENTS = ["none", "mild", "moderate", "severe", "unknown"] as const;
export type HepaticImpairment = (typeof HEPATIC_IMPAIRMENTS)[number];

/**
 * Where a fact came from: the caller's structured field, the EHR (resource type and id), or one of
 * the review's dated readings (a pregnancy test, an eGFR; decision 191).
 */
export const PATIENT_FACT_SOURCE_KINDS = ["request", "ehr", "reading"] as const;

export interface PatientFactSource {
  kind: (typeof PATIENT_FACT_SOURCE_KINDS)[number];
  /** e.g. "Patient/123", "Observation/abc", or the reading ("eGFR 52 mL/min/1.73m2 (2026-07-01)"); absent for a request field. */
  reference?: string;
}

export interface PatientContext {
  /** Whole years; wins over `birthDate` when both are given. */
  ageYears?: number;
  /** ISO 8601 date (YYYY-MM-DD); the age is computed at the review's `now`. */
  birthDate?: string;
  sex?: PatientSex;
  pregnancy?: PregnancyStatus;
  breastfeeding?: boolean;
  weightKg?: number;
  /** eGFR in mL/min/1.73 m2. */
  egfr?: number;
  /** Creatinine clearance (Cockcroft-Gault) in mL/min. */
  creatinineClearance?: number;
  hepaticImpairment?: HepaticImpairment;
  /** Per field, where it came from (CDS: the EHR resource); absent fields are the caller's. */
  sources?: Partial<Record<Exclude<keyof PatientContext, "sources">, PatientFactSource>>;
}

/** Bounds every door validates against (one definition; the JSON, agent and MCP schemas read it). */
export const PATIENT_CONTEXT_LIMITS = {
  ageYears: { min: 0, max: 130 },
  weightKg: { min: 0.2, max: 700 },
  egfr: { min: 0, max: 250 },
  creatinineClearance: { min: 0, max: 300 },
} as const;

const MS_PER_DAY = 86_400_000;

/** Whole years between a birth date and `now`, or null when the date cannot be read or is in the future. */
export function ageAt(birthDate: string, now: Date): number | null {
  const born = parseTime(birthDate);
  if (born === null || born > now.getTime() + MS_PER_DAY) return null;
  const birth = new Date(born);
  let years = now.getUTCFullYear() - birth.getUTCFullYear();
  const beforeBirthday =
    now.getUTCMonth() < birth.getUTCMonth() ||
    (now.getUTCMonth() === birth.getUTCMonth() && now.getUTCDate() < birth.getUTCDate());
  if (beforeBirthday) years -= 1;
  return Math.max(0, years);
}

/** The patient's age at `now`: `ageYears` when given, else from `birthDate`, else null (unknown). */
export function patientAge(patient: PatientContext | undefined, now: Date): number | null {
  if (patient?.ageYears !== undefined && Number.isFinite(patient.ageYears)) return patient.ageYears;
  if (patient?.birthDate !== undefined) return ageAt(patient.birthDate, now);
  return null;
}

/** True when the context says nothing at all (every door treats it as absent). */
export function isEmptyPatientContext(patient: PatientContext | undefined): boolean {
  if (patient === undefined) return true;
  return Object.entries(patient).every(([key, value]) => key === "sources" || value === undefined);
}
