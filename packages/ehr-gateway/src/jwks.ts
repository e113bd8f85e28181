import { importJWK, type JSONWebKeySet, type JWK } from "jose";

/**
 * The JWK Sets a CDS client may register or serve (decision 121): public keys only, for the two
 * algorithms CDS Hooks recommends and we accept (ES384 on P-384, RS384). A private member
 * (`d`, `p`, `q`, `dp`, `dq`, `qi`, `oth`) or a symmetric key (`kty: oct`, member `k`) is
 * refused: a private key sent to us is a leaked key, and a symmetric key would let anyone holding
 * it (us included) sign as the EHR.
 */

/** The only JWS algorithms a CDS client's JWT may use (CDS Hooks 2.0.1: never `none`, never HMAC). */
export const CDS_JWT_ALGORITHMS = ["ES384", "RS384"] as const;
export type CdsJwtAlgorithm = (typeof CDS_JWT_ALGORITHMS)[number];

const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"] as const;
/** At most this many keys in one set (rotation needs two or three). */
export const MAX_JWKS_KEYS = 20;

export type JwksCheck = { ok: true; jwks: JSONWebKeySet } | { ok: false; reason: string };

function isText(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= 4096;
}

/** One key's problem, or its public members only. */
function publicKey(raw: unknown, index: number): JWK | string {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    return `keys[${index}] is not an object.`;
  const key = raw as Record<string, unknown>;
  if (key.kty === "oct")
    return `keys[${index}] is a symmetric key (kty "oct"); only public EC or RSA keys are accepted.`;
  const leaked = PRIVATE_MEMBERS.filter((member) => member in key);
  if (leaked.length > 0)
    return `keys[${index}] holds private key material (${leaked.join(", ")}); register public keys only, and treat this private key as leaked.`;
  if (!isText(key.kid)) return `keys[${index}] has no kid.`;
  if (key.alg !== undefined && !CDS_JWT_ALGORITHMS.includes(key.alg as CdsJwtAlgorithm))
    return `keys[${index}] has alg ${JSON.stringify(key.alg)}; only ES384 and RS384 are accepted.`;
  if (key.use !== undefined && key.use !== "sig")
    return `keys[${index}] has use ${JSON.stringify(key.use)}, not "sig".`;
  const common = {
    kid: key.kid,
    ...(key.alg ? { alg: key.alg as string } : {}),
    ...(key.use ? { use: "sig" } : {}),
  };
  if (key.kty === "EC") {
    if (key.crv !== "P-384")
      return `keys[${index}] is on curve ${JSON.stringify(key.crv)}; ES384 needs P-384.`;
    if (!isText(key.x) || !isText(key.y)) return `keys[${index}] lacks the EC members x and y.`;
    if (key.alg === "RS384") return `keys[${index}] is an EC key labelled RS384.`;
    return { kty: "EC", crv: "P-384", x: key.x, y: key.y, ...common };
  }
  if (key.kty === "RSA") {
    if (!isText(key.n) || !isText(key.e)) return `keys[${index}] lacks the RSA members n and e.`;
    if (key.alg === "ES384") return `keys[${index}] is an RSA key labelled ES384.`;
    return { kty: "RSA", n: key.n, e: key.e, ...common };
  }
  return `keys[${index}] has kty ${JSON.stringify(key.kty)}; only EC (P-384) and RSA keys are accepted.`;
}

/** Check a JWK Set for registration or after a `jku` fetch; the public members only are kept. */
export function checkPublicJwks(value: unknown): JwksCheck {
  if (typeof value !== "object" || value === null || !Array.isArray((value as { keys?: unknown }).keys))
    return { ok: false, reason: "A JWK Set is an object with a keys array." };
  const raw = (value as { keys: unknown[] }).keys;
  if (raw.length === 0) return { ok: false, reason: "The JWK Set has no keys." };
  if (raw.length > MAX_JWKS_KEYS)
    return { ok: false, reason: `The JWK Set has more than ${MAX_JWKS_KEYS} keys.` };
  const keys: JWK[] = [];
  for (const [index, entry] of raw.entries()) {
    const key = publicKey(entry, index);
    if (typeof key === "string") return { ok: false, reason: key };
    if (keys.some((k) => k.kid === key.kid))
      return { ok: false, reason: `The kid ${key.kid} appears twice; a kid must be unique in its set.` };
    keys.push(key);
  }
  return { ok: true, jwks: { keys } };
}

/**
 * The first key of a checked set that is not a usable public key (its members do not make a key
 * on its curve or a valid RSA key), as a sentence; null when every key imports.
 */
export async function unusableKeyReason(jwks: JSONWebKeySet): Promise<string | null> {
  for (const [index, key] of jwks.keys.entries()) {
    try {
      await importJWK(key, key.alg ?? (key.kty === "EC" ? "ES384" : "RS384"));
    } catch {
      return `keys[${index}] (kid ${key.kid}) is not a valid public key.`;
    }
  }
  return null;
}
