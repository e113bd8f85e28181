import { screenJsonBytes } from "@svc/json-screen";
import {
  checkEndpointUrl,
  checkedAddresses,
  errorReason,
  type Resolver,
  ResponseTooLarge,
  requestPinned,
  systemResolver,
} from "@svc/outbound-http";

/**
 * GETs to an EHR's addresses (its JWK Set, its FHIR server) under the webhook address rules
 * (decision 48, here through decision 122): https only in live mode; no loopback, private,
 * link-local or metadata address unless the CDS client is allowed them (loopback for a test-mode
 * client where the operator allows loopback, private ranges with the operator's
 * `--allow-private`); every address the name has is checked and the connection is pinned to
 * them (DNS rebinding); a time limit; a size limit; redirects are never followed, so a redirect
 * cannot lead to a refused address. Every answer crosses the same JSON screen as a request body
 * (decision 150) before anything reads it: a document nested past the screen's depth, holding NUL
 * or a lone surrogate, or not UTF-8, is `unreadable`, never parsed further.
 */

/** Whose address rules a fetch follows: the CDS client's mode and allowances. */
export interface EhrAddressPolicy {
  mode: "test" | "live";
  /** The operator's `--allow-private` on the client. */
  allowPrivate: boolean;
  /** The operator's loopback setting (ALLOW_LOOPBACK_WEBHOOKS): test-mode clients may use loopback. */
  allowLoopback: boolean;
}

/** Why a fetch gave nothing usable; never the EHR's words. */
export type EhrFetchFailureReason =
  | "invalid_url"
  | "refused_address"
  | "dns_failure"
  | "timeout"
  | "too_large"
  | "redirect"
  | "http_status"
  | "not_json"
  /** JSON the input screen refuses (too deep or large, control characters, lone surrogates, not UTF-8). */
  | "unreadable"
  | "network";

export type EhrFetchResult =
  | { ok: true; status: number; json: unknown }
  | { ok: false; reason: EhrFetchFailureReason; status?: number };

export interface EhrFetchOptions {
  resolve?: Resolver;
  timeoutMs?: number;
  maxBytes?: number;
  /** A CA to trust for https (tests with a self-signed certificate). */
  trustedCa?: string;
  signal?: AbortSignal;
}

/** FHIR reads serve a hook that should answer in about 500 ms: a slow EHR is given 3 s at most. */
export const EHR_FETCH_TIMEOUT_MS = 3_000;
/** A prefetch-sized FHIR answer (a patient's Observations or MedicationRequests) stays well under 5 MB. */
export const FHIR_MAX_BYTES = 5 * 1024 * 1024;
/** A JWK Set holds a few public keys: 64 kB is generous. */
export const JWKS_MAX_BYTES = 64 * 1024;

function refusedReason(refused: string): EhrFetchFailureReason {
  switch (refused) {
    case "forbidden_address":
    case "loopback_not_allowed":
      return "refused_address";
    case "invalid_url":
      return "invalid_url";
    case "dns_failure":
      return "dns_failure";
    case "timeout":
      return "timeout";
    default:
      return "network";
  }
}

/**
 * GET `url` as JSON under the client's address rules, with `Authorization: Bearer <token>` when
 * a token is given. A 2xx with a JSON body is `ok`; anything else is one typed failure.
 */
export async function ehrGetJson(
  url: string,
  policy: EhrAddressPolicy,
  accessToken: string | undefined,
  options: EhrFetchOptions & { accept?: string } = {},
): Promise<EhrFetchResult> {
  const target = await checkedAddresses(
    { url, mode: policy.mode, allowPrivate: policy.allowPrivate },
    options.resolve ?? systemResolver,
    policy.allowLoopback,
  );
  if ("refused" in target) return { ok: false, reason: refusedReason(target.refused) };
  const headers: Record<string, string> = {
    Accept: options.accept ?? "application/json",
    "User-Agent": "clinical-intelligence-service-ehr-gateway",
  };
  if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
  let response: Awaited<ReturnType<typeof requestPinned>>;
  try {
    response = await requestPinned(target.url, target.addresses, {
      method: "GET",
      headers,
      timeoutMs: options.timeoutMs ?? EHR_FETCH_TIMEOUT_MS,
      maxBytes: options.maxBytes ?? FHIR_MAX_BYTES,
      overflow: "error",
      signal: options.signal,
      trustedCa: options.trustedCa,
    });
  } catch (error) {
    if (error instanceof ResponseTooLarge) return { ok: false, reason: "too_large" };
    const reason = errorReason(error);
    return { ok: false, reason: reason === "timeout" ? "timeout" : "network" };
  }
  const status = response.statusCode;
  if (status >= 300 && status < 400) return { ok: false, reason: "redirect", status };
  if (status < 200 || status >= 300) return { ok: false, reason: "http_status", status };
  const screened = screenJsonBytes(response.body);
  if (screened.ok) return { ok: true, status, json: screened.value };
  return { ok: false, reason: screened.problem === "not_json" ? "not_json" : "unreadable", status };
}

/**
 * A relative FHIR query (`Patient/123`, `MedicationRequest?patient=123&status=active`): it starts
 * with a resource type, so it can only name a path under the FHIR server's base, never another
 * host (`//evil.example/...`) or a parent path (`../`).
 */
const RELATIVE_FHIR_QUERY = /^[A-Z][A-Za-z]{1,63}(?:[/?][^\s#]*)?$/;

/** The absolute URL of a relative query under `fhirServer`, or null when it would leave it. */
export function fhirQueryUrl(fhirServer: string, relativeQuery: string): string | null {
  if (!RELATIVE_FHIR_QUERY.test(relativeQuery) || relativeQuery.includes("..")) return null;
  let base: URL;
  try {
    base = new URL(fhirServer.endsWith("/") ? fhirServer : `${fhirServer}/`);
  } catch {
    return null;
  }
  if (base.search || base.hash || base.username || base.password) return null;
  const url = new URL(relativeQuery, base);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return null;
  return url.toString();
}

/**
 * One FHIR read for a hook: `relativeQuery` under `fhirServer` with the EHR's bearer token
 * (`fhirAuthorization.access_token`), answered as parsed JSON or a typed failure (which the hook
 * route turns into 412: the data could not be had).
 */
export async function fetchFhir(
  fhirServer: string,
  relativeQuery: string,
  accessToken: string | undefined,
  policy: EhrAddressPolicy,
  options: EhrFetchOptions = {},
): Promise<EhrFetchResult> {
  const url = fhirQueryUrl(fhirServer, relativeQuery);
  if (!url) return { ok: false, reason: "invalid_url" };
  return ehrGetJson(url, policy, accessToken, { ...options, accept: "application/fhir+json" });
}

/**
 * Check an EHR URL (a `jku`, a FHIR server) when it is registered: http(s) only, https in live
 * mode, no credentials, and a literal address or `localhost` only where the client's policy
 * allows it. Names are resolved and checked again at each fetch (ehrGetJson).
 */
export function checkEhrUrl(
  raw: string,
  policy: EhrAddressPolicy,
): { ok: true; url: URL } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `${raw} is not a URL.` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, reason: `${raw} must use https:// (or http:// for a test-mode client).` };
  if (policy.mode === "live" && url.protocol !== "https:")
    return { ok: false, reason: `${raw} must use https:// for a live-mode client.` };
  const checked = checkEndpointUrl(raw, {
    mode: policy.mode,
    allowPrivate: policy.allowPrivate,
    allowLoopbackWebhooks: policy.allowLoopback,
  });
  return checked.ok ? checked : { ok: false, reason: `${raw} is refused: ${checked.reason}` };
}
