/**
 * The registry of the CDS Services this package offers (decision 209): the list of service
 * modules (`services/<service-id>.ts`), in discovery order. Discovery, the hook call (a service is
 * found by its id here, and runs its own module), the rule catalog and its pages, and feedback
 * all read this list, so a new service is one line here beside its module. Ids are stable
 * (decision 113): clients register them, so they never change.
 */
import { type CdsRule, SHARED_RULES } from "./rules.js";
import type { CdsService, CdsServiceDescriptor } from "./service-module.js";
import { PSYCH_INTERACTIONS_SELECT, PSYCH_INTERACTIONS_SIGN } from "./services/psych-interactions.js";
import { PSYCH_PATIENT_VIEW } from "./services/psych-patient-view.js";

export { CDS_HOOKS, type CdsHook, type CdsService, type CdsServiceDescriptor } from "./service-module.js";

/** Every service module, in discovery order. */
export const CDS_SERVICE_MODULES: readonly CdsService[] = Object.freeze([
  PSYCH_INTERACTIONS_SELECT,
  PSYCH_INTERACTIONS_SIGN,
  PSYCH_PATIENT_VIEW,
]);

const BY_ID: ReadonlyMap<string, CdsService> = new Map(
  CDS_SERVICE_MODULES.map((service) => [service.descriptor.id, service]),
);

/** A service by id, or undefined: the one lookup of a call's service. */
export function cdsService(id: string): CdsService | undefined {
  return BY_ID.get(id);
}

/** The discovery descriptors of the services, in discovery order. */
export const CDS_SERVICES: readonly CdsServiceDescriptor[] = Object.freeze(
  CDS_SERVICE_MODULES.map((service) => service.descriptor),
);

/** A service's discovery descriptor by id, or undefined. */
export function cdsServiceById(id: string): CdsServiceDescriptor | undefined {
  return BY_ID.get(id)?.descriptor;
}

/** The discovery response body (`GET /cds-services`). */
export function discoveryResponse(): { services: readonly CdsServiceDescriptor[] } {
  return { services: CDS_SERVICES };
}

/**
 * The rule catalog: every rule a card can come from (decision 114), the services' own rules and
 * the shared ones, each rule once (the services of one module at two hooks share their rules).
 */
export const CDS_RULES: readonly CdsRule[] = Object.freeze([
  ...new Set([...CDS_SERVICE_MODULES.flatMap((service) => service.rules), ...SHARED_RULES]),
]);

const RULES_BY_ID: ReadonlyMap<string, CdsRule> = new Map(CDS_RULES.map((rule) => [rule.id, rule]));

/** A rule of the catalog by id, or undefined (the rule pages). */
export function ruleById(id: string): CdsRule | undefined {
  return RULES_BY_ID.get(id);
}

/** A rule of the catalog that must exist; throws on an unknown id (a programming error). */
export function requireRule(id: string): CdsRule {
  const rule = RULES_BY_ID.get(id);
  if (rule === undefined) throw new Error(`no CDS rule ${id}`);
  return rule;
}
