/**
 * What every deterministic agent tool shares: the risk it reports (computed here, never by a
 * model) and the error it throws for input it cannot score. Tools are pure functions: the
 * record-level agents, the MCP server and other teams call the same ones.
 */

export const AGENT_RISK_LEVELS = ["none", "low", "moderate", "high"] as const;
export type AgentRiskLevel = (typeof AGENT_RISK_LEVELS)[number];

/** The `risk` object of an agent response: `flag` is true whenever `level` is not `none`. */
export interface AgentRisk {
  flag: boolean;
  level: AgentRiskLevel;
  /** Short clinician-facing reasons, one per finding that raised the level. */
  labels: string[];
}

export const NO_RISK_FOUND: AgentRisk = Object.freeze({
  flag: false,
  level: "none",
  labels: [],
}) as AgentRisk;

/** The higher of two levels. */
export function higherRiskLevel(a: AgentRiskLevel, b: AgentRiskLevel): AgentRiskLevel {
  return AGENT_RISK_LEVELS.indexOf(a) >= AGENT_RISK_LEVELS.indexOf(b) ? a : b;
}

/** One risk from a list of findings: the highest level, every label once, in order. */
export function combineRisks(risks: readonly AgentRisk[]): AgentRisk {
  let level: AgentRiskLevel = "none";
  const labels: string[] = [];
  for (const risk of risks) {
    level = higherRiskLevel(level, risk.level);
    for (const label of risk.labels) if (!labels.includes(label)) labels.push(label);
  }
  return { flag: level !== "none", level, labels };
}

/**
 * Something a tool was given but could not evaluate (decision 80): an unrecognised or partly
 * recognised entry, a reading whose unit is missing or ambiguous, an implausible value, a risk
 * item that was not screened. `what` names it as the caller sent it; `why` says why it was not
 * evaluated.
 */
export interface NotEvaluatedItem {
  what: string;
  why: string;
  /**
   * A tool may ask for more than the floor (`low`), e.g. an implausible lab value that can hide a
   * critical one (decision 67); a lower level is never used.
   */
  level?: AgentRiskLevel;
  /** A tool's own published wording (relapse signals, decision 77); default `notEvaluatedLabel`. */
  label?: string;
}

/** The level a not-evaluated item holds at the least: never `none` (decision 80). */
export const NOT_EVALUATED_MIN_LEVEL: AgentRiskLevel = "low";

/** "Not evaluated: <what> (<why>)". */
export function notEvaluatedLabel(item: Pick<NotEvaluatedItem, "what" | "why">): string {
  return `Not evaluated: ${item.what} (${item.why})`;
}

/**
 * The one rule every agent tool applies to what it could not evaluate (decision 80): the risk of
 * the evaluated findings combined with one finding per not-evaluated item, each at least `low`,
 * flagged and labelled with what it is and why. Evaluated findings keep their own levels (the
 * combination is a maximum, so none is ever lowered), and with no not-evaluated item the result
 * is `combineRisks(evaluated)` unchanged.
 */
export function riskWithNotEvaluated(
  evaluated: readonly AgentRisk[],
  notEvaluated: readonly NotEvaluatedItem[],
): AgentRisk {
  return combineRisks([
    ...evaluated,
    ...notEvaluated.map(
      (item): AgentRisk => ({
        flag: true,
        level: higherRiskLevel(NOT_EVALUATED_MIN_LEVEL, item.level ?? NOT_EVALUATED_MIN_LEVEL),
        labels: [item.label ?? notEvaluatedLabel(item)],
      }),
    ),
  ]);
}

/** Where in the tool's input a problem is, and what it is (becomes a 400's `issues` entry). */
export interface ToolInputIssue {
  /** Path inside the tool's input, e.g. [2, "responses"] for the third instrument's responses. */
  path: (string | number)[];
  message: string;
}

/**
 * Input the tool recognises but cannot score (for example a PHQ-9 with 8 responses, or an answer
 * outside the instrument's item range). The message names the instrument or entity. Unknown
 * entities are not errors: tools list them in `unrecognized`.
 */
export class ToolInputError extends Error {
  override readonly name = "ToolInputError";
  readonly issues: ToolInputIssue[];

  constructor(issues: ToolInputIssue[]) {
    super(issues.map((issue) => issue.message).join("; "));
    this.issues = issues;
  }
}
