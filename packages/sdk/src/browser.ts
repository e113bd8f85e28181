/**
 * The browser entry: one call, dmse analyze, with a publishable key (allowed origins only). No
 * Node module, no telemetry: fetch, AbortSignal and the Web Crypto API are all it needs.
 */
import { createCore, unwrap } from "./core.js";
import { analysisCall } from "./format.js";
import type { DmseAnalyzeRequest } from "./resources.js";
import type { RequestOptions } from "./transport.js";

export * from "./errors.js";
export type { AnalysisCall, FormatOptions } from "./format.js";
export type { DmseAnalysis, DmseAnalyzeRequest, FhirBundle } from "./resources.js";
export type { RequestOptions } from "./transport.js";

export interface BrowserClientOptions {
  /** A publishable key (`svc_pk_...`) whose allowed origins include this page's. */
  publishableKey: string;
  baseUrl: string;
  maxRetries?: number;
  timeoutMs?: number;
  /** A fetch implementation (default: the page's fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

export function createBrowserClient(options: BrowserClientOptions) {
  const core = createCore({ ...options, apiKey: options.publishableKey });
  return {
    dmse: {
      /** The analysis (`{ format: "fhir" }`: as a FHIR Bundle). */
      analyze: analysisCall((body: DmseAnalyzeRequest, call?: RequestOptions) =>
        unwrap(core.raw.POST("/v1/dmse/analyze", { body, ...core.init(call) })),
      ),
    },
  };
}

export type BrowserClient = ReturnType<typeof createBrowserClient>;
