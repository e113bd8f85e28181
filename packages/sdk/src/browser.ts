/**
 * The browser entry: one call, dmse analyze, with a publishable key (allowed origins only). No
 * Node module, no telemetry: fetch, AbortSignal and the Web Crypto API are all it needs.
 */
import { createCore, unwrap } from "./core.js";
import type { paths } from "./generated/openapi.js";
import type { RequestOptions } from "./transport.js";

export * from "./errors.js";
export type { RequestOptions } from "./transport.js";

export type DmseAnalyzeRequest = NonNullable<
  paths["/v1/dmse/analyze"]["post"]["requestBody"]
>["content"]["application/json"];

export interface BrowserClientOptions {
  /** A publishable key (`pk_...`) whose allowed origins include this page's. */
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
      analyze: (body: DmseAnalyzeRequest, call?: RequestOptions) =>
        unwrap(core.raw.POST("/v1/dmse/analyze", { body, ...core.init(call) })),
    },
  };
}

export type BrowserClient = ReturnType<typeof createBrowserClient>;
