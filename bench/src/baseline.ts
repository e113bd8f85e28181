import {
  BiomarkerAnalyzeRequestSchema,
  DmseAnalyzeRequestSchema,
  MedicationAnalyzeRequestSchema,
  OutcomeScoreRequestSchema,
  RelapsePredictRequestSchema,
} from "@svc/intelligence-api";
import type { z } from "zod";

/**
 * What a baseline server does per route, given the parsed body and the Authorization header: the
 * answer's status and body. Both baselines answer with the API's own body for the scenario
 * (captured before the run), serialised per request, so every side sends the same bytes. No rate
 * limit, no engine, no framework.
 */
export type BaselineHandler = (
  body: unknown,
  authorization: string | undefined,
) => {
  status: number;
  body: unknown;
};

const schemas: Record<string, z.ZodType> = {
  "POST /v1/dmse/analyze": DmseAnalyzeRequestSchema,
  "POST /v1/medication/analyze": MedicationAnalyzeRequestSchema,
  "POST /v1/biomarker/analyze": BiomarkerAnalyzeRequestSchema,
  "POST /v1/outcome/score": OutcomeScoreRequestSchema,
  "POST /v1/relapse/predict": RelapsePredictRequestSchema,
};

/**
 * The zod baseline: validates the body with the same zod request schema the API uses (no auth).
 * `answers`: route -> the API's own response body for the scenario (same size on the wire).
 */
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

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const DMSE_METRICS = [
  "psychomotorFidgetEpisodes",
  "responseLatencySeconds",
  "speechRateWpm",
  "sustainedAttentionPct",
  "sessionDurationSeconds",
];

/** A few fields checked by hand per route: what a minimal hand-written server would look at. */
const handChecks: Record<string, (body: unknown) => boolean> = {
  "GET /v1/ping": () => true,
  "POST /v1/dmse/analyze": (body) => isObject(body) && DMSE_METRICS.some((k) => typeof body[k] === "number"),
  "POST /v1/medication/analyze": (body) =>
    isObject(body) && Array.isArray(body.prescriptions) && Array.isArray(body.assessments),
  "POST /v1/biomarker/analyze": (body) => isObject(body) && Array.isArray(body.labs),
  "POST /v1/outcome/score": (body) => isObject(body) && Array.isArray(body.assessments),
  "POST /v1/relapse/predict": (body) => isObject(body) && Array.isArray(body.assessments),
};

/**
 * The hand-checked baseline (the outside measurement): the Authorization header's shape
 * and a few fields checked by hand, then the API's body for the scenario. The physical floor of a
 * JSON API on node:http.
 */
export function handCheckedHandlers(answers: Record<string, unknown>): Record<string, BaselineHandler> {
  const handlers: Record<string, BaselineHandler> = {};
  for (const [route, answer] of Object.entries(answers)) {
    const check = handChecks[route] ?? (() => true);
    handlers[route] = (body, authorization) => {
      if (!authorization?.startsWith("Bearer svc_") || authorization.length < 30)
        return { status: 401, body: { ok: false } };
      if (!check(body)) return { status: 400, body: { ok: false } };
      return { status: 200, body: answer };
    };
  }
  return handlers;
}
