import { Refusal } from "@svc/refusal";

/**
 * The lab order lifecycle (decision 34): the states and every legal move, checked by the one
 * function every move goes through (`transitionLabOrder` in store.ts: the API's test helpers, the
 * cancel endpoint and the operator CLI).
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

/**
 * A refused lab order move is a `Refusal` (decision 206): `not_found`, `invalid_transition`, or
 * `invalid_request` naming `to` for an unknown status. The routes pass it through, and the
 * dashboard and operator CLI, which move orders through the same function, recognise it by code.
 */
export function labOrderNotFound(): Refusal {
  return new Refusal("not_found", "No lab order with this id exists for this account.");
}

/** Refuse an illegal move with a message naming both states. */
export function assertTransition(from: string, to: string): asserts to is LabOrderStatus {
  if (!isLabOrderStatus(to)) {
    const message = `"${to}" is not a lab order status.`;
    throw new Refusal("invalid_request", message, { issues: [{ path: "to", message }] });
  }
  const allowed = isLabOrderStatus(from) ? ALLOWED_TRANSITIONS[from] : [];
  if (!allowed.includes(to)) {
    const options = allowed.length ? `; from ${from} it can move to ${allowed.join(" or ")}` : "";
    throw new Refusal("invalid_transition", `A lab order cannot move from ${from} to ${to}${options}.`);
  }
}

/** The next state on the main path, or an error when the order is at the end of it. */
export function nextStatus(from: string): LabOrderStatus {
  const next = isLabOrderStatus(from) ? MAIN_PATH[from] : undefined;
  if (!next) {
    throw new Refusal(
      "invalid_transition",
      `A lab order in ${from} cannot advance; ${from} is a final state.`,
    );
  }
  return next;
}
