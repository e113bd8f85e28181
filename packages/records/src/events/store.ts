import { and, asc, type Db, EVENT_RETENTION_DAYS, eq, events, gte, type SQL, sql } from "@svc/db";
import { decodeCursor, encodeCursor } from "../cursor.js";
import type { Scope } from "../scope.js";

/** Reads of the account's event stream (events are written by the lab and wearable stores). */

/** Where a page of events ends: the `(xact_id, seq)` of its last event, in stream order. */
export interface EventPosition {
  xact: string;
  seq: string;
}

/**
 * Decimal parts, at most 19 and 18 digits: below the xid8 (2^64) and bigint (2^63) ranges, so an
 * edited cursor is a 400 and never reaches the database as an out-of-range value.
 */
const CURSOR_PARTS = [/^\d{1,19}$/, /^\d{1,18}$/];

export function eventCursor(position: EventPosition): string {
  return encodeCursor([position.xact, position.seq]);
}

/** The position a `nextCursor` stands for; any other string is a 400 naming `cursor`. */
export function eventPosition(cursor: string): EventPosition {
  const [xact, seq] = decodeCursor(cursor, CURSOR_PARTS) as [string, string];
  return { xact, seq };
}

export interface EventQuery {
  scope: Scope;
  type?: string;
  after?: EventPosition;
  limit: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * One page of the scope's retained events, oldest first, and whether more follow. Only events of
 * transactions older than the oldest one still in flight are listed: nothing can commit behind
 * them, so paging never skips an event.
 */
export async function listEvents(db: Db, query: EventQuery) {
  const conditions: (SQL | undefined)[] = [
    eq(events.accountId, query.scope.accountId),
    eq(events.mode, query.scope.mode),
    gte(events.createdAt, new Date(Date.now() - EVENT_RETENTION_DAYS * DAY_MS)),
    sql`${events.xactId} < pg_snapshot_xmin(pg_current_snapshot())`,
  ];
  if (query.type) conditions.push(eq(events.type, query.type));
  if (query.after) {
    const { xact, seq } = query.after;
    conditions.push(sql`(${events.xactId}, ${events.seq}) > (${xact}::xid8, ${seq}::bigint)`);
  }
  const rows = await db
    .select({
      seq: events.seq,
      xact: sql<string>`${events.xactId}::text`,
      id: events.id,
      type: events.type,
      apiVersion: events.apiVersion,
      data: events.data,
      createdAt: events.createdAt,
    })
    .from(events)
    .where(and(...conditions))
    .orderBy(asc(events.xactId), asc(events.seq))
    .limit(query.limit + 1);
  return { rows: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
}

export type EventRow = Awaited<ReturnType<typeof listEvents>>["rows"][number];
