/** Event types delivered by webhook (contract, Events 2) and the MSE safety event (decision 38). */
export const EVENT_TYPES = [
  "lab_order.status_changed",
  "lab_order.results_ready",
  "wearable.connected",
  "wearable.sync_completed",
  "wearable.disconnected",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const SAFETY_EVENT_TYPE = "mse.risk_flagged" as const;
/** Every type a webhook endpoint can receive: account events and the organization's safety event. */
export const ALL_EVENT_TYPES = [...EVENT_TYPES, SAFETY_EVENT_TYPE] as const;
export type AnyEventType = (typeof ALL_EVENT_TYPES)[number];

/** Named constants, so writers never spell a type by hand. */
export const EventTypes = {
  labOrderResultsReady: "lab_order.results_ready",
  labOrderStatusChanged: "lab_order.status_changed",
  wearableConnected: "wearable.connected",
  wearableSyncCompleted: "wearable.sync_completed",
  wearableDisconnected: "wearable.disconnected",
  mseRiskFlagged: SAFETY_EVENT_TYPE,
} as const satisfies Record<string, AnyEventType>;

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

export interface EventResource {
  id: string;
  object: "event";
  type: string;
  apiVersion: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** The exact bytes delivered (and signed): the event resource with its fields in a fixed order. */
export function serializeEvent(event: EventResource): string {
  return JSON.stringify({
    id: event.id,
    object: "event",
    type: event.type,
    apiVersion: event.apiVersion,
    createdAt: event.createdAt,
    data: event.data,
  });
}

export interface SafetyEventPayload {
  id: string;
  object: "mse.safety_event";
  type: typeof SAFETY_EVENT_TYPE;
  organizationId: string;
  visitId: string;
  patientId: string;
  version: number;
  risk: { flag: boolean; level: string; labels: string[] };
  createdAt: string;
}

export function serializeSafetyEvent(payload: SafetyEventPayload): string {
  return JSON.stringify({
    id: payload.id,
    object: "mse.safety_event",
    type: SAFETY_EVENT_TYPE,
    organizationId: payload.organizationId,
    visitId: payload.visitId,
    patientId: payload.patientId,
    version: payload.version,
    risk: payload.risk,
    createdAt: payload.createdAt,
  });
}
