import type { AppDeps } from "./app.js";

/**
 * After commit: hand the new webhook deliveries to the delivery queue. Best effort by design:
 * the rows are already in the outbox, whose sweeper enqueues whatever this misses (for example
 * while Redis is down), so a failure is a warning and never fails the request.
 */
export async function handOffDeliveries(
  deps: Pick<AppDeps, "deliveries" | "logger">,
  deliveryIds: readonly string[],
  requestId?: string,
): Promise<void> {
  if (deliveryIds.length === 0 || !deps.deliveries) return;
  try {
    await deps.deliveries.enqueue([...deliveryIds]);
  } catch (error) {
    deps.logger.warn(
      { requestId, deliveries: deliveryIds.length, errName: (error as Error)?.name },
      "webhook deliveries not enqueued; the outbox sweeper will pick them up",
    );
  }
}
