import type { ServiceApp } from "@svc/http";
import { CDS_BASE_PATH } from "./cds_guard.js";

/**
 * What discovery publishes of a CDS service (CDS Hooks 2.0.1 Discovery): the list is given by the
 * caller (the services of `@svc/cds-hooks`), never written here.
 */
export interface CdsServiceListing {
  id: string;
  hook: string;
  title?: string;
  description: string;
  prefetch?: Readonly<Record<string, string>>;
  usageRequirements?: string;
}

/** The spec's fields only, absent ones left out (a response never carries null or empty fields). */
function discoveryEntry(service: CdsServiceListing): Record<string, unknown> {
  const entry: Record<string, unknown> = { hook: service.hook };
  if (service.title) entry.title = service.title;
  entry.description = service.description;
  entry.id = service.id;
  if (service.prefetch && Object.keys(service.prefetch).length > 0) entry.prefetch = service.prefetch;
  if (service.usageRequirements) entry.usageRequirements = service.usageRequirements;
  return entry;
}

/**
 * GET /cds-hooks/{accountId}/cds-services: `{ services: [...] }`, behind the JWT guard like every
 * CDS Hooks call (the same list for every account).
 */
export function registerCdsDiscovery(service: ServiceApp, services: readonly CdsServiceListing[]): void {
  const body = { services: services.map(discoveryEntry) };
  service.plain("GET", CDS_BASE_PATH, (c) => c.json(body, 200), null);
}
