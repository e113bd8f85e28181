/**
 * The codes and bounds the EHR doors read and write for the patient review (decisions 201-204),
 * each beside its evidence level and source, by the name docs/engines/evidence.md ("EHR patient
 * facts and codes", generated, decision 217) prints it under. The values are read from the
 * readers' own tables; the two rules that are no constant (how long a status holds, where a
 * renewal starts) are written here with their evidence. A value without evidence throws.
 */
import { MAX_PRIOR_PRESCRIPTIONS, PREGNANCY_ANSWERS, PREGNANCY_STATUS_LOINC } from "./inbound/patient.js";
import { LOINC } from "./inbound/read-common.js";
import { KIND_CODES } from "./outbound/patient-review.js";

export interface EhrCodeRow {
  constant: string;
  value: string;
  level: "published cut-off" | "derived" | "expert-set";
  source: string;
}

type Evidence = Omit<EhrCodeRow, "constant" | "value">;

const SNOMED = "http://snomed.info/sct";

/** The evidence of each printed value, by its name. */
export const EHR_PATIENT_CODE_EVIDENCE: Readonly<Record<string, Evidence>> = {
  PREGNANCY_STATUS_LOINC: {
    level: "published cut-off",
    source:
      "HL7 IPS IG 1.1.0, example Observation pregnancy-status-example (code 82810-3, value LA15173-0); LOINC answer list LL4129-4 named by publicschema.org (loinc.org page itself not opened)",
  },
  "pregnancy answers (LOINC)": {
    level: "published cut-off",
    source:
      "HL7 IPS IG 1.1.0 ValueSet pregnancy-status-uv-ips (LA15173-0 Pregnant, LA26683-5 Not pregnant, LA4489-6 Unknown)",
  },
  "pregnancy answers (SNOMED CT)": {
    level: "published cut-off",
    source:
      'HL7 IPS IG 1.1.0, concept map "Pregnancy Status Value Set Mappings - LOINC to SNOMED CT" (equivalent)',
  },
  '"not pregnant" carried forward': {
    level: "expert-set",
    source: "service policy, decision 202: no source gives how long a recorded status holds",
  },
  MAX_PRIOR_PRESCRIPTIONS: {
    level: "expert-set",
    source: "bound on work per request (decision 146 style); a longer chain is read as an unknown start",
  },
  "patient-factor DetectedIssue code": {
    level: "published cut-off",
    source:
      'HL7 Terminology (THO) ValueSet v3-ObservationDetectedIssueCode: "Proposed therapy may be inappropriate or contraindicated due to conditions or characteristics of the patient"',
  },
  "start of a renewal": {
    level: "published cut-off",
    source:
      "FHIR R4 MedicationRequest element definitions (priorPrescription: an earlier related order; validityPeriod: the period the prescription may be dispensed)",
  },
};

const answers = (system: string) =>
  Object.entries(PREGNANCY_ANSWERS[system] ?? {})
    .map(([code, status]) => `${code} ${status}`)
    .join(", ");

/** Every printed value, by its name, in the page's order. */
export function ehrPatientCodeValues(): Map<string, string> {
  const obsa = KIND_CODES.patient_factor;
  return new Map([
    ["PREGNANCY_STATUS_LOINC", `LOINC ${PREGNANCY_STATUS_LOINC} "Pregnancy status"`],
    ["pregnancy answers (LOINC)", answers(LOINC)],
    ["pregnancy answers (SNOMED CT)", answers(SNOMED)],
    // Decision 202: the reader never carries a recorded "not pregnant" forward.
    ['"not pregnant" carried forward', "never (pregnancy left unknown)"],
    ["MAX_PRIOR_PRESCRIPTIONS", `${MAX_PRIOR_PRESCRIPTIONS} links`],
    ["patient-factor DetectedIssue code", obsa ? `v3 ActCode ${obsa.code} "${obsa.display}"` : "none"],
    // Decision 201: how the reader finds a renewal's first start.
    [
      "start of a renewal",
      "`priorPrescription` followed to the first request; `basedOn` and `dispenseRequest.validityPeriod` not read",
    ],
  ]);
}

/** The rows of the page's table: each value beside its evidence. */
export function ehrPatientCodeRows(): EhrCodeRow[] {
  return [...ehrPatientCodeValues()].map(([constant, value]) => {
    const evidence = EHR_PATIENT_CODE_EVIDENCE[constant];
    if (evidence === undefined) throw new Error(`${constant} has no evidence`);
    return { constant, value, ...evidence };
  });
}
