import { and, type Db, type DbOrTx, eq, labOrders, recordEvent } from "@svc/db";
import { type LabResults, sandboxResults } from "./results.js";

/**
 * The lab order lifecycle (ruling 5), one table and one function that every move goes through:
 * the API's test helpers, the cancel endpoint and the operator CLI.
 *
 *   requested -> authorized -> scheduled -> collected -> in_transit -> processing -> resulted -> completed
 *   collected -> resulted (results reported without a tracked transit)
 *   requested | authorized | scheduled -> cancelled
 */
export const LAB_ORDER_STATUSES = [
  "requested",
  "authorized",
  "scheduled",
  "collected",
  "in_transit",
  "processing",
  "resulted",
  "completed",
  "cancelled",
] as const;
export type LabOrderStatus = (typeof LAB_ORDER_STATUSES)[number];

/** The main path: what "advance" moves to. */
export const MAIN_PATH: Readonly<Partial<Record<LabOrderStatus, LabOrderStatus>>> = {
  requested: "authorized",
  authorized: "scheduled",
  scheduled: "collected",
  collected: "in_transit",
  in_transit: "processing",
  processing: "resulted",
  resulted: "completed",
};

/** Every legal move. Anything else is refused. */
export const ALLOWED_TRANSITIONS: Readonly<Record<LabOrderStatus, readonly LabOrderStatus[]>> = {
  requested: ["authorized", "cancelled"],
  authorized: ["scheduled", "cancelled"],
  scheduled: ["collected", "cancelled"],
  collected: ["in_transit", "resulted"],
  in_transit: ["processing"],
  processing: ["resulted"],
  resulted: ["completed"],
  completed: [],
  cancelled: [],
};

export function isLabOrderStatus(value: string): value is LabOrderStatus {
  return (LAB_ORDER_STATUSES as readonly string[]).includes(value);
}

export class LabOrderError extends Error {
  constructor(
    readonly code: "not_found" | "invalid_transition" | "results_required" | "invalid_status",
    message: string,
    readonly from?: string,
    readonly to?: string,
  ) {
    super(message);
    this.name = "LabOrderError";
  }
}

/** Refuse an illegal move with a message naming both states. */
export function assertTransition(from: string, to: string): asserts to is LabOrderStatus {
  if (!isLabOrderStatus(to))
    throw new LabOrderError("invalid_status", `"${to}" is not a lab order status.`, from, to);
  const allowed = isLabOrderStatus(from) ? ALLOWED_TRANSITIONS[from] : [];
  if (!allowed.includes(to)) {
    const options = allowed.length ? `; from ${from} it can move to ${allowed.join(" or ")}` : "";
    throw new LabOrderError(
      "invalid_transition",
      `A lab order cannot move from ${from} to ${to}${options}.`,
      from,
      to,
    );
  }
}

/** The next state on the main path, or an error when the order is at the end of it. */
export function nextStatus(from: string): LabOrderStatus {
  const next = isLabOrderStatus(from) ? MAIN_PATH[from] : undefined;
  if (!next) {
    throw new LabOrderError(
      "invalid_transition",
      `A lab order in ${from} cannot advance; ${from} is a final state.`,
      from,
    );
  }
  return next;
}

export type LabOrderRow = typeof labOrders.$inferSelect;

export interface TransitionOutcome {
  order: LabOrderRow;
  from: LabOrderStatus;
  eventIds: string[];
  deliveryIds: string[];
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
 * pending deliveries. After commit, hand `deliveryIds` to the delivery queue.
 */
export async function transitionLabOrder(db: Db, input: TransitionInput): Promise<TransitionOutcome> {
  return db.transaction((tx) => transitionInTx(tx, input));
}

async function transitionInTx(tx: DbOrTx, input: TransitionInput): Promise<TransitionOutcome> {
  const now = input.now ?? new Date();
  const conditions = [eq(labOrders.id, input.id)];
  if (input.accountId) conditions.push(eq(labOrders.accountId, input.accountId));
  if (input.mode) conditions.push(eq(labOrders.mode, input.mode));
  const [row] = await tx
    .select()
    .from(labOrders)
    .where(and(...conditions))
    .for("update");
  if (!row) throw new LabOrderError("not_found", "No lab order with this id exists for this account.");
  const from = row.status as LabOrderStatus;
  if (input.expectFrom && from !== input.expectFrom) {
    const to = input.to ?? nextStatus(input.expectFrom);
    throw new LabOrderError(
      "invalid_transition",
      `A lab order cannot move from ${from} to ${to}; only a ${input.expectFrom} order can.`,
      from,
      to,
    );
  }
  const to = input.to ?? nextStatus(from);
  assertTransition(from, to);

  let results: LabResults | null = (row.results as LabResults | null) ?? null;
  if (to === "resulted") {
    if (input.results) results = input.results;
    else if (row.mode === "test") results = sandboxResults(row.id, row.panelId, now);
    else
      throw new LabOrderError(
        "results_required",
        "A live lab order moves to resulted only with the laboratory's results attached.",
        from,
        to,
      );
  }
  const [order] = await tx
    .update(labOrders)
    .set({ status: to, updatedAt: now, results })
    .where(eq(labOrders.id, row.id))
    .returning();
  if (!order) throw new LabOrderError("not_found", "No lab order with this id exists for this account.");

  const data = { object: "lab_order", id: order.id, status: to, patientRef: order.patientRef };
  const recorded = [
    await recordEvent(tx, {
      accountId: order.accountId,
      mode: order.mode,
      type: "lab_order.status_changed",
      data,
      now,
    }),
  ];
  if (to === "resulted") {
    recorded.push(
      await recordEvent(tx, {
        accountId: order.accountId,
        mode: order.mode,
        type: "lab_order.results_ready",
        data,
        now,
      }),
    );
  }
  return {
    order,
    from,
    eventIds: recorded.map((r) => r.event.id),
    deliveryIds: recorded.flatMap((r) => r.deliveryIds),
  };
}
