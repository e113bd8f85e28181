/**
 * Why a capture failed. The first five are the cases the issue names; `network_error` is a
 * request that got no readable answer (offline, or the browser blocked it: a refused CORS check
 * looks the same to a page), `unsupported` a browser without getUserMedia or AudioWorklet, and
 * `session_closed` a call on a session that already finished or was aborted.
 */
export type CaptureErrorCode =
  | "microphone_denied"
  | "no_audio_input"
  | "session_too_short"
  | "service_error"
  | "rate_limited"
  | "network_error"
  | "unsupported"
  | "session_closed";

export interface CaptureErrorDetails {
  /** HTTP status of the service's answer (service_error, rate_limited). */
  status?: number;
  /** The service's `error.code` (e.g. `forbidden`, `invalid_request`). */
  serviceCode?: string;
  /** The service's `requestId` (from the body, or the X-Request-Id header). */
  requestId?: string;
  /** Seconds to wait before retrying (429 `Retry-After`). */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/** The one error type the library throws; branch on `code`. */
export class CaptureError extends Error {
  readonly code: CaptureErrorCode;
  readonly status?: number;
  readonly serviceCode?: string;
  readonly requestId?: string;
  readonly retryAfterSeconds?: number;

  constructor(code: CaptureErrorCode, message: string, details: CaptureErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "CaptureError";
    this.code = code;
    this.status = details.status;
    this.serviceCode = details.serviceCode;
    this.requestId = details.requestId;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/** getUserMedia's DOMException names mapped to our codes (anything else: no usable input). */
export function microphoneError(error: unknown): CaptureError {
  const name = error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "SecurityError") {
    return new CaptureError("microphone_denied", "Microphone access was denied.", { cause: error });
  }
  return new CaptureError("no_audio_input", "No usable microphone was found.", { cause: error });
}
