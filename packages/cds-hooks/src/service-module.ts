/**
 * What a CDS Service is in this package: one module (`services/<service-id>.ts`) that holds its
 * discovery descriptor with its prefetch templates, the prefetch keys it can answer without, the
 * rules its cards come from, and its run function. The registry (`services.ts`) lists the modules;
 * discovery, the hook call, the rule catalog and feedback read it, so adding a service is its
 * module, its test and its section of docs/cds-hooks.md (decision 209).
 */
import type { FoundCard } from "./cards.js";
import type { HookRequest } from "./request.js";
import type { CdsRule } from "./rules.js";
import type { RunContext } from "./run-context.js";

export const CDS_HOOKS = ["patient-view", "order-select", "order-sign"] as const;
export type CdsHook = (typeof CDS_HOOKS)[number];

/** A CDS service as discovery publishes it (CDS Hooks 2.0.1 Discovery). */
export interface CdsServiceDescriptor {
  hook: CdsHook;
  id: string;
  title: string;
  description: string;
  prefetch: Readonly<Record<string, string>>;
  usageRequirements: string;
}

/** The validated request of a hook (its context typed by the hook). */
export type HookRequestOf<H extends CdsHook> = Extract<HookRequest, { hook: H }>;

/** What a run step gets: the validated request, every prefetch value the service has, the run's context. */
export interface ServiceRun<H extends CdsHook> {
  request: HookRequestOf<H>;
  /**
   * The request's prefetch merged with what the caller fetched: a key still absent is data the
   * service could not have (`ctx.missingPrefetch`), a key with null is "the EHR has no data".
   */
  prefetch: Readonly<Record<string, unknown>>;
  ctx: RunContext;
}

/**
 * One CDS service: everything about it, in its own module. `H` is the hook (or hooks) its run
 * reads; the registry holds each as a `CdsService` through `defineCdsService`.
 */
export interface CdsService<H extends CdsHook = CdsHook> {
  descriptor: CdsServiceDescriptor & { hook: H };
  /**
   * Prefetch keys the service reads when it can have them but answers without (decision 201): a
   * missing optional key is said on a card, never a 412.
   */
  optionalPrefetch: ReadonlySet<string>;
  /** The rules its cards may come from, besides the shared ones of `rules.ts`. */
  rules: readonly CdsRule[];
  /** Its cards, each with the rule it comes from; the one bound on cards per answer is applied after. */
  run(input: ServiceRun<H>): FoundCard[];
}

/**
 * A service as the registry holds it. Its run is given only requests of the service's own hook:
 * `parseHookRequest` checks `hook` against the descriptor, and the call flows from there as it is
 * (decision 210); a request of another hook is a programming error, refused here.
 */
export function defineCdsService<H extends CdsHook>(service: CdsService<H>): CdsService {
  const { hook } = service.descriptor;
  return {
    ...service,
    run: ({ request, prefetch, ctx }) => {
      if (request.hook !== hook) throw new Error(`a ${request.hook} request given to a ${hook} service`);
      return service.run({ request: request as HookRequestOf<H>, prefetch, ctx });
    },
  };
}
