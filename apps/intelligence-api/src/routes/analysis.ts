import { MODELS_CHANGED_CHANNEL } from "@svc/db";
import { ApiError, type AppDeps, type AppMiddleware, browserOriginsOf, type ServiceApp } from "@svc/http";
import { type Narrator, templateNarrator } from "@svc/intelligence";
import type { AnalysisContext } from "../analysis/pipeline.js";
import { ActiveModelVersions } from "../model-versions.js";
import { registerBiomarkerAnalyze } from "./v1_biomarker_analyze.js";
import { registerDmseAnalyze } from "./v1_dmse_analyze.js";
import { registerMedicationAnalyze } from "./v1_medication_analyze.js";
import { registerOutcomeScore } from "./v1_outcome_score.js";
import { registerRelapsePredict } from "./v1_relapse_predict.js";

const DMSE_PATH = "/v1/dmse/analyze";
const CORS_MAX_AGE_SECONDS = 600;
const EXPOSED_HEADERS =
  "X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After";

/**
 * Browsers call POST /v1/dmse/analyze with a publishable key. The preflight carries no key, so it
 * is answered for an origin that some active publishable key allows; the real request is then
 * checked against its own key's allow-list (403 otherwise, see @svc/http authorize). The
 * allow-lists are cached as key lookups are (browserOriginsOf): a preflight costs no query.
 */
function registerDmsePreflight(service: ServiceApp): void {
  service.plain(
    "OPTIONS",
    DMSE_PATH,
    async (c) => {
      const origin = c.req.header("origin");
      c.header("Vary", "Origin");
      if (!origin || !(await browserOriginsOf(service.deps).allowed(origin))) {
        throw new ApiError("forbidden", "This origin is not allowed to call the API from a browser.");
      }
      c.header("Access-Control-Allow-Origin", origin);
      c.header("Access-Control-Allow-Methods", "POST");
      c.header("Access-Control-Allow-Headers", "Authorization, Content-Type");
      c.header("Access-Control-Max-Age", String(CORS_MAX_AGE_SECONDS));
      return c.body(null, 204);
    },
    null,
  );
}

/**
 * The CORS headers of the real POST, around the guard so refusals get them too (decision 20): an
 * answer to a publishable key is readable by its (already checked) origin; a refusal (401, 403,
 * 429, 400) is readable by an origin that passes the preflight, so a page whose preflight was
 * answered can tell its key's 403 or 429 from a network failure. The allow-lists are asked only
 * for refusals of browser requests.
 */
export function dmseBrowserCors(deps: AppDeps): { path: string; middleware: AppMiddleware } {
  const middleware: AppMiddleware = async (c, next) => {
    const origin = c.req.header("origin");
    if (!origin || c.req.method !== "POST") return next();
    await next();
    const auth = c.get("auth");
    const readable =
      auth?.credential === "api_key" && auth.kind === "publishable" && c.res.ok
        ? true
        : c.res.status >= 400 && (await browserOriginsOf(deps).allowed(origin));
    c.res.headers.append("Vary", "Origin");
    if (!readable) return;
    c.res.headers.set("Access-Control-Allow-Origin", origin);
    c.res.headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  };
  return { path: DMSE_PATH, middleware };
}

/**
 * The five analysis endpoints, the active-model cache they share, and the dmse CORS policy.
 * Returns the cache, so other engine runs (CDS Hooks) use the same active calibrated models.
 */
export function registerAnalysisRoutes(
  service: ServiceApp,
  options: { narrator?: Narrator; reasoningTimeoutMs?: number } = {},
): ActiveModelVersions {
  const models = new ActiveModelVersions(service.deps.db);
  service.deps.subscribe?.(MODELS_CHANGED_CHANNEL, () => models.invalidate());
  const context: AnalysisContext = {
    models,
    narrator: options.narrator ?? templateNarrator,
    logger: service.deps.logger,
    reasoningTimeoutMs: options.reasoningTimeoutMs,
  };
  registerDmsePreflight(service);
  registerDmseAnalyze(service, context);
  registerMedicationAnalyze(service, context);
  registerBiomarkerAnalyze(service, context);
  registerOutcomeScore(service, context);
  registerRelapsePredict(service, context);
  return models;
}
