/**
 * Doses against the patient's age (decision 189): the interaction checker's label dose limits,
 * with the age-reduced maxima (citalopram over 60, escitalopram over 65, ...) applied at the
 * patient's age, as review findings, so a door that shows the review shows them too. The limits
 * and their sources stay in `DAILY_DOSE_LIMITS`; this module only runs the one check with the
 * one age (`doseCheckOptions`) and words its result as findings.
 */

import { checkInteractions, MAX_MEDICATIONS } from "../tools/interactions.js";
import { notEvaluatedLabel } from "../tools/types.js";
import { doseCheckOptions } from "./factors.js";
import type { PatientFinding, PatientReviewInput } from "./types.js";

/** The rules of this part: a door with its own dose check (the CDS order hooks) presents these there. */
export const DOSE_FINDING_RULES: readonly string[] = ["dose_above_maximum", "dose_limit_not_checked"];

const DOSE_SOURCE =
  "Each product's label, Dosage and Administration (DAILY_DOSE_LIMITS, docs/engines/medication.md)";

/** The dose alerts and unchecked age-dependent limits of the medicines taken, at the patient's age. */
export function doseFindings(input: PatientReviewInput): PatientFinding[] {
  const names = input.medicines.map((medicine) => medicine.name).slice(0, MAX_MEDICATIONS);
  if (names.length === 0) return [];
  const check = checkInteractions(names, doseCheckOptions(input.patient, input.now));
  const alerts = check.doseAlerts.map(
    (alert): PatientFinding => ({
      kind: "patient_factor",
      rule: "dose_above_maximum",
      level: alert.severity,
      assessed: true,
      title:
        `Dose above the maximum: ${alert.ingredient} ${alert.dailyMg} mg/day (maximum ${alert.maximumMg})`.slice(
          0,
          140,
        ),
      detail: `${alert.label}.`,
      medicines: [alert.input],
      source: DOSE_SOURCE,
    }),
  );
  const unchecked = check.doseNotChecked.map(
    (item): PatientFinding => ({
      kind: "patient_factor",
      rule: "dose_limit_not_checked",
      level: "low",
      assessed: false,
      title: `Dose limit not checked: ${item.what}`.slice(0, 140),
      detail: `${notEvaluatedLabel(item)}.`,
      medicines: [item.what],
      source: DOSE_SOURCE,
    }),
  );
  return [...alerts, ...unchecked];
}
