/** What every step of a service run shares: the clock, the rule base URL, the engines' parameters. */
import type { EngineRun } from "@svc/engines";
import type { NotUsed } from "@svc/fhir";
import {
  ENGINE_REGISTRY,
  type EngineDescriptor,
  type EngineName,
  engineVersionOf,
  resolveCalibration,
  runWithCalibration,
} from "@svc/intelligence";
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
 * Runs a registry engine with the account's calibrated parameters when given, else its shipped
 * defaults, through the registry's one `resolveCalibration` and `runWithCalibration`, as the
 * analysis endpoints do (decision 183); records the engine and version that ran.
 */
export function runEngine<TInput, TData>(
  name: EngineName,
  input: TInput,
  ctx: RunContext,
): { run: EngineRun<TData>; version: string } {
  const descriptor = ENGINE_REGISTRY[name] as unknown as EngineDescriptor<TInput, TData, unknown, EngineName>;
  const { calibration } = resolveCalibration(descriptor, ctx.models[name]);
  const run = runWithCalibration(descriptor, input, {
    now: ctx.now,
    ...(calibration ? { calibration } : {}),
  });
  const version = engineVersionOf(run.model);
  ctx.recorder.record({ name, version, modelKey: run.model.key });
  return { run, version };
}

/** An engine's parameters for this run: the account's calibrated set, else the defaults (decision 183). */
export function engineParamsOf<N extends EngineName>(
  name: N,
  ctx: RunContext,
): (typeof ENGINE_REGISTRY)[N]["defaults"] {
  const descriptor = ENGINE_REGISTRY[name] as unknown as EngineDescriptor<
    unknown,
    unknown,
    unknown,
    EngineName
  >;
  const { calibration } = resolveCalibration(descriptor, ctx.models[name]);
  return (calibration?.params ?? ENGINE_REGISTRY[name].defaults) as (typeof ENGINE_REGISTRY)[N]["defaults"];
}

/** The card context for cards resting on one engine run. */
export function cardContext(ctx: RunContext, engineLine?: string): CardContext {
  return { baseUrl: ctx.baseUrl, uuid: ctx.uuid, ...(engineLine ? { engineLine } : {}) };
}
