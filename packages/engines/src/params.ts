/**
 * Engine parameter sets (decision 44): which set a run uses, and the validation of a calibrated set
 * before it is stored. Each engine keeps its own defaults and range checks; this module holds
 * what all five do the same way.
 */
import { isFiniteNumber } from "./shared.js";
import type { EngineOptions, ModelRef } from "./types.js";

/**
 * The parameters and model reference of one run: the caller's calibrated parameters over the
 * engine's defaults (`calibrated`, with its version), or the defaults themselves (`default`).
 * The calibrated set is not validated here: `resolve*Params` validates a row before it is used.
 */
export function engineParams<T extends object>(
  key: string,
  defaults: Readonly<T>,
  options: EngineOptions<T>,
): { params: T; model: ModelRef } {
  if (!options.model) return { params: defaults as T, model: { key, version: null, source: "default" } };
  return {
    params: { ...defaults, ...options.model.params },
    model: { key, version: options.model.version, source: "calibrated" },
  };
}

/**
 * Merges a calibrated parameter object over the defaults. Throws an Error naming the engine and
 * the key when `overrides` is not a plain object, a key is unknown or a value is not a finite
 * number. `null`/`undefined` give a copy of the defaults. Range checks are the engine's.
 */
export function mergeNumericParams<T extends object>(
  engine: string,
  defaults: Readonly<T>,
  overrides: unknown,
): T {
  const merged = { ...defaults } as T;
  if (overrides === undefined || overrides === null) return merged;
  if (typeof overrides !== "object" || Array.isArray(overrides)) {
    throw new Error(`${engine} parameters must be an object of named numbers`);
  }
  const target = merged as Record<string, number>;
  for (const [key, value] of Object.entries(overrides as Record<string, unknown>)) {
    if (!Object.hasOwn(defaults, key)) throw new Error(`unknown ${engine} parameter "${key}"`);
    if (!isFiniteNumber(value)) throw new Error(`${engine} parameter "${key}" must be a finite number`);
    target[key] = value;
  }
  return merged;
}

/** Throws one Error listing every problem, or returns. */
export function assertNoProblems(engine: string, problems: readonly string[]): void {
  if (problems.length > 0) throw new Error(`invalid ${engine} parameters: ${problems.join("; ")}`);
}

/** A problem line for each of `keys` whose value is negative, in the order of `keys`. */
export function negativeProblems<K extends string>(
  params: Readonly<Record<K, number>>,
  keys: readonly K[],
): string[] {
  return keys.filter((key) => params[key] < 0).map((key) => `${key} must be >= 0`);
}

/** The confidence cut-offs the biomarker and medication engines share, each a fraction. */
const CONFIDENCE_FRACTION_KEYS = [
  "confidencePointsHigh",
  "confidencePointsModerate",
  "confidencePointsLow",
  "confidenceHighMin",
  "confidenceModerateMin",
] as const;

/** A problem line for each shared confidence cut-off outside [0, 1]. */
export function confidenceFractionProblems(
  params: Readonly<Record<(typeof CONFIDENCE_FRACTION_KEYS)[number], number>>,
): string[] {
  return CONFIDENCE_FRACTION_KEYS.filter((key) => params[key] < 0 || params[key] > 1).map(
    (key) => `${key} must be in [0, 1]`,
  );
}
