/** DetectedIssues for the interactions among a medication answer's active prescriptions (decision 119). */
import type { DetectedIssue, Reference } from "@medplum/fhirtypes";
import { checkInteractions, type InteractionCheck, MAX_MEDICATIONS, type Prescription } from "@svc/engines";
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

/** The active prescriptions checked with the engines' interaction tool (decision 119). */
export function interactionIssues(ctx: Context, prescriptions: readonly Prescription[]): InteractionOutcome {
  const active = prescriptions.filter((p) => p.status.trim().toLowerCase() === "active");
  if (active.length < 2) return { issues: [] };
  if (active.length > MAX_MEDICATIONS) {
    return {
      issues: [],
      caveat: `Interaction check not run: ${active.length} active prescriptions, more than the ${MAX_MEDICATIONS} one check takes. No interaction result is given; this is not an all-clear.`,
    };
  }
  const check = checkInteractions(active.map((p) => p.medicationName));
  return {
    issues: check.interactions.map((i) => detectedIssue(ctx, i, active, check)),
    caveat: interactionCaveat(check),
  };
}

function interactionCaveat(check: InteractionCheck): string | undefined {
  if (check.complete) return undefined;
  return `Interaction check incomplete: ${check.warnings.join(" ")}`.trim();
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
    .filter((p) => involved.has(p.medicationName.trim()))
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
