import { noteOutboxWrites } from "@svc/db";
import type { MiddlewareHandler } from "hono";
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

/**
 * The one after-commit hand-off: every delivery row the outbox wrote while the handler ran is
 * handed to the queue once the handler has returned (its transactions have committed by then),
 * so a route that writes an event never hands deliveries off itself and cannot forget to. A
 * handler that failed hands nothing off (what it wrote rolled back, or the sweeper finds it).
 * Innermost, inside the request guard: a handler still running when the time limit answered
 * hands its deliveries off when it finishes, as a route's own call after commit did (decision 107).
 * Of any Hono app: the APIs' (whose requests carry a request id for the warning) and the
 * dashboard's, which installs it in front of its pages (decision 125).
 */
export function handOffAfterCommit(deps: Pick<AppDeps, "deliveries" | "logger">): MiddlewareHandler {
  return async (c, next) => {
    const { deliveryIds } = await noteOutboxWrites(next);
    if (!c.error) await handOffDeliveries(deps, deliveryIds, c.get("requestId") as string | undefined);
  };
}
