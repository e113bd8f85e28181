import { ERROR_CODES } from "./generated/meta.js";

/** An `error.code` the API answers (generated from the OpenAPI document's enum). */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** One validation problem, as the API lists them in `issues` on 400 invalid_request. */
export interface Issue {
  path: (string | number)[];
  message: string;
  code?: string;
}

/** What every API error carries, whichever body shape the API answered in. */
export interface ApiErrorFields {
  status: number;
  code: string;
  message: string;
  requestId: string | undefined;
  issues: Issue[] | undefined;
  /**
   * Link to the code on the service's error-codes page: the envelope's own, or for the MSE Record
   * API's flat body (which carries none) the same page on the origin that answered.
   */
  docs: string | undefined;
  /** The parsed error body as received (e.g. the MSE Record API's `errors` on 422). */
  body: unknown;
  headers: Headers;
}

/**
 * An answer with an error status. Catch the subclass for one code (`NotFoundError`,
 * `RateLimitedError`, ...), or this class for all; a code this SDK does not know yet is an
 * ApiError itself with that `code`.
 */
export class ApiError extends Error implements ApiErrorFields {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  readonly issues: Issue[] | undefined;
  readonly docs: string | undefined;
  readonly body: unknown;
  readonly headers: Headers;

  constructor(fields: ApiErrorFields) {
    super(fields.message);
    this.name = new.target.name;
    this.status = fields.status;
    this.code = fields.code;
    this.requestId = fields.requestId;
    this.issues = fields.issues;
    this.docs = fields.docs;
    this.body = fields.body;
    this.headers = fields.headers;
  }
}

export class InvalidRequestError extends ApiError {}
export class UnauthorizedError extends ApiError {}
export class InvalidTokenError extends ApiError {}
export class PaymentRequiredError extends ApiError {}
export class ForbiddenError extends ApiError {}
export class NotFoundError extends ApiError {}
export class MethodNotAllowedError extends ApiError {}
export class ConflictError extends ApiError {}
export class InvalidTransitionError extends ApiError {}
export class IdempotencyInProgressError extends ApiError {}
export class IdempotencyKeyReusedError extends ApiError {}
export class InvalidSelectionError extends ApiError {}
export class PrefetchUnavailableError extends ApiError {}
export class RateLimitedError extends ApiError {}
export class ServerError extends ApiError {}
export class ServiceUnavailableError extends ApiError {}

/** One class per code; typed over the generated enum, so a new code fails the typecheck here. */
export const ERROR_CLASSES: Record<ErrorCode, new (fields: ApiErrorFields) => ApiError> = {
  invalid_request: InvalidRequestError,
  unauthorized: UnauthorizedError,
  invalid_token: InvalidTokenError,
  payment_required: PaymentRequiredError,
  forbidden: ForbiddenError,
  not_found: NotFoundError,
  method_not_allowed: MethodNotAllowedError,
  conflict: ConflictError,
  invalid_transition: InvalidTransitionError,
  idempotency_in_progress: IdempotencyInProgressError,
  idempotency_key_reused: IdempotencyKeyReusedError,
  invalid_selection: InvalidSelectionError,
  prefetch_unavailable: PrefetchUnavailableError,
  rate_limited: RateLimitedError,
  server_error: ServerError,
  service_unavailable: ServiceUnavailableError,
};

/** The request never got an answer: DNS, refused or reset connection (after the retries). */
export class ConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ConnectionError";
  }
}

/**
 * The answer was a redirect (3xx). The SDK follows none (decision 152): a redirect would send the
 * call, and a write's body of patient data, to another origin, and that origin's JSON would read
 * as the API's answer. Not retried; the request went to `url`, the answer pointed at `location`.
 */
export class RedirectError extends Error {
  /** The redirect status (301, 302, 303, 307, 308, ...); 0 when a browser hides it (opaque redirect). */
  readonly status: number;
  /** The `Location` the answer named, when it could be read. */
  readonly location: string | undefined;
  /** Where the request was sent. */
  readonly url: string;
  constructor(fields: { status: number; location: string | undefined; url: string }) {
    const status = fields.status === 0 ? "a redirect" : `HTTP ${fields.status}`;
    const to = fields.location ? ` to ${fields.location}` : "";
    super(
      `The service answered ${status}${to}; the SDK follows no redirect. Check baseUrl (scheme, host, no trailing path): it must be the API's own origin.`,
    );
    this.name = "RedirectError";
    this.status = fields.status;
    this.location = fields.location;
    this.url = fields.url;
  }
}

/** An attempt took longer than `timeoutMs` (after the retries). */
export class TimeoutError extends Error {
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`The request took longer than ${timeoutMs} ms.`);
    this.name = "TimeoutError";
    this.timeoutMs = timeoutMs;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function isErrorCode(code: string): code is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(code);
}

/** Fallback code from the status when the body names none (e.g. a proxy's HTML 502). */
function codeForStatus(status: number): string {
  if (status === 429) return "rate_limited";
  if (status === 503) return "service_unavailable";
  if (status >= 500) return "server_error";
  if (status === 404) return "not_found";
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  return "invalid_request";
}

/** Where each service serves its error codes, one anchor per code (`#error-<code>`). */
export const ERROR_CODES_PATH = "/docs/errors";

/** The error-codes link for a known code on the origin of `url`, or undefined. */
function docsLink(code: string, url: string | undefined): string | undefined {
  if (!url || !isErrorCode(code)) return undefined;
  try {
    return `${new URL(url).origin}${ERROR_CODES_PATH}#error-${code}`;
  } catch {
    return undefined;
  }
}

/**
 * The typed error for an error answer. Reads both body shapes: the Intelligence API envelope
 * `{ ok: false, requestId, error: { code, message, docs, issues } }` and the MSE Record API's flat
 * `{ error: "<message>", code, requestId, issues?, errors? }`. `url` (where the answer came from)
 * gives the flat body's error its `docs` link, as the envelope's has.
 */
export function errorFromResponse(status: number, body: unknown, headers: Headers, url?: string): ApiError {
  const record = isRecord(body) ? body : {};
  const nested = isRecord(record.error) ? record.error : undefined;
  const source = nested ?? record;
  const code = text(source.code) ?? codeForStatus(status);
  const message =
    text(nested?.message) ?? text(record.error) ?? text(record.message) ?? `HTTP ${status} (${code})`;
  const issues = Array.isArray(source.issues) ? (source.issues as Issue[]) : undefined;
  const fields: ApiErrorFields = {
    status,
    code,
    message,
    requestId: text(record.requestId) ?? headers.get("x-request-id") ?? undefined,
    issues,
    docs: nested ? text(nested.docs) : docsLink(code, url),
    body,
    headers,
  };
  const ErrorClass = isErrorCode(code) ? ERROR_CLASSES[code] : ApiError;
  return new ErrorClass(fields);
}
