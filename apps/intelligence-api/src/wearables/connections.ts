import { randomBytes } from "node:crypto";
import {
  and,
  type Db,
  type DbOrTx,
  eq,
  recordEvent,
  sql,
  wearableConnections,
  wearableDailyMetrics,
} from "@svc/db";
import { adapterFor, findProvider, lastDays } from "./providers.js";

/**
 * Wearable connection state (contract + ruling 7):
 *   pending -> connected (patient completes the connect page, or the test helper) -> disconnected
 *   pending -> disconnected (the caller withdraws an unused link)
 * `disconnected` is terminal: reconnecting creates a new connection.
 */
export type WearableConnectionRow = typeof wearableConnections.$inferSelect;

export class WearableError extends Error {
  constructor(
    readonly code:
      | "not_found"
      | "invalid_transition"
      | "not_connected"
      | "provider_not_offered"
      | "live_unavailable",
    message: string,
  ) {
    super(message);
    this.name = "WearableError";
  }
}

/** An unguessable connect token (256 bits, base64url, 43 characters). */
export function newConnectToken(): string {
  return randomBytes(32).toString("base64url");
}
export const CONNECT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface Scope {
  accountId: string;
  mode: "test" | "live";
}

type Locator = { id: string; scope: Scope } | { token: string };

async function lockConnection(tx: DbOrTx, at: Locator): Promise<WearableConnectionRow> {
  const where =
    "token" in at
      ? eq(wearableConnections.connectToken, at.token)
      : and(
          eq(wearableConnections.id, at.id),
          eq(wearableConnections.accountId, at.scope.accountId),
          eq(wearableConnections.mode, at.scope.mode),
        );
  const [row] = await tx.select().from(wearableConnections).where(where).for("update");
  if (!row)
    throw new WearableError("not_found", "No wearable connection with this id exists for this account.");
  return row;
}

export function eventData(row: WearableConnectionRow): Record<string, unknown> {
  return {
    object: "wearable_connection",
    id: row.id,
    status: row.status,
    patientRef: row.patientRef,
    provider: row.provider,
  };
}

export interface WearableOutcome {
  connection: WearableConnectionRow;
  deliveryIds: string[];
}

/** pending -> connected with one of the offered providers; emits wearable.connected. */
export async function completeConnection(
  db: Db,
  at: Locator,
  providerCode: string,
  now: Date = new Date(),
): Promise<WearableOutcome> {
  return db.transaction(async (tx) => {
    const row = await lockConnection(tx, at);
    if (row.status !== "pending") {
      throw new WearableError(
        "invalid_transition",
        `A wearable connection cannot move from ${row.status} to connected; only a pending connection can.`,
      );
    }
    const provider = findProvider(providerCode);
    if (!provider || !row.providers.includes(provider.code)) {
      throw new WearableError(
        "provider_not_offered",
        `This connection offers ${row.providers.join(", ")}; ${providerCode} is not one of them.`,
      );
    }
    const [connection] = await tx
      .update(wearableConnections)
      .set({ status: "connected", provider: provider.code, connectedAt: now, updatedAt: now })
      .where(eq(wearableConnections.id, row.id))
      .returning();
    if (!connection) throw new WearableError("not_found", "The wearable connection disappeared.");
    const recorded = await recordEvent(tx, {
      accountId: connection.accountId,
      mode: connection.mode,
      type: "wearable.connected",
      data: eventData(connection),
      now,
    });
    return { connection, deliveryIds: recorded.deliveryIds };
  });
}

/** pending | connected -> disconnected (terminal); emits wearable.disconnected. */
export async function disconnectConnection(
  db: Db,
  at: Locator,
  now: Date = new Date(),
): Promise<WearableOutcome> {
  return db.transaction(async (tx) => {
    const row = await lockConnection(tx, at);
    if (row.status === "disconnected") {
      throw new WearableError(
        "invalid_transition",
        "A wearable connection cannot move from disconnected to disconnected; it is already disconnected (terminal).",
      );
    }
    const [connection] = await tx
      .update(wearableConnections)
      .set({ status: "disconnected", disconnectedAt: now, updatedAt: now })
      .where(eq(wearableConnections.id, row.id))
      .returning();
    if (!connection) throw new WearableError("not_found", "The wearable connection disappeared.");
    const recorded = await recordEvent(tx, {
      accountId: connection.accountId,
      mode: connection.mode,
      type: "wearable.disconnected",
      data: eventData(connection),
      now,
    });
    return { connection, deliveryIds: recorded.deliveryIds };
  });
}

/** Days stored by one sync (the last week). */
export const SYNC_DAYS = 7;

/**
 * Fetch the last 7 days from the provider adapter and upsert them, set lastSyncAt and emit
 * wearable.sync_completed, all in one transaction.
 */
export async function syncConnection(
  db: Db,
  id: string,
  scope: Scope,
  now: Date = new Date(),
): Promise<WearableOutcome & { days: number }> {
  return db.transaction(async (tx) => {
    const row = await lockConnection(tx, { id, scope });
    if (row.status !== "connected" || !row.provider) {
      throw new WearableError(
        "not_connected",
        `Only a connected connection can sync; this one is ${row.status}.`,
      );
    }
    const provider = findProvider(row.provider);
    const adapter = adapterFor(row.mode);
    if (!provider || !adapter) {
      throw new WearableError(
        "live_unavailable",
        "On-demand sync is a sandbox feature (test keys); live connections sync on the provider's schedule.",
      );
    }
    const metrics = await adapter.fetchDailyMetrics({
      connectionId: row.id,
      provider,
      days: lastDays(SYNC_DAYS, now),
    });
    if (metrics.length > 0) {
      await tx
        .insert(wearableDailyMetrics)
        .values(metrics.map((m) => ({ connectionId: row.id, ...m, syncedAt: now })))
        .onConflictDoUpdate({
          target: [wearableDailyMetrics.connectionId, wearableDailyMetrics.day],
          set: {
            sleepHours: sql`excluded.sleep_hours`,
            steps: sql`excluded.steps`,
            restingHeartRate: sql`excluded.resting_heart_rate`,
            hrvMs: sql`excluded.hrv_ms`,
            syncedAt: sql`excluded.synced_at`,
          },
        });
    }
    const [connection] = await tx
      .update(wearableConnections)
      .set({ lastSyncAt: now, updatedAt: now })
      .where(eq(wearableConnections.id, row.id))
      .returning();
    if (!connection) throw new WearableError("not_found", "The wearable connection disappeared.");
    const recorded = await recordEvent(tx, {
      accountId: connection.accountId,
      mode: connection.mode,
      type: "wearable.sync_completed",
      data: eventData(connection),
      now,
    });
    return { connection, deliveryIds: recorded.deliveryIds, days: metrics.length };
  });
}
