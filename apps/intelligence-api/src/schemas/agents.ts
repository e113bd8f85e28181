import { z } from "@hono/zod-openapi";
import {
  instrumentSubmissionsSchema,
  isoDateSchema,
  AGENT_INPUT_LIMITS as LIMITS,
  medicationEntryKey,
  medicationListSchema,
  panelReadingsSchema,
  relapseSignalsSchema,
} from "@svc/agents";
import {
  AgentPatientReviewSchema,
  PatientContextSchema,
  ReviewMedicinesSchema,
  ReviewReadingsSchema,
} from "./patient.js";

/**
 * Request and response shapes of the record-level agents (interface spec, "Agent endpoints" and
 * "Agent response envelope"). The bounds come from AGENT_INPUT_LIMITS, the one definition the
 * tool schemas and the MCP server also read.
 */

export const AgentPatientIdParamSchema = z.object({
  patientId: z
    .string()
    .min(1)
    .max(128)
    .openapi({
      param: { name: "patientId", in: "path" },
      description: "Your own patient id, echoed back.",
      example: "pt_4821",
    }),
});

const ContextSchema = z.string().max(LIMITS.contextMaxChars).optional().openapi({
  description:
    "Free-text context for the model (up to 2000 characters); data, never instructions. Read only by a language model: without one configured (`runner: deterministic`) the answer says the context was not read, in `warnings` and as a not-evaluated item of `risk` (decision 198). Give patient facts as the structured `patient` fields.",
});

const AgentPatientSchema = PatientContextSchema.optional().openapi({
  description:
    "Optional, additive (decision 198): who the patient is, for the patient review (`patientReview`, whose findings are in `risk`). The medication agent's dose check also reads the age.",
});

const MedicationStartsSchema = z
  .array(
    z.strictObject({
      medication: z
        .string()
        .trim()
        .min(1)
        .max(LIMITS.medicationMaxChars)
        .openapi({ description: "An entry of `medications`, as written there (spacing and case aside)." }),
      startedAt: isoDateSchema()
        .optional()
        .openapi({ description: "When it was first started (not the latest renewal)." }),
      doseChangedAt: isoDateSchema().optional().openapi({ description: "When the dose last changed." }),
    }),
  )
  .max(LIMITS.medications.max)
  .optional()
  .openapi({
    description:
      "Optional, additive (decision 198): when entries of `medications` were first started and last changed dose, for the patient review's monitoring and factor rules; an entry without one has an unknown start. Each names an entry of `medications` (400 otherwise).",
  });

export const MedicationAgentRequestSchema = z
  .object({
    medications: medicationListSchema().openapi({
      description: "1-50 medication names, each with an optional dose.",
      example: ["sertraline 100 mg", "tramadol 50 mg"],
    }),
    patient: AgentPatientSchema,
    medicationStarts: MedicationStartsSchema,
    readings: ReviewReadingsSchema.optional(),
    context: ContextSchema,
  })
  .superRefine((body, ctx) => {
    const entries = new Set(body.medications.map(medicationEntryKey));
    for (const [index, start] of (body.medicationStarts ?? []).entries()) {
      if (!entries.has(medicationEntryKey(start.medication)))
        ctx.addIssue({
          code: "custom",
          path: ["medicationStarts", index, "medication"],
          message: `"${start.medication}" is not an entry of medications`,
        });
    }
  })
  .openapi("MedicationAgentRequest");

export const BiomarkerAgentRequestSchema = z
  .object({
    panel: panelReadingsSchema().openapi({
      description:
        "1-50 readings. `unit` (optional, additive; UCUM or a common spelling such as cells/uL or umol/L) is converted to the analyte's canonical unit. Without a unit a value is read only in the one accepted unit that makes it plausible (lithium mmol/L = mEq/L; creatinine 3.5 only as mg/dL); where several do, it is critical when it is beyond a critical limit in every one (neutrophils 0.4) and otherwise not evaluated (decisions 65, 180). `observedAt` (optional, additive, decision 198) dates a reading for the patient review's series and schedules; the flags do not read it.",
      example: [
        { analyte: "lithium", value: 1.6, unit: "mmol/L" },
        { analyte: "ANC", value: 1200, unit: "cells/uL" },
      ],
    }),
    benignEthnicNeutropenia: z.boolean().optional().openapi({
      description:
        "Optional, additive: benign ethnic neutropenia documented by a clinician. Only the US clozapine label category of a neutrophil count names the BEN table; flags and critical limits never loosen. Absent: general-population thresholds (decision 66).",
    }),
    patient: AgentPatientSchema,
    medicines: ReviewMedicinesSchema.optional(),
    context: ContextSchema,
  })
  .openapi("BiomarkerAgentRequest");

export const OutcomeAgentRequestSchema = z
  .object({
    instruments: instrumentSubmissionsSchema().openapi({
      description:
        "1-20 instruments, each with `responses` (item answers in order, each 0-10, up to 30) or `total` (0-200), and an optional `priorTotal`.",
      example: [{ instrument: "PHQ-9", responses: [2, 2, 1, 2, 1, 1, 1, 1, 1], priorTotal: 18 }],
    }),
    context: ContextSchema,
  })
  .openapi("OutcomeAgentRequest");

export const RelapseAgentRequestSchema = z
  .object({
    signals: relapseSignalsSchema().openapi({
      description: "1-30 signals, each an indicator name and a severity from 0 to 1.",
      example: [{ indicator: "sleep_disruption", severity: 0.7 }],
    }),
    context: ContextSchema,
  })
  .openapi("RelapseAgentRequest");

const RiskSchema = z
  .object({
    flag: z.boolean(),
    level: z.enum(["none", "low", "moderate", "high"]),
    labels: z.array(z.string()),
  })
  .openapi("AgentRisk");

const ReasoningSchema = z
  .object({
    narrative: z.string(),
    generatedAt: z.string(),
    narrator: z.enum(["model", "template"]).openapi({ description: "Additive: who wrote the narrative." }),
  })
  .nullable();

const ObservationSource = z.enum(["engine", "model"]);

const MedicationAssessmentSchema = z.looseObject({
  interactions: z.array(
    z.looseObject({
      a: z.string(),
      b: z.string(),
      severity: z.enum(["high", "moderate", "low"]),
      mechanism: z.string(),
      recommendation: z.string(),
      source: z.string().openapi({ description: "Additive: where the interaction is documented." }),
    }),
  ),
  recognized: z.array(z.string()),
  unrecognized: z.array(z.string()),
  observations: z.array(
    z.looseObject({ medication: z.string(), note: z.string(), source: ObservationSource }),
  ),
});

const BiomarkerAssessmentSchema = z.looseObject({
  results: z.array(
    z.looseObject({
      analyte: z.string(),
      value: z.number(),
      unit: z.string(),
      flag: z.enum(["low", "normal", "high", "critical_low", "critical_high"]),
      range: z.string(),
    }),
  ),
  unrecognized: z.array(z.string()),
  observations: z.array(z.looseObject({ analyte: z.string(), note: z.string(), source: ObservationSource })),
});

const OutcomeAssessmentSchema = z.looseObject({
  results: z.array(
    z.looseObject({
      instrument: z.string(),
      total: z.number(),
      severity: z.string(),
      trajectory: z.enum(["improved", "worsened", "unchanged", "no_prior"]),
      change: z.number().optional(),
      reliableChange: z.boolean().optional(),
    }),
  ),
  unrecognized: z.array(z.string()),
  observations: z.array(
    z.looseObject({ instrument: z.string(), note: z.string(), source: ObservationSource }),
  ),
});

const RelapseAssessmentSchema = z.looseObject({
  compositeScore: z.number().min(0).max(100),
  band: z.enum(["low", "moderate", "elevated", "high"]),
  contributing: z.array(
    z.looseObject({
      indicator: z.string(),
      label: z.string(),
      severity: z.number(),
      contribution: z.number(),
    }),
  ),
  unrecognized: z.array(z.string()),
  observations: z.array(
    z.looseObject({ indicator: z.string(), note: z.string(), source: ObservationSource }),
  ),
});

function agentEnvelope<A extends z.ZodType>(object: string, assessment: A, name: string) {
  return z
    .object({
      ok: z.literal(true),
      data: z.object({
        object: z.literal(object),
        patientId: z.string(),
        mode: z.literal("advisory"),
        ok: z.boolean().openapi({ description: "False: a partial draft; see warnings." }),
        assessment: assessment.nullable(),
        risk: RiskSchema,
        reasoning: ReasoningSchema,
        citations: z.array(z.string()),
        toolCalls: z.array(z.string()),
        steps: z.number().int(),
        warnings: z.array(z.string()),
        runner: z
          .enum(["model", "deterministic"])
          .openapi({ description: "Additive: a model's tool loop, or the fixed deterministic tool plan." }),
        patientReview: AgentPatientReviewSchema.optional().openapi({
          description:
            "Additive (decision 198), medication and biomarker agents: the patient-over-time review of `patient`, the medicines (with starts) and the dated readings, its findings also in `risk` (one level; a finding not assessed at least low). Present when the request sent patient facts, or medicines with readings, or when the review found anything; absent otherwise.",
        }),
        disclaimer: z.string(),
      }),
    })
    .openapi(name);
}

export const MedicationAgentResponseSchema = agentEnvelope(
  "medication.agent.assessment",
  MedicationAssessmentSchema,
  "MedicationAgentResponse",
);
export const BiomarkerAgentResponseSchema = agentEnvelope(
  "biomarker.agent.assessment",
  BiomarkerAssessmentSchema,
  "BiomarkerAgentResponse",
);
export const OutcomeAgentResponseSchema = agentEnvelope(
  "outcome.agent.assessment",
  OutcomeAssessmentSchema,
  "OutcomeAgentResponse",
);
export const RelapseAgentResponseSchema = agentEnvelope(
  "relapse.agent.assessment",
  RelapseAssessmentSchema,
  "RelapseAgentResponse",
);

export type MedicationAgentRequest = z.input<typeof MedicationAgentRequestSchema>;
export type BiomarkerAgentRequest = z.input<typeof BiomarkerAgentRequestSchema>;
export type OutcomeAgentRequest = z.input<typeof OutcomeAgentRequestSchema>;
export type RelapseAgentRequest = z.input<typeof RelapseAgentRequestSchema>;
export type MedicationAgentResponse = z.infer<typeof MedicationAgentResponseSchema>;
export type BiomarkerAgentResponse = z.infer<typeof BiomarkerAgentResponseSchema>;
export type OutcomeAgentResponse = z.infer<typeof OutcomeAgentResponseSchema>;
export type RelapseAgentResponse = z.infer<typeof RelapseAgentResponseSchema>;
