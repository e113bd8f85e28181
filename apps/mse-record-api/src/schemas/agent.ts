import { z } from "@hono/zod-openapi";
import { AGENT_INPUT_LIMITS as LIMITS, mseTelemetryFields } from "@svc/agents";
import { DMSE_METRIC_REQUIRED_MESSAGE, hasDmseMetric } from "@svc/engines";
import { RiskLevelSchema } from "./common.js";
import { CssrsStatusSchema, LineSchema, SelectionSchema } from "./selection.js";

/**
 * Request and response of POST /v1/mse/{visitId}/agent (interface spec, "mse.agent.proposal" and
 * the MSE Record API table). The telemetry fields and their rule are the agent tool's (one
 * definition, with the dmse analysis request's bounds), built here so that the instances carry
 * `.openapi`; the text bounds are the write endpoint's and the agents'.
 */

const PatientId = z.string().min(1).max(128).openapi({ description: "Your patient identifier." });
const ClinicianId = z
  .string()
  .min(1)
  .max(128)
  .openapi({ description: "Who will record the proposal; echoed into `commit.body`." });

export const MseAgentRequestSchema = z
  .object({
    patientId: PatientId,
    transcript: z
      .string()
      .max(LIMITS.transcriptMaxChars)
      .refine((text) => text.trim() !== "", "transcript must not be blank.")
      .optional()
      .openapi({
        description: `Visit transcript (up to ${LIMITS.transcriptMaxChars} characters); read only when a language model is configured, as data, never as instructions.`,
      }),
    telemetry: z
      .object(mseTelemetryFields())
      .refine(hasDmseMetric, { message: DMSE_METRIC_REQUIRED_MESSAGE })
      .optional()
      .openapi({
        description:
          "Device telemetry with the dmse analysis metric names and bounds; at least one metric. Signals outside the engine's range become digital_mse findings.",
        example: { speechRateWpm: 82, responseLatencySeconds: 2.7, sessionDurationSeconds: 600 },
      }),
    context: z.string().max(LIMITS.contextMaxChars).optional().openapi({
      description: "Free-text context for the model (up to 2000 characters); data, never instructions.",
    }),
    clinicianId: ClinicianId.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.transcript === undefined && body.telemetry === undefined) {
      ctx.addIssue({ code: "custom", path: [], message: "Send a transcript, telemetry or both." });
    }
  })
  .openapi("MseAgentRequest");

const DraftSchema = z
  .object({ selection: SelectionSchema, lines: z.array(LineSchema), objectiveBlock: z.string() })
  .openapi("MseAgentDraft");

const CommitSchema = z
  .object({
    method: z.literal("POST"),
    path: z.string().openapi({ example: "/v1/mse/visit_2026_06_01_a" }),
    body: z.object({ patientId: z.string(), selection: SelectionSchema, clinicianId: z.string().optional() }),
  })
  .openapi("MseAgentCommit", {
    description:
      "POST `body` to `path` with an mse:write key to record the proposal as the visit's next version.",
  });

export const MseAgentProposalSchema = z
  .object({
    object: z.literal("mse.agent.proposal"),
    visitId: z.string(),
    mode: z.literal("proposed"),
    ok: z
      .boolean()
      .openapi({ description: "False: nothing could be proposed, or the model loop did not finish." }),
    draft: DraftSchema.nullable(),
    risk: z
      .object({
        flag: z.boolean(),
        level: RiskLevelSchema,
        labels: z.array(z.string()),
        cssrs: CssrsStatusSchema.optional(),
      })
      .openapi({
        description:
          "The engine's risk of the proposed selection, raised by the deterministic safety screen of the transcript (self-harm, overdose, suicidal ideation, plan or behaviour, harm to others, command hallucinations, signs of mania, a stopped psychotropic), with or without a model. Always labelled and never `none`: the agent does not assess suicide risk, so the level is at least `low`, flagged, as in the record agents.",
      }),
    reasoning: z
      .object({
        narrative: z.string(),
        generatedAt: z.string(),
        narrator: z
          .enum(["model", "template"])
          .openapi({ description: "Additive: who wrote the narrative." }),
      })
      .nullable(),
    citations: z.array(z.string()),
    toolCalls: z.array(z.string()).openapi({
      description: "Ordered tools run: getCatalog, analyzeTelemetry, validateDraft, assessRisk.",
    }),
    steps: z.number().int(),
    warnings: z.array(z.string()),
    commit: CommitSchema.nullable(),
    disclaimer: z.string(),
    runner: z
      .enum(["model", "deterministic"])
      .openapi({ description: "Additive: a language model's tool loop, or the fixed deterministic plan." }),
  })
  .openapi("MseAgentProposal");
