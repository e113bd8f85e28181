import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { RouterRoute } from "hono/types";

/**
 * Every place the HTTP layer relies on Hono's or zod's behaviour beyond their documented API, in
 * one module. `test/framework-internals.test.ts` pins the versions these were checked against and
 * checks each behaviour: when Hono, zod, @hono/zod-openapi or @hono/zod-validator change version,
 * it fails and names what to re-check here before moving the pin.
 */
export const CHECKED_VERSIONS = {
  hono: "4.13.19",
  zod: "4.6.7",
  "@hono/zod-openapi": "1.6.3",
  "@hono/zod-validator": "0.9.1",
} as const;

/**
 * Put an already-read body's text into Hono's body cache (`HonoRequest.bodyCache`, not part of
 * its documented API): later `c.req.text()` (the Idempotency-Key fingerprint) answers it
 * without reading the stream again.
 */
export function cacheBodyText(c: Context, text: string): void {
  (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
}

/**
 * Make `c.req.json()` answer an already-parsed value, so the route's validator neither reads the
 * stream again nor parses a second time.
 */
export function answerJsonWith(c: Context, parsed: unknown): void {
  c.req.json = (() => Promise.resolve(parsed)) as typeof c.req.json;
}

/**
 * The route Hono registered last: after `app.openapi(route, handler)` or `app.on(...)`, the
 * final handler of that operation (Hono appends one entry to `app.routes` per handler and
 * middleware, in order).
 */
export function lastRegisteredRoute(routes: readonly RouterRoute[]): RouterRoute | undefined {
  return routes.at(-1);
}

/** A zod schema as the route validator calls it. */
export interface ParsingSchema {
  safeParse(data: unknown, params?: unknown): unknown;
  safeParseAsync(data: unknown, params?: unknown): Promise<unknown>;
}

const preferred = new WeakSet<object>();

/**
 * The route validator (@hono/zod-validator, inside @hono/zod-openapi) always calls
 * `safeParseAsync`, and zod runs its compiled fast path for objects only in a synchronous parse:
 * the asynchronous one costs about 1.5-2x as much (a request with 500 assessments: ~1.1-1.5 ms
 * against ~0.6-0.7 ms). Our request schemas have no asynchronous refinements, so their
 * `safeParseAsync` answers with the synchronous parse; should one ever gain an asynchronous step,
 * zod's "use parseAsync" error sends it to the asynchronous parse as before. Same results either way.
 */
export function preferSyncParse(schema: ParsingSchema): void {
  if (preferred.has(schema)) return;
  preferred.add(schema);
  const parseAsync = schema.safeParseAsync.bind(schema);
  schema.safeParseAsync = async (data, params) => {
    try {
      return schema.safeParse(data, params);
    } catch (error) {
      if (error instanceof z.core.$ZodAsyncError) return parseAsync(data, params);
      throw error;
    }
  };
}
