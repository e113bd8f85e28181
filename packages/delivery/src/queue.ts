import { type Db, markHandedOut } from "@svc/db";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import type { Logger } from "pino";

/** The one queue of webhook deliveries. Jobs carry only `{ deliveryId }`. */
export const DELIVERY_QUEUE_NAME = "webhook-deliveries";

export interface DeliveryJob {
  deliveryId: string;
}

export type DeliveryQueue = Queue<DeliveryJob, void, string>;

/** Upper bound on one enqueue while Redis is slow or down: callers must never hang on it. */
const ENQUEUE_TIMEOUT_MS = 2_000;

/**
 * A producer connection: fails fast while Redis is down (no offline queue, one retry), so an
 * API request or a sweep never waits on Redis. Reconnects in the background.
 */
export function createProducerRedis(url: string): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 250, 2_000),
  });
}

export interface QueueOptions {
  /** BullMQ key prefix (tests give each file its own). */
  prefix?: string;
}

const connections = new WeakMap<DeliveryQueue, Redis>();

/** Error of an enqueue refused at once because Redis is not connected (nothing waits on it). */
export class RedisUnavailableError extends Error {
  constructor() {
    super("Redis is not connected");
    this.name = "RedisUnavailableError";
  }
}

/** The delivery queue on a Redis URL or on a connection the caller owns. */
export function createDeliveryQueue(redis: string | Redis, options: QueueOptions = {}): DeliveryQueue {
  const connection = typeof redis === "string" ? createProducerRedis(redis) : redis;
  const queue: DeliveryQueue = new Queue<DeliveryJob, void, string>(DELIVERY_QUEUE_NAME, {
    connection,
    ...(options.prefix ? { prefix: options.prefix } : {}),
    defaultJobOptions: {
      // Retries are ours (the schedule, recorded in the database), never BullMQ's.
      attempts: 1,
      removeOnComplete: true,
      removeOnFail: { count: 1_000 },
    },
  });
  // Errors surface on every call; the event only needs a listener so it never crashes us.
  queue.on("error", () => {});
  connection.on("error", () => {});
  connections.set(queue, connection);
  if (typeof redis === "string") {
    const close = queue.close.bind(queue);
    queue.close = async () => {
      // Closing waits for a connection that may never come while Redis is down: bound it.
      if (connection.status === "ready") await withTimeout(close(), 2_000, "queue close").catch(() => {});
      connection.disconnect();
    };
  }
  return queue;
}

/** Whether the queue's Redis connection is up (for /readyz). */
export function queueRedisState(queue: DeliveryQueue): "ready" | "down" {
  return connections.get(queue)?.status === "ready" ? "ready" : "down";
}

/** Refuse at once while Redis is down, rather than wait on BullMQ's wait-until-ready. */
function assertReady(queue: DeliveryQueue): void {
  const connection = connections.get(queue);
  if (connection && connection.status !== "ready") throw new RedisUnavailableError();
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Job ids. The first job of a delivery is the delivery id itself (house style: enqueueing the
 * same id twice is one job while it waits). A retry is `<deliveryId>-<attempt>`; a sweeper
 * re-enqueue adds `-s<time>` so a job stranded in a dead worker's active list cannot swallow it.
 * Duplicates are harmless either way: `deliver()` claims the row before posting.
 */
export function retryJobId(deliveryId: string, attempt: number): string {
  return `${deliveryId}-${attempt}`;
}

export function sweepJobId(deliveryId: string, at: number): string {
  return `${deliveryId}-s${at}`;
}

/** Add first jobs for committed deliveries (job id = delivery id). Throws when Redis is down. */
export async function enqueueDeliveries(queue: DeliveryQueue, deliveryIds: readonly string[]): Promise<void> {
  const unique = [...new Set(deliveryIds)];
  if (unique.length === 0) return;
  assertReady(queue);
  await withTimeout(
    queue.addBulk(
      unique.map((deliveryId) => ({ name: "deliver", data: { deliveryId }, opts: { jobId: deliveryId } })),
    ),
    ENQUEUE_TIMEOUT_MS,
    "enqueue",
  );
}

/** Add one job with an explicit id and an optional delay. Throws when Redis is down. */
export async function enqueueJob(
  queue: DeliveryQueue,
  deliveryId: string,
  jobId: string,
  delayMs = 0,
): Promise<void> {
  assertReady(queue);
  await withTimeout(
    queue.add("deliver", { deliveryId }, { jobId, delay: Math.max(0, Math.round(delayMs)) }),
    ENQUEUE_TIMEOUT_MS,
    "enqueue",
  );
}

export interface DeliveryEnqueuer {
  enqueue(deliveryIds: string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * What an API process plugs into `AppDeps.deliveries`: after its transaction commits, hand the
 * delivery ids to the queue. Best effort: while Redis is down it logs nothing itself and resolves
 * (the rows wait in the outbox and the worker's sweeper enqueues them), so a request never fails
 * because Redis did. With `db`, marks the rows `enqueued_at` so the sweeper leaves them alone.
 */
export function createDeliveryEnqueuer(options: {
  redis: string | Redis;
  db?: Db;
  prefix?: string;
  onError?: (error: Error, deliveryIds: string[]) => void;
}): DeliveryEnqueuer {
  const queue = createDeliveryQueue(options.redis, { prefix: options.prefix });
  return {
    async enqueue(deliveryIds) {
      if (deliveryIds.length === 0) return;
      try {
        await enqueueDeliveries(queue, deliveryIds);
        if (options.db) await markHandedOut(options.db, deliveryIds, new Date());
      } catch (error) {
        options.onError?.(error as Error, deliveryIds);
      }
    },
    close: () => queue.close(),
  };
}

/**
 * The enqueuer an API process uses with Redis: it warns (ids only, never payloads) when the queue
 * is unreachable, since the outbox sweeper will deliver those rows anyway.
 */
export function apiDeliveryEnqueuer(options: { redisUrl: string; db: Db; logger: Logger }): DeliveryEnqueuer {
  return createDeliveryEnqueuer({
    redis: options.redisUrl,
    db: options.db,
    onError: () => options.logger.warn("delivery queue unreachable; the outbox sweeper will deliver"),
  });
}

/**
 * One-shot enqueue for short-lived processes (the operator CLI): connect, add, disconnect, all
 * within `timeoutMs`. Resolves false when Redis is unreachable; the sweeper then finds the rows.
 */
export async function enqueueOnce(
  redisUrl: string,
  deliveryIds: readonly string[],
  options: { prefix?: string; timeoutMs?: number } = {},
): Promise<boolean> {
  const connection = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: options.timeoutMs ?? 1_000,
    retryStrategy: () => null,
  });
  connection.on("error", () => {});
  let queue: DeliveryQueue | undefined;
  try {
    await withTimeout(connection.connect(), options.timeoutMs ?? 1_000, "connect");
    // The queue is made on the connected client: BullMQ starts connecting a client it is given,
    // after which `connect()` fails ("already connecting"), and every enqueue here with it.
    queue = createDeliveryQueue(connection, { prefix: options.prefix });
    await enqueueDeliveries(queue, deliveryIds);
    return true;
  } catch {
    return false;
  } finally {
    if (queue) await withTimeout(queue.close(), 1_000, "close").catch(() => {});
    connection.disconnect();
  }
}
