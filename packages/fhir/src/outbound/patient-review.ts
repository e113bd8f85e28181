/**
 * The patient-over-time review's findings (decision 189) as FHIR R4 resources (decision 204),
 * through the door table (`DOOR_LEVELS[level].fhirDetectedIssue`): a finding that was judged is a
 * DetectedIssue at that severity (none: no resource); a patient-factor finding is coded v3 ActCode
 * OBSA "Observation Alert" (therapy inappropriate or contraindicated for characteristics of the
 * patient); ECG, monitoring and trend findings carry their title as the code's text, no standard
 * code having been verified for them. A finding that could not be judged is an Observation whose
 * interpretation says "not evaluated" (`NOT_ASSESSED_DOORS`), never a DetectedIssue read as a
 * severity. Pure: the base URL, the clock and the id minting are passed in.
 */
import type { DetectedIssue, Observation } from "@medplum/fhirtypes";
import { DOOR_LEVELS, NOT_ASSESSED_DOORS, type PatientFinding, type PatientFindingKind } from "@svc/engines";
import { identifierSystem, STANDARD_SYSTEMS } from "./canonical.js";
import { ANALYSIS_CODES, ourCoding } from "./code-systems.js";
import { compact, type Entry, entry, type NewId, notes } from "./resources.js";

/** The verified standard code of a finding kind, where one fits (v3 ActCode, terminology.hl7.org). */
export const KIND_CODES: Readonly<Partial<Record<PatientFindingKind, { code: string; display: string }>>> = {
  patient_factor: { code: "OBSA", display: "Observation Alert" },
};

export interface PatientFindingContext {
  /** The deployment's public base URL (our CodeSystems and identifier systems live under it). */
  base: string;
  newId: NewId;
  /** When the review ran (the answer's generatedAt). */
  identifiedAt: string;
}

const FHIR_DATE_TIME =
  /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]((0\d|1[0-3]):[0-5]\d|14:00)))?)?)?$/;

function findingNotes(finding: PatientFinding): string[] {
  return [
    ...(finding.medicines && finding.medicines.length > 0
      ? [`Medicines: ${finding.medicines.join(", ")}.`]
      : []),
    ...(finding.since ? [`Since ${finding.since}.`] : []),
    `Source: ${finding.source}`,
  ];
}

function detectedIssue(ctx: PatientFindingContext, finding: PatientFinding): Entry<DetectedIssue> | null {
  const severity = DOOR_LEVELS[finding.level].fhirDetectedIssue;
  if (severity === null) return null;
  const standard = KIND_CODES[finding.kind];
  const resource: DetectedIssue = compact({
    resourceType: "DetectedIssue",
    identifier: [{ system: identifierSystem(ctx.base, "patient-review-rule"), value: finding.rule }],
    status: "final",
    code: compact({
      coding: standard ? [{ system: STANDARD_SYSTEMS.v3ActCode, ...standard }] : undefined,
      text: finding.title,
    }),
    severity,
    identifiedDateTime: ctx.identifiedAt,
    detail: [finding.detail, ...findingNotes(finding)].join(" "),
  }) as DetectedIssue;
  return entry(ctx.newId, resource);
}

function notEvaluated(ctx: PatientFindingContext, finding: PatientFinding): Entry<Observation> {
  const resource: Observation = compact({
    resourceType: "Observation",
    status: "final",
    code: {
      coding: [ourCoding(ctx.base, "analysis-observation", ANALYSIS_CODES.patientReviewNotEvaluated)],
      text: finding.title,
    },
    issued: ctx.identifiedAt,
    effectiveDateTime: ctx.identifiedAt,
    valueString: finding.detail,
    // One representation of "not assessed" in every door (NOT_ASSESSED_DOORS), with the level the
    // review gave it (decision 182).
    interpretation: [
      { text: NOT_ASSESSED_DOORS.fhirObservationInterpretation },
      { text: `clinical level ${finding.level}` },
    ],
    note: notes(`Rule ${finding.rule} (${finding.kind.replace("_", " ")}).`, ...findingNotes(finding)),
  }) as Observation;
  return entry(ctx.newId, resource);
}

/** Every finding as its resource, in the review's order; a judged finding at `none` gives none. */
export function patientFindingResources(
  ctx: PatientFindingContext,
  findings: readonly PatientFinding[],
): Entry<DetectedIssue | Observation>[] {
  const identifiedAt = FHIR_DATE_TIME.test(ctx.identifiedAt) ? ctx.identifiedAt : new Date(0).toISOString();
  const c = { ...ctx, identifiedAt };
  return findings.flatMap((finding): Entry<DetectedIssue | Observation>[] => {
    if (!finding.assessed) return [notEvaluated(c, finding)];
    const issue = detectedIssue(c, finding);
    return issue === null ? [] : [issue];
  });
}
