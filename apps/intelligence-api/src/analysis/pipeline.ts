import type { EngineKey } from "@svc/db";
import type { EngineOptions, EngineRun } from "@svc/engines";
import type { AppEnv, Logger } from "@svc/http";
import {
  attachReasoning,
  buildEngineIntelligence,
  type IntelligenceBlock,
  type Narrator,
  type PreviousResult,
  type TerminologyCode,
} from "@svc/intelligence";
import type { Context } from "hono";
import type { ActiveModels } from "../models.js";

/** What the five analysis endpoints share: the common request fields. */
export interface AnalysisCommon {
  explain?: boolean;
  previous?: PreviousResult;
  sessionRef?: string;
}

/** One analysis endpoint: its engine, how to run it, and what the block builder needs from it. */
export interface AnalysisSpec<TInput, TData, TParams> {
  engine: EngineKey;
  /** `data.object` of the response. */
  object: string;
  run(input: TInput, options: EngineOptions<TParams>): EngineRun<TData>;
  /** Validates a calibrated parameter row and merges it over the defaults (throws when invalid). */
  resolveParams(overrides: unknown): TParams;
  codes(input: TInput, run: EngineRun<TData>): TerminologyCode[];
  /** A few engine lines a narrator may mention. */
  highlights(data: TData): string[];
  /** The dmse analysis also carries `requestId` in the body (contract: Response envelopes). */
  bodyRequestId?: boolean;
}

export interface AnalysisContext {
  models: ActiveModels;
  narrator: Narrator;
  logger: Logger;
  reasoningTimeoutMs?: number;
}

/**
 * The handler every analysis route uses: run the engine with the active calibrated version (or
 * the shipped defaults), build the intelligence block, optionally narrate, and answer. Nothing is
 * stored; `sessionRef` is echoed and never logged.
 */
export function analysisHandler<TInput, TData extends object, TParams>(
  spec: AnalysisSpec<TInput, TData, TParams>,
  context: AnalysisContext,
): (c: Context<AppEnv>) => Promise<Response> {
  // Resolved parameter sets by version, so a calibrated model costs nothing per request.
  const resolved = new Map<number, TParams | null>();
  const calibrated = async (): Promise<{ version: number; params: TParams } | undefined> => {
    const active = await context.models.get(spec.engine);
    if (!active) return undefined;
    let params = resolved.get(active.version);
    if (params === undefined) {
      try {
        params = spec.resolveParams(active.params);
      } catch (error) {
        // A promoted row the engine cannot read: run the shipped defaults and say so in `model`.
        context.logger.error(
          { engine: spec.engine, version: active.version, err: (error as Error).message },
          "calibrated parameters rejected; running defaults",
        );
        params = null;
      }
      resolved.set(active.version, params);
    }
    return params === null ? undefined : { version: active.version, params };
  };

  return async (c: Context<AppEnv>): Promise<Response> => {
    const body = (c.req as unknown as { valid(target: "json"): TInput & AnalysisCommon }).valid("json");
    const { explain, previous, sessionRef, ...rest } = body;
    const input = rest as unknown as TInput;
    const now = new Date();
    const run = spec.run(input, { now, model: await calibrated() });
    let intelligence: IntelligenceBlock = buildEngineIntelligence({
      engine: spec.engine,
      facts: run.facts,
      model: run.model,
      now,
      codes: spec.codes(input, run),
      previous,
      currentInputs: rest as Record<string, unknown>,
    });
    if (explain) {
      intelligence = await attachReasoning(intelligence, context.narrator, {
        highlights: spec.highlights(run.data),
        timeoutMs: context.reasoningTimeoutMs,
      });
    }
    const data = {
      object: spec.object,
      ...(sessionRef === undefined ? {} : { sessionRef }),
      ...run.data,
      model: run.model,
      intelligence,
    };
    return c.json(
      spec.bodyRequestId ? { ok: true, requestId: c.get("requestId"), data } : { ok: true, data },
      200,
    );
  };
}
