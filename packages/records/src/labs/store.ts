import { randomInt } from "node:crypto";
import { and, type Db, type DbOrTx, desc, eq, labOrders, lt, or, recordEvent, type SQL } from "@svc/db";
import { newId } from "@svc/ids";
import { Refusal } from "@svc/refusal";
import { decodeCursor, encodeCursor } from "../cursor.js";
import type { Scope } from "../scope.js";
import type { LabPanel } from "./catalog.js";
import { type LabResults, sandboxResults } from "./results.js";
import { assertTransition, type LabOrderStatus, labOrderNotFound, nextStatus } from "./transitions.js";

/** Every query and write of lab orders: the routes and the operator CLI persist through here. */

export type LabOrderRow = typeof labOrders.$inferSelect;

const REQUISITION_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789";

/** A human-friendly requisition number, e.g. `REQ-7KQM-2XTP-9WQA`. */
function newRequisitionNumber(): string {
  const part = () =>
    Array.from({ length: 4 }, () => REQUISITION_ALPHABET[randomInt(REQUISITION_ALPHABET.length)]).join("");
  return `REQ-${part()}-${part()}-${part()}`;
}

export interface NewLabOrder {
  scope: Scope;
  patientRef: string;
  panel: LabPanel;
  note?: string;
  metadata?: Record<string, unknown>;
  now?: Date;
}

/** A new order in `requested` (inside the caller's idempotent transaction). */
export async function insertLabOrder(tx: DbOrTx, input: NewLabOrder): Promise<LabOrderRow> {
  const now = input.now ?? new Date();
  const [row] = await tx
    .insert(labOrders)
    .values({
      id: newId("labord"),
      accountId: input.scope.accountId,
      mode: input.scope.mode,
      patientRef: input.patientRef,
      panelId: input.panel.panelId,
      panelName: input.panel.name,
      category: input.panel.category,
      priceCents: input.panel.priceCents,
      status: "requested",
      note: input.note ?? "",
      requisitionNumber: newRequisitionNumber(),
      metadata: input.metadata ?? {},
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error("lab order insert returned no row");
  return row;
}

/** The scope's order with this id; another account's or mode's is 404 `not_found`. */
export async function getLabOrder(db: Db, scope: Scope, id: string): Promise<LabOrderRow> {
  const [row] = await db
    .select()
    .from(labOrders)
    .where(
      and(eq(labOrders.id, id), eq(labOrders.accountId, scope.accountId), eq(labOrders.mode, scope.mode)),
    );
  if (!row) throw labOrderNotFound();
  return row;
}

/** Where a page of orders ends: the newest-first keyset `(createdAt, id)` of its last order. */
export interface LabOrderPosition {
  createdAt: Date;
  id: string;
}

const CURSOR_PARTS = [/^\d{1,15}$/, /^labord_[0-9a-z]{26}$/];

export function labOrderCursor(row: LabOrderRow): string {
  return encodeCursor([String(row.createdAt.getTime()), row.id]);
}

/** The position a `nextCursor` stands for; any other string is a 400 naming `cursor`. */
export function labOrderPosition(cursor: string): LabOrderPosition {
  const [ms, id] = decodeCursor(cursor, CURSOR_PARTS) as [string, string];
  return { createdAt: new Date(Number(ms)), id };
}

export interface LabOrderQuery {
  scope: Scope;
  patientRef?: string;
  after?: LabOrderPosition;
  limit: number;
}

/** One page of the scope's orders, newest first, and whether more follow. */
export async function listLabOrders(
  db: Db,
  query: LabOrderQuery,
): Promise<{ rows: LabOrderRow[]; hasMore: boolean }> {
  const conditions: (SQL | undefined)[] = [
    eq(labOrders.accountId, query.scope.accountId),
    eq(labOrders.mode, query.scope.mode),
  ];
  if (query.patientRef !== undefined) conditions.push(eq(labOrders.patientRef, query.patientRef));
  if (query.after) {
    const { createdAt, id } = query.after;
    conditions.push(
      or(lt(labOrders.createdAt, createdAt), and(eq(labOrders.createdAt, createdAt), lt(labOrders.id, id))),
    );
  }
  const rows = await db
    .select()
    .from(labOrders)
    .where(and(...conditions))
    .orderBy(desc(labOrders.createdAt), desc(labOrders.id))
    .limit(query.limit + 1);
  return { rows: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
}

export interface TransitionOutcome {
  order: LabOrderRow;
  from: LabOrderStatus;
  eventIds: string[];
}

export interface TransitionInput {
  id: string;
  /** Scope (the API always passes both; the operator CLI acts on any order by id). */
  accountId?: string;
  mode?: "test" | "live";
  /** Target state; the next state on the main path when absent. */
  to?: string;
  /** Only moves from this state (e.g. the authorize helper: requested only). */
  expectFrom?: LabOrderStatus;
  /** Results to attach when entering `resulted`; test orders get sandbox results otherwise. */
  results?: LabResults;
  now?: Date;
}

/**
 * Apply one move inside a transaction: lock the order, check the move, update it, and write
 * `lab_order.status_changed` (plus `lab_order.results_ready` on entering `resulted`) with their
 * pending deliveries (handed to the queue after commit by the caller's outbox scope, see
 * `noteOutboxWrites`, or by the sweeper). A refused move is a `Refusal`.
 */
export async function transitionLabOrder(db: Db, input: TransitionInput): Promise<TransitionOutcome> {
  return db.transaction(async (tx) => {
    const now = input.now ?? new Date();
    const row = await lockLabOrder(tx, input);
    const from = row.status as LabOrderStatus;
    const to = targetStatus(from, input);
    const results = resultsOnEntering(row, to, input.results, now);
    const [order] = await tx
      .update(labOrders)
      .set({ status: to, updatedAt: now, results })
      .where(eq(labOrders.id, row.id))
      .returning();
    if (!order) throw labOrderNotFound();
    const recorded = await recordTransitionEvents(tx, order, to, now);
    return {
      order,
      from,
      eventIds: recorded.map((r) => r.event.id),
    };
  });
}

async function lockLabOrder(tx: DbOrTx, input: TransitionInput): Promise<LabOrderRow> {
  const conditions = [eq(labOrders.id, input.id)];
  if (input.accountId) conditions.push(eq(labOrders.accountId, input.accountId));
  if (input.mode) conditions.push(eq(labOrders.mode, input.mode));
  const [row] = await tx
    .select()
    .from(labOrders)
    .where(and(...conditions))
    .for("update");
  if (!row) throw labOrderNotFound();
  return row;
}

/** Where this move goes, refused unless it is legal (and from `expectFrom` when given). */
function targetStatus(from: LabOrderStatus, input: TransitionInput): LabOrderStatus {
  if (input.expectFrom && from !== input.expectFrom) {
    const to = input.to ?? nextStatus(input.expectFrom);
    throw new Refusal(
      "invalid_transition",
      `A lab order cannot move from ${from} to ${to}; only a ${input.expectFrom} order can.`,
    );
  }
  const to = input.to ?? nextStatus(from);
  assertTransition(from, to);
  return to;
}

/** The order's results after the move: attached (or sandbox-generated) on entering `resulted`. */
function resultsOnEntering(
  row: LabOrderRow,
  to: LabOrderStatus,
  attached: LabResults | undefined,
  now: Date,
): LabResults | null {
  const current = (row.results as LabResults | null) ?? null;
  if (to !== "resulted") return current;
  if (attached) return attached;
  if (row.mode === "test") return sandboxResults(row.id, row.panelId, now);
  throw new Refusal(
    "invalid_transition",
    "A live lab order moves to resulted only with the laboratory's results attached.",
  );
}

async function recordTransitionEvents(tx: DbOrTx, order: LabOrderRow, to: LabOrderStatus, now: Date) {
  const data = { object: "lab_order", id: order.id, status: to, patientRef: order.patientRef };
  const scope = { accountId: order.accountId, mode: order.mode };
  const recorded = [await recordEvent(tx, { ...scope, type: "lab_order.status_changed", data, now })];
  if (to === "resulted") {
    recorded.push(await recordEvent(tx, { ...scope, type: "lab_order.results_ready", data, now }));
  }
  return recorded;
}
