import type { NotFoundHandler } from "hono";
import type { AppEnv } from "./app.js";
import type { ErrorSender } from "./error-body.js";
import type { EndpointRegistry, RouteMatcher } from "./route-policy.js";

/**
 * No operation answered: 405 with an Allow header when the path exists with other methods, 404
 * otherwise. Paths carry no trailing slash (`/v1/labs/orders/` is 404, never a 405 naming the
 * methods of another route).
 */
export function notFoundHandler(
  router: RouteMatcher,
  endpoints: EndpointRegistry,
  send: ErrorSender,
): NotFoundHandler<AppEnv> {
  return (c) => {
    const allowed = endpoints.methodsAt(router, c.req.path);
    if (allowed.length === 0)
      return send(c, {
        code: "not_found",
        status: 404,
        message: "No such route. Check the path and the API reference.",
      });
    if (allowed.includes("GET")) allowed.push("HEAD");
    return send(c, {
      code: "method_not_allowed",
      status: 405,
      message: `${c.req.method} is not allowed here; use ${allowed.join(", ")}.`,
      headers: { Allow: allowed.join(", ") },
    });
  };
}
