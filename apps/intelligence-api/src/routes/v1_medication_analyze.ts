import { z } from "@hono/zod-openapi";
import type { ServiceApp } from "@svc/http";
import { ENGINE_REGISTRY } from "@svc/intelligence";
import type { AnalysisContext } from "../analysis/pipeline.js";
import { registerAnalysis } from "../analysis/register.js";
import { type AnalysisResponseOf, analysisRoute, weeklyPhq9Example } from "../analysis/route.js";
import { AssessmentSchema, analysisFields, LabPanelSchema, PrescriptionSchema } from "../schemas/common.js";
import { ModuleSignalSchema } from "../schemas/intelligence.js";
import { PatientContextSchema, PatientReviewSchema } from "../schemas/patient.js";

/** The analysis inputs (also the shape of `previous.inputs`). */
const MedicationInputFields = {
  prescriptions: z.array(PrescriptionSchema).max(100),
  assessments: z.array(AssessmentSchema).max(500),
  dmseLatencyPctChange: z.number().min(-100).max(1000).optional(),
  patient: PatientContextSchema.optional(),
  labs: z.array(LabPanelSchema).max(100).optional().openapi({
    description:
      "Additive (decision 198): lab panels, the shape and bounds of the biomarker request's `labs`. Read by the patient review only (each biomarker dated by its panel's observedAt); no biomarker signal is made here.",
  }),
};

export const MedicationAnalyzeRequestSchema = z
  .object({ ...MedicationInputFields, ...analysisFields(MedicationInputFields, "MedicationAnalyze") })
  .openapi("MedicationAnalyzeRequest");

const SeveritySchema = z.enum(["high", "moderate", "low"]);

const MedicationInteractionCheckSchema = z
  .object({
    status: z.enum(["checked", "not_run"]),
    notRunReason: z.string().optional(),
    highestSeverity: z.enum(["none", "low", "moderate", "high"]),
    requiresClinicianReview: z.boolean(),
    interactions: z.array(
      z.object({
        id: z.string(),
        a: z.string(),
        b: z.string(),
        severity: SeveritySchema,
        mechanism: z.string(),
        recommendation: z.string(),
        source: z.string(),
      }),
    ),
    doseAlerts: z.array(
      z.object({
        ingredient: z.string(),
        input: z.string(),
        dailyMg: z.number(),
        maximumMg: z.number(),
        severity: SeveritySchema,
        label: z.string(),
      }),
    ),
    notEvaluated: z.array(z.string()),
    recognized: z.array(z.string()),
    unrecognized: z.array(z.string()),
    warnings: z.array(z.string()),
    complete: z.boolean(),
  })
  .openapi("MedicationInteractionCheck", {
    description:
      "Additive (decision 176): the interaction and dose check of the active prescriptions (each name with its dosage and frequency when those are only strengths and timings), the same result the FHIR answer turns into DetectedIssues. A high interaction or dose finding sets intelligence.summary.requiresClinicianReview and is named in intelligence.summary.flagged. Absent when no prescription was sent.",
  });

const MedicationDataSchema = z.object({
  generatedAt: z.string(),
  signalsPresent: z.number().int(),
  signals: z.array(ModuleSignalSchema),
  disclaimer: z.string(),
  interactionCheck: MedicationInteractionCheckSchema.optional(),
  patientReview: PatientReviewSchema.optional().openapi({
    description:
      "Additive (decision 198): the patient-over-time review of `patient`, the active prescriptions (each as the interaction check reads it, started at `prescribedAt`) and every biomarker of `labs`. Present when the request sent patient facts, or lab readings with active prescriptions, or when the review of what was sent found anything; absent otherwise. A finding at moderate or high, or one not assessed, sets intelligence.summary.requiresClinicianReview and is named in intelligence.summary.flagged (`Patient review (<level>): <title>`); every finding is counted in the headline. `summary.status` keeps describing the symptom scores. The patient's age (ageYears, or birthDate) is also used by interactionCheck's age-dependent dose limits.",
  }),
});

/** `data.object` of this endpoint's response (the route schema and the pipeline share it). */
const RESPONSE_OBJECT = "medication.analysis" as const;

const route = analysisRoute({
  path: "/v1/medication/analyze",
  operationId: "analyzeMedication",
  tag: "Analysis",
  summary: "Analyze medication response",
  description:
    "Symptom-scale trajectory before and after each active prescription. Compares the instrument with the most administrations before and after each active prescription's start date; optional latency corroboration. Results are not stored.",
  name: "MedicationAnalysis",
  object: RESPONSE_OBJECT,
  request: MedicationAnalyzeRequestSchema,
  data: MedicationDataSchema,
  example: {
    prescriptions: [
      { id: "rx_1", medicationName: "Sertraline 50 mg", status: "active", prescribedAt: "2026-06-20" },
    ],
    assessments: weeklyPhq9Example([20, 19, 19, 16, 14, 12, 10]),
  },
});

/** The body a client sends to POST /v1/medication/analyze (before defaults apply). */
export type MedicationAnalyzeRequest = z.input<typeof MedicationAnalyzeRequestSchema>;
/** The 200 body of POST /v1/medication/analyze, as the route's response schema declares it. */
export type MedicationAnalysisResponse = AnalysisResponseOf<typeof route>;

export function registerMedicationAnalyze(service: ServiceApp, context: AnalysisContext): void {
  registerAnalysis(service, route, { engine: ENGINE_REGISTRY.medication, object: RESPONSE_OBJECT }, context);
}
