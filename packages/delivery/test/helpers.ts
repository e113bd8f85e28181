import { randomBytes } from "node:crypto";
import { type Db, eq, webhookAttempts, webhookDeliveries, webhookEndpoints } from "@svc/db";
import {
  captureLogger,
  type Receiver,
  requireEnv,
  startReceiver,
  startTestService,
  type TestService,
} from "@svc/testkit";
import { addWebhookEndpoint, createDeliveryEnqueuer, startWebhookWorker } from "../src/index.js";

// Delivery-test helpers over the delivery tables. The receiver, addEndpoint and waitFor, which
// the worker's tests use too, live in @svc/testkit.

export async function removeEndpoint(db: Db, id: string) {
  await db.update(webhookEndpoints).set({ removedAt: new Date() }).where(eq(webhookEndpoints.id, id));
}

export async function deliveryRow(db: Db, id: string) {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row;
}

export async function attemptRows(db: Db, deliveryId: string) {
  const rows = await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId));
  return rows.sort((a, b) => a.attempt - b.attempt);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function uniquePrefix(): string {
  return `whtest${randomBytes(5).toString("hex")}`;
}

/** The whole delivery path over loopback: the API, a BullMQ worker and a receiver endpoint. */
export interface DeliveryPipeline {
  svc: TestService;
  receiver: Receiver;
  /** A secret key of the account whose test-mode endpoint is the receiver. */
  key: string;
  /** That endpoint's signing secret. */
  secret: string;
  close(): Promise<void>;
}

/**
 * Starts the service with a real enqueuer, a webhook worker whose sweeper runs every
 * `sweepIntervalMs`, and a receiver registered as a test-mode endpoint of a new account.
 */
export async function startDeliveryPipeline(options: { sweepIntervalMs: number }): Promise<DeliveryPipeline> {
  const svc = await startTestService();
  const prefix = uniquePrefix();
  const redisUrl = requireEnv("TEST_REDIS_URL");
  const enqueuer = createDeliveryEnqueuer({ redis: redisUrl, db: svc.db.handle.db, prefix });
  svc.deps.deliveries = enqueuer;
  const worker = await startWebhookWorker({
    logger: captureLogger().logger,
    db: svc.db.handle.db,
    redisUrl,
    prefix,
    sweepIntervalMs: options.sweepIntervalMs,
  });
  const receiver = await startReceiver();
  const caller = await svc.seed.caller("launch");
  const endpoint = await addWebhookEndpoint(svc.db.handle.db, {
    accountId: caller.account.id,
    url: `${receiver.url}/hooks`,
    mode: "test",
    allowPrivate: true,
  });
  return {
    svc,
    receiver,
    key: caller.key,
    secret: endpoint.secret,
    async close() {
      await worker.close({ force: true });
      await enqueuer.close();
      await receiver.close();
      await svc.close();
    },
  };
}
