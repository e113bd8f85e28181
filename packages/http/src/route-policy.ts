import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import type { RouterRoute } from "hono/types";
import type { RoutePolicy } from "./auth.js";
import { lastRegisteredRoute } from "./framework-internals.js";

/** A registered operation: its path as documented (`/v1/mse/{visitId}`) and who may call it. */
export interface Endpoint {
  method: string;
  pattern: string;
  /** Null: public (no key); a door of its own, such as the EHR's JWT, still asks for its credential. */
  policy: RoutePolicy | null;
  /** Registration order: the Allow header lists methods in this order. */
  order: number;
}

/** Secret keys only, unless a route says otherwise. */
export const DEFAULT_POLICY: RoutePolicy = { keys: ["secret"] };
/** Unknown routes and wrong methods still need a valid key; any kind may learn they don't exist. */
export const ANY_KEY_POLICY: RoutePolicy = { keys: ["secret", "publishable", "organization"] };

/** Something that matches a method and path the way the app's router does. */
export interface RouteMatcher {
  match(method: string, path: string): [[[unknown, RouterRoute], unknown][], ...unknown[]];
}

/**
 * The operations of one app, keyed by the router's own route entries. The router matches each
 * request once; `endpointOf` reads that match, so no second route table is searched per request.
 */
export class EndpointRegistry {
  readonly #byRoute = new Map<RouterRoute, Endpoint>();
  readonly #methods = new Set<string>();

  /** Record the route the app registered last (the operation's final handler). */
  add(routes: readonly RouterRoute[], pattern: string, policy: RoutePolicy | null | undefined): void {
    const route = lastRegisteredRoute(routes);
    if (!route) throw new Error(`no route registered for ${pattern}`);
    const endpoint: Endpoint = {
      method: route.method,
      // A plain route's `:id` is written `{id}`, as the documented operations write it.
      pattern: pattern.replace(/:(\w+)/g, "{$1}"),
      policy: policy === undefined ? DEFAULT_POLICY : policy,
      order: this.#byRoute.size,
    };
    this.#byRoute.set(route, endpoint);
    this.#methods.add(route.method);
  }

  /** The operation serving this request: the first registered one the router matched. */
  endpointOf(c: Context): Endpoint | undefined {
    for (const route of matchedRoutes(c)) {
      const endpoint = this.#byRoute.get(route);
      if (endpoint) return endpoint;
    }
    return undefined;
  }

  /** The policy of the operation registered for this method and documented path, if any. */
  policyOf(method: string, pattern: string): RoutePolicy | null | undefined {
    for (const endpoint of this.#byRoute.values()) {
      if (endpoint.method === method.toUpperCase() && endpoint.pattern === pattern) return endpoint.policy;
    }
    return undefined;
  }

  /** Every method some operation serves at this path, in registration order (for 405 Allow). */
  methodsAt(router: RouteMatcher, path: string): string[] {
    const found: Endpoint[] = [];
    for (const method of this.#methods) {
      for (const [[, route]] of router.match(method, path)[0]) {
        const endpoint = this.#byRoute.get(route);
        if (endpoint) found.push(endpoint);
      }
    }
    return [...new Set(found.sort((a, b) => a.order - b.order).map((e) => e.method))];
  }
}

const registries = new WeakMap<object, EndpointRegistry>();

/** Remember an app's registry, so its OpenAPI document can read each operation's policy. */
export function rememberEndpoints(app: object, registry: EndpointRegistry): void {
  registries.set(app, registry);
}

/** The registry of an app built by `createServiceApp` (undefined for any other app). */
export function endpointsOf(app: object): EndpointRegistry | undefined {
  return registries.get(app);
}
