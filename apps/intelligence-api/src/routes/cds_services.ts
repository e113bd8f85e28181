import type { ServiceApp } from "@svc/http";
import { type CdsServiceListing, registerCdsDiscovery } from "./cds_discovery.js";
import { registerCdsFeedback } from "./cds_feedback.js";
import { type CdsGuardOptions, registerCdsMoved } from "./cds_guard.js";

export interface CdsHooksOptions extends CdsGuardOptions {
  /** The CDS services to publish and accept feedback for (from `@svc/cds-hooks`); none by default. */
  services?: readonly CdsServiceListing[];
}

/**
 * Mount CDS Hooks 2.0.1 under each account's base, `/cds-hooks/{accountId}/cds-services`
 * (decision 147): discovery, feedback, and the 404 of the unscoped paths. The app's request guard
 * admits every call under the base with the EHR's JWT (`cdsJwtDoor`, CORS around it with
 * `cdsCors`); a hook's own route (`POST .../cds-services/{id}`) reads the caller with
 * `authOf(c, "ehr_jwt")`, which answers 401 if it has none (decision 221).
 */
export function registerCdsHooks(service: ServiceApp, options: CdsHooksOptions = {}): void {
  const services = options.services ?? [];
  registerCdsDiscovery(service, services);
  registerCdsFeedback(
    service,
    services.map((s) => s.id),
  );
  registerCdsMoved(service);
}
