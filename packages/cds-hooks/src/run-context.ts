/** What every step of a service run shares: the clock, the rule base URL, the engines' parameters. */
import type { EngineOptions, EngineRun } from "@svc/engines";
import type { NotUsed } from "@svc/fhir";
import { ENGINE_REGISTRY, type EngineName, engineVersionOf } from "@svc/intelligence";
import type { CardContext } from "./cards.js";

export interface EngineRecorder {
  record(entry: { name: string; version: string; modelKey?: string }): void;
  list(): { name: string; version: string; modelKey?: string }[];
}

export function newRecorder(): EngineRecorder {
  const entries = new Map<string, { name: string; version: string; modelKey?: string }>();
  return {
    record: (entry) => {
      entries.set(entry.name, entry);
    },
    list: () => [...entries.values()],
  };
}

export interface RunContext {
  now: Date;
  baseUrl: string;
  models: Partial<Record<EngineName, { version: number; params: unknown }>>;
  uuid: () => string;
  recorder: EngineRecorder;
  patientId: string;
  missingPrefetch: string[];
  /** The missing keys whose fetched answer arrived but could not be read (a subset of missingPrefetch). */
  unreadablePrefetch: readonly string[];
  /** Every FHIR resource not used in this run (filled by the steps). */
  notUsed: NotUsed[];
}

/**
 * Runs a registry engine with the account's calibrated parameters when given (validated and
 * merged over the defaults by the engine's own schema), else its shipped defaults; records the
 * engine and version that ran.
 */
export function runEngine<TInput, TData>(
  name: EngineName,
  input: TInput,
  ctx: RunContext,
): { run: EngineRun<TData>; version: string } {
  const descriptor = ENGINE_REGISTRY[name] as unknown as {
    resolveParams(overrides: unknown): unknown;
    run(input: TInput, options: EngineOptions<unknown>): EngineRun<TData>;
  };
  const model = ctx.models[name];
  const run = descriptor.run(input, {
    now: ctx.now,
    ...(model ? { model: { version: model.version, params: descriptor.resolveParams(model.params) } } : {}),
  });
  const version = engineVersionOf(run.model);
  ctx.recorder.record({ name, version, modelKey: run.model.key });
  return { run, version };
}

/** The card context for cards resting on one engine run. */
export function cardContext(ctx: RunContext, engineLine?: string): CardContext {
  return { baseUrl: ctx.baseUrl, uuid: ctx.uuid, ...(engineLine ? { engineLine } : {}) };
}
