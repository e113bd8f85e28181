// The outbound HTTP client moved to `@svc/outbound-http` (decision 127); the resolver the delivery
// options take, and the snippet the attempt rows keep, are still exported here.
export {
  RESPONSE_SNIPPET_BYTES,
  type Resolver,
  safeResponseSnippet,
  systemResolver,
} from "@svc/outbound-http";
export type { DeliveryRunOptions } from "./context.js";
export {
  DELIVERY_TIMEOUT_MS,
  type DeliverContext,
  type DeliverOutcome,
  deliver,
  USER_AGENT,
} from "./deliver.js";
export {
  type AddEndpointInput,
  addWebhookEndpoint,
  type CheckedEndpoint,
  checkEndpointAddress,
  checkNewWebhookEndpoint,
  deliveriesOfEvents,
  type EndpointAddressPolicy,
  type EndpointOwner,
  type EndpointPosition,
  getWebhookEndpoint,
  insertWebhookEndpoint,
  listDeliveryAttempts,
  listWebhookDeliveries,
  listWebhookEndpoints,
  MAX_WEBHOOK_ENDPOINTS,
  redeliverWebhook,
  removeWebhookEndpoint,
  rollWebhookSecret,
  sendTestEvent,
  setWebhookEndpointDisabled,
  setWebhookEndpointUrl,
  TEST_EVENT_TYPE,
  type WebhookEndpointRow,
} from "./endpoints.js";
export {
  type InProcessDelivery,
  type InProcessDeliveryOptions,
  startInProcessDelivery,
} from "./in-process.js";
export {
  apiDeliveryEnqueuer,
  createDeliveryEnqueuer,
  createDeliveryQueue,
  DELIVERY_QUEUE_NAME,
  type DeliveryEnqueuer,
  type DeliveryJob,
  type DeliveryQueue,
  enqueueDeliveries,
  enqueueJob,
  enqueueOnce,
  RedisUnavailableError,
  retryJobId,
  sweepJobId,
} from "./queue.js";
export { startEventPurge } from "./retention.js";
export { startWebhookWorker, type WebhookWorkerOptions, type WorkerHandle } from "./worker.js";
