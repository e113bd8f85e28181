import { z } from "@hono/zod-openapi";
import {
  finding,
  type HygieneIssue,
  MAX_REPORTED_ISSUES,
  screenJsonBytes,
  textProblem,
} from "@svc/json-screen";
import type { Refusal } from "@svc/refusal";
import type { Context } from "hono";
import { ApiError, type Issue } from "./errors.js";
import { answerJsonWith, cacheBodyText } from "./framework-internals.js";
import { splitRequestUrl } from "./request-url.js";

export * from "@svc/json-screen";

/**
 * Input hygiene (decision 29): one screen over every request to a /v1 route of either API, run
 * after authentication and before any handler, so no handler, validator, database or log ever
 * sees what it cannot handle. What it refuses, each with 400 `invalid_request` naming the path:
 *
 * - In every string of the JSON body (keys and values, any depth), every path parameter and
 *   every query name and value: NUL and the other C0 control characters except tab, line feed
 *   and carriage return (PostgreSQL text and jsonb cannot hold NUL; the others are never part of
 *   an identifier or a clinical note and only serve to forge log lines or hide text), and
 *   unpaired UTF-16 surrogates (a `\ud800` escape: PostgreSQL refuses it or stores U+FFFD, so the
 *   stored value would silently differ from what was sent).
 * - A body that is not valid UTF-8, and path or query escapes that do not decode as UTF-8: the
 *   decoder would otherwise replace the bytes by U+FFFD, again storing something never sent.
 * - The keys `__proto__`, `constructor` and `prototype` at any depth (prototype pollution in any
 *   code that copies objects; `JSON.parse` makes `__proto__` an own property that zod then drops
 *   silently).
 * - JSON nested deeper than MAX_JSON_DEPTH, objects with more than MAX_OBJECT_KEYS keys and
 *   bodies with more than MAX_JSON_VALUES values.
 * - Optionally (the MSE Record API, whose bodies are clinical records), duplicate keys in one
 *   object: JSON.parse keeps the last, so a record would depend on which duplicate a parser keeps.
 *
 * Cost (no recursion anywhere): the body is decoded strictly and parsed once; a long text (or a
 * body whose duplicate keys are refused) is first scanned as raw text, which stops at the first
 * bracket too deep before JSON.parse pays for the rest. One walk over the parsed containers checks
 * nesting and sizes; strings and keys are read only when the text holds a `\u`, `\b` or `\f`
 * escape or a reserved word: JSON forbids raw control characters in strings and valid UTF-8 cannot
 * hold a surrogate, so without such an escape no parsed string can hold a refused character.
 * Numbers are the schemas' business (zod refuses `1e400`, which JSON.parse makes Infinity).
 *
 * Headers: Node's HTTP parser already refuses control characters in header values, and the one
 * header we store, Idempotency-Key, must be printable ASCII (idempotency.ts).
 */

export interface HygieneOptions {
  /** Refuse duplicate keys in a JSON body (a strict parse, not last-wins). */
  uniqueKeys?: boolean;
  /**
   * Report body findings the API's own way (e.g. the MSE Record API answers problems inside a
   * selection as 422 `invalid_selection`); undefined keeps the 400 `invalid_request`.
   */
  bodyError?: (issues: HygieneIssue[]) => Refusal | undefined;
}

const ENCODING_MESSAGE = "Is not valid percent-encoded UTF-8.";
const VALIDATION_MESSAGE = "The request failed validation; see issues.";

// ---------------------------------------------------------------------------------------------
// URL: path parameters and query

/** decodeURIComponent that answers undefined for escapes that are not UTF-8. */
function decodeComponent(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/**
 * Percent-escapes in the path, named by the route's parameter (`id`, `visitId`). Without a `%`
 * nothing can hide: Node's HTTP parser refuses raw control characters in the request line.
 */
export function inspectPath(url: string, pattern: string | undefined): HygieneIssue[] {
  const { path } = splitRequestUrl(url);
  if (!path.includes("%")) return [];
  const issues: HygieneIssue[] = [];
  const names = pattern?.split("/");
  path.split("/").forEach((segment, index) => {
    if (!segment.includes("%")) return;
    const name = names?.[index]?.replace(/^\{(.+)\}$|^:(.+)$/, "$1$2") ?? "path";
    const decoded = decodeComponent(segment);
    const problem = decoded === undefined ? ENCODING_MESSAGE : textProblem(decoded);
    if (problem) issues.push(finding([name], "value", problem));
  });
  return issues;
}

/** Every query name and value, as the router will decode them (`+` is a space). */
export function inspectQuery(url: string): HygieneIssue[] {
  const { query } = splitRequestUrl(url);
  if (!query.includes("%")) return [];
  const issues: HygieneIssue[] = [];
  for (const part of query.split("&")) {
    if (!part.includes("%")) continue;
    const eq = part.indexOf("=");
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const name = decodeComponent(rawName.replace(/\+/g, " "));
    if (name === undefined) {
      issues.push(finding([rawName], "key", ENCODING_MESSAGE));
      continue;
    }
    const nameProblem = textProblem(name);
    if (nameProblem) {
      issues.push(finding([name], "key", nameProblem));
      continue;
    }
    if (eq === -1) continue;
    const value = decodeComponent(part.slice(eq + 1).replace(/\+/g, " "));
    const problem = value === undefined ? ENCODING_MESSAGE : textProblem(value);
    if (problem) issues.push(finding([name], "value", problem));
  }
  return issues;
}

// ---------------------------------------------------------------------------------------------
// The screen

function refuse(issues: Issue[]): ApiError {
  return new ApiError("invalid_request", VALIDATION_MESSAGE, {
    issues: issues.map(({ path, message }) => ({ path, message })),
  });
}

function refuseBody(message: string): ApiError {
  return new ApiError("invalid_request", message, { issues: [{ path: "", message }] });
}

function hasBody(c: Context): boolean {
  const method = c.req.method;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return false;
  const length = c.req.header("content-length");
  return length ? length !== "0" : c.req.header("transfer-encoding") !== undefined;
}

/**
 * Read, decode and check the JSON body once. The text goes into Hono's body cache (the
 * Idempotency-Key fingerprint reads it there) and `c.req.json()` answers the parsed value, so
 * the route's validator neither reads the stream again nor parses a second time.
 */
async function screenBody(c: Context, options: HygieneOptions): Promise<void> {
  let bytes: ArrayBuffer;
  try {
    bytes = await c.req.arrayBuffer();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw refuseBody("The request could not be read.");
  }
  const checked = screenJsonBytes(bytes, options);
  if (!checked.ok) {
    if (checked.problem === "not_utf8") throw refuseBody("The body is not valid UTF-8.");
    if (checked.problem === "not_json") throw refuseBody("The body is not valid JSON.");
    throw options.bodyError?.(checked.issues) ?? refuse(checked.issues);
  }
  cacheBodyText(c, checked.text);
  answerJsonWith(c, checked.value);
}

/**
 * The screen the request guard runs for every /v1 request after authentication: path and query
 * (synchronously; throws ApiError), then, for a matched route with a body, a promise that
 * rejects with ApiError unless the body is clean. Undefined when there is no body to read.
 */
export function inputHygiene(
  options: HygieneOptions = {},
): (c: Context, routePattern: string | undefined) => Promise<void> | undefined {
  return (c, routePattern) => {
    const url = c.req.url;
    const issues = [...inspectPath(url, routePattern), ...inspectQuery(url)];
    if (issues.length > 0) throw refuse(issues.slice(0, MAX_REPORTED_ISSUES));
    if (routePattern !== undefined && hasBody(c)) return screenBody(c, options);
    return undefined;
  };
}

// ---------------------------------------------------------------------------------------------
// Query numbers

/**
 * A query integer: decimal digits only (no sign, exponent, hex, spaces or fraction, which
 * `Number()` would all accept), then its bounds; `fallback` when absent. The one definition used
 * by every query number of both APIs.
 */
export function decimalInteger(bounds: { min: number; max: number; fallback: number }) {
  return z
    .string()
    .regex(/^[0-9]+$/, "Must be a whole number written with the digits 0-9.")
    .transform(Number)
    .pipe(z.number().int().min(bounds.min).max(bounds.max))
    .default(bounds.fallback)
    .openapi({ type: "integer", minimum: bounds.min, maximum: bounds.max, default: bounds.fallback });
}

/**
 * The `cursor` query parameter of every keyset list of both APIs: the previous page's
 * `nextCursor`, opaque, at most 200 characters (each list decodes and checks its own).
 */
export function cursorQuery(description: string) {
  return z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: "cursor", in: "query" }, description });
}
