import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Webhook signatures (contract, Events 4): header `t=<unix seconds>,v1=<hex>`, where the hex is
 * HMAC-SHA256 over `<timestamp>.<raw payload>` with the endpoint's `whsec_` secret. The same
 * scheme signs MSE safety events in `x-mse-signature` (ruling 10).
 */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A new endpoint signing secret: `whsec_` and 40 base62 characters (about 238 bits). */
export function newWebhookSecret(): string {
  const bytes = randomBytes(40);
  let out = "whsec_";
  // 62 * 4 = 248 < 256: drop the top values so every character is equally likely.
  for (const byte of bytes) out += BASE62[byte % 62];
  return out;
}

function hmacHex(secret: string, timestamp: number, payload: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
}

/** The signature header value for one delivery attempt. */
export function signPayload(secret: string, payload: string, timestampSeconds: number): string {
  const t = Math.floor(timestampSeconds);
  return `t=${t},v1=${hmacHex(secret, t, payload)}`;
}

export type VerifyResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: "malformed_header" | "timestamp_out_of_tolerance" | "signature_mismatch" };

/**
 * For receivers: check a signature header against the raw body, in constant time, refusing
 * timestamps more than `toleranceSeconds` from now (replays). Several `v1` entries are accepted
 * (a sender rotating secrets may sign twice).
 */
export function verifySignature(input: {
  secret: string;
  payload: string;
  header: string | null | undefined;
  nowSeconds?: number;
  toleranceSeconds?: number;
}): VerifyResult {
  const header = input.header ?? "";
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
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  if (Math.abs(now - timestamp) > tolerance) return { ok: false, reason: "timestamp_out_of_tolerance" };
  const expected = Buffer.from(hmacHex(input.secret, timestamp, input.payload), "hex");
  let match = false;
  for (const candidate of signatures) {
    // Every candidate is compared (no early exit), each in constant time.
    if (timingSafeEqual(expected, Buffer.from(candidate, "hex"))) match = true;
  }
  return match ? { ok: true, timestamp } : { ok: false, reason: "signature_mismatch" };
}
