import { and, eq, inArray, lt, notExists, sql } from "drizzle-orm";
import type { Db } from "./client.js";
import {
  cdsFeedback,
  cdsIssuedCards,
  events,
  idempotencyKeys,
  webhookAttempts,
  webhookDeliveries,
} from "./schema.js";

/** Events are listed and kept for 30 days (contract Limits: event retention). */
export const EVENT_RETENTION_DAYS = 30;
/** CDS Hooks feedback is kept 30 days from its receipt, as events are (decision 151). */
export const CDS_FEEDBACK_RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Delivery states that will never be attempted again. */
const FINISHED_DELIVERY_STATUSES = ["delivered", "failed", "cancelled"] as const;

export interface PurgeResult {
  events: number;
  deliveries: number;
  attempts: number;
  idempotencyKeys: number;
  cdsFeedback: number;
  cdsIssuedCards: number;
}

/**
 * Remove what the service no longer keeps: events older than 30 days together with their
 * finished webhook deliveries and those deliveries' attempts, expired Idempotency-Key rows, CDS
 * Hooks feedback older than 30 days and issued cards past their feedback window (decision 151).
 * An old event that still has an unfinished delivery is kept until that delivery finishes.
 * MSE safety events and their deliveries (`source = 'safety_event'`) are never touched: they are
 * part of the audited record. Safe to run from several replicas at once (deletes are idempotent).
 */
export async function purgeExpiredEvents(db: Db, now: Date = new Date()): Promise<PurgeResult> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * DAY_MS);
  return db.transaction(async (tx) => {
    const expiredEventIds = tx.select({ id: events.id }).from(events).where(lt(events.createdAt, cutoff));
    const finishedDeliveryIds = tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.source, "event"),
          inArray(webhookDeliveries.status, [...FINISHED_DELIVERY_STATUSES]),
          inArray(webhookDeliveries.eventId, expiredEventIds),
        ),
      );
    const attempts = await tx
      .delete(webhookAttempts)
      .where(inArray(webhookAttempts.deliveryId, finishedDeliveryIds))
      .returning({ id: webhookAttempts.id });
    const deliveries = await tx
      .delete(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.source, "event"),
          inArray(webhookDeliveries.status, [...FINISHED_DELIVERY_STATUSES]),
          inArray(webhookDeliveries.eventId, expiredEventIds),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    const removedEvents = await tx
      .delete(events)
      .where(
        and(
          lt(events.createdAt, cutoff),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(webhookDeliveries)
              .where(and(eq(webhookDeliveries.eventId, events.id), eq(webhookDeliveries.source, "event"))),
          ),
        ),
      )
      .returning({ id: events.id });
    const keys = await tx
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.expiresAt, now))
      .returning({ key: idempotencyKeys.key });
    const feedbackCutoff = new Date(now.getTime() - CDS_FEEDBACK_RETENTION_DAYS * DAY_MS);
    const feedback = await tx
      .delete(cdsFeedback)
      .where(lt(cdsFeedback.receivedAt, feedbackCutoff))
      .returning({ id: cdsFeedback.id });
    const cards = await tx
      .delete(cdsIssuedCards)
      .where(lt(cdsIssuedCards.expiresAt, now))
      .returning({ card: cdsIssuedCards.cardUuid });
    return {
      events: removedEvents.length,
      deliveries: deliveries.length,
      attempts: attempts.length,
      idempotencyKeys: keys.length,
      cdsFeedback: feedback.length,
      cdsIssuedCards: cards.length,
    };
  });
}
