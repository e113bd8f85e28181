// What crosses between an EHR and the service: verifying the EHR's signed JWTs (jose) against
// registered CDS clients' keys, and fetching FHIR data and JWK sets from EHR addresses under the
// same address rules as webhook deliveries.
export {
  checkEhrUrl,
  EHR_FETCH_TIMEOUT_MS,
  type EhrAddressPolicy,
  type EhrFetchFailureReason,
  type EhrFetchOptions,
  type EhrFetchResult,
  ehrGetJson,
  FHIR_MAX_BYTES,
  fetchFhir,
  fhirQueryUrl,
  JWKS_MAX_BYTES,
} from "./fetcher.js";
export {
  CDS_JWT_ALGORITHMS,
  type CdsJwtAlgorithm,
  checkPublicJwks,
  type JwksCheck,
  MAX_JWKS_KEYS,
  unusableKeyReason,
} from "./jwks.js";
export {
  CDS_JWT_CLOCK_SKEW_S,
  CDS_JWT_MAX_AGE_S,
  CDS_JWT_REFUSED_MESSAGE,
  type CdsClientKeys,
  CdsJwtRefusal,
  type CdsJwtRefusalReason,
  type JtiStore,
  memoryJtiStore,
  type VerifiedCdsJwt,
  type VerifyCdsJwtOptions,
  verifyCdsJwt,
} from "./jwt.js";
export {
  CachedJwksFetcher,
  JWKS_CACHE_MAX_ENTRIES,
  JWKS_CACHE_TTL_MS,
  JWKS_FAILURE_TTL_MS,
  JWKS_REFETCH_MIN_MS,
  type JwksSource,
} from "./keys.js";
