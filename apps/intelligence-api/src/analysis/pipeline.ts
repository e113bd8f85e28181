import type { EngineRun } from "@svc/engines";
import type { Logger } from "@svc/http";
import {
  attachReasoning,
  buildEngineIntelligence,
  type EngineDescriptor,
  type EngineName,
  type IntelligenceBlock,
  type Narrator,
  type PreviousResult,
  type ResolvedCalibration,
  resolveCalibration,
  runWithCalibration,
} from "@svc/intelligence";
import type { ActiveModelVersions } from "../model-versions.js";

/** What the five analysis endpoints share: the common request fields. */
export interface AnalysisCommon {
  explain?: boolean;
  previous?: PreviousResult;
  sessionRef?: string;
}

/**
 * One analysis endpoint: its engine's descriptor in the registry (run, parameters, codes,
 * highlights; decision 101) and the `data.object` of its response.
 */
export interface AnalysisSpec<TInput, TData, TParams, TObject extends string> {
  engine: EngineDescriptor<TInput, TData, TParams, EngineName>;
  /** `data.object` of the response. */
  object: TObject;
}

export interface AnalysisContext {
  models: ActiveModelVersions;
  narrator: Narrator;
  logger: Logger;
  reasoningTimeoutMs?: number;
}

/** `data` of an analysis response: the engine's own fields with `object`, `sessionRef`, `model`, `intelligence`. */
export type AnalysisData<TObject extends string, TData> = { object: TObject; sessionRef?: string } & TData & {
    model: EngineRun<TData>["model"];
    intelligence: IntelligenceBlock;
  };

/** The request's own inputs (compared with `previous.inputs`): the body without the shared fields. */
function currentInputsOf(body: AnalysisCommon): Record<string, unknown> {
  const { explain: _explain, previous: _previous, sessionRef: _sessionRef, ...inputs } = body;
  return inputs;
}

/**
 * The calibrated parameters of the engine's active model version, or undefined for the shipped
 * defaults, read by the registry's one `resolveCalibration` (decision 183). Resolved sets are
 * kept by version, so a calibrated model costs nothing per request.
 */
function calibratedModel<TParams>(
  engine: Pick<EngineDescriptor<unknown, unknown, TParams, EngineName>, "name" | "resolveParams">,
  context: AnalysisContext,
): () => Promise<ResolvedCalibration<TParams> | undefined> {
  const resolved = new Map<number, ResolvedCalibration<TParams> | null>();
  return async () => {
    const active = await context.models.get(engine.name);
    if (!active) return undefined;
    let calibration = resolved.get(active.version);
    if (calibration === undefined) {
      const read = resolveCalibration(engine, active);
      if (read.rejected !== undefined)
        // A promoted row the engine cannot read: run the shipped defaults and say so in `model`.
        context.logger.error(
          { engine: engine.name, version: active.version, err: read.rejected },
          "calibrated parameters rejected; running defaults",
        );
      calibration = read.calibration ?? null;
      resolved.set(active.version, calibration);
    }
    return calibration ?? undefined;
  };
}

/**
 * What every analysis route does with its validated body: run the engine with the active
 * calibrated version (or the shipped defaults), build the intelligence block, optionally
 * narrate (stopped with `signal`, the route's `workSignal`, decision 126), and return the
 * response `data`. Nothing is stored; `sessionRef` is echoed and never
 * logged. The engine reads only its own fields of the body; the shared ones pass by unread.
 */
export function analysisPipeline<TInput, TData extends object, TParams, TObject extends string>(
  spec: AnalysisSpec<TInput, TData, TParams, TObject>,
  context: AnalysisContext,
): (body: TInput & AnalysisCommon, signal?: AbortSignal) => Promise<AnalysisData<TObject, TData>> {
  const { engine } = spec;
  const calibrated = calibratedModel(engine, context);
  return async (body, signal) => {
    const now = new Date();
    const calibration = await calibrated();
    const run = runWithCalibration(engine, body, { now, ...(calibration ? { calibration } : {}) });
    let intelligence: IntelligenceBlock = buildEngineIntelligence({
      engine: engine.name,
      facts: run.facts,
      model: run.model,
      now,
      codes: engine.codes(body, run),
      previous: body.previous,
      currentInputs: currentInputsOf(body),
    });
    const unmapped = engine.unmapped?.(body, run) ?? [];
    if (unmapped.length > 0) {
      // Right after `codes`, where a reader looks for the codes.
      intelligence = Object.fromEntries(
        Object.entries(intelligence).flatMap(([key, value]) =>
          key === "codes"
            ? [
                [key, value],
                ["unmapped", unmapped],
              ]
            : [[key, value]],
        ),
      ) as IntelligenceBlock;
    }
    if (body.explain) {
      intelligence = await attachReasoning(intelligence, context.narrator, {
        highlights: engine.highlights(run.data),
        timeoutMs: context.reasoningTimeoutMs,
        signal,
      });
    }
    return {
      object: spec.object,
      ...(body.sessionRef === undefined ? {} : { sessionRef: body.sessionRef }),
      ...run.data,
      model: run.model,
      intelligence,
    };
  };
}
