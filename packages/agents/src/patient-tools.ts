import {
  type AgentRisk,
  type DatedReading,
  doorPatientReview,
  doseCheckOptions,
  HEPATIC_IMPAIRMENTS,
  type InteractionCheckOptions,
  PATIENT_CONTEXT_LIMITS,
  type PatientContext,
  type PatientReview,
  PREGNANCY_STATUSES,
  parseTime,
  patientReviewRisk,
  type ReviewMedicine,
  reviewPatient,
  SEXES,
} from "@svc/engines";
import type { ChatTool } from "@svc/model";
import { z } from "zod";
import { AGENT_INPUT_LIMITS as LIMITS } from "./limits.js";

/**
 * The patient-over-time review as the agents and MCP take it (decision 198): one schema of the
 * patient context (the JSON answers read the same factory), the shapes of medicines with their
 * start dates and of dated readings, and the `reviewPatient` tool around the engines' one
 * `reviewPatient`. Schemas are factories, as in record-tools.ts, so an app that loads
 * @hono/zod-openapi first can annotate them.
 */

const MS_PER_DAY = 86_400_000;
const ISO_DATE_SHAPE = /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An ISO 8601 date or timestamp that names a real instant (the JSON answers' `IsoDate` rule). */
export const isoDateSchema = () =>
  z
    .string()
    .max(40)
    .refine((value) => ISO_DATE_SHAPE.test(value) && parseTime(value) !== null, {
      message: "must be an ISO 8601 date or timestamp",
    });

/** A calendar date that exists (2026-02-30 does not). */
function isCalendarDate(value: string): boolean {
  const match = CALENDAR_DATE.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * A birth date: a calendar date, not in the future (a day's grace for time zones), and no older
 * than the oldest age the context accepts.
 */
const birthDateSchema = () =>
  z
    .string()
    .max(40)
    .refine(isCalendarDate, { message: "must be a calendar date YYYY-MM-DD" })
    .refine((value) => (parseTime(value) ?? Number.POSITIVE_INFINITY) <= Date.now() + MS_PER_DAY, {
      message: "must not be in the future",
    })
    .refine(
      (value) =>
        (parseTime(value) ?? 0) >=
        Date.now() - (PATIENT_CONTEXT_LIMITS.ageYears.max + 1) * 365.25 * MS_PER_DAY,
      { message: `must give an age of at most ${PATIENT_CONTEXT_LIMITS.ageYears.max} years` },
    );

const PATIENT_FIELDS = [
  "ageYears",
  "birthDate",
  "sex",
  "pregnancy",
  "breastfeeding",
  "weightKg",
  "egfr",
  "creatinineClearance",
  "hepaticImpairment",
] as const;

const bounded = (limits: { min: number; max: number }) => z.number().min(limits.min).max(limits.max);

/**
 * Who the patient is (`PatientContext`, decision 189): every field optional, an absent field
 * unknown. Strict: a key the context does not have is refused, naming it and the fields it takes,
 * so a misspelt fact ("pregnant") is never dropped silently. `sources` is not taken from callers:
 * a request's facts are the caller's.
 */
export const patientContextSchema = () =>
  z.strictObject(
    {
      ageYears: z
        .number()
        .int({ error: "must be whole years (an integer)" })
        .min(PATIENT_CONTEXT_LIMITS.ageYears.min)
        .max(PATIENT_CONTEXT_LIMITS.ageYears.max)
        .optional()
        .describe("Age in whole years; wins over birthDate when both are given."),
      birthDate: birthDateSchema()
        .optional()
        .describe("Birth date YYYY-MM-DD, not in the future; the age is reckoned at the review's date."),
      sex: z.enum(SEXES).optional().describe("Sex: female, male, other or unknown."),
      pregnancy: z
        .enum(PREGNANCY_STATUSES)
        .optional()
        .describe(
          "pregnant; possible (may become pregnant: of childbearing potential, pregnancy not excluded); not_pregnant; unknown.",
        ),
      breastfeeding: z.boolean().optional().describe("Whether the patient is breastfeeding."),
      weightKg: bounded(PATIENT_CONTEXT_LIMITS.weightKg).optional().describe("Body weight in kg."),
      egfr: bounded(PATIENT_CONTEXT_LIMITS.egfr).optional().describe("eGFR in mL/min/1.73 m2."),
      creatinineClearance: bounded(PATIENT_CONTEXT_LIMITS.creatinineClearance)
        .optional()
        .describe("Creatinine clearance (Cockcroft-Gault) in mL/min."),
      hepaticImpairment: z
        .enum(HEPATIC_IMPAIRMENTS)
        .optional()
        .describe("Hepatic impairment: none, mild, moderate, severe or unknown."),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `Unrecognized key${issue.keys.length === 1 ? "" : "s"} in patient: ${issue.keys.map((key) => `"${key}"`).join(", ")}; patient takes ${PATIENT_FIELDS.join(", ")}`
          : undefined,
    },
  );

export type PatientContextInput = z.infer<ReturnType<typeof patientContextSchema>>;

/** One medicine with what is known of its start: the first start, not the latest renewal. */
export const reviewMedicinesSchema = () =>
  z
    .array(
      z.strictObject({
        name: z
          .string()
          .trim()
          .min(1)
          .max(LIMITS.medicationMaxChars)
          .describe("Name, with a dose when known."),
        startedAt: isoDateSchema()
          .nullable()
          .optional()
          .describe("When the medicine was first started (not the latest renewal); absent or null: unknown."),
        doseChangedAt: isoDateSchema()
          .nullable()
          .optional()
          .describe("When the dose last changed, where known (null: unknown)."),
      }),
    )
    .max(LIMITS.reviewMedicines.max);

/** The value of a dated reading: a number, or a result in words ("positive" for a pregnancy test). */
const readingValue = () => z.union([z.number(), z.string().trim().min(1).max(LIMITS.readingTextMaxChars)]);

/** Dated readings (laboratory, ECG, weight, pregnancy test) for the review's series and schedules. */
export const reviewReadingsSchema = () =>
  z
    .array(
      z.strictObject({
        analyte: z
          .string()
          .trim()
          .min(1)
          .max(LIMITS.nameMaxChars)
          .describe('The analyte: "QTc", "ANC", "creatinine".'),
        value: readingValue(),
        unit: z.string().trim().min(1).max(LIMITS.unitMaxChars).optional(),
        observedAt: isoDateSchema()
          .optional()
          .describe("When it was measured; an undated reading cannot be placed in a series or a schedule."),
        flag: z
          .enum(["high", "low", "critical"])
          .optional()
          .describe("The laboratory's flag, when it gave one."),
      }),
    )
    .max(LIMITS.reviewReadings.max);

export interface ReviewPatientToolInput {
  patient?: PatientContextInput;
  medicines?: { name: string; startedAt?: string | null; doseChangedAt?: string | null }[];
  readings?: {
    analyte: string;
    value: number | string;
    unit?: string;
    observedAt?: string;
    flag?: DatedReading["flag"];
  }[];
  /** The review's date (ISO 8601); absent: now. */
  asOf?: string;
}

/** The tool's answer: the review, the date it was reckoned at, and its findings as an agent risk. */
export type ReviewPatientOutput = PatientReview & { asOf: string; risk: AgentRisk };

function reviewMedicines(input: ReviewPatientToolInput): ReviewMedicine[] {
  return (input.medicines ?? []).map((medicine) => ({
    name: medicine.name,
    startedAt: medicine.startedAt ?? null,
    doseChangedAt: medicine.doseChangedAt ?? null,
    ...(medicine.startedAt === undefined || medicine.startedAt === null
      ? {}
      : { startSource: "caller's startedAt" }),
  }));
}

function reviewReadings(input: ReviewPatientToolInput): DatedReading[] {
  return (input.readings ?? []).map((reading) => ({
    analyte: reading.analyte,
    value: reading.value,
    ...(reading.unit === undefined ? {} : { unit: reading.unit }),
    observedAt: reading.observedAt ?? null,
    flag: reading.flag ?? null,
  }));
}

/** The clock of a review: `asOf` when given (a readable date), else the caller's now. */
function reviewDate(asOf: string | undefined, now: Date): Date {
  const at = asOf === undefined ? null : parseTime(asOf);
  return at === null ? now : new Date(at);
}

/** The patient context with the request's facts only (`sources` is the EHR's, never a caller's). */
function contextOf(patient: PatientContextInput | undefined): PatientContext | undefined {
  return patient === undefined ? undefined : { ...patient };
}

/** The tool: always the whole review, as asked for. */
export function reviewPatientFor(input: ReviewPatientToolInput, now = new Date()): ReviewPatientOutput {
  const at = reviewDate(input.asOf, now);
  const patient = contextOf(input.patient);
  const review = reviewPatient({
    ...(patient === undefined ? {} : { patient }),
    medicines: reviewMedicines(input),
    readings: reviewReadings(input),
    now: at,
  });
  return { ...review, asOf: at.toISOString(), risk: patientReviewRisk(review) };
}

/**
 * An agent's review of its request (decision 198): null when the answer carries none (the one
 * rule the JSON answers follow, `doorPatientReview`), else the review with its risk.
 */
export function agentPatientReview(input: ReviewPatientToolInput, now: Date): ReviewPatientOutput | null {
  const at = reviewDate(input.asOf, now);
  const patient = contextOf(input.patient);
  const review = doorPatientReview({
    ...(patient === undefined ? {} : { patient }),
    medicines: reviewMedicines(input),
    readings: reviewReadings(input),
    now: at,
  });
  return review === null ? null : { ...review, asOf: at.toISOString(), risk: patientReviewRisk(review) };
}

/** The dose check's patient options (age, hepatic impairment) at `asOf` (or now): the engines' one helper. */
export function doseOptionsFor(
  patient: PatientContextInput | undefined,
  asOf?: string,
): InteractionCheckOptions {
  return doseCheckOptions(contextOf(patient), reviewDate(asOf, new Date()));
}

export const reviewPatientTool: ChatTool<ReviewPatientToolInput, ReviewPatientOutput> = {
  name: "reviewPatient",
  description:
    "Reviews the patient over time: who the patient is (age or birth date, sex, pregnancy, breastfeeding, weight, eGFR or creatinine clearance, hepatic impairment) against the medicines taken, the ECG, the monitoring the medicines call for (from their first start dates) and the trends of dated readings. Returns each finding with its level, whether it could be assessed, what it concerns, since when and its source, the highest level, and the findings as a risk. An absent fact is unknown, never normal.",
  inputSchema: z.strictObject({
    patient: patientContextSchema().optional(),
    medicines: reviewMedicinesSchema().optional(),
    readings: reviewReadingsSchema().optional(),
    asOf: isoDateSchema().optional().describe("The review's date (ISO 8601); absent: now."),
  }),
  execute: (input) => reviewPatientFor(input),
};
