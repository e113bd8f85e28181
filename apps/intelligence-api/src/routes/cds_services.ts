import type { ServiceApp } from "@svc/http";
import { type CdsServiceListing, registerCdsDiscovery } from "./cds_discovery.js";
import { registerCdsFeedback } from "./cds_feedback.js";
import { type CdsGuardOptions, installCdsGuard } from "./cds_guard.js";

export interface CdsHooksOptions extends CdsGuardOptions {
  /** The CDS services to publish and accept feedback for (from `@svc/cds-hooks`); none by default. */
  services?: readonly CdsServiceListing[];
}

/**
 * Mount CDS Hooks 2.0.1 at `/cds-services`: the guard (CORS, body limit, EHR JWT, plan and rate
 * limit), discovery and feedback. A hook's own route registers after this, behind the same guard.
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
