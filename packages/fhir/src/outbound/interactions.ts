/** DetectedIssues for the interactions among a medication answer's active prescriptions (decision 119). */
import type { DetectedIssue, Reference } from "@medplum/fhirtypes";
import {
  checkPrescriptions,
  type DoseAlert,
  type InteractionCheck,
  type InteractionCheckOptions,
  type Prescription,
  prescriptionEntryText,
} from "@svc/engines";
import { type Context, prescriptionReference } from "./analysis-common.js";
import { identifierSystem, STANDARD_SYSTEMS } from "./canonical.js";
import { compact, type Entry, entry } from "./resources.js";

// ---------------------------------------------------------------------------------------------
// Interactions among the active prescriptions (medication endpoint)

export interface InteractionOutcome {
  issues: Entry<DetectedIssue>[];
  /** What a reader must know about the check's reach ("not recognised", "not run"), or none. */
  caveat?: string;
}

/**
 * The active prescriptions checked with the engines' interaction tool (decision 119), through the
 * one check the JSON medication answer also carries (`checkPrescriptions`, decision 176).
 */
export function interactionIssues(
  ctx: Context,
  prescriptions: readonly Prescription[],
  options: InteractionCheckOptions = {},
): InteractionOutcome {
  const { check, active, notRunReason } = checkPrescriptions(prescriptions, options);
  if (active.length === 0) return { issues: [] };
  if (check === null) return { issues: [], ...(notRunReason === undefined ? {} : { caveat: notRunReason }) };
  // With one active prescription there is no pair; its dose is still checked (decision 176).
  return {
    issues: [
      ...check.interactions.map((i) => detectedIssue(ctx, i, active, check)),
      ...check.doseAlerts.map((alert) => doseIssue(ctx, alert, active)),
    ],
    caveat: interactionCaveat(check),
  };
}

/** A written dose above a label maximum as a High Dose Alert (v3 ActCode DOSEH; decision 176). */
function doseIssue(ctx: Context, alert: DoseAlert, active: readonly Prescription[]): Entry<DetectedIssue> {
  const implicated: Reference[] = active
    .filter((p) => prescriptionEntryText(p) === alert.input)
    .flatMap((p) => prescriptionReference(p) ?? []);
  const resource: DetectedIssue = compact({
    resourceType: "DetectedIssue",
    identifier: [{ system: identifierSystem(ctx.base, "dose-limit"), value: alert.ingredient }],
    status: "final",
    code: {
      coding: [{ system: STANDARD_SYSTEMS.v3ActCode, code: "DOSEH", display: "High Dose Alert" }],
      text: `Dose above the label maximum: ${alert.ingredient}`,
    },
    severity: alert.severity,
    identifiedDateTime: ctx.answer.data.generatedAt,
    implicated: implicated.length > 0 ? implicated : undefined,
    detail: alert.label,
  }) as DetectedIssue;
  return entry(ctx.newId, resource);
}

/**
 * What the reader must know: every warning when an entry was not recognised in full, otherwise
 * each property a rule needed and the model does not know (decision 176); none when neither.
 */
function interactionCaveat(check: InteractionCheck): string | undefined {
  const notEvaluated = check.warnings.filter((warning) => warning.startsWith("Not evaluated:"));
  if (check.complete && notEvaluated.length === 0) return undefined;
  const said = check.complete ? notEvaluated : check.warnings;
  return `Interaction check incomplete: ${said.join(" ")}`.trim();
}

function detectedIssue(
  ctx: Context,
  interaction: InteractionCheck["interactions"][number],
  active: readonly Prescription[],
  check: InteractionCheck,
): Entry<DetectedIssue> {
  const inputsOf = (ingredient: string) =>
    new Set(check.medications.filter((m) => m.ingredient === ingredient).map((m) => m.input));
  const involved = new Set([...inputsOf(interaction.a), ...inputsOf(interaction.b)]);
  const implicated: Reference[] = active
    .filter((p) => involved.has(prescriptionEntryText(p)))
    .flatMap((p) => prescriptionReference(p) ?? []);
  const resource: DetectedIssue = compact({
    resourceType: "DetectedIssue",
    identifier: [{ system: identifierSystem(ctx.base, "interaction-rule"), value: interaction.id }],
    status: "final",
    code: {
      coding: [{ system: STANDARD_SYSTEMS.v3ActCode, code: "DRG", display: "Drug Interaction Alert" }],
      text: `Drug interaction: ${interaction.a} + ${interaction.b}`,
    },
    severity: interaction.severity,
    identifiedDateTime: ctx.answer.data.generatedAt,
    implicated: implicated.length > 0 ? implicated : undefined,
    detail: `${interaction.mechanism} Source: ${interaction.source}`,
    mitigation: [{ action: { text: interaction.recommendation } }],
  }) as DetectedIssue;
  return entry(ctx.newId, resource);
}
