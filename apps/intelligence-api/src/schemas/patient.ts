import { z } from "@hono/zod-openapi";
import {
  AGENT_INPUT_LIMITS as LIMITS,
  patientContextSchema,
  reviewMedicinesSchema,
  reviewReadingsSchema,
} from "@svc/agents";
import {
  CLINICAL_LEVELS,
  HEPATIC_IMPAIRMENTS,
  PATIENT_FACT_SOURCE_KINDS,
  PATIENT_FINDING_KINDS,
  PREGNANCY_STATUSES,
  SEXES,
} from "@svc/engines";

/**
 * The patient over time in the API (decision 198): the one patient context schema every request
 * takes (the factory the agents and MCP validate with, bounds from `PATIENT_CONTEXT_LIMITS`), and
 * the review every answer carries in the same shape (`PatientReview`).
 */

export const PatientContextSchema = patientContextSchema().openapi("PatientContext", {
  description:
    "Additive (decision 198): who the patient is. Every field is optional; an absent field is unknown, never normal, and a rule that needs it says it was not evaluated. Unknown keys are refused (400 naming them), so a misspelt fact is never dropped. `ageYears` wins over `birthDate`.",
  example: { ageYears: 70, sex: "female", pregnancy: "not_pregnant", egfr: 52 },
});

/** The agents' dated readings and medicines with starts (the reviewPatient tool's shapes). */
export const ReviewReadingsSchema = reviewReadingsSchema().openapi({
  description: `Additive (decision 198): up to ${LIMITS.reviewReadings.max} dated readings (laboratory, ECG, weight, pregnancy test) for the patient review: analyte, value (a number, or a result in words such as "positive"), optional unit, observedAt and laboratory flag.`,
});

export const ReviewMedicinesSchema = reviewMedicinesSchema().openapi({
  description: `Additive (decision 198): up to ${LIMITS.reviewMedicines.max} medicines with the date each was first started (not the latest renewal) and of the last dose change, for the patient review's monitoring and factor rules. A medicine without startedAt has an unknown start.`,
});

const SourceSchema = z.object({
  kind: z.enum(PATIENT_FACT_SOURCE_KINDS),
  reference: z.string().optional(),
});

/** The patient facts a review used (the request's, completed from readings; `sources` for EHR facts). */
const PatientFactsSchema = z
  .object({
    ageYears: z.number().optional(),
    birthDate: z.string().optional(),
    sex: z.enum(SEXES).optional(),
    pregnancy: z.enum(PREGNANCY_STATUSES).optional(),
    breastfeeding: z.boolean().optional(),
    weightKg: z.number().optional(),
    egfr: z.number().optional(),
    creatinineClearance: z.number().optional(),
    hepaticImpairment: z.enum(HEPATIC_IMPAIRMENTS).optional(),
    sources: z.record(z.string(), SourceSchema).optional(),
  })
  .openapi("PatientFacts", {
    description:
      "The patient facts the review used: the request's, completed from the readings (a pregnancy test, an eGFR) where the request did not give them; `sources` says where a fact came from when not from the request.",
  });

export const PatientFindingSchema = z
  .object({
    kind: z.enum(PATIENT_FINDING_KINDS),
    rule: z.string().openapi({ description: "Stable machine id of the rule." }),
    level: z.enum(CLINICAL_LEVELS).openapi({
      description:
        "The one clinical level (decision 182); a finding that could not be assessed is at least `low` in every door.",
    }),
    assessed: z
      .boolean()
      .openapi({ description: "False: something was given or needed but could not be judged." }),
    title: z.string(),
    detail: z.string(),
    medicines: z.array(z.string()).optional(),
    analyte: z.string().optional(),
    since: z.string().nullable().optional().openapi({
      description: "When a test became due or overdue, or when a trend began (ISO date).",
    }),
    source: z.string().openapi({ description: "Where the rule comes from (docs/engines/evidence.md)." }),
  })
  .openapi("PatientFinding");

export const PatientReviewSchema = z
  .object({
    level: z
      .enum(CLINICAL_LEVELS)
      .openapi({ description: "The highest level of any finding; `none` with none." }),
    requiresClinicianReview: z.boolean().openapi({ description: "True when any finding is `high`." }),
    findings: z.array(PatientFindingSchema).openapi({ description: "Highest level first." }),
    patient: PatientFactsSchema,
    ageYears: z.number().nullable().openapi({ description: "The age the review used (null: unknown)." }),
  })
  .openapi("PatientReview", {
    description:
      "Additive (decision 198): the patient-over-time review (decision 189) of who the patient is against the medicines, the ECG, the monitoring the medicines call for and the trends of dated readings. The same review, by the same rules, in the JSON answers, the agents and MCP.",
  });

/** An agent's review: with the date it was reckoned at and its findings as the agent's risk. */
export const AgentPatientReviewSchema = PatientReviewSchema.extend({
  asOf: z.string().openapi({ description: "The date the review was reckoned at." }),
  risk: z.object({
    flag: z.boolean(),
    level: z.enum(["none", "low", "moderate", "high"]),
    labels: z.array(z.string()),
  }),
}).openapi("AgentPatientReview");
