import { z } from "@hono/zod-openapi";
import type { ServiceApp } from "@svc/http";
import { ENGINE_REGISTRY } from "@svc/intelligence";
import type { AnalysisContext } from "../analysis/pipeline.js";
import { registerAnalysis } from "../analysis/register.js";
import { type AnalysisResponseOf, analysisRoute, weeklyPhq9Example } from "../analysis/route.js";
import { AssessmentSchema, analysisFields } from "../schemas/common.js";
import { ConfidenceLevelSchema } from "../schemas/intelligence.js";

/** The analysis inputs (also the shape of `previous.inputs`). */
const OutcomeInputFields = {
  assessments: z.array(AssessmentSchema).max(500),
  dmseLatencyPctChange: z.number().min(-100).max(1000).optional(),
  activeMedications: z.number().int().min(0).max(100).default(0),
  biomarkerWatchCount: z.number().int().min(0).max(100).default(0),
  avgSleepHours: z.number().min(0).max(24).optional(),
};

export const OutcomeScoreRequestSchema = z
  .object({ ...OutcomeInputFields, ...analysisFields(OutcomeInputFields, "OutcomeScore") })
  .openapi("OutcomeScoreRequest");

const OutcomeDataSchema = z.object({
  generatedAt: z.string(),
  score: z.number().min(-100).max(100),
  direction: z.string(),
  confidence: ConfidenceLevelSchema,
  components: z.array(
    z.object({
      key: z.enum(["symptoms", "dmse", "medication", "biomarker", "sleep"]),
      label: z.string(),
      contribution: z.number(),
      detail: z.string(),
      available: z.boolean(),
    }),
  ),
  summaryLine: z.string(),
  sourceCount: z.number().int(),
  disclaimer: z.string(),
});

/** `data.object` of this endpoint's response (the route schema and the pipeline share it). */
const RESPONSE_OBJECT = "outcome.score" as const;

const route = analysisRoute({
  path: "/v1/outcome/score",
  operationId: "scoreOutcome",
  tag: "Analysis",
  summary: "Score treatment outcome",
  description:
    "Treatment-response composite from -100 to +100. Fuses symptoms, dmse latency, medication, biomarker and sleep sources into one signed composite. Results are not stored.",
  name: "OutcomeScore",
  object: RESPONSE_OBJECT,
  request: OutcomeScoreRequestSchema,
  data: OutcomeDataSchema,
  example: {
    assessments: weeklyPhq9Example([20, 17, 14, 11]),
    avgSleepHours: 7.5,
    dmseLatencyPctChange: -10,
  },
});

/** The body a client sends to POST /v1/outcome/score (before defaults apply). */
export type OutcomeScoreRequest = z.input<typeof OutcomeScoreRequestSchema>;
/** The 200 body of POST /v1/outcome/score, as the route's response schema declares it. */
export type OutcomeScoreResponse = AnalysisResponseOf<typeof route>;

export function registerOutcomeScore(service: ServiceApp, context: AnalysisContext): void {
  registerAnalysis(service, route, { engine: ENGINE_REGISTRY.outcome, object: RESPONSE_OBJECT }, context);
}
