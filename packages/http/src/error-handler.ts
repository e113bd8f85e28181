import { codeToStatus, Refusal } from "@svc/refusal";
import type { ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { Logger } from "pino";
import type { AppEnv } from "./app.js";
import { BODY_TOO_LARGE_MESSAGE } from "./body-checks.js";
import type { ErrorReply, ErrorSender } from "./error-body.js";
import { ApiError } from "./errors.js";

const SERVER_ERROR: ErrorReply = {
  code: "server_error",
  status: 500,
  message: "Something went wrong on our side. Retry with backoff and quote the requestId.",
};

/** What Hono itself throws (an unreadable or oversized body) in the error vocabulary; else undefined. */
function honoFailure(err: HTTPException): ErrorReply | undefined {
  if (err.status === 413) return { code: "invalid_request", status: 413, message: BODY_TOO_LARGE_MESSAGE };
  if (err.status === 400) {
    const message = /json/i.test(err.message)
      ? "The body is not valid JSON."
      : "The request could not be read.";
    return { code: "invalid_request", status: 400, message, issues: [{ path: "", message }] };
  }
  return undefined;
}

/** PostgreSQL's SQLSTATE for a statement cancelled by `statement_timeout` (query_canceled). */
const QUERY_CANCELED = "57014";

/**
 * A statement the database cancelled at its statement timeout (set a little under the request's
 * time limit, decision 111): the same 503 as the time limit itself, since the caller's outcome is
 * the same (the transaction rolled back; retry, with an Idempotency-Key where the route takes one).
 * Drizzle wraps the driver's error, so the code may be on the cause.
 */
function statementTimedOut(err: unknown): ErrorReply | undefined {
  const codeOf = (e: unknown) => (e as { code?: unknown } | undefined)?.code;
  if (codeOf(err) !== QUERY_CANCELED && codeOf((err as { cause?: unknown })?.cause) !== QUERY_CANCELED)
    return undefined;
  return {
    code: "service_unavailable",
    status: 503,
    message: "The request did not finish in time; nothing it was writing was kept.",
  };
}

/**
 * A refusal as the answer it is given, the one place a `Refusal` becomes HTTP (decision 206): an
 * ApiError with its own status and headers, any other with its code's status.
 */
function refusalReply(refusal: Refusal): ErrorReply {
  const { issues, extra } = refusal.options;
  const own = refusal instanceof ApiError;
  return {
    code: refusal.code,
    status: own ? refusal.status : codeToStatus[refusal.code],
    message: refusal.message,
    issues,
    headers: own ? refusal.options.headers : undefined,
    extra,
  };
}

/**
 * app.onError: a refusal (the data access's `Refusal` or an ApiError) as itself, Hono's body
 * errors as invalid_request, anything else as a logged 500 that never echoes the internal message.
 */
export function errorHandler(send: ErrorSender, logger: Logger): ErrorHandler<AppEnv> {
  return (err, c) => {
    if (err instanceof Refusal) {
      const reply = refusalReply(err);
      // The rest of an oversized body is never read: tell the client not to reuse the socket.
      if (reply.status === 413) c.header("Connection", "close");
      return send(c, reply);
    }
    const known = err instanceof HTTPException ? honoFailure(err) : statementTimedOut(err);
    if (known) return send(c, known);
    // Never echo or log an internal message: it may hold SQL text or input values.
    logger.error(
      {
        requestId: c.get("requestId"),
        errName: (err as Error)?.name,
        errCode: (err as { code?: unknown })?.code,
      },
      "unhandled error",
    );
    return send(c, SERVER_ERROR);
  };
}
