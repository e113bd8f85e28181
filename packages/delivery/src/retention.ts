import { type Db, purgeExpiredEvents } from "@svc/db";
import type { Logger } from "pino";

/**
 * Retention (contract: events are queryable for 30 days): purge now and then every interval
 * (default hourly), so each pass is small; several processes purging at once only find nothing
 * left to delete. Returns the stopper.
 */
export function startEventPurge(db: Db, logger: Logger, intervalMs = 3_600_000): () => void {
  const purge = () =>
    purgeExpiredEvents(db)
      .then((result) => logger.info({ ...result }, "expired events purged"))
      .catch((error: Error) =>
        logger.warn({ errName: error.name }, "event purge failed; retrying at the next interval"),
      );
  const timer = setInterval(() => void purge(), intervalMs);
  timer.unref();
  void purge();
  return () => clearInterval(timer);
}
