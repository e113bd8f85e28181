import { DMSE_METRIC_REQUIRED_MESSAGE, hasDmseMetric, DMSE_METRIC_MAX as MAX } from "@svc/engines";
import type { ChatTool } from "@svc/model";
import {
  assessRisk,
  buildLines,
  getCatalog,
  type Line,
  objectiveBlock,
  type RiskAssessment,
  type Selection,
  type SelectionError,
  validateSelection,
} from "@svc/mse-catalog";
import { z } from "zod";
import { analyzeTelemetryFindings, type MseTelemetry, type TelemetryAnalysis } from "./telemetry-findings.js";

/**
 * The MSE agent's deterministic tools as model-callable tools (also served over MCP): the catalog,
 * the dmse engine with the telemetry-to-finding mapping, and the write endpoint's own validator
 * and risk computation. Nothing here writes anything.
 */

/**
 * The dmse metrics with the dmse analysis request's bounds (DMSE_METRIC_MAX). A function, so that
 * an HTTP schema builds its own instances after @hono/zod-openapi has extended zod (instances
 * made before that have no `.openapi`).
 */
export function mseTelemetryFields() {
  return {
    psychomotorFidgetEpisodes: z.number().min(0).max(MAX.psychomotorFidgetEpisodes).optional(),
    responseLatencySeconds: z.number().min(0).max(MAX.responseLatencySeconds).optional(),
    speechRateWpm: z.number().min(0).max(MAX.speechRateWpm).optional(),
    sustainedAttentionPct: z.number().min(0).max(MAX.sustainedAttentionPct).optional(),
    sessionDurationSeconds: z.number().min(0).max(MAX.sessionDurationSeconds).optional(),
  };
}

export const MseTelemetrySchema = z
  .object(mseTelemetryFields())
  .refine(hasDmseMetric, { message: DMSE_METRIC_REQUIRED_MESSAGE });

/** A selection as the model proposes it: any object keyed by domain; the validator judges it. */
const ProposedSelectionSchema = z.record(z.string(), z.unknown());

/** The catalog as a model needs it: domains, options with their risk flag, the C-SSRS items. */
export interface MseCatalogForModel {
  version: string;
  domains: {
    key: string;
    label: string;
    multi: boolean;
    hasNote: boolean;
    options: { value: string; label: string; risk: boolean; excludes?: string[] }[];
  }[];
  cssrs: {
    questions: { id: string; text: string; timeframe: string }[];
    recency: { id: string; text: string };
  };
  supportingSignals: string[];
}

export function catalogForModel(): MseCatalogForModel {
  const catalog = getCatalog();
  return {
    version: catalog.version,
    domains: catalog.domains.map((domain) => ({
      key: domain.key,
      label: domain.label,
      multi: domain.multi,
      hasNote: domain.hasNote,
      options: domain.options.map(({ value, label, risk, excludes }) => ({
        value,
        label,
        risk,
        ...(excludes ? { excludes } : {}),
      })),
    })),
    cssrs: {
      questions: catalog.cssrs.questions.map(({ id, text, timeframe }) => ({ id, text, timeframe })),
      recency: { id: catalog.cssrs.recency.id, text: catalog.cssrs.recency.text },
    },
    supportingSignals: [...catalog.observationMetadata.supportingSignals],
  };
}

export type DraftValidation =
  | { ok: true; selection: Selection; lines: Line[]; objectiveBlock: string }
  | { ok: false; errors: SelectionError[] };

/** The write endpoint's validator, and the narrative lines of a valid selection. */
export function validateDraft(selection: unknown): DraftValidation {
  const checked = validateSelection(selection);
  if (!checked.ok) return { ok: false, errors: checked.errors };
  const lines = buildLines(checked.selection);
  return { ok: true, selection: checked.selection, lines, objectiveBlock: objectiveBlock(lines) };
}

export type DraftRisk = { ok: true; risk: RiskAssessment } | { ok: false; errors: SelectionError[] };

/** The write endpoint's risk computation, on a selection that passes its validator. */
export function assessDraftRisk(selection: unknown): DraftRisk {
  const checked = validateSelection(selection);
  return checked.ok
    ? { ok: true, risk: assessRisk(checked.selection) }
    : { ok: false, errors: checked.errors };
}

export const getCatalogTool: ChatTool<Record<string, never>, MseCatalogForModel> = {
  name: "getCatalog",
  description:
    "Returns the MSE catalog: the 17 domains with their option values, labels, which options are risk-bearing and which contradict each other, whether a domain is single or multi choice and takes a note, and the six C-SSRS screener items. Only these values are valid in a selection.",
  inputSchema: z.object({}),
  execute: () => catalogForModel(),
};

export const analyzeTelemetryTool: ChatTool<{ telemetry: MseTelemetry }, TelemetryAnalysis> = {
  name: "analyzeTelemetry",
  description:
    "Runs the digital MSE engine on device telemetry (response latency, speech rate, fidget episodes, gaze on screen) and maps each signal read outside its range to a proposed MSE finding with provenance digital_mse. Signals inside the range propose nothing, and telemetry never proposes risk findings.",
  inputSchema: z.object({ telemetry: MseTelemetrySchema }),
  execute: ({ telemetry }) => analyzeTelemetryFindings(telemetry),
};

export const validateDraftTool: ChatTool<{ selection: Record<string, unknown> }, DraftValidation> = {
  name: "validateDraft",
  description:
    "Validates a proposed MSE selection (an object keyed by domain, each entry { values: [option values], text?, cssrs? }) with the same validator as the write endpoint. Returns the clean selection with its narrative lines, or one error per problem (domain, value, message).",
  inputSchema: z.object({ selection: ProposedSelectionSchema }),
  execute: ({ selection }) => validateDraft(selection),
};

export const assessRiskTool: ChatTool<{ selection: Record<string, unknown> }, DraftRisk> = {
  name: "assessRisk",
  description:
    "Computes the risk flag, level and labels of a valid MSE selection (risk-bearing options and the C-SSRS screener triage), as the write endpoint does. The result is the engine's; never state a risk level of your own.",
  inputSchema: z.object({ selection: ProposedSelectionSchema }),
  execute: ({ selection }) => assessDraftRisk(selection),
};

/** The MSE agent's tools in plan order (the MCP server serves the same list). */
export const MSE_AGENT_TOOLS: readonly ChatTool[] = [
  getCatalogTool,
  analyzeTelemetryTool,
  validateDraftTool,
  assessRiskTool,
];

// The telemetry mapping's types and function, for the route, the MCP server and tests.
export {
  analyzeTelemetryFindings,
  type MseTelemetry,
  TELEMETRY_NOTE_PREFIX,
  type TelemetryAnalysis,
  type TelemetryFinding,
  type TelemetryReading,
} from "./telemetry-findings.js";
