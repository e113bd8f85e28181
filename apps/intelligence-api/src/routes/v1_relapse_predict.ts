import { z } from "@hono/zod-openapi";
import type { ServiceApp } from "@svc/http";
import { ENGINE_REGISTRY } from "@svc/intelligence";
import type { AnalysisContext } from "../analysis/pipeline.js";
import { registerAnalysis } from "../analysis/register.js";
import { type AnalysisResponseOf, analysisRoute, weeklyPhq9Example } from "../analysis/route.js";
import { AssessmentSchema, analysisFields } from "../schemas/common.js";
import { ConfidenceLevelSchema } from "../schemas/intelligence.js";

/** The analysis inputs (also the shape of `previous.inputs`). */
const RelapseInputFields = {
  assessments: z.array(AssessmentSchema).max(500),
  dmseLatencyPctChange: z.number().min(-100).max(1000).optional(),
  avgSleepHours: z.number().min(0).max(24).optional(),
  daysSinceMedChange: z.number().int().min(0).max(3650).optional(),
  hasActiveMedication: z.boolean().default(false),
  daysSinceLastVisit: z.number().int().min(0).max(3650).optional(),
};

export const RelapsePredictRequestSchema = z
  .object({ ...RelapseInputFields, ...analysisFields(RelapseInputFields, "RelapsePredict") })
  .openapi("RelapsePredictRequest");

const RelapseDataSchema = z.object({
  generatedAt: z.string(),
  score: z.number().min(0).max(100),
  level: z.enum(["low", "moderate", "elevated", "high"]),
  trend: z.string(),
  confidence: ConfidenceLevelSchema,
  topDriver: z.string(),
  factors: z.array(
    z.object({
      key: z.enum(["symptoms", "sleep", "dmse", "medication", "cadence"]),
      label: z.string(),
      points: z.number(),
      maxPoints: z.number(),
      tone: z.string(),
      available: z.boolean(),
      detail: z.string(),
    }),
  ),
  summaryLine: z.string(),
  recommendation: z.string(),
  sourceCount: z.number().int(),
  disclaimer: z.string(),
});

/** `data.object` of this endpoint's response (the route schema and the pipeline share it). */
const RESPONSE_OBJECT = "relapse.prediction" as const;

const route = analysisRoute({
  path: "/v1/relapse/predict",
  operationId: "predictRelapse",
  tag: "Analysis",
  summary: "Predict relapse risk",
  description:
    "Additive 0-100 relapse early-warning score. Every factor with its points and a conservative recommendation; nothing is auto-actioned and nothing is stored.",
  name: "RelapsePrediction",
  object: RESPONSE_OBJECT,
  request: RelapsePredictRequestSchema,
  data: RelapseDataSchema,
  example: {
    assessments: weeklyPhq9Example([8, 10, 14, 17]),
    avgSleepHours: 5,
    daysSinceLastVisit: 60,
  },
});

/** The body a client sends to POST /v1/relapse/predict (before defaults apply). */
export type RelapsePredictRequest = z.input<typeof RelapsePredictRequestSchema>;
/** The 200 body of POST /v1/relapse/predict, as the route's response schema declares it. */
export type RelapsePredictionResponse = AnalysisResponseOf<typeof route>;

export function registerRelapsePredict(service: ServiceApp, context: AnalysisContext): void {
  registerAnalysis(service, route, { engine: ENGINE_REGISTRY.relapse, object: RESPONSE_OBJECT }, context);
}
