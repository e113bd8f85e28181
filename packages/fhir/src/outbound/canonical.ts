/**
 * Where our own FHIR conformance resources live. Each canonical URL is also the address the
 * service serves the resource at (`GET /fhir/CodeSystem/<id>`, `GET /fhir/Questionnaire/<id>`,
 * no key needed), under the deployment's public base URL (decision 118): a reader can resolve
 * every `system` and `questionnaire` we emit.
 */

/** The ids of our CodeSystems, each served at `<base>/fhir/CodeSystem/<id>`. */
export const CODE_SYSTEM_IDS = [
  "engine",
  "analysis-observation",
  "dmse-interpretation",
  "relapse-level",
  "analysis-input",
  "mse",
] as const;
export type CodeSystemId = (typeof CODE_SYSTEM_IDS)[number];

/** The id of the Questionnaire of the 17-domain MSE catalog. */
export const MSE_QUESTIONNAIRE_ID = "mse";

/** Paths (under the public base URL) the service serves the conformance resources at. */
export const FHIR_CONFORMANCE_PATH = "/fhir";

/** The FHIR base of a deployment: its public base URL without a trailing slash, plus `/fhir`. */
export function fhirBase(publicBaseUrl: string): string {
  return `${publicBaseUrl.replace(/\/+$/, "")}${FHIR_CONFORMANCE_PATH}`;
}

/** The canonical URL (and address) of one of our CodeSystems. */
export function codeSystemUrl(publicBaseUrl: string, id: CodeSystemId): string {
  return `${fhirBase(publicBaseUrl)}/CodeSystem/${id}`;
}

/** The canonical URL (and address) of the MSE Questionnaire. */
export function mseQuestionnaireUrl(publicBaseUrl: string): string {
  return `${fhirBase(publicBaseUrl)}/Questionnaire/${MSE_QUESTIONNAIRE_ID}`;
}

/** The identifier system of a value the caller sent us (`sessionRef`, the MSE `patientId`, ...). */
export function identifierSystem(
  publicBaseUrl: string,
  name: "session-ref" | "mse-version" | "interaction-rule" | "dose-limit" | "patient-review-rule",
): string {
  return `${fhirBase(publicBaseUrl)}/sid/${name}`;
}

/** Whether a string names one of our CodeSystems. */
export function isCodeSystemId(id: string): id is CodeSystemId {
  return (CODE_SYSTEM_IDS as readonly string[]).includes(id);
}

/** Standard systems we use, each with its source in docs/fhir.md ("FHIR out", "Code sources"). */
export const STANDARD_SYSTEMS = {
  /** HL7 v3 ActCode (terminology.hl7.org): DRG "Drug Interaction Alert". */
  v3ActCode: "http://terminology.hl7.org/CodeSystem/v3-ActCode",
  /** ASTM E1762-95 signature types, as the FHIR R4 Signature.type binding names them. */
  astmSignatureType: "urn:iso-astm:E1762-95:2013",
} as const;
