import {
  and,
  asc,
  type Db,
  type DbOrTx,
  desc,
  eq,
  gte,
  lte,
  recordEvent,
  sql,
  wearableConnections,
  wearableDailyMetrics,
} from "@svc/db";
import { newId } from "@svc/ids";
import { Refusal } from "@svc/refusal";
import type { Scope } from "../scope.js";
import { newConnectToken } from "./connect-token.js";
import { adapterFor, type DailyMetrics, findProvider, lastDays, type ProviderCode } from "./providers.js";

/**
 * Every query and write of wearable connections and their daily metrics. Connection states
 * (contract + decision 36):
 *   pending -> connected (patient completes the connect page, or the test helper) -> disconnected
 *   pending -> disconnected (the caller withdraws an unused link)
 * `disconnected` is terminal: reconnecting creates a new connection. A refused move is an
 * `Refusal` with the code and message the routes return (decision 206).
 */
export type WearableConnectionRow = typeof wearableConnections.$inferSelect;
export type DailyMetricsRow = typeof wearableDailyMetrics.$inferSelect;

function connectionNotFound(): Refusal {
  return new Refusal("not_found", "No wearable connection with this id exists for this account.");
}

export interface NewConnection {
  scope: Scope;
  patientRef: string;
  providers: ProviderCode[];
  language: string;
  metadata?: Record<string, unknown>;
  now?: Date;
}

/** A new pending connection with a fresh connect token (inside the caller's idempotent transaction). */
export async function insertConnection(tx: DbOrTx, input: NewConnection): Promise<WearableConnectionRow> {
  const now = input.now ?? new Date();
  const [row] = await tx
    .insert(wearableConnections)
    .values({
      id: newId("wear"),
      accountId: input.scope.accountId,
      mode: input.scope.mode,
      patientRef: input.patientRef,
      status: "pending",
      providers: input.providers,
      language: input.language,
      connectToken: newConnectToken(),
      metadata: input.metadata ?? {},
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error("wearable connection insert returned no row");
  return row;
}

function inScope(id: string, scope: Scope) {
  return and(
    eq(wearableConnections.id, id),
    eq(wearableConnections.accountId, scope.accountId),
    eq(wearableConnections.mode, scope.mode),
  );
}

/** The scope's connection with this id; another account's or mode's is 404 `not_found`. */
export async function getConnection(db: Db, scope: Scope, id: string): Promise<WearableConnectionRow> {
  const [row] = await db.select().from(wearableConnections).where(inScope(id, scope));
  if (!row) throw connectionNotFound();
  return row;
}

/** The connection a connect page token belongs to (the page's only credential). */
export async function findConnectionByToken(
  db: Db,
  token: string,
): Promise<WearableConnectionRow | undefined> {
  const [row] = await db
    .select()
    .from(wearableConnections)
    .where(eq(wearableConnections.connectToken, token));
  return row;
}

/**
 * The first `limit` connections in the scope, newest first, and whether more exist: one patient's
 * (the API) or every patient's when `patientRef` is absent (the dashboard).
 */
export async function listConnections(
  db: Db,
  query: { scope: Scope; patientRef?: string; limit: number },
): Promise<{ rows: WearableConnectionRow[]; hasMore: boolean }> {
  const rows = await db
    .select()
    .from(wearableConnections)
    .where(
      and(
        eq(wearableConnections.accountId, query.scope.accountId),
        eq(wearableConnections.mode, query.scope.mode),
        query.patientRef === undefined ? undefined : eq(wearableConnections.patientRef, query.patientRef),
      ),
    )
    .orderBy(desc(wearableConnections.createdAt), desc(wearableConnections.id))
    .limit(query.limit + 1);
  return { rows: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
}

/** A connection's stored daily metrics from `from` to `to` (UTC days, inclusive), oldest first. */
export async function dailyMetricsBetween(
  db: Db,
  connectionId: string,
  from: string,
  to: string,
): Promise<DailyMetricsRow[]> {
  return db
    .select()
    .from(wearableDailyMetrics)
    .where(
      and(
        eq(wearableDailyMetrics.connectionId, connectionId),
        gte(wearableDailyMetrics.day, from),
        lte(wearableDailyMetrics.day, to),
      ),
    )
    .orderBy(asc(wearableDailyMetrics.day));
}

type Locator = { id: string; scope: Scope } | { token: string };

async function lockConnection(tx: DbOrTx, at: Locator): Promise<WearableConnectionRow> {
  const where = "token" in at ? eq(wearableConnections.connectToken, at.token) : inScope(at.id, at.scope);
  const [row] = await tx.select().from(wearableConnections).where(where).for("update");
  if (!row) throw connectionNotFound();
  return row;
}

export interface WearableOutcome {
  connection: WearableConnectionRow;
}

/** Save the connection's new state and write its event (with pending deliveries) in the same transaction. */
async function updateAndRecord(
  tx: DbOrTx,
  id: string,
  changes: Partial<WearableConnectionRow>,
  eventType: "wearable.connected" | "wearable.disconnected" | "wearable.sync_completed",
  now: Date,
): Promise<WearableOutcome> {
  const [connection] = await tx
    .update(wearableConnections)
    .set({ ...changes, updatedAt: now })
    .where(eq(wearableConnections.id, id))
    .returning();
  if (!connection) throw connectionNotFound();
  // Its pending deliveries go to the queue after commit through the caller's outbox scope.
  await recordEvent(tx, {
    accountId: connection.accountId,
    mode: connection.mode,
    type: eventType,
    data: {
      object: "wearable_connection",
      id: connection.id,
      status: connection.status,
      patientRef: connection.patientRef,
      provider: connection.provider,
    },
    now,
  });
  return { connection };
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
      throw new Refusal(
        "invalid_transition",
        `A wearable connection cannot move from ${row.status} to connected; only a pending connection can.`,
      );
    }
    const provider = findProvider(providerCode);
    if (!provider || !row.providers.includes(provider.code)) {
      throw new Refusal(
        "invalid_request",
        `This connection offers ${row.providers.join(", ")}; ${providerCode} is not one of them.`,
        { issues: [{ path: "provider", message: "not one of the connection's providers" }] },
      );
    }
    const changes = { status: "connected" as const, provider: provider.code, connectedAt: now };
    return updateAndRecord(tx, row.id, changes, "wearable.connected", now);
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
      throw new Refusal(
        "invalid_transition",
        "A wearable connection cannot move from disconnected to disconnected; it is already disconnected (terminal).",
      );
    }
    const changes = { status: "disconnected" as const, disconnectedAt: now };
    return updateAndRecord(tx, row.id, changes, "wearable.disconnected", now);
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
      throw new Refusal("conflict", `Only a connected connection can sync; this one is ${row.status}.`);
    }
    const provider = findProvider(row.provider);
    const adapter = adapterFor(row.mode);
    if (!provider || !adapter) {
      throw new Refusal(
        "forbidden",
        "On-demand sync is a sandbox feature (test keys); live connections sync on the provider's schedule.",
      );
    }
    const metrics = await adapter.fetchDailyMetrics({
      connectionId: row.id,
      provider,
      days: lastDays(SYNC_DAYS, now),
    });
    await upsertDailyMetrics(tx, row.id, metrics, now);
    const outcome = await updateAndRecord(tx, row.id, { lastSyncAt: now }, "wearable.sync_completed", now);
    return { ...outcome, days: metrics.length };
  });
}

async function upsertDailyMetrics(
  tx: DbOrTx,
  connectionId: string,
  metrics: DailyMetrics[],
  now: Date,
): Promise<void> {
  if (metrics.length === 0) return;
  await tx
    .insert(wearableDailyMetrics)
    .values(metrics.map((m) => ({ connectionId, ...m, syncedAt: now })))
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
