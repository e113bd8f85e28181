/**
 * The one refusal below HTTP (decision 206): data access (`@svc/db`, `@svc/records`,
 * `@svc/delivery`, an API's own stores) throws a `Refusal` with a code of the contract's error
 * vocabulary, and each door maps it in one place: the HTTP error handler to the status of
 * `codeToStatus` and the API's error body, the operator CLI to its message and exit code 1, the
 * dashboard to a problem page. No HTTP framework, database or network client here.
 */

/** The one error vocabulary of both APIs. Clients branch on these codes; never repurpose one. */
export const ERROR_CODES = [
  "invalid_request",
  "unauthorized",
  "invalid_token",
  "payment_required",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "conflict",
  "invalid_transition",
  "idempotency_in_progress",
  "idempotency_key_reused",
  "invalid_selection",
  "prefetch_unavailable",
  "rate_limited",
  "server_error",
  "service_unavailable",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The HTTP status the contract gives each code (an HTTP refusal may name another, e.g. 413). */
export const codeToStatus: Record<
  ErrorCode,
  400 | 401 | 402 | 403 | 404 | 405 | 409 | 412 | 413 | 422 | 429 | 500 | 503
> = {
  invalid_request: 400,
  unauthorized: 401,
  invalid_token: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_transition: 409,
  idempotency_in_progress: 409,
  idempotency_key_reused: 422,
  invalid_selection: 422,
  prefetch_unavailable: 412,
  rate_limited: 429,
  server_error: 500,
  service_unavailable: 503,
};

/** What failed, by path (`assessments.3.score`, `cursor`), and a sentence saying why. */
export interface Issue {
  path: string;
  message: string;
}

/** What a refusal carries besides its code and message. */
export interface RefusalOptions {
  /** What failed, by path (the contract's `issues[]`). */
  issues?: Issue[];
  /** Further fields of the answer (e.g. the MSE Record API's selection `errors`). */
  extra?: Record<string, unknown>;
}

/**
 * A refusal made on purpose: the request cannot be done as asked, and the message says why in
 * words the caller may read (never an internal detail). Anything else thrown is a failure.
 */
export class Refusal extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: RefusalOptions = {},
  ) {
    super(message);
    this.name = "Refusal";
  }
}
