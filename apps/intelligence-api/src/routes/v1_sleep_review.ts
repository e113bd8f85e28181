import { z } from "@hono/zod-openapi";
import type { ServiceApp } from "@svc/http";
import { ENGINE_REGISTRY } from "@svc/intelligence";
import type { AnalysisContext } from "../analysis/pipeline.js";
import { registerAnalysis } from "../analysis/register.js";
import { analysisRoute } from "../analysis/route.js";
import { analysisFields } from "../schemas/common.js";

/** The analysis inputs (also the shape of `previous.inputs`). */
const SleepInputFields = {
  avgSleepHours: z.number().min(0).max(24).optional(),
};

export const SleepReviewRequestSchema = z
  .object({ ...SleepInputFields, ...analysisFields(SleepInputFields, "SleepReview") })
  .openapi("SleepReviewRequest");

const SleepDataSchema = z.object({
  generatedAt: z.string(),
  status: z.enum(["insufficient_data", "short", "recommended", "long"]),
  summaryLine: z.string(),
  disclaimer: z.string(),
});

/** `data.object` of this endpoint's response (the route schema and the pipeline share it). */
const RESPONSE_OBJECT = "sleep.review" as const;

const route = analysisRoute({
  path: "/v1/sleep/review",
  operationId: "reviewSleep",
  tag: "Analysis",
  summary: "Review sleep duration",
  description:
    "Average nightly sleep against the adult recommendation: short, recommended or long; no sleep supplied is not evaluated. Results are not stored.",
  name: "SleepReview",
  object: RESPONSE_OBJECT,
  request: SleepReviewRequestSchema,
  data: SleepDataSchema,
  example: { avgSleepHours: 6 },
});

/** The body a client sends to POST /v1/sleep/review (before defaults apply). */
export type SleepReviewRequest = z.input<typeof SleepReviewRequestSchema>;
/** The 200 body of POST /v1/sleep/review, as the route's response schema declares it. */
export type SleepReviewResponse = z.infer<
  (typeof route.responses)[200]["content"]["application/json"]["schema"]
>;

export function registerSleepReview(service: ServiceApp, context: AnalysisContext): void {
  registerAnalysis(service, route, { engine: ENGINE_REGISTRY.sleep, object: RESPONSE_OBJECT }, context);
}
