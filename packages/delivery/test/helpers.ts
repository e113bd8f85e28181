import { randomBytes } from "node:crypto";
import { type Db, eq, webhookAttempts, webhookDeliveries, webhookEndpoints } from "@svc/db";

// Delivery-test helpers over the delivery tables. The receiver, addEndpoint and waitFor, which
// the worker's tests use too, live in @svc/testkit.

export async function removeEndpoint(db: Db, id: string) {
  await db.update(webhookEndpoints).set({ removedAt: new Date() }).where(eq(webhookEndpoints.id, id));
}

export async function deliveryRow(db: Db, id: string) {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row;
}

export async function attemptRows(db: Db, deliveryId: string) {
  const rows = await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId));
  return rows.sort((a, b) => a.attempt - b.attempt);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function uniquePrefix(): string {
  return `whtest${randomBytes(5).toString("hex")}`;
}
