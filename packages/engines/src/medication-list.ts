/**
 * The interaction and dose judgement of a medication answer's prescriptions (decision 176): the
 * active prescriptions, each read as its name plus its dosage and frequency when those are only
 * strengths and timings, run once through `checkInteractions`. The JSON medication engine and the
 * FHIR DetectedIssues of the same route both read this one result.
 */
import { normaliseMedicationText, readEntry } from "./tools/drug-names.js";
import {
  checkInteractions,
  type DoseAlert,
  type InteractionCheck,
  type InteractionCheckOptions,
  MAX_MEDICATIONS,
  type MedicationInteraction,
} from "./tools/interactions.js";
import type { AgentRiskLevel } from "./tools/types.js";
import type { Prescription } from "./types.js";

/** The additive `data.interactionCheck` of a medication answer. */
export interface MedicationListCheck {
  /** Whether the check ran; "not_run" names why in `notRunReason`. */
  status: "checked" | "not_run";
  notRunReason?: string;
  /** The highest severity of the interactions and dose findings, "none" when none (low when anything was not evaluated). */
  highestSeverity: AgentRiskLevel;
  /** True when any interaction or dose finding is high. */
  requiresClinicianReview: boolean;
  interactions: MedicationInteraction[];
  doseAlerts: DoseAlert[];
  /** Each entry, dose limit or property that could not be evaluated, as a sentence (decision 80). */
  notEvaluated: string[];
  recognized: string[];
  unrecognized: string[];
  warnings: string[];
  complete: boolean;
}

function isActive(prescription: Prescription): boolean {
  return prescription.status.trim().toLowerCase() === "active";
}

/** True when a free-text field says only strengths, forms and timings ("50 mg", "twice daily"). */
function onlyQualifiers(text: string | undefined): text is string {
  if (text === undefined) return false;
  const normalised = normaliseMedicationText(text);
  if (normalised === "") return false;
  const reading = readEntry(normalised);
  return reading.ingredients.length === 0 && reading.unrecognizedWords.length === 0;
}

/**
 * The text checked for one prescription: its name, then its dosage and frequency when each is
 * only a strength or timing and the name carries no dose of its own ("Sertraline" + "300 mg" +
 * "once daily"). Free text such as "as directed" is not added, so it never makes an entry partly
 * recognised.
 */
export function prescriptionEntryText(prescription: Prescription): string {
  const parts = [prescription.medicationName.trim()];
  if (onlyQualifiers(prescription.dosage) && !/\d/.test(prescription.medicationName))
    parts.push(prescription.dosage.trim());
  if (onlyQualifiers(prescription.frequency)) parts.push(prescription.frequency.trim());
  return parts.join(" ");
}

/** The active prescriptions a medication answer checks, in input order. */
export function activePrescriptions(prescriptions: readonly Prescription[]): Prescription[] {
  return prescriptions.filter(isActive);
}

/** The check of the active prescriptions, or null when there are none or more than one check takes. */
export function checkPrescriptions(
  prescriptions: readonly Prescription[],
  options: InteractionCheckOptions = {},
): { check: InteractionCheck | null; active: Prescription[]; notRunReason?: string } {
  const active = activePrescriptions(prescriptions);
  if (active.length === 0) return { check: null, active, notRunReason: "No active prescription was sent." };
  if (active.length > MAX_MEDICATIONS)
    return {
      check: null,
      active,
      notRunReason: `Interaction check not run: ${active.length} active prescriptions, more than the ${MAX_MEDICATIONS} one check takes. No interaction result is given; this is not an all-clear.`,
    };
  return { check: checkInteractions(active.map(prescriptionEntryText), options), active };
}

/**
 * The additive JSON field: the one check of the active prescriptions, as the answer carries it.
 * `ageYears` is the patient's age when the request gave it (decision 198): age-dependent label
 * limits are then checked instead of named as not evaluated.
 */
export function medicationListCheck(
  prescriptions: readonly Prescription[],
  options: InteractionCheckOptions = {},
): MedicationListCheck {
  const { check, notRunReason } = checkPrescriptions(prescriptions, options);
  if (check === null) {
    return {
      status: "not_run",
      ...(notRunReason === undefined ? {} : { notRunReason }),
      highestSeverity: "none",
      requiresClinicianReview: false,
      interactions: [],
      doseAlerts: [],
      notEvaluated: [],
      recognized: [],
      unrecognized: [],
      warnings: notRunReason === undefined ? [] : [notRunReason],
      complete: false,
    };
  }
  const findings = [...check.interactions, ...check.doseAlerts];
  return {
    status: "checked",
    highestSeverity: check.risk.level,
    requiresClinicianReview: findings.some((finding) => finding.severity === "high"),
    interactions: check.interactions,
    doseAlerts: check.doseAlerts,
    notEvaluated: check.risk.labels.filter((label) => label.startsWith("Not evaluated:")),
    recognized: check.recognized,
    unrecognized: check.unrecognized,
    warnings: check.warnings,
    complete: check.complete,
  };
}
