import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "./errors.js";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const BODY_TOO_LARGE_MESSAGE = "The request body is larger than 1 MB.";

const JSON_CONTENT_TYPE = /^application\/(.+\+)?json\b/i;

function bodyTooLarge(): ApiError {
  return new ApiError("invalid_request", BODY_TOO_LARGE_MESSAGE, { status: 413 });
}

/**
 * Content type and declared size of a body, decided before anything reads it. True when the body
 * is chunked: its size is then only known while it is read (see `chunkedBodyLimit`).
 */
export function checkBodyHeaders(c: Context, limitBytes: number): boolean {
  const method = c.req.method;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return false;
  const length = c.req.header("content-length");
  const chunked = c.req.header("transfer-encoding") !== undefined;
  const hasBody = length ? Number(length) > 0 : chunked;
  const type = c.req.header("content-type") ?? "";
  if (hasBody && !JSON_CONTENT_TYPE.test(type)) {
    throw new ApiError("invalid_request", "Send the body as JSON with Content-Type: application/json.", {
      issues: [{ path: "", message: "Content-Type must be application/json." }],
    });
  }
  // A declared length is checked from the header alone: touching the raw body stream here would
  // make the server build a full web Request for every call (a fifth of the cost of a request).
  if (length && !chunked) {
    if (Number(length) > limitBytes) throw bodyTooLarge();
    return false;
  }
  return chunked;
}

/** Counts a chunked body while it is read and refuses it past the limit (413). */
export function chunkedBodyLimit(limitBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: limitBytes,
    onError: () => {
      throw bodyTooLarge();
    },
  });
}
