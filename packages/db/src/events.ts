import { newId } from "@svc/ids";
import type { EventResource } from "@svc/webhooks";
import { and, eq } from "drizzle-orm";
import type { Db } from "./client.js";
import { writeOutboxDeliveries } from "./outbox.js";
import { accounts, events, webhookEndpoints } from "./schema.js";

/** A transaction or the database itself: event writers run inside the caller's transaction. */
export type DbOrTx = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

/** An event as written and delivered: the event resource of `@svc/webhooks` (decision 214). */
export interface RecordedEvent {
  event: EventResource;
  deliveryIds: string[];
}

/**
 * Write an event and one pending delivery per active endpoint of the account in the same mode,
 * inside the caller's transaction (the outbox). Inside `noteOutboxWrites` the deliveries go to the
 * queue after commit; whatever misses the queue, the sweeper finds by state.
 */
export async function recordEvent(
  tx: DbOrTx,
  input: {
    accountId: string;
    mode: "test" | "live";
    type: string;
    data: Record<string, unknown>;
    now?: Date;
    /** Deliver to this one endpoint only (a dashboard test event), if it is active. */
    endpointId?: string;
  },
): Promise<RecordedEvent> {
  const now = input.now ?? new Date();
  const [account] = await tx
    .select({ apiVersion: accounts.apiVersion })
    .from(accounts)
    .where(eq(accounts.id, input.accountId));
  if (!account) throw new Error("recordEvent: unknown account");
  const id = newId("evt");
  await tx.insert(events).values({
    id,
    accountId: input.accountId,
    mode: input.mode,
    type: input.type,
    apiVersion: account.apiVersion,
    data: input.data,
    createdAt: now,
  });
  const deliveryIds = await writeOutboxDeliveries(tx, {
    eventId: id,
    source: "event",
    endpointsWhere: and(
      eq(webhookEndpoints.accountId, input.accountId),
      eq(webhookEndpoints.mode, input.mode),
      input.endpointId ? eq(webhookEndpoints.id, input.endpointId) : undefined,
    ),
    now,
  });
  return {
    event: {
      id,
      object: "event",
      type: input.type,
      apiVersion: account.apiVersion,
      createdAt: now.toISOString(),
      data: input.data,
    },
    deliveryIds,
  };
}
