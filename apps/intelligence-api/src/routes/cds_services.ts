import type { ServiceApp } from "@svc/http";
import { type CdsServiceListing, registerCdsDiscovery } from "./cds_discovery.js";
import { registerCdsFeedback } from "./cds_feedback.js";
import { type CdsGuardOptions, installCdsGuard } from "./cds_guard.js";

export interface CdsHooksOptions extends CdsGuardOptions {
  /** The CDS services to publish and accept feedback for (from `@svc/cds-hooks`); none by default. */
  services?: readonly CdsServiceListing[];
}

/**
 * Mount CDS Hooks 2.0.1 under each account's base, `/cds-hooks/{accountId}/cds-services`
 * (decision 147): the guard (CORS, body limit, EHR JWT, plan and rate limit), discovery and
 * feedback. A hook's own route (`POST .../cds-services/{id}`) must be registered
 * after this call, so the guard runs before it (Hono runs middleware and handlers in registration
 * order); its handler reads the caller with `cdsCallerOf(c)`, which answers 401 if it has none.
 */
export function registerCdsHooks(service: ServiceApp, options: CdsHooksOptions = {}): void {
  const services = options.services ?? [];
  installCdsGuard(service, options);
  registerCdsDiscovery(service, services);
  registerCdsFeedback(
    service,
    services.map((s) => s.id),
  );
}
