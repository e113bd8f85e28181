import { Refusal } from "@svc/refusal";
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  type JSONWebKeySet,
  type JWTPayload,
  jwtVerify,
} from "jose";
import type { EhrAddressPolicy } from "./fetcher.js";
import { CDS_JWT_ALGORITHMS, type CdsJwtAlgorithm } from "./jwks.js";
import type { JwksSource } from "./keys.js";

/**
 * Verifying the JWT a CDS client (an EHR) sends on every CDS Hooks call (decision 120). The
 * signature, algorithm allow-list, audience and times are checked by `jose`; what it leaves to
 * us (the registered client, its allowed `jku`, the replay store) is done here, and every
 * refusal is one typed reason, kept for the log behind one public answer.
 */

export type CdsJwtRefusalReason =
  | "malformed"
  | "alg_not_allowed"
  | "unknown_issuer"
  | "revoked_client"
  | "jku_not_allowed"
  | "keys_unavailable"
  | "unknown_kid"
  | "wrong_key"
  | "expired"
  | "issued_in_future"
  | "too_old"
  | "wrong_audience"
  | "replayed_jti";

/**
 * The one answer to every refused JWT, whatever the reason (decision 147): an unknown issuer, a
 * revoked client, an unknown kid or a bad signature read the same, so no answer tells whether an
 * EHR is registered with an account. The reason is in the log line of the request id.
 */
export const CDS_JWT_REFUSED_MESSAGE =
  "The CDS client's JWT was refused. It must be signed with a key the account registered for its iss, name the exact URL called as aud, and be current (iat, exp) with a jti never used before; the service's log has the reason under this requestId.";

/**
 * A refused token, as the one refusal (decision 220): `invalid_token` with the public message
 * every refused JWT gets. Which check failed is for the log only, never for the caller (it
 * would tell an unknown issuer from a bad signature): `reason`, and `detail`, a sentence with no
 * key material.
 */
export class CdsJwtRefusal extends Refusal {
  constructor(
    readonly reason: CdsJwtRefusalReason,
    readonly detail: string,
  ) {
    super("invalid_token", CDS_JWT_REFUSED_MESSAGE);
    this.name = "CdsJwtRefusal";
  }
}

/** What verification needs of a registered CDS client. */
export interface CdsClientKeys {
  id: string;
  iss: string;
  mode: "test" | "live";
  allowPrivate: boolean;
  /** The `jku` URLs the client registered (exact strings). */
  jkus: readonly string[];
  /** The inline public JWK Set, when registered instead of (or besides) a `jku`. */
  jwks: JSONWebKeySet | null;
  revokedAt: Date | null;
}

/** Remembers a client's `jti`s until their tokens could no longer be accepted. */
export interface JtiStore {
  /** True the first time (clientId, jti) is seen before `until`; false for a replay. */
  remember(clientId: string, jti: string, until: Date, now: Date): Promise<boolean>;
}

/** Clock skew tolerated on `exp` and `iat` (decision 120). */
export const CDS_JWT_CLOCK_SKEW_S = 60;
/** A token is accepted at most this long after its `iat` (decision 120: CDS tokens are per call). */
export const CDS_JWT_MAX_AGE_S = 300;

export interface VerifyCdsJwtOptions<C extends CdsClientKeys> {
  /** The exact URL(s) the call may be addressed to: the endpoint being called. */
  expectedAudience: string | readonly string[];
  now?: Date;
  /** The registered client for an `iss` (a revoked one too, so the refusal can say so), or null. */
  clients: (iss: string) => Promise<C | null>;
  jtiStore: JtiStore;
  /** Where `jku` sets come from (fetched under the client's address rules). */
  jwksSource: JwksSource;
  /** The operator's loopback setting, for the client's `jku` fetches. */
  allowLoopback?: boolean;
}

export interface VerifiedCdsJwt<C extends CdsClientKeys> {
  client: C;
  kid: string;
  alg: CdsJwtAlgorithm;
  jti: string;
  /** The optional `tenant` claim (the healthcare organization), when a string. */
  tenant?: string;
  expiresAt: Date;
}

/** The header, read before any key is chosen: `typ: JWT`, a `kid`, an allowed `alg`. */
function checkedHeader(token: string): { kid: string; alg: CdsJwtAlgorithm; jku?: string } {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw new CdsJwtRefusal("malformed", "The bearer token is not a JWS compact token.");
  }
  if (typeof header.alg !== "string" || !CDS_JWT_ALGORITHMS.includes(header.alg as CdsJwtAlgorithm))
    throw new CdsJwtRefusal("alg_not_allowed", "The JWT's alg must be ES384 or RS384 (never none or HMAC).");
  if (typeof header.typ !== "string" || header.typ.toUpperCase() !== "JWT")
    throw new CdsJwtRefusal("malformed", "The JWT header's typ must be JWT.");
  if (typeof header.kid !== "string" || header.kid === "")
    throw new CdsJwtRefusal("malformed", "The JWT header has no kid.");
  if (header.jku !== undefined && typeof header.jku !== "string")
    throw new CdsJwtRefusal("malformed", "The JWT header's jku is not a URL.");
  return { kid: header.kid, alg: header.alg as CdsJwtAlgorithm, ...(header.jku ? { jku: header.jku } : {}) };
}

/** The registered, unrevoked client named by the (not yet verified) `iss`. */
async function clientOf<C extends CdsClientKeys>(token: string, clients: (iss: string) => Promise<C | null>) {
  let claims: JWTPayload;
  try {
    claims = decodeJwt(token);
  } catch {
    throw new CdsJwtRefusal("malformed", "The JWT payload is not a JSON object.");
  }
  if (typeof claims.iss !== "string" || claims.iss === "")
    throw new CdsJwtRefusal("malformed", "The JWT has no iss claim.");
  const client = await clients(claims.iss);
  if (!client) throw new CdsJwtRefusal("unknown_issuer", "The JWT's iss is not a registered CDS client.");
  if (client.revokedAt)
    throw new CdsJwtRefusal("revoked_client", "The CDS client of this iss has been revoked.");
  return client;
}

/** The key set to verify with: the header's `jku` (only one the client registered), else inline, else its registered `jku`. */
async function keySetFor(
  client: CdsClientKeys,
  header: { kid: string; jku?: string },
  source: JwksSource,
  policy: EhrAddressPolicy,
): Promise<JSONWebKeySet> {
  if (header.jku !== undefined && !client.jkus.includes(header.jku))
    throw new CdsJwtRefusal("jku_not_allowed", "The JWT's jku is not one this CDS client registered.");
  const jku = header.jku ?? (client.jwks ? undefined : client.jkus[0]);
  if (jku === undefined) {
    if (client.jwks) return client.jwks;
    throw new CdsJwtRefusal("keys_unavailable", "This CDS client has no keys registered.");
  }
  let set = await source.get(jku, policy);
  if (set && !set.keys.some((k) => k.kid === header.kid))
    set = await source.get(jku, policy, { fresh: true });
  if (!set)
    throw new CdsJwtRefusal(
      "keys_unavailable",
      "The CDS client's JWK Set could not be fetched from its jku.",
    );
  return set;
}

/**
 * jose's refusal as ours; anything else thrown while verifying is a key WebCrypto would not
 * import. Only the verification step is mapped: a failing database behind `clients` or the replay
 * store is rethrown as it is, so an outage is never answered as a bad JWT.
 */
function refusalOf(error: unknown): CdsJwtRefusal {
  if (!(error instanceof errors.JOSEError))
    return new CdsJwtRefusal(
      "keys_unavailable",
      "The CDS client's key for this kid is not a usable public key.",
    );
  if (error instanceof errors.JWKSNoMatchingKey)
    return new CdsJwtRefusal("unknown_kid", "No key of the CDS client's JWK Set has this kid and alg.");
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return new CdsJwtRefusal("wrong_key", "The JWT's signature does not verify with the CDS client's key.");
  if (error instanceof errors.JOSEAlgNotAllowed)
    return new CdsJwtRefusal("alg_not_allowed", "The JWT's alg must be ES384 or RS384 (never none or HMAC).");
  if (error instanceof errors.JWTExpired) {
    if (error.claim === "iat")
      return new CdsJwtRefusal("too_old", `The JWT was issued more than ${CDS_JWT_MAX_AGE_S} s ago.`);
    return new CdsJwtRefusal("expired", "The JWT has expired (exp is in the past).");
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud")
      return new CdsJwtRefusal(
        "wrong_audience",
        "The JWT's aud is not the URL of the endpoint being called.",
      );
    if (error.claim === "iat" && error.reason === "check_failed")
      return new CdsJwtRefusal("issued_in_future", "The JWT's iat is in the future.");
    return new CdsJwtRefusal("malformed", `The JWT's ${error.claim} claim is missing or not valid.`);
  }
  return new CdsJwtRefusal("malformed", "The JWT could not be verified.");
}

/**
 * Verify a CDS client's JWT (decision 120): header `typ: JWT`, a `kid`, `alg` ES384 or RS384 (our
 * check and jose's allow-list); `iss` a registered, unrevoked client; a `jku` only if the client
 * registered it; the signature with the client's key of that `kid`; `aud` one of the expected
 * URLs; `exp` in the future and `iat` neither in the future nor older than CDS_JWT_MAX_AGE_S
 * (both with CDS_JWT_CLOCK_SKEW_S); `jti` never seen before for that client. Throws CdsJwtRefusal.
 */
export async function verifyCdsJwt<C extends CdsClientKeys>(
  token: string,
  options: VerifyCdsJwtOptions<C>,
): Promise<VerifiedCdsJwt<C>> {
  const now = options.now ?? new Date();
  const header = checkedHeader(token);
  const client = await clientOf(token, options.clients);
  const policy = {
    mode: client.mode,
    allowPrivate: client.allowPrivate,
    allowLoopback: options.allowLoopback === true,
  };
  const keys = await keySetFor(client, header, options.jwksSource, policy);
  const payload = await verifiedPayload(token, keys, client.iss, options.expectedAudience, now);
  const jti = payload.jti;
  if (typeof jti !== "string" || jti === "" || jti.length > 256)
    throw new CdsJwtRefusal("malformed", "The JWT's jti must be a string of 1 to 256 characters.");
  const exp = payload.exp as number;
  const iat = payload.iat as number;
  // Past iat + max age (+ skew) the token is refused as too old anyway: the jti needs keeping
  // only until then, or until exp if sooner.
  const until = new Date((Math.min(exp, iat + CDS_JWT_MAX_AGE_S) + CDS_JWT_CLOCK_SKEW_S) * 1000);
  if (!(await options.jtiStore.remember(client.id, jti, until, now)))
    throw new CdsJwtRefusal(
      "replayed_jti",
      "This JWT's jti has been used before; sign a new token for each call.",
    );
  return {
    client,
    kid: header.kid,
    alg: header.alg,
    jti,
    ...(typeof payload.tenant === "string" ? { tenant: payload.tenant } : {}),
    expiresAt: new Date(exp * 1000),
  };
}

/**
 * The signature and claims, checked by jose: the allow-listed algorithms, `typ`, the issuer, the
 * audience, `exp`, `iat` (not in the future, not older than the maximum age) and the required
 * claims. Every failure is a refusal: jose's own errors by their meaning, and a key that cannot be
 * imported (a registered or fetched JWK that is not a valid key) as `keys_unavailable`.
 */
async function verifiedPayload(
  token: string,
  keys: JSONWebKeySet,
  iss: string,
  expectedAudience: string | readonly string[],
  now: Date,
): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(token, createLocalJWKSet(keys), {
      algorithms: [...CDS_JWT_ALGORITHMS],
      typ: "JWT",
      issuer: iss,
      audience: typeof expectedAudience === "string" ? [expectedAudience] : [...expectedAudience],
      currentDate: now,
      clockTolerance: CDS_JWT_CLOCK_SKEW_S,
      maxTokenAge: CDS_JWT_MAX_AGE_S,
      requiredClaims: ["iss", "aud", "exp", "iat", "jti"],
    });
    return payload;
  } catch (error) {
    throw refusalOf(error);
  }
}

/** A JtiStore in memory (one process: tests and tools); the service uses the PostgreSQL one. */
export function memoryJtiStore(): JtiStore {
  const seen = new Map<string, number>();
  return {
    async remember(clientId, jti, until, now) {
      for (const [key, expiry] of seen) if (expiry <= now.getTime()) seen.delete(key);
      const key = `${clientId} ${jti}`;
      if (seen.has(key)) return false;
      seen.set(key, until.getTime());
      return true;
    },
  };
}
