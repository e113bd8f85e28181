/**
 * `@svc/sdk` for Node: the typed client of the Intelligence and MSE Record APIs, webhook and
 * safety-event signature checks. No telemetry. The browser entry is `@svc/sdk/browser`.
 */
export { type ClientOptions, createClient, type SvcClient, type WebhookEndpointsResource } from "./client.js";
export type { RawClient } from "./core.js";
export * from "./errors.js";
export { type AnalysisCall, FHIR_MEDIA_TYPE, type FormatOptions, type MseRetrieveCall } from "./format.js";
export { ERROR_CODES, IDEMPOTENT_OPERATIONS } from "./generated/meta.js";
export type { components, operations, paths } from "./generated/openapi.js";
export type {
  BodyOf,
  GetOperation,
  PatchOperation,
  PostOperation,
  QueryOf,
  ResultOf,
} from "./operation-types.js";
export { nextCursor, type PageInfo, PageIterator } from "./pagination.js";
export type * from "./resources.js";
export {
  backoffDelay,
  isRetryableStatus,
  parseRetryAfter,
  type RequestOptions,
  type TransportOptions,
  takesIdempotencyKey,
} from "./transport.js";
export * from "./webhooks.js";
