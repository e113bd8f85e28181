import { newId } from "@svc/ids";
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import type { AppEnv } from "./app.js";
import type { UsageMeter } from "./usage-meter.js";

/**
 * The outermost middleware: a request id, the fixed response headers (`X-Request-Id`, then the
 * app's own, then nosniff and no-store) and one log line per request (ids only, never input).
 * Headers are set before the handler runs so they join the response as it is built (setting
 * them afterwards would copy the whole Response object on every request). A request made with a
 * known key is also counted for the usage page.
 */
export function requestLog(
  logger: Logger,
  appHeaders: Readonly<Record<string, string>> = {},
  usage?: UsageMeter,
): MiddlewareHandler<AppEnv> {
  const fixedHeaders = [
    ...Object.entries(appHeaders),
    ["X-Content-Type-Options", "nosniff"],
    ["Cache-Control", "no-store"],
  ] as const;
  return async (c, next) => {
    const started = performance.now();
    const requestId = newId("req");
    c.set("requestId", requestId);
    c.header("X-Request-Id", requestId);
    for (const [name, value] of fixedHeaders) c.header(name, value);
    try {
      await next();
    } finally {
      const route = c.get("routePattern") ?? "unmatched";
      // Keys only: an EHR's calls are no key's usage (decision 221).
      const auth = c.get("auth");
      const keyId = auth?.credential === "api_key" ? auth.keyId : undefined;
      if (keyId && usage)
        usage.count(keyId, route === "unmatched" ? route : `${c.req.method} ${route}`, c.res.status);
      logger.info(
        {
          requestId,
          callerRequestId: c.req.header("x-request-id")?.slice(0, 128),
          method: c.req.method,
          route,
          status: c.res.status,
          durationMs: Math.round((performance.now() - started) * 100) / 100,
          keyId,
        },
        "request",
      );
    }
  };
}
