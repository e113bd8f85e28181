/**
 * The contract's bounds on agent input (interface spec, "Agent endpoints" and "Limits") and the
 * service's bounds on a model's tool loop. One definition: the HTTP schemas, the tool schemas and
 * the MCP server all read these.
 */
export const AGENT_INPUT_LIMITS = {
  contextMaxChars: 2000,
  medications: { min: 1, max: 50 },
  /** One medication line ("sertraline 100 mg daily"); the contract gives no length, we bound it. */
  medicationMaxChars: 200,
  panelReadings: { min: 1, max: 50 },
  instruments: { min: 1, max: 20 },
  instrumentResponses: { max: 30, itemMin: 0, itemMax: 10 },
  instrumentTotal: { min: 0, max: 200 },
  signals: { min: 1, max: 30 },
  signalSeverity: { min: 0, max: 1 },
  /** Names of analytes, instruments and indicators (not in the contract; a sane bound). */
  nameMaxChars: 100,
  /** A lab reading's unit, as the Biomarker input bounds it (64 chars; decision 65). */
  unitMaxChars: 64,
  /** The patient review's medicines with start dates (decision 198): as many as a medication list. */
  reviewMedicines: { max: 50 },
  /** The patient review's dated readings (decision 198): room for a few series over time. */
  reviewReadings: { max: 200 },
  /** A reading given in words ("positive"). */
  readingTextMaxChars: 64,
  /** MSE agent transcript (not in the contract; decision 55). */
  transcriptMaxChars: 20_000,
} as const;

/** How long and how far a model may run one agent request. */
export interface ToolLoopLimits {
  /** Model calls (steps) per request. */
  maxSteps: number;
  /** Time limit of one model call. */
  callTimeoutMs: number;
  /** Time limit of the whole loop: stays under the service's 30 s request limit. */
  totalTimeoutMs: number;
}

export const DEFAULT_TOOL_LOOP_LIMITS: Readonly<ToolLoopLimits> = Object.freeze({
  maxSteps: 6,
  callTimeoutMs: 10_000,
  totalTimeoutMs: 20_000,
});
