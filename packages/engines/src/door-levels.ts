/**
 * Each door's documented mapping from the one clinical level (`judgement.ts`, decision 182) to
 * its own vocabulary, written once. The agent tools and MCP show the level itself with
 * `flag`; the JSON biomarker answer a status and `requiresClinicianReview`; a CDS card an
 * indicator (no card for `none`: never an "all normal" card); a FHIR answer a DetectedIssue
 * severity or an Observation interpretation. "Not assessed" is one representation in every door
 * (`NOT_ASSESSED_DOORS`): never `none`, never silent. docs/engines/door-parity.md says the same
 * in prose; the door-parity property tests read this table.
 */
import type { BiomarkerStatus } from "./biomarker.js";
import type { ClinicalLevel } from "./judgement.js";

export interface DoorLevels {
  /** Agent tool and MCP tool `risk`: the level itself, `flag` true above `none`. */
  agent: { level: ClinicalLevel; flag: boolean };
  /** JSON biomarker answer: the status it raises `facts.summary.status` to, and whether it sets review. */
  json: { status: BiomarkerStatus; requiresClinicianReview: boolean };
  /** CDS card indicator; null: no card. */
  cds: "info" | "warning" | "critical" | null;
  /** FHIR DetectedIssue.severity; null: no DetectedIssue. */
  fhirDetectedIssue: "low" | "moderate" | "high" | null;
}

export const DOOR_LEVELS: Readonly<Record<ClinicalLevel, Readonly<DoorLevels>>> = Object.freeze({
  none: {
    agent: { level: "none", flag: false },
    json: { status: "no_flags", requiresClinicianReview: false },
    cds: null,
    fhirDetectedIssue: null,
  },
  low: {
    agent: { level: "low", flag: true },
    json: { status: "watch", requiresClinicianReview: false },
    cds: "info",
    fhirDetectedIssue: "low",
  },
  moderate: {
    agent: { level: "moderate", flag: true },
    json: { status: "elevated", requiresClinicianReview: true },
    cds: "warning",
    fhirDetectedIssue: "moderate",
  },
  high: {
    agent: { level: "high", flag: true },
    json: { status: "critical", requiresClinicianReview: true },
    cds: "critical",
    fhirDetectedIssue: "high",
  },
});

/**
 * "Not assessed" (given, but not judged: an unknown or ambiguous unit, an implausible value, an
 * unrecognised name) in every door: the agent tools and MCP at `low` or above with `flag` true
 * and a "Not evaluated: <what> (<why>)" label (decision 80); the JSON answer names it
 * (`valueFindings`, `summary.flagged` or the confidence reasons) and sets
 * `requiresClinicianReview`, without raising the status (nothing was read); a CDS info card says
 * it could not be evaluated; a FHIR Observation carries it with the interpretation text.
 */
export const NOT_ASSESSED_DOORS = Object.freeze({
  agent: { minimumLevel: "low", flag: true, labelPrefix: "Not evaluated: " },
  json: { requiresClinicianReview: true, raisesStatus: false },
  cds: "info",
  fhirObservationInterpretation: "not evaluated",
} as const);

/** The clinical level a JSON biomarker status stands for (the inverse of `DOOR_LEVELS[*].json.status`). */
export const STATUS_LEVEL: Readonly<Record<BiomarkerStatus, ClinicalLevel>> = Object.freeze({
  no_flags: "none",
  watch: "low",
  elevated: "moderate",
  critical: "high",
});

/** The clinical level a CDS indicator stands for (null: no card). */
export function levelOfIndicator(indicator: "info" | "warning" | "critical" | null): ClinicalLevel {
  return indicator === "critical"
    ? "high"
    : indicator === "warning"
      ? "moderate"
      : indicator === "info"
        ? "low"
        : "none";
}
