import { randomBytes } from "node:crypto";
import { type Db, eq, webhookAttempts, webhookDeliveries, webhookEndpoints } from "@svc/db";
import {
  captureLogger,
  type Receiver,
  requireEnv,
  type Seeder,
  startReceiver,
  startTestService,
  type TestService,
} from "@svc/testkit";
import { useTestDatabase } from "@svc/testkit/vitest";
import { afterAll, beforeAll } from "vitest";
import {
  addWebhookEndpoint,
  createDeliveryEnqueuer,
  type DeliveryEnqueuer,
  startWebhookWorker,
  type WebhookWorkerOptions,
  type WorkerHandle,
} from "../src/index.js";

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

/** The part of a lab order body the delivery tests read (@svc/delivery cannot depend on the API package). */
export interface LabOrderBody {
  data: { id: string; status: string };
}

/** The whole delivery path over loopback: the API, a BullMQ worker and a receiver endpoint. */
export interface DeliveryPipeline {
  readonly svc: TestService;
  readonly receiver: Receiver;
  /** A secret key of the account whose test-mode endpoint is the receiver. */
  readonly key: string;
  /** That endpoint's signing secret. */
  readonly secret: string;
}

/**
 * The test file's delivery path, started before its tests and closed after them: the service
 * with a real enqueuer, a webhook worker whose sweeper runs every `sweepIntervalMs`, and a
 * receiver registered as a test-mode endpoint of a new account. The handle reads the running
 * pipeline (reading it before then throws).
 */
export function useDeliveryPipeline(options: { sweepIntervalMs: number }): DeliveryPipeline {
  let running: (DeliveryPipeline & { close(): Promise<void> }) | undefined;
  beforeAll(async () => {
    running = await startDeliveryPipeline(options);
  });
  afterAll(async () => {
    await running?.close();
    running = undefined;
  });
  const read = () => {
    if (!running) throw new Error("the delivery pipeline was read before it started");
    return running;
  };
  return {
    get svc() {
      return read().svc;
    },
    get receiver() {
      return read().receiver;
    },
    get key() {
      return read().key;
    },
    get secret() {
      return read().secret;
    },
  };
}

async function startDeliveryPipeline(options: {
  sweepIntervalMs: number;
}): Promise<DeliveryPipeline & { close(): Promise<void> }> {
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

/** The worker options a test file chooses; the database, Redis and a fresh key prefix come from the rig. */
export type RigWorkerOptions = Omit<WebhookWorkerOptions, "db" | "redisUrl" | "prefix">;

/** What `useDeliveryRig` gives a test file, read once its `beforeAll` has run. */
export interface DeliveryRig {
  readonly db: Db;
  readonly seed: Seeder;
  readonly receiver: Receiver;
  readonly worker: WorkerHandle;
  readonly enqueuer: DeliveryEnqueuer;
}

/**
 * A test file's delivery set-up: its own database, a receiver on loopback, and a webhook worker
 * and an enqueuer sharing a fresh Redis key prefix, all started before the file's tests and
 * closed after them. `options` is called when the worker starts.
 */
export function useDeliveryRig(options: () => RigWorkerOptions): DeliveryRig {
  const database = useTestDatabase();
  let receiver: Receiver | undefined;
  let worker: WorkerHandle | undefined;
  let enqueuer: DeliveryEnqueuer | undefined;
  beforeAll(async () => {
    const prefix = uniquePrefix();
    const redisUrl = requireEnv("TEST_REDIS_URL");
    receiver = await startReceiver();
    worker = await startWebhookWorker({
      // Test-mode receivers on loopback, as on a developer's machine (the operator's setting).
      allowLoopbackWebhooks: true,
      ...options(),
      db: database.db,
      redisUrl,
      prefix,
    });
    enqueuer = createDeliveryEnqueuer({ redis: redisUrl, db: database.db, prefix });
  });
  afterAll(async () => {
    await worker?.close({ force: true });
    await enqueuer?.close();
    await receiver?.close();
  });
  const started = <T>(name: string, value: T | undefined): T => {
    if (value === undefined) throw new Error(`${name} was read before the delivery rig started`);
    return value;
  };
  return {
    get db() {
      return database.db;
    },
    get seed() {
      return database.seed;
    },
    get receiver() {
      return started("receiver", receiver);
    },
    get worker() {
      return started("worker", worker);
    },
    get enqueuer() {
      return started("enqueuer", enqueuer);
    },
  };
}
