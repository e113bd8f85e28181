import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Webhook signatures, reimplemented from the service's scheme: header `t=<unix seconds>,v1=<hex>`
 * where the hex is HMAC-SHA256 over `<t>.<raw body>` keyed with the endpoint's `whsec_` secret.
 * Account events carry it in `Service-Signature`, MSE safety events in `x-mse-signature`.
 */
export const SIGNATURE_HEADER = "Service-Signature";
export const SAFETY_SIGNATURE_HEADER = "x-mse-signature";
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type WebhookVerificationReason =
  | "missing_header"
  | "malformed_header"
  | "timestamp_out_of_tolerance"
  | "signature_mismatch";

const MESSAGES: Record<WebhookVerificationReason, string> = {
  missing_header: "No signature header: read Service-Signature (or x-mse-signature for safety events).",
  malformed_header: "The signature header is not `t=<unix seconds>,v1=<64 hex digits>`.",
  timestamp_out_of_tolerance:
    "The signature timestamp is outside the tolerance: a replay, or this server's clock is off.",
  signature_mismatch:
    "No v1 signature matches: check the endpoint's secret, and that the body is the raw bytes received (not re-serialized JSON).",
};

/** Why a signature was refused; `reason` is stable, the message says what to check. */
export class WebhookVerificationError extends Error {
  readonly reason: WebhookVerificationReason;
  constructor(reason: WebhookVerificationReason) {
    super(MESSAGES[reason]);
    this.name = "WebhookVerificationError";
    this.reason = reason;
  }
}

export interface VerifyOptions {
  /** Largest distance between the signature time and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Now in unix seconds (default: the clock); for tests. */
  nowSeconds?: number;
}

function hmacHex(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

function bodyText(rawBody: string | Uint8Array): string {
  return typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
}

function parseHeader(header: string): { timestamp: number; signatures: string[] } {
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
  if (timestamp === null || signatures.length === 0) throw new WebhookVerificationError("malformed_header");
  return { timestamp, signatures };
}

/**
 * Checks a delivery's signature against the raw body, in constant time. Accepts a header with
 * several `v1` values (a sender rotating secrets signs twice) when any one matches. Returns the
 * parsed event; throws WebhookVerificationError with a `reason` otherwise.
 */
export function verifyWebhook<Event = unknown>(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  options: VerifyOptions = {},
): Event {
  if (!header) throw new WebhookVerificationError("missing_header");
  const { timestamp, signatures } = parseHeader(header);
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - timestamp) > tolerance) throw new WebhookVerificationError("timestamp_out_of_tolerance");
  const body = bodyText(rawBody);
  const expected = Buffer.from(hmacHex(secret, timestamp, body), "utf8");
  let match = false;
  for (const candidate of signatures) {
    // Each candidate is 64 hex digits (checked above), as long as expected: every one is compared,
    // in constant time, without an early exit.
    if (timingSafeEqual(expected, Buffer.from(candidate, "utf8"))) match = true;
  }
  if (!match) throw new WebhookVerificationError("signature_mismatch");
  return JSON.parse(body) as Event;
}

/** The MSE safety-event signature (`x-mse-signature`): the same scheme as account events. */
export const verifySafetyEvent = verifyWebhook;

/**
 * A signature header for a body, as the service would send it: for testing a receiver.
 * `secrets` signs with each (one `v1` per secret), like a sender in the middle of a rotation.
 */
export function generateTestHeader(input: {
  payload: string;
  secret: string | string[];
  timestampSeconds?: number;
}): string {
  const t = Math.floor(input.timestampSeconds ?? Date.now() / 1000);
  const secrets = Array.isArray(input.secret) ? input.secret : [input.secret];
  return [`t=${t}`, ...secrets.map((s) => `v1=${hmacHex(s, t, input.payload)}`)].join(",");
}
