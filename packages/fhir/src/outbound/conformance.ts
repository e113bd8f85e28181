import type { CodeSystem, Questionnaire } from "@medplum/fhirtypes";
import { isCodeSystemId, MSE_QUESTIONNAIRE_ID } from "./canonical.js";
import { codeSystemResource } from "./code-systems.js";
import { mseQuestionnaire } from "./mse.js";
import { FHIR_JSON_CONTENT_TYPE } from "./negotiate.js";

/**
 * The conformance resource a `GET /fhir/<type>/<id>` asks for, or undefined when we have none of
 * that type and id: our CodeSystems and the MSE Questionnaire, each with its canonical URL under
 * the deployment's public base URL.
 */
export function conformanceResource(
  publicBaseUrl: string,
  type: string,
  id: string,
): CodeSystem | Questionnaire | undefined {
  if (type === "CodeSystem" && isCodeSystemId(id)) return codeSystemResource(publicBaseUrl, id);
  if (type === "Questionnaire" && id === MSE_QUESTIONNAIRE_ID) return mseQuestionnaire(publicBaseUrl);
  return undefined;
}

/**
 * Our conformance resources as the documents an app serves publicly at their canonical URLs
 * (`registerPublicDocuments` in the HTTP layer): `GET /fhir/CodeSystem/{id}` and
 * `GET /fhir/Questionnaire/{id}`, as `application/fhir+json`, cacheable for an hour.
 */
export function conformanceDocuments(publicBaseUrl: string) {
  return {
    prefix: "/fhir",
    types: ["CodeSystem", "Questionnaire"] as const,
    find: (type: string, id: string) => conformanceResource(publicBaseUrl, type, id),
    contentType: FHIR_JSON_CONTENT_TYPE,
    maxAgeSeconds: 3600,
  };
}
