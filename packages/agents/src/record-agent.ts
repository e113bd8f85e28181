import { combineRisks, findingLabel, riskWithNotEvaluated } from "@svc/engines";
import { boundedWarnings, clipModelText, screenModelWords } from "@svc/intelligence";
import type { ChatModel, ToolCallRecord } from "@svc/model";
import { AGENT_DISCLAIMER, type AgentReasoning, type RecordAgentEnvelope } from "./envelope.js";
import { type GroundedAnswer, groundAnswer, parseModelAnswer } from "./grounding.js";
import { DEFAULT_TOOL_LOOP_LIMITS, type ToolLoopLimits } from "./limits.js";
import { agentPatientReview, type ReviewPatientOutput, reviewPatientTool } from "./patient-tools.js";
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
  chatModel?: ChatModel;
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
  const assessed = agent.ground((await agent.assessingTool.execute(toolInput)) as Output);
  const now = options.now ?? (() => new Date());
  // The patient review (decision 198) runs on the caller's data too, by the one rule of when an
  // answer carries it; its findings join the risk, the grounding and the template narrative.
  const review = agent.reviewInput ? agentPatientReview(agent.reviewInput(request.body), now()) : null;
  const grounded = withPatientReview(assessed, review);
  if (!options.chatModel) return deterministicEnvelope(agent, request, grounded, review, now);
  return modelEnvelope(agent, request, grounded, review, options.chatModel, { ...options, now });
}

/** The assessment with the patient review's findings: the one risk, entities to ground, sentences. */
function withPatientReview<Assessment>(
  grounded: GroundedAssessment<Assessment>,
  review: ReviewPatientOutput | null,
): GroundedAssessment<Assessment> {
  if (review === null) return grounded;
  return {
    ...grounded,
    risk: combineRisks([grounded.risk, review.risk]),
    entities: [
      ...grounded.entities,
      ...review.findings.map((finding) => ({
        name: finding.title,
        aliases: [finding.rule, ...(finding.medicines ?? []), ...(finding.analyte ? [finding.analyte] : [])],
        citation: `${reviewPatientTool.name}:${finding.rule}`,
      })),
    ],
    summary: [...grounded.summary, ...patientReviewSentences(review)],
  };
}

const REVIEW_TITLES_NAMED = 3;

function patientReviewSentences(review: ReviewPatientOutput): string[] {
  if (review.findings.length === 0)
    return [
      "The patient review found nothing on the patient facts, medicines and readings given; it covers only what was given, and an absent fact is unknown, not normal.",
    ];
  const named = review.findings
    .slice(0, REVIEW_TITLES_NAMED)
    .map((finding) => findingLabel(finding).replace(/\.$/, ""))
    .join("; ");
  const more =
    review.findings.length > REVIEW_TITLES_NAMED
      ? ` and ${review.findings.length - REVIEW_TITLES_NAMED} more`
      : "";
  return [
    `The patient review has ${review.findings.length} finding${review.findings.length === 1 ? "" : "s"}, highest ${review.risk.level}: ${named}${more}.`,
  ];
}

/**
 * Free-text context is read only by a language model. Without one it is said to be unread
 * (decision 198), in a warning that names the structured fields, and as a not-evaluated item of
 * the risk (decision 80): facts given only in words never read as checked.
 */
export function contextNotReadWarning(takesPatient: boolean): string {
  return `The context was not read: no language model is configured, and the deterministic tools read only structured fields.${takesPatient ? " Give age, sex, pregnancy and breastfeeding status, weight, renal function (eGFR or creatinine clearance) and hepatic impairment as the structured `patient` fields." : ""}`;
}

export const CONTEXT_NOT_READ_ITEM = Object.freeze({
  what: "the free-text context",
  why: "not read: no language model is configured",
});

function withUnreadContext<Assessment>(
  grounded: GroundedAssessment<Assessment>,
  context: string | undefined,
  takesPatient: boolean,
): GroundedAssessment<Assessment> {
  if (context === undefined || context.trim() === "") return grounded;
  return {
    ...grounded,
    risk: riskWithNotEvaluated([grounded.risk], [CONTEXT_NOT_READ_ITEM]),
    warnings: [...grounded.warnings, contextNotReadWarning(takesPatient)],
  };
}

function baseEnvelope<Assessment>(
  agent: RecordAgentDefinition<unknown, unknown, Assessment>,
  request: RecordAgentRequest<unknown>,
  grounded: GroundedAssessment<Assessment>,
  review: ReviewPatientOutput | null,
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
    ...(review === null ? {} : { patientReview: review }),
    disclaimer: AGENT_DISCLAIMER,
  };
}

/** The fixed plan: every tool of the product in order, then the template narrative. */
async function deterministicEnvelope<Body, Assessment>(
  agent: RecordAgentDefinition<Body, unknown, Assessment>,
  request: RecordAgentRequest<Body>,
  assessed: GroundedAssessment<Assessment>,
  review: ReviewPatientOutput | null,
  now: () => Date,
): Promise<RecordAgentEnvelope<Assessment>> {
  // The reference tools (getPanels, getInstruments, getSignalModel) are run as the plan says,
  // though the assessing tool already applies what they describe.
  for (const tool of agent.plan) if (tool !== agent.assessingTool) await tool.execute({});
  const grounded = withUnreadContext(assessed, request.context, agent.reviewInput !== undefined);
  const narrative = grounded.summary.join(" ");
  const toolCalls = [
    ...agent.plan.map((tool) => tool.name),
    ...(review === null ? [] : [reviewPatientTool.name]),
  ];
  return {
    ...baseEnvelope(agent, request, grounded, review),
    ok: grounded.assessment !== null && grounded.complete,
    reasoning: narrative ? { narrative, generatedAt: now().toISOString(), narrator: "template" } : null,
    citations: grounded.entities.map((entity) => entity.citation),
    toolCalls,
    steps: toolCalls.length,
    runner: "deterministic",
  };
}

async function modelEnvelope<Body, Assessment>(
  agent: RecordAgentDefinition<Body, unknown, Assessment>,
  request: RecordAgentRequest<Body>,
  grounded: GroundedAssessment<Assessment>,
  review: ReviewPatientOutput | null,
  model: ChatModel,
  options: RecordAgentOptions & { now: () => Date },
): Promise<RecordAgentEnvelope<Assessment>> {
  const limits = options.limits ?? DEFAULT_TOOL_LOOP_LIMITS;
  // The model may call reviewPatient when the answer carries a review; the review itself is the
  // engine's run on the caller's data, as the assessment is.
  const reviewInput = review === null ? undefined : agent.reviewInput?.(request.body);
  const loop = await model.runToolLoop({
    system: RECORD_AGENT_SYSTEM_PROMPT,
    prompt: recordAgentPrompt(agent.product, agent.toolInput(request.body), request.context, reviewInput),
    tools: reviewInput === undefined ? agent.plan : [...agent.plan, reviewPatientTool],
    maxSteps: limits.maxSteps,
    callTimeoutMs: limits.callTimeoutMs,
    totalTimeoutMs: limits.totalTimeoutMs,
    signal: options.signal,
  });
  const base = baseEnvelope(agent, request, grounded, review);
  const calls = reportToolCalls(loop.toolCalls, agent, request.body);
  if (review !== null && !calls.names.includes(reviewPatientTool.name))
    calls.names.push(reviewPatientTool.name);
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
