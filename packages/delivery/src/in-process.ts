import { type Db, dueDeliveryIds } from "@svc/db";
import { type DeliveryRunOptions, deliverContextFor, drainWaitMs, sleep } from "./context.js";
import { type DeliverContext, deliver } from "./deliver.js";
import type { DeliveryEnqueuer } from "./queue.js";
import { startEventPurge } from "./retention.js";

export interface InProcessDeliveryOptions extends DeliveryRunOptions {
  db: Db;
  /** How often the outbox is read for due rows, retries included (default 1 s). */
  pollIntervalMs?: number;
}

export interface InProcessDelivery extends DeliveryEnqueuer {
  /** Read the outbox now and start every due delivery there is room for; resolves to how many. */
  poll(): Promise<number>;
  /** Stop polling; wait for attempts in flight (or drop them when `force`: their rows are released). */
  close(options?: { force?: boolean }): Promise<void>;
}

/** One in-process delivery loop: the attempts in flight and the poll under way, shared by its steps. */
interface OutboxLoop {
  options: InProcessDeliveryOptions;
  ctx: DeliverContext;
  /** Aborted by a forced close: attempts in flight stop and their rows are released. */
  shutdown: AbortController;
  concurrency: number;
  inFlight: Map<string, Promise<void>>;
  closed: boolean;
  /** The poll under way; one at a time. */
  polling: Promise<number> | null;
  /** A wake-up came during the poll under way: one more runs right after it. */
  again: boolean;
}

/** One attempt of one delivery, through the same `deliver()` as the BullMQ worker. */
function startAttempt(loop: OutboxLoop, deliveryId: string): void {
  const { options } = loop;
  const attempt = deliver(deliveryId, loop.ctx)
    .then((outcome) => options.onOutcome?.(deliveryId, outcome))
    .catch((error: Error) =>
      options.logger.error({ deliveryId, errName: error.name }, "in-process webhook delivery failed to run"),
    )
    .finally(() => {
      loop.inFlight.delete(deliveryId);
      // A slot is free: there may be more due rows waiting for one.
      if (!loop.closed) wake(loop);
    });
  loop.inFlight.set(deliveryId, attempt);
}

/** Reads the outbox once and starts every due delivery there is room for (none already in flight). */
async function startDueDeliveries(loop: OutboxLoop): Promise<number> {
  const room = loop.concurrency - loop.inFlight.size;
  if (loop.closed || room <= 0) return 0;
  const due = await dueDeliveryIds(loop.options.db, { dueBy: new Date(), limit: room + loop.inFlight.size });
  let started = 0;
  for (const id of due) {
    if (started >= room) break;
    if (loop.inFlight.has(id)) continue;
    startAttempt(loop, id);
    started++;
  }
  return started;
}

/** One poll at a time; a wake-up during a poll runs one more right after it. */
function pollOutbox(loop: OutboxLoop): Promise<number> {
  if (loop.polling) {
    loop.again = true;
    return loop.polling;
  }
  const polling = startDueDeliveries(loop)
    .catch((error: Error) => {
      loop.options.logger.warn(
        { errName: error.name },
        "reading the webhook outbox failed; retrying at the next poll",
      );
      return 0;
    })
    .finally(() => {
      loop.polling = null;
      if (loop.again && !loop.closed) {
        loop.again = false;
        void pollOutbox(loop);
      }
    });
  loop.polling = polling;
  return polling;
}

function wake(loop: OutboxLoop): void {
  setImmediate(() => void pollOutbox(loop));
}

/** Stops polling and purging, then waits for the attempts in flight (at most the drain wait). */
async function stopLoop(loop: OutboxLoop, stopTimers: () => void, force: boolean | undefined): Promise<void> {
  loop.closed = true;
  stopTimers();
  if (force) loop.shutdown.abort();
  await loop.polling?.catch(() => {});
  await Promise.race([Promise.allSettled([...loop.inFlight.values()]), sleep(drainWaitMs(loop.options))]);
  loop.options.logger.info("in-process webhook delivery stopped");
}

/**
 * Deliveries without Redis, for the embedded default (one process, decision 27): the
 * outbox table is the queue. Every poll starts the due pending rows (first attempts and retries
 * whose time has come) through the same `deliver()` as the BullMQ worker, so signing, the retry
 * schedule, 410 handling, address checks and attempt records are the same. `enqueue()` (what the
 * APIs call after commit) only wakes the poll. Nothing is held in memory that the table does not
 * also hold: after a restart the next poll finds every row still pending; one claimed by an
 * attempt the restart interrupted is due again when its lease runs out.
 */
export function startInProcessDelivery(options: InProcessDeliveryOptions): InProcessDelivery {
  const { db, logger } = options;
  const shutdown = new AbortController();
  const loop: OutboxLoop = {
    options,
    ctx: deliverContextFor(db, options, shutdown.signal),
    shutdown,
    concurrency: options.concurrency ?? 10,
    inFlight: new Map(),
    closed: false,
    polling: null,
    again: false,
  };
  const poll = () => pollOutbox(loop);

  const timer = setInterval(() => void poll(), options.pollIntervalMs ?? 1_000);
  timer.unref();
  const stopPurge = startEventPurge(db, logger, options.purgeIntervalMs);
  void poll();
  logger.info({ pollIntervalMs: options.pollIntervalMs ?? 1_000 }, "in-process webhook delivery started");

  let closing: Promise<void> | null = null;
  return {
    poll,
    async enqueue(deliveryIds) {
      if (deliveryIds.length > 0 && !loop.closed) wake(loop);
    },
    close(closeOptions = {}) {
      closing ??= stopLoop(
        loop,
        () => {
          clearInterval(timer);
          stopPurge();
        },
        closeOptions.force,
      );
      return closing;
    },
  };
}
