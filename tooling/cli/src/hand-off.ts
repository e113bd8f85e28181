import { noteOutboxWrites } from "@svc/db";
import { enqueueOnce } from "@svc/delivery";
import { DEFAULT_REDIS_URL } from "@svc/http/runtime";

/**
 * The operator CLI's after-commit hand-off, on the same outbox noting as the HTTP layer's
 * `handOffAfterCommit`: run a command's work, then hand every delivery row the outbox wrote in it
 * to the delivery queue, once, over a connection of its own (a short-lived process keeps none).
 * Best effort: `enqueued` is false when nothing was written or Redis is unreachable, and the
 * worker's outbox sweeper then finds the rows (decision 125).
 */
export async function handingOffDeliveries<T>(
  work: () => Promise<T>,
): Promise<{ result: T; enqueued: boolean }> {
  const { result, deliveryIds } = await noteOutboxWrites(work);
  const enqueued =
    deliveryIds.length > 0 && (await enqueueOnce(process.env.REDIS_URL || DEFAULT_REDIS_URL, deliveryIds));
  return { result, enqueued };
}
