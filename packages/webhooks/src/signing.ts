import { createHmac, randomBytes } from "node:crypto";
import { constantTimeEqual } from "@svc/ids";

/**
 * Webhook signatures (contract, Events 4): header `t=<unix seconds>,v1=<hex>`, where the hex is
 * HMAC-SHA256 over `<timestamp>.<raw payload>` with the endpoint's `whsec_` secret. The same
 * scheme signs MSE safety events in `x-mse-signature` (decision 38).
 */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Header carrying the signature of account events (contract, Events 4). */
export const SIGNATURE_HEADER = "Service-Signature";
/** Header carrying the signature of MSE safety events (decision 38); same scheme. */
export const SAFETY_SIGNATURE_HEADER = "x-mse-signature";
/** The event id of a delivery, the same on every attempt: receivers deduplicate with it. */
export const EVENT_ID_HEADER = "Service-Event-Id";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A new endpoint signing secret: `whsec_` and 40 base62 characters (about 238 bits). */
export function newWebhookSecret(): string {
  let out = "whsec_";
  while (out.length < 6 + 40) {
    for (const byte of randomBytes(48)) {
      // 62 * 4 = 248: bytes 248-255 are dropped so every character is equally likely.
      if (byte >= 248 || out.length >= 6 + 40) continue;
      out += BASE62[byte % 62];
    }
  }
  return out;
}

function hmacHex(secret: string, timestamp: number, payload: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
}

/**
 * The signature header value for one delivery attempt. Several secrets give one `v1` each, in
 * order, as a sender in the middle of a secret rotation signs.
 */
export function signPayload(
  secret: string | readonly string[],
  payload: string,
  timestampSeconds: number,
): string {
  const t = Math.floor(timestampSeconds);
  const secrets = typeof secret === "string" ? [secret] : secret;
  return [`t=${t}`, ...secrets.map((s) => `v1=${hmacHex(s, t, payload)}`)].join(",");
}

/**
 * The longest signature header read. The service sends one `t` and one `v1` per active secret
 * (about 80 characters each); a longer header is malformed, refused before it is split, so the
 * work per call is bounded whatever a sender puts in it.
 */
export const MAX_SIGNATURE_HEADER_LENGTH = 4096;

/**
 * The tolerance a verifier uses (decision 153): `SIGNATURE_TOLERANCE_SECONDS` when unset,
 * otherwise it must be a finite number of seconds >= 0, or this throws. NaN, which is what
 * `Number(process.env.X)` gives for an unset variable, would make every comparison false and so
 * accept a signature of any age; Infinity would too, and a negative one would refuse everything.
 */
export function signatureTolerance(toleranceSeconds: number | undefined): number {
  if (toleranceSeconds === undefined) return SIGNATURE_TOLERANCE_SECONDS;
  if (typeof toleranceSeconds !== "number" || !Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new RangeError(
      `toleranceSeconds must be a finite number of seconds >= 0 (default ${SIGNATURE_TOLERANCE_SECONDS}); got ${String(toleranceSeconds)}.`,
    );
  }
  return toleranceSeconds;
}

/** The verifier's clock in unix seconds: the given one, which must be finite, or the system's. */
function verificationNow(now: number | undefined): number {
  if (now === undefined) return Math.floor(Date.now() / 1000);
  if (typeof now !== "number" || !Number.isFinite(now)) {
    throw new RangeError(`now must be a finite number of unix seconds; got ${String(now)}.`);
  }
  return now;
}

export type VerifyResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: "malformed_header" | "timestamp_out_of_tolerance" | "signature_mismatch" };

/**
 * For receivers: check a signature header against the raw body, in constant time, refusing
 * timestamps more than `toleranceSeconds` from now (replays). Several `v1` entries are accepted
 * (a sender rotating secrets may sign twice). Throws RangeError, whatever the header, when
 * `toleranceSeconds` or `now` is not a finite number (or the tolerance is negative): a verifier
 * misconfigured that way would otherwise accept replays (decision 153).
 */
export function verifySignature(input: {
  secret: string;
  payload: string;
  header: string | null | undefined;
  /** Current time in unix seconds (default: the clock). */
  now?: number;
  /** Same as `now` (kept for callers written against the first version). */
  nowSeconds?: number;
  toleranceSeconds?: number;
}): VerifyResult {
  const tolerance = signatureTolerance(input.toleranceSeconds);
  const now = verificationNow(input.now ?? input.nowSeconds);
  const header = input.header ?? "";
  if (header.length > MAX_SIGNATURE_HEADER_LENGTH) return { ok: false, reason: "malformed_header" };
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t" && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === "v1" && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === null || signatures.length === 0) return { ok: false, reason: "malformed_header" };
  if (Math.abs(now - timestamp) > tolerance) return { ok: false, reason: "timestamp_out_of_tolerance" };
  const expected = hmacHex(input.secret, timestamp, input.payload);
  let match = false;
  for (const candidate of signatures) {
    // Both are 64 lowercase hex digits (the format check above). Every candidate is compared, no
    // early exit, each in constant time.
    if (constantTimeEqual(expected, candidate)) match = true;
  }
  return match ? { ok: true, timestamp } : { ok: false, reason: "signature_mismatch" };
}
