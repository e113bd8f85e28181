import { conformanceResource, FHIR_JSON_CONTENT_TYPE } from "@svc/fhir";
import { ApiError, type ServiceApp } from "@svc/http";

/** Conformance resources change only with a release: cacheable for an hour. */
const CACHE_CONTROL = "public, max-age=3600";

/**
 * Our FHIR conformance resources at their canonical URLs (decision 118): `GET
 * /fhir/CodeSystem/{id}` and `GET /fhir/Questionnaire/{id}`, public (no key), answered as
 * `application/fhir+json`. An unknown type or id is 404 `not_found` in the usual envelope.
 */
export function registerFhirConformance(service: ServiceApp): void {
  for (const type of ["CodeSystem", "Questionnaire"] as const) {
    service.plain(
      "GET",
      `/fhir/${type}/:id`,
      (c) => {
        const resource = conformanceResource(service.deps.publicBaseUrl, type, c.req.param("id") ?? "");
        if (!resource) throw new ApiError("not_found", `No ${type} with this id.`);
        return c.body(JSON.stringify(resource), 200, {
          "Content-Type": FHIR_JSON_CONTENT_TYPE,
          "Cache-Control": CACHE_CONTROL,
        });
      },
      null,
    );
  }
}
