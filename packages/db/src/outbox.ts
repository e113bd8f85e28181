import { AsyncLocalStorage } from "node:async_hooks";
import { newId } from "@svc/ids";
import { and, asc, eq, inArray, isNull, lt, lte, or, type SQL } from "drizzle-orm";
import type { DbOrTx } from "./events.js";
import { webhookDeliveries, webhookEndpoints } from "./schema.js";

/**
 * The webhook outbox: the one place that writes pending delivery rows (new ones, and old ones made
 * due again by a redelivery), the one query that reads the due ones, and the record of which rows
 * a request or command wrote so they are handed to the delivery queue after it commits.
 *
 * A delivery row is written in the same transaction as its event (the event table or the safety
 * event table); nothing is sent before that commits. After commit the new rows are handed to the
 * queue at once; whatever that misses (Redis down, a process that stopped) the worker's sweeper
 * finds by state (decisions 107 and 108).
 */

const writtenInScope = new AsyncLocalStorage<Set<string>>();

/**
 * Run `work` while noting every delivery row the outbox writes in it (in any transaction it
 * opens). The HTTP layer wraps each handler of the APIs and of the dashboard in this and hands the
 * noted ids to the queue once the handler has returned, and the operator CLI wraps its commands,
 * so no route or command hands deliveries off by hand. A row noted in a transaction that rolled
 * back is harmless to hand off: the delivery finds no row (or a row no longer due) and skips it.
 */
export async function noteOutboxWrites<T>(
  work: () => Promise<T>,
): Promise<{ result: T; deliveryIds: string[] }> {
  const ids = new Set<string>();
  const result = await writtenInScope.run(ids, work);
  return { result, deliveryIds: [...ids] };
}

/**
 * One pending delivery per endpoint `endpointsWhere` selects, for the event `eventId` of table
 * `source`, due at `now`; inside the caller's transaction. Returns the new delivery ids (also
 * noted for the after-commit hand-off when a scope is open).
 */
export async function writeOutboxDeliveries(
  tx: DbOrTx,
  input: { eventId: string; source: "event" | "safety_event"; endpointsWhere: SQL | undefined; now: Date },
): Promise<string[]> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(input.endpointsWhere, isNull(webhookEndpoints.disabledAt), isNull(webhookEndpoints.removedAt)),
    );
  const deliveryIds = endpoints.map(() => newId("whd"));
  if (endpoints.length > 0) {
    await tx.insert(webhookDeliveries).values(
      endpoints.map((endpoint, i) => ({
        id: deliveryIds[i] as string,
        endpointId: endpoint.id,
        eventId: input.eventId,
        source: input.source,
        status: "pending" as const,
        nextAttemptAt: input.now,
      })),
    );
  }
  noteWritten(deliveryIds);
  return deliveryIds;
}

/** Note rows written for the hand-off of the enclosing `noteOutboxWrites`, if one is open. */
function noteWritten(deliveryIds: readonly string[]): void {
  const noted = writtenInScope.getStore();
  for (const id of deliveryIds) noted?.add(id);
}

/**
 * Make delivery `deliveryId` due again at `now` (a redelivery): pending, its retry window and
 * hand-off cleared, noted for the after-commit hand-off like a new row. Undefined when no such row.
 */
export async function makeDeliveryDueAgain(
  tx: DbOrTx,
  deliveryId: string,
  now: Date,
): Promise<{ id: string; status: string; attempts: number } | undefined> {
  const [updated] = await tx
    .update(webhookDeliveries)
    .set({
      status: "pending",
      nextAttemptAt: now,
      firstAttemptAt: null,
      enqueuedAt: null,
      deliveredAt: null,
      updatedAt: now,
    })
    .where(eq(webhookDeliveries.id, deliveryId))
    .returning({
      id: webhookDeliveries.id,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
    });
  if (updated) noteWritten([updated.id]);
  return updated;
}

/**
 * Ids of pending deliveries due by `dueBy`, the earliest first. With `handedOutBefore`, only rows
 * never handed to the queue or handed out before that time (the sweeper); with `lock`, the rows
 * are locked for the caller's transaction and rows another sweeper holds are skipped.
 */
export async function dueDeliveryIds(
  tx: DbOrTx,
  input: { dueBy: Date; limit: number; handedOutBefore?: Date; lock?: boolean },
): Promise<string[]> {
  const query = tx
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, "pending"),
        lte(webhookDeliveries.nextAttemptAt, input.dueBy),
        input.handedOutBefore
          ? or(isNull(webhookDeliveries.enqueuedAt), lt(webhookDeliveries.enqueuedAt, input.handedOutBefore))
          : undefined,
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(input.limit);
  const rows = input.lock ? await query.for("update", { skipLocked: true }) : await query;
  return rows.map((r) => r.id);
}

/** Mark rows handed to the queue at `at`, so the sweeper leaves them alone until they go stale. */
export async function markHandedOut(tx: DbOrTx, deliveryIds: readonly string[], at: Date): Promise<void> {
  if (deliveryIds.length === 0) return;
  await tx
    .update(webhookDeliveries)
    .set({ enqueuedAt: at })
    .where(inArray(webhookDeliveries.id, [...deliveryIds]));
}
