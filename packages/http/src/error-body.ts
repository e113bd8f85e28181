import type { z } from "@hono/zod-openapi";
import { newId } from "@svc/ids";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./app.js";
import type { ErrorCode, ErrorEnvelopeSchema, FlatErrorSchema, Issue } from "./errors.js";
import { ERROR_CODES_PATH } from "./reference-page.js";

/** One failure, before an API gives it its own body shape. */
export interface ErrorDetails {
  code: ErrorCode;
  message: string;
  requestId: string;
  issues?: Issue[];
  /** Further top-level body fields (e.g. the MSE Record API's selection `errors`). */
  extra?: Record<string, unknown>;
}

/** How an API writes an error body; each app passes its own to createServiceApp. */
export type ErrorBodyRenderer = (error: ErrorDetails) => Record<string, unknown>;

/**
 * The Intelligence API envelope `{ ok: false, requestId, error: { code, message, docs, issues? } }`
 * (ErrorEnvelopeSchema), `docs` linking to the code on the hosted error-codes page.
 */
export function envelopeErrorBody(publicBaseUrl: string): ErrorBodyRenderer {
  const docsBase = `${publicBaseUrl.replace(/\/$/, "")}${ERROR_CODES_PATH}`;
  return ({ code, message, requestId, issues, extra }) => {
    const error: Record<string, unknown> = { code, message, docs: `${docsBase}#error-${code}` };
    if (issues) error.issues = issues;
    return { ok: false, requestId, error, ...(extra ?? {}) };
  };
}

/** An Intelligence API error body as a client reads it (what envelopeErrorBody writes). */
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/** The MSE Record API flat body `{ error, code, requestId, issues? }` (FlatErrorSchema). */
export const flatErrorBody: ErrorBodyRenderer = ({ code, message, requestId, issues, extra }) => ({
  error: message,
  code,
  requestId,
  ...(issues ? { issues } : {}),
  ...(extra ?? {}),
});

/** An MSE Record API error body as a client reads it (what flatErrorBody writes, with `errors` on 422). */
export type FlatErrorBody = z.infer<typeof FlatErrorSchema>;

/** A failure to answer: the code, status and message, plus what the body or headers add. */
export interface ErrorReply {
  code: ErrorCode;
  status: number;
  message: string;
  issues?: Issue[];
  headers?: Record<string, string>;
  extra?: Record<string, unknown>;
}

export type ErrorSender = (c: Context<AppEnv>, reply: ErrorReply) => Response;

/** Answers a failure in the API's own body shape, with the request id of the request log line. */
export function errorSender(render: ErrorBodyRenderer): ErrorSender {
  return (c, { code, status, message, issues, headers, extra }) => {
    for (const [name, value] of Object.entries(headers ?? {})) c.header(name, value);
    const requestId = c.get("requestId") ?? newId("req");
    return c.json(render({ code, message, requestId, issues, extra }), status as ContentfulStatusCode);
  };
}
