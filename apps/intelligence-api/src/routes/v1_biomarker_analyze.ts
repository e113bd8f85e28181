import { z } from "@hono/zod-openapi";
import type { ServiceApp } from "@svc/http";
import { ENGINE_REGISTRY } from "@svc/intelligence";
import type { AnalysisContext } from "../analysis/pipeline.js";
import { registerAnalysis } from "../analysis/register.js";
import { type AnalysisResponseOf, analysisRoute } from "../analysis/route.js";
import { analysisFields, LabPanelSchema, PrescriptionSchema } from "../schemas/common.js";
import { ModuleSignalSchema } from "../schemas/intelligence.js";
import { PatientContextSchema, PatientReviewSchema } from "../schemas/patient.js";

/** The analysis inputs (also the shape of `previous.inputs`). */
const BiomarkerInputFields = {
  labs: z.array(LabPanelSchema).min(1).max(100),
  patient: PatientContextSchema.optional(),
  prescriptions: z.array(PrescriptionSchema).max(100).optional().openapi({
    description:
      "Additive (decision 198): the prescriptions, the shape and bounds of the medication request's. Read by the patient review only: each active one is a medicine taken, started at `prescribedAt` (a prescription without it has an unknown start).",
  }),
};

export const BiomarkerAnalyzeRequestSchema = z
  .object({ ...BiomarkerInputFields, ...analysisFields(BiomarkerInputFields, "BiomarkerAnalyze") })
  .openapi("BiomarkerAnalyzeRequest");

const BiomarkerDataSchema = z.object({
  generatedAt: z.string(),
  signalsPresent: z.number().int(),
  signals: z.array(ModuleSignalSchema),
  disclaimer: z.string(),
  valueFindings: z
    .array(
      z.object({
        analyte: z.string(),
        panelId: z.string(),
        observedAt: z.string().nullable(),
        finding: z.enum(["critical", "not_evaluated_unit", "implausible", "out_of_range"]),
        current: z.boolean(),
        labFlag: z.string().nullable(),
        detail: z.string(),
        level: z.enum(["none", "low", "moderate", "high"]).optional().openapi({
          description:
            "Additive (decision 182): the one clinical level of the reading, as the agent tool (`risk.level`), MCP, the CDS card and the FHIR answer read it; for a value not evaluated, the level it holds at the least (never `none`).",
        }),
      }),
    )
    .openapi({
      description:
        "Additive (decision 67): readings beyond a sourced critical limit (current or earlier), readings not evaluated for their unit, and implausible values, whatever their laboratory flag; and (decision 182) the current reading of an analyte the laboratory did not flag that is outside the service's range (`out_of_range`). A current value beyond a critical limit, outside the range or not evaluated is also named in intelligence.summary.flagged; each sets requiresClinicianReview at level moderate or above (a value not evaluated always), and an out-of-range one raises the status to its level (low: watch, moderate: elevated). Bounded (decision 171): every current finding, and of earlier ones the newest 3 per analyte and kind; the rest are counted in `omitted`.",
    }),
  omitted: z
    .object({
      unrecognisedSignals: z.number().int(),
      unrecognisedCritical: z.number().int(),
      critical: z.number().int(),
      notEvaluatedUnit: z.number().int(),
      implausible: z.number().int(),
    })
    .optional()
    .openapi({
      description:
        "Additive (decision 171), present only when something was left out: flagged analytes not in the psychiatric-relevance map beyond the 20 worst kept in `signals` (and how many of them were flagged critical; the status, headline and review flag still count them), and earlier (non-current) value findings left out of `valueFindings`, by kind. No current finding is ever left out.",
    }),
  patientReview: PatientReviewSchema.optional().openapi({
    description:
      "Additive (decision 198): the patient-over-time review of `patient`, every biomarker of every panel (dated by its panel's observedAt, with its unit and flag) and the active `prescriptions` (started at `prescribedAt`). Present when the request sent patient facts, or active prescriptions with lab readings, or when the review of the readings found anything (an ECG or a trend finding); absent otherwise. A finding at moderate or high, or one not assessed, sets intelligence.summary.requiresClinicianReview and is named in intelligence.summary.flagged (`Patient review (<level>): <title>`); every finding is counted in the headline. `summary.status` keeps describing the readings.",
  }),
});

/** `data.object` of this endpoint's response (the route schema and the pipeline share it). */
const RESPONSE_OBJECT = "biomarker.analysis" as const;

const route = analysisRoute({
  path: "/v1/biomarker/analyze",
  operationId: "analyzeBiomarkers",
  tag: "Analysis",
  summary: "Analyze biomarkers",
  description:
    "Psychiatric relevance of abnormally flagged lab biomarkers. Emits a signal only for readings flagged high, low or critical; normal readings are ignored. Results are not stored.",
  name: "BiomarkerAnalysis",
  object: RESPONSE_OBJECT,
  request: BiomarkerAnalyzeRequestSchema,
  data: BiomarkerDataSchema,
  example: {
    labs: [
      {
        id: "lab_1",
        labName: "Reference Lab",
        observedAt: "2026-07-01",
        results: {
          biomarkers: [
            { name: "TSH", value: 7.2, unit: "mIU/L", flag: "high" },
            { name: "Sodium", value: 140, unit: "mmol/L", flag: "normal" },
          ],
        },
      },
    ],
  },
});

/** The body a client sends to POST /v1/biomarker/analyze (before defaults apply). */
export type BiomarkerAnalyzeRequest = z.input<typeof BiomarkerAnalyzeRequestSchema>;
/** The 200 body of POST /v1/biomarker/analyze, as the route's response schema declares it. */
export type BiomarkerAnalysisResponse = AnalysisResponseOf<typeof route>;

export function registerBiomarkerAnalyze(service: ServiceApp, context: AnalysisContext): void {
  registerAnalysis(service, route, { engine: ENGINE_REGISTRY.biomarker, object: RESPONSE_OBJECT }, context);
}
