import type { RouteConfig } from "@hono/zod-openapi";
import { type ParsingSchema, preferSyncParse } from "./framework-internals.js";

function isParsingSchema(value: unknown): value is ParsingSchema {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as ParsingSchema).safeParse === "function" &&
    typeof (value as ParsingSchema).safeParseAsync === "function"
  );
}

/**
 * Every request schema of a route (query, params, headers, cookies, each body content type)
 * answers the validator's `safeParseAsync` with the synchronous parse (`preferSyncParse`).
 */
export function preferSyncRequestParsing(route: RouteConfig): void {
  const request = route.request;
  if (!request) return;
  const parts: unknown[] = [request.query, request.params, request.headers, request.cookies];
  for (const media of Object.values(request.body?.content ?? {}))
    parts.push((media as { schema?: unknown }).schema);
  for (const part of parts) if (isParsingSchema(part)) preferSyncParse(part);
}
