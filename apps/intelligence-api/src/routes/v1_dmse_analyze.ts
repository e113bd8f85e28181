import { z } from "@hono/zod-openapi";
import { DMSE_METRIC_REQUIRED_MESSAGE, hasDmseMetric, DMSE_METRIC_MAX as MAX } from "@svc/engines";
import type { ServiceApp } from "@svc/http";
import { ENGINE_REGISTRY } from "@svc/intelligence";
import type { AnalysisContext } from "../analysis/pipeline.js";
import { registerAnalysis } from "../analysis/register.js";
import { analysisRoute } from "../analysis/route.js";
import { analysisFields } from "../schemas/common.js";
import { ConfidenceLevelSchema, SummarySchema } from "../schemas/intelligence.js";

/** Decision 40: each history array holds at most 100 prior values, each within its metric's bounds. */
const history = (max: number) => z.array(z.number().min(0).max(max)).max(100).optional();

/** The analysis inputs (also the shape of `previous.inputs`). */
const DmseInputFields = {
  psychomotorFidgetEpisodes: z.number().min(0).max(MAX.psychomotorFidgetEpisodes).optional(),
  responseLatencySeconds: z.number().min(0).max(MAX.responseLatencySeconds).optional(),
  speechRateWpm: z.number().min(0).max(MAX.speechRateWpm).optional(),
  sustainedAttentionPct: z
    .number()
    .min(0)
    .max(MAX.sustainedAttentionPct)
    .optional()
    .openapi({ description: "Share of the session with gaze on screen." }),
  sessionDurationSeconds: z.number().min(0).max(MAX.sessionDurationSeconds).optional(),
  history: z
    .object({
      psychomotor: history(MAX.psychomotorFidgetEpisodes),
      response_latency: history(MAX.responseLatencySeconds),
      speech_rate: history(MAX.speechRateWpm),
      sustained_attention: history(MAX.sustainedAttentionPct),
    })
    .optional()
    .openapi({ description: "Prior values per signal; gives baseline and trend." }),
};

export const DmseAnalyzeRequestSchema = z
  .object({ ...DmseInputFields, ...analysisFields(DmseInputFields, "DmseAnalyze") })
  .superRefine((body, ctx) => {
    if (!hasDmseMetric(body))
      ctx.addIssue({ code: "custom", path: [], message: DMSE_METRIC_REQUIRED_MESSAGE });
  })
  .openapi("DmseAnalyzeRequest");

export const DmseSignalSchema = z
  .object({
    signalKey: z.enum(["response_latency", "psychomotor", "speech_rate", "sustained_attention"]),
    label: z.string(),
    present: z.boolean(),
    metricValue: z.number(),
    metricUnit: z.string(),
    interpretation: z.enum(["within_normal", "subclinical", "clinical_attention"]),
    referenceRange: z.string(),
    detail: z.string(),
    confidence: ConfidenceLevelSchema,
    trendDir: z.enum(["up", "down", "stable"]).optional(),
    mseLine: z.string(),
    baseline: z.object({ mean: z.number(), sd: z.number(), n: z.number() }).optional(),
  })
  .openapi("DmseSignal");

const DmseDataSchema = z.object({
  generatedAt: z.string(),
  summary: SummarySchema,
  signalsPresent: z.number().int(),
  overallConfidence: ConfidenceLevelSchema,
  signals: z.array(DmseSignalSchema).max(4),
  mseNarrative: z.array(z.string()),
  interpretationScale: z.record(z.string(), z.string()),
  disclaimer: z.string(),
});

/** `data.object` of this endpoint's response (the route schema and the pipeline share it). */
const RESPONSE_OBJECT = "dmse.analysis" as const;

const route = analysisRoute({
  path: "/v1/dmse/analyze",
  operationId: "analyzeDmse",
  tag: "Analysis",
  summary: "Analyze speech and movement",
  description:
    "Speech and movement timing to mental-status-exam signals. Derived timing numbers only (never audio or video). Publishable keys may call this endpoint from an allow-listed Origin. Results are not stored.",
  name: "DmseAnalysis",
  object: RESPONSE_OBJECT,
  request: DmseAnalyzeRequestSchema,
  data: DmseDataSchema,
  bodyRequestId: true,
  example: { responseLatencySeconds: 2.6, speechRateWpm: 120, sessionDurationSeconds: 600 },
});

/** The body a client sends to POST /v1/dmse/analyze (before defaults apply). */
export type DmseAnalyzeRequest = z.input<typeof DmseAnalyzeRequestSchema>;
/**
 * The 200 body of POST /v1/dmse/analyze, as the route's response schema declares it; this endpoint
 * always carries `requestId` (`bodyRequestId`), which the shared route builder types only loosely.
 */
export type DmseAnalysisResponse = Omit<
  z.infer<(typeof route.responses)[200]["content"]["application/json"]["schema"]>,
  "requestId"
> & { requestId: string };

export function registerDmseAnalyze(service: ServiceApp, context: AnalysisContext): void {
  registerAnalysis(service, route, { engine: ENGINE_REGISTRY.dmse, object: RESPONSE_OBJECT }, context, {
    policy: { keys: ["secret", "publishable"] },
  });
}
