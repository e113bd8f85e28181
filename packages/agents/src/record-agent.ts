import { boundedWarnings, clipModelText, screenModelWords } from "@svc/intelligence";
import type { ChatModel, ToolCallRecord } from "@svc/model";
import { AGENT_DISCLAIMER, type AgentReasoning, type RecordAgentEnvelope } from "./envelope.js";
import { type GroundedAnswer, groundAnswer, parseModelAnswer } from "./grounding.js";
import { DEFAULT_TOOL_LOOP_LIMITS, type ToolLoopLimits } from "./limits.js";
import type { GroundedAssessment, RecordAgentDefinition } from "./products.js";
import { RECORD_AGENT_SYSTEM_PROMPT, recordAgentPrompt } from "./prompts.js";

/**
 * One record-level agent request. With a model: the model runs a bounded tool loop over the
 * product's tools and writes the narrative; the engine's own run on the caller's data gives the
 * assessment and risk, and the model's words are grounded against it. Without a model: the fixed
 * tool plan runs and the template narrator states the engine output. Either way nothing is
 * written anywhere. A model that cannot serve the request throws ModelUnavailableError (503).
 */
export interface RecordAgentOptions {
  /** The chat model; absent: the deterministic plan runs. */
  model?: ChatModel;
  limits?: ToolLoopLimits;
  now?: () => Date;
  /** The caller went away: stop the model loop. */
  signal?: AbortSignal;
}

export interface RecordAgentRequest<Body> {
  patientId: string;
  body: Body;
  /** The caller's free-text context (given to the model as data, never as instructions). */
  context?: string;
}

export async function runRecordAgent<Body, Output, Assessment>(
  agent: RecordAgentDefinition<Body, Output, Assessment>,
  request: RecordAgentRequest<Body>,
  options: RecordAgentOptions = {},
): Promise<RecordAgentEnvelope<Assessment>> {
  // The engine's run on the caller's data comes first: input it cannot score is a 400 before
  // any model time is spent, and it is the one source of the assessment and the risk.
  const toolInput = agent.toolInput(request.body);
  const grounded = agent.ground((await agent.assessingTool.execute(toolInput)) as Output);
  const now = options.now ?? (() => new Date());
  if (!options.model) return deterministicEnvelope(agent, request, grounded, now);
  return modelEnvelope(agent, request, grounded, options.model, { ...options, now });
}

function baseEnvelope<Assessment>(
  agent: RecordAgentDefinition<unknown, unknown, Assessment>,
  request: RecordAgentRequest<unknown>,
  grounded: GroundedAssessment<Assessment>,
): Omit<
  RecordAgentEnvelope<Assessment>,
  "ok" | "reasoning" | "citations" | "toolCalls" | "steps" | "runner"
> {
  const notAssessed = grounded.assessment === null;
  return {
    object: `${agent.product}.agent.assessment`,
    patientId: request.patientId,
    mode: "advisory",
    assessment: grounded.assessment,
    // Nothing recognised is "not assessed", never a reassuring "none" without a word. The tool's
    // risk already names each entry it could not evaluate, at low or above (decision 80); this
    // one line says that the assessment as a whole is missing (an empty input stays at none).
    risk: notAssessed
      ? {
          ...grounded.risk,
          labels: [...grounded.risk.labels, "Not assessed: nothing in the input was recognised."],
        }
      : grounded.risk,
    warnings: [...grounded.warnings],
    disclaimer: AGENT_DISCLAIMER,
  };
}

/** The fixed plan: every tool of the product in order, then the template narrative. */
async function deterministicEnvelope<Body, Assessment>(
  agent: RecordAgentDefinition<Body, unknown, Assessment>,
  request: RecordAgentRequest<Body>,
  grounded: GroundedAssessment<Assessment>,
  now: () => Date,
): Promise<RecordAgentEnvelope<Assessment>> {
  // The reference tools (getPanels, getInstruments, getSignalModel) are run as the plan says,
  // though the assessing tool already applies what they describe.
  for (const tool of agent.plan) if (tool !== agent.assessingTool) await tool.execute({});
  const narrative = grounded.summary.join(" ");
  return {
    ...baseEnvelope(agent, request, grounded),
    ok: grounded.assessment !== null && grounded.complete,
    reasoning: narrative ? { narrative, generatedAt: now().toISOString(), narrator: "template" } : null,
    citations: grounded.entities.map((entity) => entity.citation),
    toolCalls: agent.plan.map((tool) => tool.name),
    steps: agent.plan.length,
    runner: "deterministic",
  };
}

async function modelEnvelope<Body, Assessment>(
  agent: RecordAgentDefinition<Body, unknown, Assessment>,
  request: RecordAgentRequest<Body>,
  grounded: GroundedAssessment<Assessment>,
  model: ChatModel,
  options: RecordAgentOptions & { now: () => Date },
): Promise<RecordAgentEnvelope<Assessment>> {
  const limits = options.limits ?? DEFAULT_TOOL_LOOP_LIMITS;
  const loop = await model.runToolLoop({
    system: RECORD_AGENT_SYSTEM_PROMPT,
    prompt: recordAgentPrompt(agent.product, agent.toolInput(request.body), request.context),
    tools: agent.plan,
    maxSteps: limits.maxSteps,
    callTimeoutMs: limits.callTimeoutMs,
    totalTimeoutMs: limits.totalTimeoutMs,
    signal: options.signal,
  });
  const base = baseEnvelope(agent, request, grounded);
  const calls = reportToolCalls(loop.toolCalls, agent, request.body);
  const answer = withoutReassurance(loop.text, grounded, agent.vocabulary());
  const finished = !loop.stoppedAtStepBound && answer.narrative.length > 0;
  const warnings = [...base.warnings, ...calls.warnings, ...answer.warnings];
  if (loop.stoppedAtStepBound) {
    warnings.push(
      `The model was stopped at the step limit (${limits.maxSteps}) before it finished; the assessment is the engine's, without a narrative.`,
    );
  } else if (!answer.narrative) warnings.push("The model gave no narrative that rests on the tool results.");
  const reasoning: AgentReasoning | null = finished
    ? { narrative: answer.narrative, generatedAt: options.now().toISOString(), narrator: "model" }
    : null;
  return {
    ...base,
    assessment:
      base.assessment && finished
        ? agent.withObservations(base.assessment, answer.observations)
        : base.assessment,
    ok: finished && grounded.assessment !== null && grounded.complete,
    reasoning,
    citations: answer.citations.length > 0 ? answer.citations : grounded.entities.map((e) => e.citation),
    toolCalls: calls.names,
    steps: loop.steps,
    warnings,
    runner: "model",
  };
}

/**
 * The model's answer grounded and without reassurance about risk (decision 74): a narrative
 * sentence or an observation saying there is no risk, that a combination is safe or that a flag
 * can be ignored is dropped with a warning naming the phrase; when the engine raised risk (flag,
 * or level moderate or high), words that play it down ("low risk", "not clinically significant")
 * go too. Screened before grounding (so truncation cannot cut a phrase into something unmatched)
 * and once more after it.
 */
function withoutReassurance<Assessment>(
  text: string,
  grounded: GroundedAssessment<Assessment>,
  vocabulary: readonly string[],
): GroundedAnswer {
  const { risk } = grounded;
  const context = { riskRaised: risk.flag || risk.level === "moderate" || risk.level === "high" };
  const parsed = parseModelAnswer(text);
  const before = screenModelWords(parsed.narrative, parsed.observations, (o) => o.entity, context);
  const answer = groundAnswer(
    { ...parsed, narrative: before.narrative, observations: before.observations },
    grounded.entities,
    vocabulary,
  );
  const after = screenModelWords(answer.narrative, answer.observations, (o) => o.entity.name, context);
  return {
    ...answer,
    narrative: after.narrative,
    observations: after.observations,
    warnings: [...before.warnings, ...answer.warnings, ...after.warnings],
  };
}

/**
 * The deterministic tools that ran, in order. A call the model got wrong (bad arguments, an
 * unknown tool) ran nothing and is a warning. When the model never ran the assessing tool on the
 * caller's own data, the engine's run (which the assessment comes from) is listed last.
 */
function reportToolCalls<Body>(
  records: readonly ToolCallRecord[],
  agent: RecordAgentDefinition<Body, unknown, unknown>,
  body: Body,
): { names: string[]; warnings: string[] } {
  const names: string[] = [];
  const rejected: string[] = [];
  const expectedInput = JSON.stringify(agent.assessingTool.inputSchema.parse(agent.toolInput(body)));
  let assessedCallerData = false;
  for (const record of records) {
    if (!record.ok) {
      rejected.push(
        `The model's call to ${clipModelText(record.name)} was rejected (${record.error}); nothing from it was used.`,
      );
      continue;
    }
    names.push(record.name);
    if (record.name === agent.assessingTool.name && JSON.stringify(record.input) === expectedInput)
      assessedCallerData = true;
  }
  const warnings = boundedWarnings(rejected, "rejected tool calls");
  if (!assessedCallerData) {
    names.push(agent.assessingTool.name);
    warnings.push(
      `The model did not run ${agent.assessingTool.name} on the submitted data; the engine ran it, and the assessment comes from that run.`,
    );
  }
  return { names, warnings };
}
