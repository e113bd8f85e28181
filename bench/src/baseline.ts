import {
  BiomarkerAnalyzeRequestSchema,
  DmseAnalyzeRequestSchema,
  MedicationAnalyzeRequestSchema,
  OutcomeScoreRequestSchema,
  RelapsePredictRequestSchema,
} from "@svc/intelligence-api";
import type { z } from "zod";

/**
 * What the baseline server does per route: parse the body, validate it with the same zod request
 * schema the API uses, and answer a canned JSON body of the same size as the API's answer
 * (captured from the API before the run). No auth, no rate limit, no engine, no framework.
 */
export type BaselineHandler = (body: unknown) => { status: number; body: unknown };

const schemas: Record<string, z.ZodType> = {
  "POST /v1/dmse/analyze": DmseAnalyzeRequestSchema,
  "POST /v1/medication/analyze": MedicationAnalyzeRequestSchema,
  "POST /v1/biomarker/analyze": BiomarkerAnalyzeRequestSchema,
  "POST /v1/outcome/score": OutcomeScoreRequestSchema,
  "POST /v1/relapse/predict": RelapsePredictRequestSchema,
};

/** `answers`: route -> the API's own response body for the scenario (same size on the wire). */
export function baselineHandlers(answers: Record<string, unknown>): Record<string, BaselineHandler> {
  const handlers: Record<string, BaselineHandler> = {};
  for (const [route, answer] of Object.entries(answers)) {
    const schema = schemas[route];
    handlers[route] = (body) => {
      if (schema && !schema.safeParse(body).success) return { status: 400, body: { ok: false } };
      return { status: 200, body: answer };
    };
  }
  return handlers;
}
