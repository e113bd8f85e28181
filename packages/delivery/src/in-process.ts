import { type Db, dueDeliveryIds } from "@svc/db";
import { type DeliveryRunOptions, deliverContextFor, drainWaitMs, sleep } from "./context.js";
import { deliver } from "./deliver.js";
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
  const concurrency = options.concurrency ?? 10;
  const shutdown = new AbortController();
  const ctx = deliverContextFor(db, options, shutdown.signal);
  const inFlight = new Map<string, Promise<void>>();
  let closed = false;

  const run = (deliveryId: string) => {
    const attempt = deliver(deliveryId, ctx)
      .then((outcome) => options.onOutcome?.(deliveryId, outcome))
      .catch((error: Error) =>
        logger.error({ deliveryId, errName: error.name }, "in-process webhook delivery failed to run"),
      )
      .finally(() => {
        inFlight.delete(deliveryId);
        // A slot is free: there may be more due rows waiting for one.
        if (!closed) wake();
      });
    inFlight.set(deliveryId, attempt);
  };

  const pollOnce = async (): Promise<number> => {
    const room = concurrency - inFlight.size;
    if (closed || room <= 0) return 0;
    const due = await dueDeliveryIds(db, { dueBy: new Date(), limit: room + inFlight.size });
    let started = 0;
    for (const id of due) {
      if (started >= room) break;
      if (inFlight.has(id)) continue;
      run(id);
      started++;
    }
    return started;
  };

  // One poll at a time; a wake-up during a poll runs one more right after it.
  let polling: Promise<number> | null = null;
  let again = false;
  const poll = (): Promise<number> => {
    if (polling) {
      again = true;
      return polling;
    }
    polling = pollOnce()
      .catch((error: Error) => {
        logger.warn({ errName: error.name }, "reading the webhook outbox failed; retrying at the next poll");
        return 0;
      })
      .finally(() => {
        polling = null;
        if (again && !closed) {
          again = false;
          void poll();
        }
      });
    return polling;
  };
  const wake = () => {
    setImmediate(() => void poll());
  };

  const timer = setInterval(() => void poll(), options.pollIntervalMs ?? 1_000);
  timer.unref();
  const stopPurge = startEventPurge(db, logger, options.purgeIntervalMs);
  void poll();
  logger.info({ pollIntervalMs: options.pollIntervalMs ?? 1_000 }, "in-process webhook delivery started");

  let closing: Promise<void> | null = null;
  return {
    poll,
    async enqueue(deliveryIds) {
      if (deliveryIds.length > 0 && !closed) wake();
    },
    close(closeOptions = {}) {
      closing ??= (async () => {
        closed = true;
        clearInterval(timer);
        stopPurge();
        if (closeOptions.force) shutdown.abort();
        await polling?.catch(() => {});
        await Promise.race([Promise.allSettled([...inFlight.values()]), sleep(drainWaitMs(options))]);
        logger.info("in-process webhook delivery stopped");
      })();
      return closing;
    },
  };
}
