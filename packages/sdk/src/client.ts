import { createCore } from "./core.js";
import { clientOperations } from "./generated/client.js";
import type { TransportOptions } from "./transport.js";

export type ClientOptions = TransportOptions;

/**
 * The Node client: every operation of the Intelligence and MSE Record APIs, grouped by resource,
 * with retries, timeouts, idempotency keys, typed errors and cursor lists (see the README). The
 * wrappers are generated from docs/openapi.json (`src/generated/client.ts`, decision 216); `raw`
 * is the typed path client for anything they do not cover.
 */
export function createClient(options: ClientOptions) {
  const core = createCore(options);
  return { raw: core.raw, ...clientOperations(core) };
}

export type SvcClient = ReturnType<typeof createClient>;

/**
 * `svc.webhookEndpoints`: your account's webhook endpoints, in the key's mode (a test key manages
 * test-mode endpoints, a live key live ones). `create` and `rotateSecret` answer the signing
 * secret (`whsec_...`) once: store it then. `create` sends an Idempotency-Key (kept across its
 * retries), so a retried create adds one endpoint and answers the same secret.
 */
export type WebhookEndpointsResource = SvcClient["webhookEndpoints"];
