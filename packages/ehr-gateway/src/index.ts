// What crosses between an EHR and the service: verifying the EHR's signed JWTs (jose) against
// registered CDS clients' keys, and fetching FHIR data and JWK sets from EHR addresses under the
// same address rules as webhook deliveries.
export {};
