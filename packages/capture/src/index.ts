/**
 * @svc/capture: speech rate and response latency measured in the browser, posted as numbers to
 * POST /v1/dmse/analyze with a publishable key. Audio never leaves the device.
 */
export type {
  DmseAnalysis,
  DmseAnalyzeBody,
  DmseHistory,
  DmseSignal,
} from "./analyze-client.js";
export {
  type Capture,
  type CaptureOptions,
  type CaptureSession,
  createCapture,
  type FinishOptions,
  type FinishResult,
} from "./capture.js";
export { CaptureError, type CaptureErrorCode, type CaptureErrorDetails } from "./errors.js";
export type { CaptureMetrics, TurnMetrics } from "./session-metrics.js";
