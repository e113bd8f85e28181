import { z } from "@hono/zod-openapi";
import { codeToStatus, ERROR_CODES, type Issue, Refusal, type RefusalOptions } from "@svc/refusal";

export { codeToStatus, ERROR_CODES, type Issue } from "@svc/refusal";

/** The vocabulary as a schema, for the OpenAPI document and the body schemas below. */
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** One line per code for the reference page; `docs` links point here. */
export const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  invalid_request:
    "The body is not valid JSON, fails schema validation (see `issues`), or is over 1 MB (413).",
  unauthorized: "The Authorization header is missing or is not `Bearer <key>`.",
  invalid_token: "The key is unknown, mistyped (checksum) or revoked.",
  payment_required: "A live key needs a paid plan and approved production access.",
  forbidden: "The key is valid but not allowed here (kind, origin, scope or organization).",
  not_found: "No such route, or no such resource for this account.",
  method_not_allowed: "The route exists but not with this HTTP method; see the Allow header.",
  conflict: "The request conflicts with the resource's current state.",
  invalid_transition: "The resource cannot move to the requested state from its current one.",
  idempotency_in_progress: "A request with this Idempotency-Key is still being processed.",
  idempotency_key_reused: "This Idempotency-Key was used with a different request body.",
  invalid_selection: "An MSE selection fails catalog validation; `errors` lists each problem.",
  prefetch_unavailable:
    "A CDS Hooks call: data the service needs was neither prefetched nor fetchable from the EHR's FHIR server (CDS Hooks 2.0.1 answers 412); `message` says which and why.",
  rate_limited: "Too many requests for this key, account or organization; honor Retry-After.",
  server_error: "Unexpected error on our side; retry with backoff and quote the requestId.",
  service_unavailable:
    "A dependency (e.g. the agent model) is temporarily unavailable, or the 30 s limit passed; the request's writes were rolled back. Retry with backoff, with the same Idempotency-Key where the operation takes one.",
};

/** A refusal's options, and what only HTTP has: a status other than the code's, response headers. */
export interface ApiErrorOptions extends RefusalOptions {
  status?: number;
  headers?: Record<string, string>;
}

/**
 * A refusal the HTTP layer makes itself, with what only HTTP has: a status other than the code's
 * (413 for an oversized body) and response headers (Retry-After, Allow). Data access throws the
 * plain `Refusal` (decision 206); the error handler answers both.
 */
export class ApiError extends Refusal {
  readonly status: number;
  declare readonly options: ApiErrorOptions;
  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(code, message, options);
    this.name = "ApiError";
    this.status = options.status ?? codeToStatus[code];
  }
}

export const IssueSchema = z.object({ path: z.string(), message: z.string() }).openapi("Issue");

/** Intelligence API failure envelope. */
export const ErrorEnvelopeSchema = z
  .object({
    ok: z.literal(false),
    requestId: z.string().openapi({ example: "req_01jd3k8w6t1x9c0q2m4n5p7r8s" }),
    error: z.object({
      code: ErrorCode,
      message: z.string(),
      docs: z.string().url(),
      issues: z.array(IssueSchema).optional(),
    }),
  })
  .openapi("ErrorEnvelope");

/** MSE Record API flat error (`code` and `requestId` are additive to the contract's `error`). */
export const FlatErrorSchema = z
  .object({
    error: z.string(),
    code: ErrorCode,
    requestId: z.string(),
    issues: z
      .array(IssueSchema)
      .optional()
      .openapi({ description: "400 invalid_request: what failed, by path." }),
    errors: z
      .array(z.object({ domain: z.string(), value: z.string().optional(), message: z.string() }))
      .optional(),
  })
  .openapi("FlatError");

/** Zod issues as the contract's `issues[]`: a dotted path (`assessments.3.score`) and a sentence. */
export function zodIssues(error: z.ZodError): Issue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
}
