import type { Db } from "@svc/db";
import { createLogger, MemoryRateLimiter } from "@svc/http";
import { buildIntelligenceApi } from "@svc/intelligence-api";
import { z } from "zod";

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

/**
 * The zod request schema of every analysis endpoint (the POSTs tagged Analysis), keyed "POST
 * path", read from the API's own routes: the API is built as `pnpm openapi:write` builds it,
 * registering routes without touching a database, so a new engine's endpoint is validated here too.
 */
function analysisRequestSchemas(): Record<string, z.ZodType> {
  const service = buildIntelligenceApi({
    db: null as unknown as Db, // route registration never queries
    limiter: new MemoryRateLimiter(),
    logger: createLogger({ level: "silent" }),
    publicBaseUrl: "http://localhost:3000",
  });
  const schemas: Record<string, z.ZodType> = {};
  for (const definition of service.app.openAPIRegistry.definitions) {
    if (definition.type !== "route" || !definition.route.tags?.includes("Analysis")) continue;
    const { method, path, request } = definition.route;
    const json = request?.body?.content["application/json"];
    const schema = json && "schema" in json ? json.schema : undefined;
    if (method === "post" && schema instanceof z.ZodType) schemas[`POST ${path}`] = schema;
  }
  return schemas;
}

/**
 * The zod baseline: validates the body with the same zod request schema the API uses (no auth).
 * `answers`: route -> the API's own response body for the scenario (same size on the wire).
 */
export function baselineHandlers(answers: Record<string, unknown>): Record<string, BaselineHandler> {
  const schemas = analysisRequestSchemas();
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

/**
 * A few fields checked by hand per route: what a minimal hand-written server would look at. A POST
 * not listed (a new engine's) is checked to carry a JSON object.
 */
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
    const check = handChecks[route] ?? (route.startsWith("POST ") ? isObject : () => true);
    handlers[route] = (body, authorization) => {
      if (!authorization?.startsWith("Bearer svc_") || authorization.length < 30)
        return { status: 401, body: { ok: false } };
      if (!check(body)) return { status: 400, body: { ok: false } };
      return { status: 200, body: answer };
    };
  }
  return handlers;
}
