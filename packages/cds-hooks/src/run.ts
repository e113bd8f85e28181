/**
 * Running a CDS Service: its module's run (FHIR -> engine inputs with `@svc/fhir`, the engines
 * through the engine registry, the interaction checker for the order hooks, answers -> cards),
 * then the one bound on cards per answer, so a card
 * says exactly what the engines say (decision 115). The caller passes the clock, the base URL of
 * the rule pages and the engine parameters (the account's active calibrated models; the shipped
 * defaults when omitted).
 */

import type { NotUsed, NotUsedReason } from "@svc/fhir";
import type { EngineName } from "@svc/intelligence";
import { limitCards } from "./card-limit.js";
import type { Card } from "./cards.js";
import type { HookCall } from "./request.js";
import { type EngineRecorder, newRecorder, type RunContext } from "./run-context.js";

export interface RunOptions {
  now: Date;
  /** Base URL of this service (rule pages are `<baseUrl>/cds-rules/<ruleId>`). */
  baseUrl: string;
  /** Calibrated parameters per engine (the account's active model versions); defaults when absent. */
  models?: Partial<Record<EngineName, { version: number; params: unknown }>>;
  /** Card and suggestion uuids (default: crypto.randomUUID). */
  uuid?: () => string;
  /**
   * Prefetch keys whose fetched answer could not be read (it failed the input screen, decision
   * 150): absent from `prefetch` like any missing key, and said to be unreadable on the card.
   */
  unreadablePrefetch?: readonly string[];
}

export interface CdsRunResult {
  cards: Card[];
  /** Engines (and the interaction tool) that ran, with the version of their parameters: for the log. */
  engines: { name: string; version: string; modelKey?: string }[];
  /** Rule ids of the cards, in card order. */
  rules: string[];
  /** Cards found but left out of the answer by the bound on cards per answer (decision 143). */
  omittedCards: number;
  /** How many FHIR resources were not used, by reason (counts only: no ids or content, for logs). */
  notUsed: Partial<Record<NotUsedReason, number>>;
  /** Prefetch keys the service had no data for (absent after fetching). */
  missingPrefetch: string[];
}

function countReasons(notUsed: readonly NotUsed[]): Partial<Record<NotUsedReason, number>> {
  const counts: Partial<Record<NotUsedReason, number>> = {};
  for (const item of notUsed) counts[item.reason] = (counts[item.reason] ?? 0) + 1;
  return counts;
}

/**
 * Runs the service of a validated call (`parseHookRequest`) with its own module's run. `prefetch`
 * is every prefetch value the service has: the request's own merged with what the caller fetched;
 * a key still absent is data the service could not have (said on an insufficient-data card), a
 * key with null is "the EHR has no data".
 */
export function runCdsService(
  { service, request }: HookCall,
  prefetch: Readonly<Record<string, unknown>>,
  options: RunOptions,
): CdsRunResult {
  const recorder: EngineRecorder = newRecorder();
  const ctx: RunContext = {
    now: options.now,
    baseUrl: options.baseUrl,
    models: options.models ?? {},
    uuid: options.uuid ?? (() => globalThis.crypto.randomUUID()),
    recorder,
    patientId: request.context.patientId,
    missingPrefetch: Object.keys(service.descriptor.prefetch).filter((key) => !Object.hasOwn(prefetch, key)),
    unreadablePrefetch: (options.unreadablePrefetch ?? []).filter((key) => !Object.hasOwn(prefetch, key)),
    notUsed: [],
  };
  const found = service.run({ request, prefetch, ctx });
  // Every service's cards pass the one bound on cards per answer, here (decision 143).
  const { cards, omitted } = limitCards(found, ctx);
  return {
    cards: cards.map((item) => item.card),
    engines: recorder.list(),
    // Each card's rule as the service found it, never read back from its URL.
    rules: cards.map((item) => item.rule.id),
    omittedCards: omitted,
    notUsed: countReasons(ctx.notUsed),
    missingPrefetch: ctx.missingPrefetch,
  };
}
