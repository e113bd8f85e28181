import {
  type AccountEvent,
  MAX_SIGNATURE_HEADER_LENGTH,
  SAFETY_SIGNATURE_HEADER,
  type SafetyEvent,
  SIGNATURE_HEADER,
  SIGNATURE_TOLERANCE_SECONDS,
  signatureTolerance,
  signPayload,
  type VerifyResult,
  verifySignature,
} from "@svc/webhooks";
import type { LabOrder, WearableConnection } from "./resources.js";

/**
 * Webhook signatures, checked with the service's own scheme from `@svc/webhooks` (decision 154):
 * header `t=<unix seconds>,v1=<hex>` where the hex is HMAC-SHA256 over `<t>.<raw body>` keyed
 * with the endpoint's `whsec_` secret. Account events carry it in `Service-Signature`, MSE safety
 * events in `x-mse-signature`.
 */
export { SAFETY_SIGNATURE_HEADER, SIGNATURE_HEADER };
export const DEFAULT_TOLERANCE_SECONDS = SIGNATURE_TOLERANCE_SECONDS;

/**
 * An event delivered to an account's webhook endpoint: a union narrowable on `type`
 * (`lab_order.*`, `wearable.*`, and `webhook_endpoint.test` from the dashboard), each with its
 * `data`; `status` and `provider` use the API's own enums. The shapes are `@svc/webhooks`'s
 * AccountEvent, the one definition.
 */
export type WebhookEvent = AccountEvent<{
  labOrderStatus: LabOrder["status"];
  wearableStatus: WearableConnection["status"];
  wearableProvider: WearableConnection["provider"];
}>;

/** The MSE safety event delivered to an organization's endpoints (`x-mse-signature`). */
export type { SafetyEvent };

/**
 * A signature header as a server framework hands it over: one value (`string`, or Node's
 * `string[]` form of `IncomingHttpHeaders`, `undefined` when absent), a WHATWG `Headers`, or the
 * whole of Node's `req.headers`, from which the right header is read.
 */
export type SignatureHeaders =
  | string
  | readonly string[]
  | null
  | undefined
  | Headers
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** Why a delivery was refused: no header, or one of `@svc/webhooks`' own refusals of a header. */
export type WebhookVerificationReason = "missing_header" | Extract<VerifyResult, { ok: false }>["reason"];

const MESSAGES: Record<WebhookVerificationReason, string> = {
  missing_header: `No signature header: read ${SIGNATURE_HEADER} (or ${SAFETY_SIGNATURE_HEADER} for safety events).`,
  malformed_header: `The signature header is not one \`t=<unix seconds>,v1=<64 hex digits>\` value (at most ${MAX_SIGNATURE_HEADER_LENGTH.toLocaleString("en-US")} characters).`,
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
  /**
   * Largest distance between the signature time and now, in seconds (default 300). Anything but
   * a finite number >= 0 throws RangeError (an unset variable read with `Number()` is NaN).
   */
  toleranceSeconds?: number;
  /** Now in unix seconds (default: the clock); for tests. Must be finite. */
  nowSeconds?: number;
}

function bodyText(rawBody: string | Uint8Array): string {
  return typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
}

function isHeaders(value: object): value is Headers {
  return typeof (value as { get?: unknown }).get === "function";
}

/**
 * The one header value to check, or null when there is none. Two values of the header (an
 * array of more than one) are malformed: the service sends one.
 */
function headerValue(headers: SignatureHeaders, name: string): string | null {
  if (headers === null || headers === undefined) return null;
  if (typeof headers === "string") return headers;
  if (Array.isArray(headers)) {
    if (headers.length > 1) throw new WebhookVerificationError("malformed_header");
    return typeof headers[0] === "string" ? headers[0] : null;
  }
  if (isHeaders(headers as object)) return (headers as Headers).get(name);
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const value = record[name.toLowerCase()];
  return typeof value === "string" || Array.isArray(value) ? headerValue(value, name) : null;
}

function verifyWith(
  name: string,
  rawBody: string | Uint8Array,
  headers: SignatureHeaders,
  secret: string,
  options: VerifyOptions,
): unknown {
  // A bad tolerance throws before anything else, whatever the delivery (decision 153).
  const toleranceSeconds = signatureTolerance(options.toleranceSeconds);
  const header = headerValue(headers, name);
  if (!header) throw new WebhookVerificationError("missing_header");
  const body = bodyText(rawBody);
  const result = verifySignature({
    secret,
    payload: body,
    header,
    now: options.nowSeconds,
    toleranceSeconds,
  });
  if (!result.ok) throw new WebhookVerificationError(result.reason);
  return JSON.parse(body);
}

/**
 * Checks an account event's signature (`Service-Signature`) against the raw body, in constant
 * time, and answers the parsed event, typed by its `type`. Accepts a header with several `v1`
 * values (a sender rotating secrets signs twice) when any one matches. Throws
 * WebhookVerificationError with a `reason` otherwise, and RangeError for a tolerance or clock that
 * is not a finite number (>= 0). `headers` may be the header's value or all of the request's
 * headers (Node's `req.headers` or a `Headers`).
 */
export function verifyWebhook<Event = WebhookEvent>(
  rawBody: string | Uint8Array,
  headers: SignatureHeaders,
  secret: string,
  options: VerifyOptions = {},
): Event {
  return verifyWith(SIGNATURE_HEADER, rawBody, headers, secret, options) as Event;
}

/**
 * The same check for an MSE safety event: from all of a request's headers it reads
 * `x-mse-signature`, and it answers the safety event.
 */
export function verifySafetyEvent<Event = SafetyEvent>(
  rawBody: string | Uint8Array,
  headers: SignatureHeaders,
  secret: string,
  options: VerifyOptions = {},
): Event {
  return verifyWith(SAFETY_SIGNATURE_HEADER, rawBody, headers, secret, options) as Event;
}

/**
 * A signature header for a body, as the service would send it: for testing a receiver.
 * `secrets` signs with each (one `v1` per secret), like a sender in the middle of a rotation.
 */
export function generateTestHeader(input: {
  payload: string;
  secret: string | string[];
  timestampSeconds?: number;
}): string {
  return signPayload(input.secret, input.payload, input.timestampSeconds ?? Date.now() / 1000);
}
