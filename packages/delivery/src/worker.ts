import { type Db, dueDeliveryIds, markHandedOut } from "@svc/db";
import { Worker } from "bullmq";
import { type DeliveryRunOptions, deliverContextFor, drainWaitMs, sleep } from "./context.js";
import { deliver } from "./deliver.js";
import {
  createDeliveryQueue,
  DELIVERY_QUEUE_NAME,
  type DeliveryJob,
  type DeliveryQueue,
  enqueueJob,
  queueRedisState,
  retryJobId,
  sweepJobId,
} from "./queue.js";
import { startEventPurge } from "./retention.js";

export interface WorkerHandle {
  /** Stop taking jobs and sweeping. `force` drops attempts in flight (their rows are released). */
  close(options?: { force?: boolean }): Promise<void>;
  /** Run one sweep now (tests, and the first sweep at start). Resolves to how many were enqueued. */
  sweep(): Promise<number>;
  /** The producer side of the queue (retries, sweeps). */
  queue: DeliveryQueue | null;
  /** Redis as this worker sees it (for /readyz). */
  redisState(): "ready" | "down" | "disabled";
}

export interface WebhookWorkerOptions extends DeliveryRunOptions {
  /** Without `db` and `redisUrl` the worker is idle (the launcher before it passes them). */
  db?: Db;
  redisUrl?: string;
  /** BullMQ key prefix (tests give each file its own). */
  prefix?: string;
  /** How often the outbox sweeper runs (default 5 s). */
  sweepIntervalMs?: number;
  /**
   * A due row whose job was handed out this long ago and has still not run is handed out again
   * (its job was lost with Redis, or stranded in a dead worker). Default 60 s.
   */
  staleAfterMs?: number;
  /** Rows younger than this are left to the API's own enqueue (default 2 s). */
  sweepGraceMs?: number;
}

/** At most one "Redis is down" warning per this interval; the worker retries meanwhile. */
const WARN_EVERY_MS = 30_000;

/** A worker with nothing to do: the launcher starts one before it has a database and Redis. */
function idleWorker(logger: WebhookWorkerOptions["logger"]): WorkerHandle {
  logger.info("webhook worker idle: no database or Redis URL given");
  return {
    queue: null,
    sweep: async () => 0,
    redisState: () => "disabled",
    async close() {
      logger.info("webhook worker stopped");
    },
  };
}

type RedisWarning = (error: Error, what: string) => void;

/** Logs "Redis is down" at most once per WARN_EVERY_MS; the worker retries meanwhile. */
function redisWarning(logger: WebhookWorkerOptions["logger"]): RedisWarning {
  let lastWarn = 0;
  return (error, what) => {
    if (Date.now() - lastWarn < WARN_EVERY_MS) return;
    lastWarn = Date.now();
    logger.warn(
      { err: { message: error.message } },
      `Redis unreachable (${what}); deliveries wait in the outbox and go out once it is back`,
    );
  };
}

/**
 * The BullMQ consumer: each job delivers one row; a retry becomes a delayed job (if Redis refuses
 * it, the sweeper sends the row when due). The attempts in flight are kept for a graceful close.
 */
function startDeliveryConsumer(
  options: WebhookWorkerOptions & { redisUrl: string },
  queue: DeliveryQueue,
  ctx: ReturnType<typeof deliverContextFor>,
  warnRedis: RedisWarning,
): { worker: Worker<DeliveryJob, void, string>; inFlight: Set<Promise<void>> } {
  const { logger, redisUrl } = options;
  const inFlight = new Set<Promise<void>>();
  const runDelivery = async (deliveryId: string) => {
    const outcome = await deliver(deliveryId, ctx);
    options.onOutcome?.(deliveryId, outcome);
    if (outcome.kind === "retry") {
      await enqueueJob(queue, deliveryId, retryJobId(deliveryId, outcome.attempt + 1), outcome.delayMs).catch(
        (error: Error) => warnRedis(error, "scheduling a retry"),
      );
    }
  };
  const worker = new Worker<DeliveryJob, void, string>(
    DELIVERY_QUEUE_NAME,
    async (job) => {
      const run = runDelivery(job.data.deliveryId);
      inFlight.add(run);
      try {
        await run;
      } finally {
        inFlight.delete(run);
      }
    },
    {
      connection: {
        url: redisUrl,
        // BullMQ workers need this: blocking commands must wait for a reconnect, not fail.
        maxRetriesPerRequest: null,
        retryStrategy: (times: number) => Math.min(500 * times, 5_000),
      },
      ...(options.prefix ? { prefix: options.prefix } : {}),
      concurrency: options.concurrency ?? 10,
      // Retries follow our schedule, recorded in the database; a thrown job is not retried here.
      maxStalledCount: 1,
    },
  );
  worker.on("error", (error) => warnRedis(error, "worker"));
  worker.on("failed", (job, error) => {
    // The error's name only: a database error's message quotes its query's parameters, which may
    // hold a receiver's answer.
    logger.error({ deliveryId: job?.data.deliveryId, errName: error.name }, "webhook job failed");
  });
  return { worker, inFlight };
}

interface OutboxSweeper {
  /** One sweep now, or the one already running. Resolves to how many rows were enqueued. */
  sweep(): Promise<number>;
  /** Stop the timer and wait for a sweep in progress. */
  stop(): Promise<void>;
}

/**
 * The outbox sweep. Selects by state, never by an id cursor: due pending rows that were never
 * handed out, or handed out long enough ago that their job must be lost. SKIP LOCKED lets
 * several workers sweep at once without taking the same rows. It runs once at start, then every
 * `sweepIntervalMs`.
 */
function startOutboxSweeper(
  options: WebhookWorkerOptions & { db: Db },
  queue: DeliveryQueue,
  warnRedis: RedisWarning,
): OutboxSweeper {
  const { db, logger } = options;
  const sweepIntervalMs = options.sweepIntervalMs ?? 5_000;
  const staleAfterMs = options.staleAfterMs ?? 60_000;
  const sweepGraceMs = options.sweepGraceMs ?? 2_000;
  let sweeping: Promise<number> | null = null;
  const sweepOnce = async (): Promise<number> => {
    const now = Date.now();
    try {
      return await db.transaction(async (tx) => {
        const ids = await dueDeliveryIds(tx, {
          dueBy: new Date(now - sweepGraceMs),
          handedOutBefore: new Date(now - staleAfterMs),
          limit: 500,
          lock: true,
        });
        if (ids.length === 0) return 0;
        // Enqueue while the rows are locked; if Redis refuses, the transaction rolls back and
        // the rows stay as they were for the next sweep.
        await Promise.all(ids.map((id) => enqueueJob(queue, id, sweepJobId(id, now))));
        await markHandedOut(tx, ids, new Date(now));
        logger.info({ count: ids.length }, "outbox sweep enqueued due webhook deliveries");
        return ids.length;
      });
    } catch (error) {
      warnRedis(error as Error, "outbox sweep");
      return 0;
    }
  };
  const sweep = () => {
    sweeping ??= sweepOnce().finally(() => {
      sweeping = null;
    });
    return sweeping;
  };
  const timer = setInterval(() => {
    void sweep();
  }, sweepIntervalMs);
  timer.unref();
  void sweep();
  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await sweeping?.catch(() => {});
    },
  };
}

/**
 * The webhook worker: BullMQ consumers that deliver one row each, and an outbox sweeper that
 * hands the queue every due row nobody enqueued (written while Redis or the worker was down, or
 * whose job was lost). The database is the truth: a job is only a nudge carrying a row id.
 */
export async function startWebhookWorker(options: WebhookWorkerOptions): Promise<WorkerHandle> {
  const { logger, db, redisUrl } = options;
  if (!db || !redisUrl) return idleWorker(logger);
  const shutdown = new AbortController();
  const ctx = deliverContextFor(db, options, shutdown.signal);
  const warnRedis = redisWarning(logger);
  const queue = createDeliveryQueue(redisUrl, { prefix: options.prefix });
  const { worker, inFlight } = startDeliveryConsumer({ ...options, redisUrl }, queue, ctx, warnRedis);
  const sweeper = startOutboxSweeper({ ...options, db }, queue, warnRedis);
  const stopPurge = startEventPurge(db, logger, options.purgeIntervalMs);

  logger.info(
    { queue: DELIVERY_QUEUE_NAME, sweepIntervalMs: options.sweepIntervalMs ?? 5_000 },
    "webhook worker started",
  );
  let closing: Promise<void> | null = null;
  return {
    queue,
    sweep: sweeper.sweep,
    redisState: () => queueRedisState(queue),
    close(closeOptions = {}) {
      closing ??= (async () => {
        stopPurge();
        if (closeOptions.force) shutdown.abort();
        // Stop taking jobs without BullMQ's own wait for active ones (that wait never ends while
        // Redis is down); our own attempts in flight are awaited below, or dropped when forced.
        const sweeperStopped = sweeper.stop();
        await Promise.race([worker.close(true).catch(() => {}), sleep(5_000)]);
        await Promise.race([Promise.allSettled([...inFlight]), sleep(drainWaitMs(options))]);
        await sweeperStopped;
        await queue.close().catch(() => {});
        logger.info("webhook worker stopped");
      })();
      return closing;
    },
  };
}
