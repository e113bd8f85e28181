import { type RouteConfig, z } from "@hono/zod-openapi";
import type { AnalysisAnswer } from "@svc/fhir";
import { type RoutePolicy, type ServiceApp, workSignal } from "@svc/http";
import { fhirAnswer, wantsFhir } from "./fhir.js";
import {
  type AnalysisCommon,
  type AnalysisContext,
  type AnalysisData,
  type AnalysisSpec,
  analysisPipeline,
} from "./pipeline.js";

/** A route whose JSON body (after validation) is `TBody`. */
type RouteWithBody<TBody> = Omit<RouteConfig, "request"> & {
  request: { body: { content: { "application/json": { schema: z.ZodType<TBody> } } } };
};

/** `data` of the JSON 200 answer the route declares. */
type DeclaredData<R> = R extends {
  responses: { 200: { content: { "application/json": { schema: infer S extends z.ZodType } } } };
}
  ? z.output<S> extends { data: infer D }
    ? D
    : never
  : never;

/** Compiles only when the pipeline's `data` fits the route's declared `data`. */
type Answers<R, TData> = TData extends DeclaredData<R> ? unknown : { pipelineDataFitsRoute: never };

/**
 * What the handler sees of an analysis endpoint: its route, with its 200 responses left
 * untyped (so the handler may answer a plain Response), and its pipeline as answering some
 * engine's `AnalysisAnswer`.
 */
interface UntypedAnalysis {
  route: RouteWithBody<AnalysisCommon & Record<string, unknown>>;
  answer: (body: AnalysisCommon & Record<string, unknown>, signal: AbortSignal) => Promise<AnalysisAnswer>;
}

/** Whether the route's JSON 200 envelope declares a `requestId` field. */
function declaresBodyRequestId(route: RouteConfig): boolean {
  const ok = route.responses[200];
  const content = ok && "content" in ok ? ok.content : undefined;
  const json = content?.["application/json"];
  const schema = json && "schema" in json ? json.schema : undefined;
  return schema instanceof z.ZodObject && schema.shape.requestId !== undefined;
}

/**
 * Registers one analysis endpoint: its route (from `analysisRoute`) runs `spec`'s pipeline on the
 * validated body and answers the FHIR Bundle when `Accept` prefers it, else the JSON envelope
 * `{ ok, [requestId], data }`, with `requestId` exactly when the route's declared answer has it
 * (`analysisRoute`'s `bodyRequestId`), so the two cannot disagree.
 */
export function registerAnalysis<
  TInput,
  TData extends object,
  TParams,
  TObject extends string,
  R extends RouteWithBody<TInput & AnalysisCommon>,
>(
  service: ServiceApp,
  route: R & Answers<R, AnalysisData<TObject, TData>>,
  spec: AnalysisSpec<TInput, TData, TParams, TObject>,
  context: AnalysisContext,
  options: { policy?: RoutePolicy } = {},
): void {
  const analyze = analysisPipeline(spec, context);
  const bodyRequestId = declaresBodyRequestId(route);
  // The one cast. TypeScript cannot follow generic route and engine types into the handler, so
  // it sees them erased. Sound: `R`'s bounds check at the call site that the body schema yields
  // the engine's input and that the pipeline's data fits the route's declared 200 `data`; and the
  // answer pairs that data with its own descriptor's name, as `AnalysisAnswer` pairs them.
  const endpoint = {
    route,
    answer: async (body: TInput & AnalysisCommon, signal: AbortSignal) => ({
      engine: spec.engine.name,
      data: await analyze(body, signal),
      request: body,
    }),
  } as unknown as UntypedAnalysis;
  service.openapi(
    endpoint.route,
    async (c) => {
      const body = c.req.valid("json");
      const answer = await endpoint.answer(body, workSignal(c));
      if (wantsFhir(c)) return fhirAnswer(c, answer, service.deps.publicBaseUrl);
      const requestId = bodyRequestId ? { requestId: c.get("requestId") } : {};
      return c.json({ ok: true, ...requestId, data: answer.data }, 200);
    },
    options.policy,
  );
}
