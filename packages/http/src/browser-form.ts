import { constantTimeEqual } from "@svc/ids";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

/**
 * The one guard for forms a browser posts to us from a page of ours (the dashboard, the hosted
 * wearables connect page): the same-origin rule, the form-token compare and the form size limit.
 * Each page keeps its own token scheme (the dashboard's per-session token, the connect page's
 * double-submit cookie) and its own refusal page; the rules they are judged by live here.
 *
 * Both render their HTML one way, with Hono JSX (`.tsx` pages): every value written into a page is
 * escaped by the renderer, never by hand, and each page sets its own Content-Security-Policy.
 */

// biome-ignore lint/suspicious/noExplicitAny: any app env.
type AnyContext = Context<any>;

/**
 * Did this state change come from a page of ours (decision 109)? A `Sec-Fetch-Site` header, when
 * the browser sends one, must say `same-origin`. `Origin` is required and must be this service,
 * either as the request reached us or as the public base URL (behind a TLS balancer). `Origin:
 * null` passes only with `Sec-Fetch-Site: same-origin`: Chromium sends `null` on form posts from a
 * page under `Referrer-Policy: no-referrer` (the connect page, which keeps its token out of
 * referrers), and only the browser can set `Sec-Fetch-Site`, so it vouches for the same thing.
 */
export function fromOurPage(c: AnyContext, publicBaseUrl: string): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined && site !== "same-origin") return false;
  const origin = c.req.header("origin");
  if (!origin) return false;
  if (origin === "null") return site === "same-origin";
  if (origin === new URL(c.req.url).origin) return true;
  try {
    return origin === new URL(publicBaseUrl).origin;
  } catch {
    // An invalid public base URL allows nothing beyond the request's own origin.
    return false;
  }
}

/** A form's token matches the one we issued (constant time); anything but a non-empty string fails. */
export function formTokenMatches(expected: string, given: unknown): boolean {
  if (typeof given !== "string" || given === "" || expected === "") return false;
  return constantTimeEqual(expected, given);
}

/**
 * The form size limit for a handler that checks before it reads the body: the declared
 * `Content-Length` must be present and at most `maxBytes` (a body without one is refused, so no
 * streamed body is ever read).
 */
export function declaredFormWithin(c: AnyContext, maxBytes: number): boolean {
  const length = Number(c.req.header("content-length") ?? "NaN");
  return Number.isFinite(length) && length <= maxBytes;
}

/**
 * The form size limit as middleware, for an app whose every route reads forms: a declared length
 * over `maxBytes` is refused at once, a streamed body once it passes `maxBytes`.
 */
export function formSizeLimit(
  maxBytes: number,
  onTooLarge: (c: AnyContext) => Response | Promise<Response>,
): MiddlewareHandler {
  return bodyLimit({ maxSize: maxBytes, onError: onTooLarge });
}
