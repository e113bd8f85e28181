import createFetchClient, { type Client } from "openapi-fetch";
import { errorFromResponse } from "./errors.js";
import type { paths } from "./generated/openapi.js";
import { callSettings, type RequestOptions, send, type TransportOptions } from "./transport.js";

/** The typed path client (openapi-fetch) over our runtime: every operation of the document. */
export type RawClient = Client<paths, "application/json">;

/** What each call hands openapi-fetch: our fetch (retries, timeout, idempotency) for this call. */
export type CallInit = { fetch: (request: Request) => Promise<Response> };

export interface Core {
  raw: RawClient;
  /** The per-call init: pass to a `raw` call as `{ ...params, ...core.init(options) }`. */
  init(options?: RequestOptions): CallInit;
}

export function createCore(options: TransportOptions): Core {
  // A client setting that is not a usable number throws here, at creation, not on the first call.
  callSettings(options);
  const raw = createFetchClient<paths, "application/json">({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: { authorization: `Bearer ${options.apiKey}` },
    fetch: (request) => send(request, callSettings(options)),
  });
  return {
    raw,
    init: (call) => ({ fetch: (request: Request) => send(request, callSettings(options, call)) }),
  };
}

/** The data of a 2xx answer, or the typed error of any other. */
export async function unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(
  pending: Promise<R>,
): Promise<NonNullable<R["data"]>> {
  const result = await pending;
  if (!result.response.ok) {
    const { status, headers, url } = result.response;
    throw errorFromResponse(status, result.error, headers, url);
  }
  return result.data as NonNullable<R["data"]>;
}
