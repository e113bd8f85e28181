import { createRoute, type z } from "@hono/zod-openapi";
import {
  biomarkerAgent,
  medicationAgent,
  outcomeAgent,
  type RecordAgentDefinition,
  type RecordAgentProduct,
  relapseAgent,
  runRecordAgent,
  type ToolLoopLimits,
} from "@svc/agents";
import { ToolInputError } from "@svc/engines";
import { ApiError, type AppEnv, errorResponses, jsonAnswer, type ServiceApp, workSignal } from "@svc/http";
import { type ChatModel, describeModelUnavailable, ModelUnavailableError } from "@svc/model";
import type { Context } from "hono";
import {
  AgentPatientIdParamSchema,
  type BiomarkerAgentRequest,
  BiomarkerAgentRequestSchema,
  type BiomarkerAgentResponse,
  BiomarkerAgentResponseSchema,
  type MedicationAgentRequest,
  MedicationAgentRequestSchema,
  type MedicationAgentResponse,
  MedicationAgentResponseSchema,
  type OutcomeAgentRequest,
  OutcomeAgentRequestSchema,
  type OutcomeAgentResponse,
  OutcomeAgentResponseSchema,
  type RelapseAgentRequest,
  RelapseAgentRequestSchema,
  type RelapseAgentResponse,
  RelapseAgentResponseSchema,
} from "../schemas/agents.js";

// The body types of these routes, for clients and tests (from the schemas they declare).
export type {
  BiomarkerAgentRequest,
  BiomarkerAgentResponse,
  MedicationAgentRequest,
  MedicationAgentResponse,
  OutcomeAgentRequest,
  OutcomeAgentResponse,
  RelapseAgentRequest,
  RelapseAgentResponse,
};

export interface RecordAgentRouteOptions {
  chatModel?: ChatModel;
  limits?: ToolLoopLimits;
}

const DESCRIPTION =
  "Runs the product's deterministic tools over the submitted data, with a language model's tool loop when one is configured (else the fixed tool plan and a template narrative; `runner` says which ran). The engine, not the model, assigns every flag, score, band and severity; observations naming anything no tool returned are dropped into `warnings`. Advisory only: nothing is stored. 503 `service_unavailable` when the configured model cannot be reached or runs past its time limit. Secret keys only.";

function agentRoute<P extends RecordAgentProduct, Req extends z.ZodType, Res extends z.ZodType>(
  product: P,
  summary: string,
  requestSchema: Req,
  responseSchema: Res,
  example: z.input<Req>,
) {
  return createRoute({
    method: "post",
    path: `/v1/${product}/{patientId}/agent` as `/v1/${P}/{patientId}/agent`,
    operationId: `run${product[0]?.toUpperCase()}${product.slice(1)}Agent`,
    tags: ["Agents"],
    summary,
    description: DESCRIPTION,
    request: {
      params: AgentPatientIdParamSchema,
      body: { required: true, content: { "application/json": { schema: requestSchema, example } } },
    },
    responses: {
      200: jsonAnswer(`The ${product} agent's advisory assessment`, responseSchema),
      ...errorResponses(400, 402, 503),
    },
  });
}

const medicationRoute = agentRoute(
  "medication",
  "Run the medication agent",
  MedicationAgentRequestSchema,
  MedicationAgentResponseSchema,
  { medications: ["Sertraline 100 mg", "tramadol 50mg"] },
);
const biomarkerRoute = agentRoute(
  "biomarker",
  "Run the biomarker agent",
  BiomarkerAgentRequestSchema,
  BiomarkerAgentResponseSchema,
  {
    panel: [
      { analyte: "lithium", value: 1.5 },
      { analyte: "sodium", value: 140 },
    ],
  },
);
const outcomeRoute = agentRoute(
  "outcome",
  "Run the outcome agent",
  OutcomeAgentRequestSchema,
  OutcomeAgentResponseSchema,
  { instruments: [{ instrument: "GAD-7", total: 6, priorTotal: 12 }] },
);
const relapseRoute = agentRoute(
  "relapse",
  "Run the relapse agent",
  RelapseAgentRequestSchema,
  RelapseAgentResponseSchema,
  { signals: [{ indicator: "medication_nonadherence", severity: 1 }] },
);

/** The record-level agents: POST /v1/{medication,biomarker,outcome,relapse}/{patientId}/agent. */
export function registerRecordAgents(service: ServiceApp, options: RecordAgentRouteOptions): void {
  service.openapi(medicationRoute, agentHandler(medicationAgent, "medications", options));
  service.openapi(biomarkerRoute, agentHandler(biomarkerAgent, "panel", options));
  service.openapi(outcomeRoute, agentHandler(outcomeAgent, "instruments", options));
  service.openapi(relapseRoute, agentHandler(relapseAgent, "signals", options));
}

/** The validated request an agent route hands its handler: the patient id and the body. */
type AgentRequest<Body> = { out: { param: { patientId: string }; json: Body & { context?: string } } };

/** One route's handler: runs the agent over the validated request and answers 200 with its assessment. */
function agentHandler<Body, Output, Assessment>(
  agent: RecordAgentDefinition<Body, Output, Assessment>,
  inputField: string,
  options: RecordAgentRouteOptions,
) {
  return async (c: Context<AppEnv, string, AgentRequest<Body>>) => {
    const data = await runAgent(agent, inputField, c.req.valid("param"), c.req.valid("json"), options, c);
    return c.json({ ok: true as const, data }, 200);
  };
}

/**
 * One agent request: the agent's run (its model call stopped when the caller goes away or the
 * time limit has answered 503, decision 126), with its own failures
 * as the contract's errors: 400 for input the engine cannot score (the issue path under the body
 * field it read), 503 for a model that cannot serve.
 */
async function runAgent<Body, Output, Assessment>(
  agent: RecordAgentDefinition<Body, Output, Assessment>,
  inputField: string,
  { patientId }: { patientId: string },
  body: Body & { context?: string },
  options: RecordAgentRouteOptions,
  c: Context<AppEnv>,
) {
  try {
    return await runRecordAgent(
      agent,
      { patientId, body, context: body.context },
      { chatModel: options.chatModel, limits: options.limits, signal: workSignal(c) },
    );
  } catch (error) {
    if (error instanceof ToolInputError) {
      throw new ApiError(
        "invalid_request",
        `The ${agent.product} agent cannot score this input: ${error.message}`,
        {
          issues: error.issues.map((issue) => ({
            path: [inputField, ...issue.path].join("."),
            message: issue.message,
          })),
        },
      );
    }
    if (error instanceof ModelUnavailableError) {
      throw new ApiError(
        "service_unavailable",
        `The agent's model is temporarily unavailable: ${describeModelUnavailable(error)}; nothing was stored. Retry later.`,
      );
    }
    throw error;
  }
}
