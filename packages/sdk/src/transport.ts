import { ConnectionError, errorFromResponse, RedirectError, TimeoutError } from "./errors.js";
import { ANALYSIS_PATHS, IDEMPOTENT_OPERATIONS } from "./generated/meta.js";

/** Client-wide settings of the HTTP runtime; each call may override the last four. */
export interface TransportOptions {
  /**
   * A secret key (`svc_sk_test_...` or `svc_sk_live_...`), an organization key for the MSE Record
   * API (`mse_live_...`), or a publishable key (`svc_pk_...`, browser).
   */
  apiKey: string;
  /** The service origin, e.g. `https://api.example.com` (no trailing `/v1`). */
  baseUrl: string;
  /** A fetch implementation (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** Retries after the first attempt: 2 by default, 0 turns them off. */
  maxRetries?: number;
  /** Time limit of each attempt in ms (default 60 000). */
  timeoutMs?: number;
  /** First backoff delay in ms (default 500); doubles per retry, with jitter. */
  retryBaseDelayMs?: number;
  /** Longest wait before a retry in ms (default 8 000); a longer `Retry-After` is not waited for. */
  retryMaxDelayMs?: number;
}

/** Per-call settings. */
export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  /** For creates: your own key (default: one generated per call, kept across its retries). */
  idempotencyKey?: string;
  /**
   * Headers added to this call's request (every attempt), replacing the SDK's own of the same
   * name: a tracing header, or `authorization` to call with another key.
   */
  headers?: Record<string, string> | Headers;
}

const DEFAULTS = { maxRetries: 2, timeoutMs: 60_000, retryBaseDelayMs: 500, retryMaxDelayMs: 8_000 };

/** Statuses worth another attempt: request timeout, rate limit, and server-side failures. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * POSTs that only compute (the document's analyses: analysis, prediction, scoring): replaying one
 * stores nothing twice, so they are retried like GETs. Other writes without an Idempotency-Key
 * (MSE write, patch, sign, cancel, agents) are retried only when the server said it did not
 * process them (429).
 */
const PURE_POSTS = ANALYSIS_PATHS.map(templateToRegExp);

function templateToRegExp(template: string): RegExp {
  const escaped = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
    .join("[^/]+");
  return new RegExp(`^${escaped}$`);
}

const IDEMPOTENT = IDEMPOTENT_OPERATIONS.map((entry) => {
  const [method = "", template = ""] = entry.split(" ");
  return { method, pattern: templateToRegExp(template) };
});

/** Whether the operation takes an Idempotency-Key (read from the OpenAPI document). */
export function takesIdempotencyKey(method: string, pathname: string): boolean {
  return IDEMPOTENT.some((op) => op.method === method && op.pattern.test(pathname));
}

/**
 * `Retry-After` in ms: delta-seconds or an HTTP date (RFC 9110 10.2.3); undefined when absent
 * or unreadable. A date in the past is 0.
 */
export function parseRetryAfter(value: string | null, nowMs = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with the day name.
  if (!/^[A-Za-z]{3}/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Exponential backoff with jitter: half fixed, half random, so clients do not retry in step. */
export function backoffDelay(retry: number, baseMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** retry);
  return ceiling / 2 + random() * (ceiling / 2);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

type Attempt = { response: Response } | { failure: ConnectionError | TimeoutError };

/** What the runtime needs to send one call: the merged settings. */
export interface CallSettings {
  fetch: (request: Request) => Promise<Response>;
  maxRetries: number;
  timeoutMs: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  signal: AbortSignal | undefined;
  idempotencyKey: string | undefined;
  headers: Record<string, string> | Headers | undefined;
}

/**
 * A numeric setting as given, or RangeError: the retry loop and the waits are bounded only by
 * finite numbers (decision 153's class: `Number(process.env.UNSET)` is NaN, and `retry >= NaN` is
 * never true, so a NaN `maxRetries` would retry a failing call forever).
 */
function setting(name: string, value: number, least: number, integer: boolean): number {
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    value < least ||
    (integer && !Number.isInteger(value))
  ) {
    const kind = integer ? "a whole number" : "a finite number";
    throw new RangeError(`${name} must be ${kind} >= ${least}; got ${String(value)}.`);
  }
  return value;
}

/**
 * The merged settings of one call, each checked: `maxRetries` a whole number >= 0, `timeoutMs`
 * finite and > 0 (at least 1), the delays finite and >= 0; anything else throws RangeError before
 * a request is sent.
 */
export function callSettings(client: TransportOptions, call: RequestOptions = {}): CallSettings {
  return {
    fetch: client.fetch ?? ((request) => globalThis.fetch(request)),
    maxRetries: setting("maxRetries", call.maxRetries ?? client.maxRetries ?? DEFAULTS.maxRetries, 0, true),
    timeoutMs: setting("timeoutMs", call.timeoutMs ?? client.timeoutMs ?? DEFAULTS.timeoutMs, 1, false),
    retryBaseDelayMs: setting(
      "retryBaseDelayMs",
      client.retryBaseDelayMs ?? DEFAULTS.retryBaseDelayMs,
      0,
      false,
    ),
    retryMaxDelayMs: setting("retryMaxDelayMs", client.retryMaxDelayMs ?? DEFAULTS.retryMaxDelayMs, 0, false),
    signal: call.signal,
    idempotencyKey: call.idempotencyKey,
    headers: call.headers,
  };
}

async function attempt(request: Request, settings: CallSettings): Promise<Attempt> {
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = settings.signal ? AbortSignal.any([settings.signal, timeout]) : timeout;
  try {
    // `manual`: a 3xx comes back as it is, so `send` refuses it instead of following it.
    return { response: await settings.fetch(new Request(request, { signal, redirect: "manual" })) };
  } catch (error) {
    // The caller's own abort is theirs to handle: never retried, never wrapped.
    if (settings.signal?.aborted) throw settings.signal.reason;
    if (timeout.aborted) return { failure: new TimeoutError(settings.timeoutMs) };
    return {
      failure: new ConnectionError(`Could not reach ${new URL(request.url).origin}.`, { cause: error }),
    };
  }
}

/**
 * The redirect in an answer, if any: a 3xx status, a browser's opaque redirect (status 0), or an
 * answer that a caller's own fetch reached by following one (`redirected`, or another origin).
 */
function redirectIn(request: Request, response: Response): RedirectError | null {
  const opaque = response.type === "opaqueredirect";
  const status3xx = response.status >= 300 && response.status <= 399;
  const elsewhere = response.url !== "" && new URL(response.url).origin !== new URL(request.url).origin;
  if (!opaque && !status3xx && !response.redirected && !elsewhere) return null;
  return new RedirectError({
    status: status3xx ? response.status : 0,
    location: status3xx ? (response.headers.get("location") ?? undefined) : response.url || undefined,
    url: request.url,
  });
}

/** The request with the call's own headers set over the SDK's. */
function withCallHeaders(request: Request, extra: CallSettings["headers"]): Request {
  if (!extra) return request;
  const headers = new Headers(request.headers);
  for (const [name, value] of new Headers(extra)) headers.set(name, value);
  return new Request(request, { headers });
}

/**
 * Sends one call: adds the Idempotency-Key where the operation takes one (the same on every
 * retry), bounds each attempt by the timeout, and retries connection failures, timeouts, 408,
 * 429 and 5xx with exponential backoff and jitter, waiting `Retry-After` when the server gives
 * one. Answers the last response (an error status included); throws ConnectionError or
 * TimeoutError when no attempt got an answer, and the caller's abort reason when aborted. A
 * redirect is never followed: it throws RedirectError at once (decision 152).
 */
export async function send(original: Request, settings: CallSettings): Promise<Response> {
  const pathname = new URL(original.url).pathname;
  const method = original.method.toUpperCase();
  let request = withCallHeaders(original, settings.headers);
  if (takesIdempotencyKey(method, pathname) && !request.headers.has("idempotency-key")) {
    const headers = new Headers(request.headers);
    headers.set("idempotency-key", settings.idempotencyKey ?? globalThis.crypto.randomUUID());
    request = new Request(request, { headers });
  }
  const replayable =
    method === "GET" ||
    method === "HEAD" ||
    request.headers.has("idempotency-key") ||
    (method === "POST" && PURE_POSTS.some((pattern) => pattern.test(pathname)));
  for (let retry = 0; ; retry++) {
    const outcome = await attempt(request.clone(), settings);
    const last = retry >= settings.maxRetries;
    if ("failure" in outcome) {
      if (last || !replayable) throw outcome.failure;
      await sleep(backoffDelay(retry, settings.retryBaseDelayMs, settings.retryMaxDelayMs), settings.signal);
      continue;
    }
    const { response } = outcome;
    const redirect = redirectIn(request, response);
    if (redirect) {
      await response.body?.cancel();
      throw redirect;
    }
    const retryable = isRetryableStatus(response.status) && (replayable || response.status === 429);
    if (last || !retryable) return response;
    const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
    if (retryAfter !== undefined && retryAfter > settings.retryMaxDelayMs) return response;
    const delay = retryAfter ?? backoffDelay(retry, settings.retryBaseDelayMs, settings.retryMaxDelayMs);
    await response.body?.cancel();
    await sleep(delay, settings.signal);
  }
}

/** Reads an answer: the parsed JSON body, or the typed error for an error status. */
export async function readJson<T>(response: Response): Promise<T> {
  const raw = await response.text();
  let body: unknown;
  try {
    body = raw ? JSON.parse(raw) : undefined;
  } catch {
    body = raw;
  }
  if (!response.ok) throw errorFromResponse(response.status, body, response.headers, response.url);
  return body as T;
}
