import { createRoute, type RouteHandler, type z } from "@hono/zod-openapi";
import { type MseAgentProposal, runMseAgent, type ToolLoopLimits } from "@svc/agents";
import {
  ApiError,
  type AppEnv,
  flatErrorResponses,
  jsonAnswer,
  type ServiceApp,
  workSignal,
} from "@svc/http";
import { type ChatModel, describeModelUnavailable, ModelUnavailableError } from "@svc/model";
import { MseAgentProposalSchema, MseAgentRequestSchema } from "../schemas/agent.js";
import { VisitIdParamSchema } from "../schemas/common.js";
import { AGENT, TAG } from "./common.js";

/** The body a client sends to POST /v1/mse/{visitId}/agent. */
export type MseAgentRequestBody = z.input<typeof MseAgentRequestSchema>;
/** The 200 body of POST /v1/mse/{visitId}/agent. */
export type MseAgentResponse = z.infer<typeof MseAgentProposalSchema>;

const route = createRoute({
  method: "post",
  operationId: "runMseAgent",
  path: "/v1/mse/{visitId}/agent",
  tags: [TAG],
  summary: "Run the MSE agent",
  description:
    "MSE agent: propose a selection from a transcript and/or telemetry. Proposes an MSE selection: telemetry signals outside the dmse engine's range become digital_mse findings; with a language model configured, findings from the transcript are added (else the transcript is not read; `runner` says which ran). The proposal is re-validated by the write endpoint's validator; the agent never proposes an absence of risk (no `denies_si_hi`, no C-SSRS 'no'). Nothing is written: POST `commit.body` to `commit.path` to record it. Neither transcript nor telemetry: 400. 503 `service_unavailable` when the model cannot be reached or runs past its time limit. Who may call (the contract's secret key, write-equivalent): an account's secret test or live key (a live key needs a paid plan and approved production access, else 402), or an organization key with scope `mse:write`; publishable keys and organization keys without `mse:write` are 403. Saving the proposal (`commit`) takes an organization key with `mse:write`, as every MSE write does.",
  request: {
    params: VisitIdParamSchema,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: MseAgentRequestSchema,
          example: {
            patientId: "pat-1",
            transcript: "I feel hopeless most days. I keep losing my train of thought.",
            telemetry: { speechRateWpm: 80, responseLatencySeconds: 2.6, sessionDurationSeconds: 600 },
          },
        },
      },
    },
  },
  responses: {
    200: jsonAnswer("The proposal (nothing stored)", MseAgentProposalSchema),
    ...flatErrorResponses(400, 402, 503),
  },
});

export function registerMseAgent(
  service: ServiceApp,
  options: { chatModel?: ChatModel; limits?: ToolLoopLimits },
): void {
  // No database access here: the agent only proposes (the write endpoint records).
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { visitId } = c.req.valid("param");
    const body = c.req.valid("json");
    const proposal = await unlessModelUnavailable(() =>
      runMseAgent(
        { visitId, ...body },
        // The model call stops when the caller goes away or the time limit answered (decision 126).
        { chatModel: options.chatModel, limits: options.limits, signal: workSignal(c) },
      ),
    );
    return c.json(proposal, 200);
  };
  service.openapi(route, handler, AGENT);
}

/** A model that cannot serve the request is the contract's 503; nothing was stored. */
async function unlessModelUnavailable(run: () => Promise<MseAgentProposal>): Promise<MseAgentProposal> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ModelUnavailableError) {
      throw new ApiError(
        "service_unavailable",
        `The MSE agent's model is temporarily unavailable: ${describeModelUnavailable(error)}; nothing was stored. Retry later.`,
      );
    }
    throw error;
  }
}
