import { ApiError, type AppEnv, inputHygiene } from "@svc/http";
import type { Context, MiddlewareHandler } from "hono";

/**
 * The input screen of `/cds-services` (decision 150): the very screen `/v1` requests cross
 * (`inputHygiene` of `@svc/http`, decision 29), run after the JWT guard and before any route, so
 * no CDS route, validator, FHIR reader or database ever sees a body nested past the screen's depth,
 * a NUL, a lone surrogate or bytes that are not UTF-8. Refusals are the door's own 400
 * `invalid_request` with the issues' paths, as a hook request that fails validation is. A clean
 * body is parsed once; the routes read it with `cdsJsonBody(c)`.
 */

const JSON_TYPE = /^application\/json\b/i;
const screen = inputHygiene();

/** `patternOf` names a path's route (`/cds-services/{id}`), so a refused path escape names `id`. */
export function cdsInputScreen(patternOf: (path: string) => string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === "OPTIONS") return next();
    if (c.req.method === "POST" && !JSON_TYPE.test(c.req.header("content-type") ?? ""))
      throw new ApiError("invalid_request", "Send the body as application/json.");
    const pattern = patternOf(c.req.path);
    await screen(c, pattern === "unmatched" ? undefined : pattern);
    await next();
  };
}

/** The screened body of a CDS POST as parsed JSON, or 400 when there is none or it is not JSON. */
export async function cdsJsonBody(c: Context<AppEnv>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new ApiError("invalid_request", "The body is not valid JSON.");
  }
}
