import { and, type Db, desc, eq, lt, mseSafetyEvents, or } from "@svc/db";
import type { SafetyEventPayload } from "@svc/webhooks";
import { decodeCursor, encodeCursor } from "../cursor.js";

/** Where a page of safety events ends: the last event's creation time and id (the sort key). */
export interface SafetyEventPosition {
  createdAt: Date;
  id: string;
}

export interface SafetyEventPage {
  events: SafetyEventPayload[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** A cursor's parts: the creation time as `toISOString()` writes it (a valid date), then the event id. */
const CURSOR_PARTS = [
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/,
  /^sev_[0-9a-z]{26}$/,
];

/** The position a `nextCursor` names; anything this list did not issue is the shared 400. */
export function safetyEventPosition(cursor: string): SafetyEventPosition {
  const [createdAt, id] = decodeCursor(cursor, CURSOR_PARTS) as [string, string];
  return { createdAt: new Date(createdAt), id };
}

export function safetyEventCursor(position: SafetyEventPosition): string {
  return encodeCursor([position.createdAt.toISOString(), position.id]);
}

/** The organization's safety events, newest first, keyset-paged on (createdAt, id). */
export async function listSafetyEvents(
  db: Db,
  input: { orgId: string; limit: number; after?: SafetyEventPosition; visitId?: string },
): Promise<SafetyEventPage> {
  const conditions = [eq(mseSafetyEvents.orgId, input.orgId)];
  if (input.visitId) conditions.push(eq(mseSafetyEvents.visitId, input.visitId));
  if (input.after) {
    const after = or(
      lt(mseSafetyEvents.createdAt, input.after.createdAt),
      and(eq(mseSafetyEvents.createdAt, input.after.createdAt), lt(mseSafetyEvents.id, input.after.id)),
    );
    if (after) conditions.push(after);
  }
  const rows = await db
    .select({
      id: mseSafetyEvents.id,
      createdAt: mseSafetyEvents.createdAt,
      payload: mseSafetyEvents.payload,
    })
    .from(mseSafetyEvents)
    .where(and(...conditions))
    .orderBy(desc(mseSafetyEvents.createdAt), desc(mseSafetyEvents.id))
    .limit(input.limit + 1);
  const hasMore = rows.length > input.limit;
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    events: page.map((r) => r.payload as SafetyEventPayload),
    nextCursor: hasMore && last ? safetyEventCursor(last) : null,
    hasMore,
  };
}
