/**
 * What the JSON answers, the agents and MCP make of the patient-over-time review (decisions 189
 * and 202): their own inputs mapped into `PatientReviewInput` once, one rule for when an answer
 * carries the review, and the review's findings in each door's vocabulary (`DOOR_LEVELS`,
 * `NOT_ASSESSED_DOORS`). No door judges a finding itself: the level is the review's.
 */
import { DOOR_LEVELS, NOT_ASSESSED_DOORS } from "../door-levels.js";
import { CLINICAL_LEVELS, type ClinicalLevel, higherClinicalLevel } from "../judgement.js";
import { activePrescriptions, prescriptionEntryText } from "../medication-list.js";
import { type AgentRisk, combineRisks, NOT_EVALUATED_MIN_LEVEL } from "../tools/types.js";
import type { LabPanel, Prescription } from "../types.js";
import { isEmptyPatientContext, type PatientContext } from "./context.js";
import { reviewPatient } from "./review.js";
import type { DatedReading, PatientFinding, PatientReview, ReviewMedicine } from "./types.js";

/**
 * The medicines of a JSON medication or biomarker request: each active prescription as the
 * interaction check reads it (`prescriptionEntryText`: the name with its dose and frequency), its
 * `prescribedAt` as the start. A prescription without a date has an unknown start.
 */
export function medicinesOfPrescriptions(prescriptions: readonly Prescription[]): ReviewMedicine[] {
  return activePrescriptions(prescriptions).map((prescription) => ({
    name: prescriptionEntryText(prescription),
    startedAt: prescription.prescribedAt ?? null,
    ...(prescription.doseChangedAt === undefined ? {} : { doseChangedAt: prescription.doseChangedAt }),
    ...(prescription.prescribedAt === undefined
      ? {}
      : { startSource: `prescription ${prescription.id} prescribedAt` }),
  }));
}

/** Every biomarker of every lab panel as a dated reading, dated by its panel's `observedAt`. */
export function readingsOfLabPanels(labs: readonly LabPanel[]): DatedReading[] {
  return labs.flatMap((panel) =>
    panel.results.biomarkers.map((biomarker) => ({
      analyte: biomarker.name,
      value: biomarker.value,
      ...(biomarker.unit === undefined ? {} : { unit: biomarker.unit }),
      observedAt: panel.observedAt ?? null,
      // The review's flag is the laboratory's abnormal flag; "normal" is no flag.
      flag: biomarker.flag === undefined || biomarker.flag === "normal" ? null : biomarker.flag,
      ...(biomarker.loinc === undefined ? {} : { loinc: biomarker.loinc }),
    })),
  );
}

/** What a door hands the review: its own inputs, already mapped, and its clock. */
export interface DoorReviewInput {
  patient?: PatientContext;
  medicines: readonly ReviewMedicine[];
  readings: readonly DatedReading[];
  now: Date;
}

/**
 * The review a door's answer carries, or null when it carries none (decision 198): an answer
 * carries it when the caller sent patient facts, or both medicines and readings, or when the
 * review of what was sent judged anything. Otherwise nothing the review reads was sent and it
 * found nothing, and the answer stays as it was before the review existed.
 */
export function doorPatientReview(input: DoorReviewInput): PatientReview | null {
  const patient = isEmptyPatientContext(input.patient) ? undefined : input.patient;
  const review = reviewPatient({
    ...(patient === undefined ? {} : { patient }),
    medicines: input.medicines,
    readings: input.readings,
    now: input.now,
  });
  const sentEnough = patient !== undefined || (input.medicines.length > 0 && input.readings.length > 0);
  // Without patient facts, a review that only names readings it could not place adds nothing the
  // door's own answer does not already say (its unread-value findings): it is carried when it
  // judged something (decision 198).
  return sentEnough || review.findings.some((finding) => finding.assessed) ? review : null;
}

/** The level a finding holds in every door: a finding not assessed is never below the floor. */
export function findingDoorLevel(finding: PatientFinding): ClinicalLevel {
  return finding.assessed ? finding.level : higherClinicalLevel(finding.level, NOT_EVALUATED_MIN_LEVEL);
}

/** A finding as a risk label or a flagged line: its title, "Not evaluated: ..." when it was not assessed. */
export function findingLabel(finding: PatientFinding): string {
  if (finding.assessed) return finding.title;
  const prefix = NOT_ASSESSED_DOORS.agent.labelPrefix;
  return finding.title.startsWith(prefix) ? finding.title : `${prefix}${finding.title}`;
}

/**
 * The review in the agents' and MCP's vocabulary: the level itself (a not-assessed finding at
 * least low), `flag` above none, one label per finding, highest first (the review's order).
 */
export function patientReviewRisk(review: PatientReview): AgentRisk {
  return combineRisks(
    review.findings.map((finding) => {
      const level = findingDoorLevel(finding);
      return {
        flag: DOOR_LEVELS[level].agent.flag,
        level,
        labels: level === "none" ? [] : [findingLabel(finding)],
      };
    }),
  );
}

/** What a JSON answer's summary takes from the review. */
export interface PatientReviewSummary {
  /** Lines for `summary.flagged`: every finding that sets review, highest first. */
  flagged: string[];
  /** True when any finding sets review (`DOOR_LEVELS[level].json`, or not assessed: `NOT_ASSESSED_DOORS.json`). */
  requiresClinicianReview: boolean;
  /** One sentence for the headline, or null with no finding. */
  headline: string | null;
}

const HEADLINE_TITLES = 3;

/**
 * The review in a JSON answer's summary (decision 198), the one place the medication and
 * biomarker engines read it: a finding at moderate or high sets `requiresClinicianReview` and is
 * named in `flagged` (as `DOOR_LEVELS` maps the level for the JSON door); a finding not assessed
 * does too (`NOT_ASSESSED_DOORS`). Every finding is named in the headline sentence (the first few)
 * and in `data.patientReview`. The review never changes `summary.status`: each engine's status
 * describes its own inputs (symptom scores, readings), and the review's level is its own.
 */
export function patientReviewSummary(review: PatientReview | null): PatientReviewSummary {
  if (review === null || review.findings.length === 0)
    return { flagged: [], requiresClinicianReview: false, headline: null };
  const ordered = [...review.findings].sort(
    (a, b) => CLINICAL_LEVELS.indexOf(findingDoorLevel(b)) - CLINICAL_LEVELS.indexOf(findingDoorLevel(a)),
  );
  const flagged: string[] = [];
  for (const finding of ordered) {
    const level = findingDoorLevel(finding);
    const setsReview = finding.assessed
      ? DOOR_LEVELS[level].json.requiresClinicianReview
      : NOT_ASSESSED_DOORS.json.requiresClinicianReview;
    if (setsReview)
      flagged.push(
        `Patient review (${finding.assessed ? level : "not evaluated"}): ${findingLabel(finding)}`,
      );
  }
  const titles = ordered.slice(0, HEADLINE_TITLES).map((finding) => findingLabel(finding).replace(/\.$/, ""));
  const more = ordered.length > HEADLINE_TITLES ? ` and ${ordered.length - HEADLINE_TITLES} more` : "";
  const count = `${ordered.length} finding${ordered.length === 1 ? "" : "s"}`;
  return {
    flagged,
    requiresClinicianReview: flagged.length > 0,
    headline: `Patient review: ${count} (${titles.join("; ")}${more}).`,
  };
}
