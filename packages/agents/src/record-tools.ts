import {
  checkInteractions,
  evaluatePanel,
  getInstruments,
  getPanels,
  getSignalModel,
  INSTRUMENT_IDS,
  INSTRUMENTS,
  type InteractionCheck,
  scoreInstruments,
  scoreRelapse,
} from "@svc/engines";
import type { ChatTool } from "@svc/model";
import { z } from "zod";
import { AGENT_INPUT_LIMITS as LIMITS } from "./limits.js";
import {
  doseOptionsFor,
  isoDateSchema,
  type PatientContextInput,
  patientContextSchema,
  reviewPatientTool,
} from "./patient-tools.js";

/**
 * The record-level agents' deterministic tools as model-callable tools: each one a zod input
 * schema (the same field names as the agent's request body) around a pure engine function. The
 * agents, and the MCP server, expose exactly these; the engine output they return is what every
 * flag, score, band and severity of a response comes from.
 */

/*
 * The input schemas are factories: a schema is built when asked for, so an app that loads
 * @hono/zod-openapi first gets schemas it can annotate with `.openapi()` (zod v4 attaches that
 * method when a schema is created, not afterwards).
 */
const entityName = () => z.string().trim().min(1).max(LIMITS.nameMaxChars);

export const medicationListSchema = () =>
  z
    .array(z.string().trim().min(1).max(LIMITS.medicationMaxChars))
    .min(LIMITS.medications.min)
    .max(LIMITS.medications.max);

/** A reading's optional unit (decision 65): UCUM or a common spelling such as "cells/uL". */
const unitName = () => z.string().trim().min(1).max(LIMITS.unitMaxChars);

export const panelReadingsSchema = () =>
  z
    .array(
      z.object({
        analyte: entityName(),
        value: z.number(),
        unit: unitName().optional(),
        // Additive (decision 198): read by the patient review's series and schedules only.
        observedAt: isoDateSchema().optional(),
      }),
    )
    .min(LIMITS.panelReadings.min)
    .max(LIMITS.panelReadings.max);

export const instrumentSubmissionsSchema = () =>
  z
    .array(
      z
        .object({
          instrument: entityName(),
          responses: z
            .array(z.number().min(LIMITS.instrumentResponses.itemMin).max(LIMITS.instrumentResponses.itemMax))
            .max(LIMITS.instrumentResponses.max)
            .optional(),
          total: z.number().min(LIMITS.instrumentTotal.min).max(LIMITS.instrumentTotal.max).optional(),
          priorTotal: z.number().min(LIMITS.instrumentTotal.min).max(LIMITS.instrumentTotal.max).optional(),
        })
        .refine((entry) => entry.responses !== undefined || entry.total !== undefined, {
          message: "needs responses or total",
        }),
    )
    .min(LIMITS.instruments.min)
    .max(LIMITS.instruments.max);

export const relapseSignalsSchema = () =>
  z
    .array(
      z.object({
        indicator: entityName(),
        severity: z.number().min(LIMITS.signalSeverity.min).max(LIMITS.signalSeverity.max),
      }),
    )
    .min(LIMITS.signals.min)
    .max(LIMITS.signals.max);

const NoInput = z.object({});

export const checkInteractionsTool: ChatTool<
  { medications: string[]; patient?: PatientContextInput; asOf?: string },
  InteractionCheck
> = {
  name: "checkInteractions",
  description:
    "Checks a medication list (names with optional dose) against the service's interaction knowledge base. Returns each interaction with severity, mechanism, recommendation and source, plus recognized and unrecognized names. With the optional patient's age (ageYears, or birthDate at asOf), age-dependent label dose limits are checked; without it they are named as not evaluated.",
  inputSchema: z.object({
    medications: medicationListSchema(),
    patient: patientContextSchema().optional(),
    asOf: isoDateSchema().optional(),
  }),
  execute: ({ medications, patient, asOf }) => {
    return checkInteractions(medications, doseOptionsFor(patient, asOf));
  },
};

export const getPanelsTool: ChatTool<Record<string, never>> = {
  name: "getPanels",
  description:
    "Lists the lab panels the service evaluates: each analyte with its canonical unit and accepted units, its reference or therapeutic range, critical limits and source.",
  inputSchema: NoInput,
  execute: () => getPanels(),
};

export const evaluatePanelTool: ChatTool<{
  panel: { analyte: string; value: number; unit?: string }[];
  benignEthnicNeutropenia?: boolean;
}> = {
  name: "evaluatePanel",
  description:
    "Evaluates lab readings (analyte, value and unit; a reading without a unit is read only where the analyte has a single unit scale) against the reference, therapeutic and critical ranges after converting each to its canonical unit. Returns a flag per reading, readings not evaluated (unknown analyte, unit missing, unknown or ambiguous, implausible value) and the risk the engine assigns.",
  // benignEthnicNeutropenia is not in the model-facing schema: only the caller's request body sets
  // it (decision 66), never a model's tool call.
  inputSchema: z.object({ panel: panelReadingsSchema() }),
  execute: ({ panel, benignEthnicNeutropenia }) =>
    evaluatePanel(panel, benignEthnicNeutropenia === undefined ? {} : { benignEthnicNeutropenia }),
};

export const getInstrumentsTool: ChatTool<Record<string, never>> = {
  name: "getInstruments",
  description:
    // The names come from the instrument table, so a new instrument is listed without an edit here.
    `Lists the rating instruments the service scores (${INSTRUMENT_IDS.map((id) => INSTRUMENTS[id].display).join(", ")}): direction, item count and range, severity bands, reliable-change points and risk items.`,
  inputSchema: NoInput,
  execute: () => getInstruments(),
};

export const scoreInstrumentsTool: ChatTool<{
  instruments: z.infer<ReturnType<typeof instrumentSubmissionsSchema>>;
}> = {
  name: "scoreInstruments",
  description:
    "Scores instruments from item responses or totals: total, severity band, trajectory against a prior total, reliable change, and risk items such as PHQ-9 item 9.",
  inputSchema: z.object({ instruments: instrumentSubmissionsSchema() }),
  execute: ({ instruments }) => scoreInstruments(instruments),
};

export const getSignalModelTool: ChatTool<Record<string, never>> = {
  name: "getSignalModel",
  description:
    "Describes the relapse early-warning signal model: each indicator with its weight and source, the bands of the 0-100 composite and the method.",
  inputSchema: NoInput,
  execute: () => getSignalModel(),
};

export const scoreRelapseTool: ChatTool<{ signals: { indicator: string; severity: number }[] }> = {
  name: "scoreRelapse",
  description:
    "Scores relapse early-warning signals (indicator and severity 0-1) into a 0-100 composite and band, with each indicator's contribution and the unrecognized indicators.",
  inputSchema: z.object({ signals: relapseSignalsSchema() }),
  execute: ({ signals }) => scoreRelapse(signals),
};

/** Every record-level tool, in the order products list them. */
export const RECORD_AGENT_TOOLS: readonly ChatTool[] = [
  checkInteractionsTool,
  getPanelsTool,
  evaluatePanelTool,
  getInstrumentsTool,
  scoreInstrumentsTool,
  getSignalModelTool,
  scoreRelapseTool,
  reviewPatientTool,
];
