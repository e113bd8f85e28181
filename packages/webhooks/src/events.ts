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

/**
 * The event a webhook endpoint gets when its owner sends a test from the dashboard: delivered to
 * that endpoint only, never listed among the account's events.
 */
export const TEST_EVENT_TYPE = "webhook_endpoint.test" as const;

/**
 * The words the typed events are written in. Here plain strings; a client with the OpenAPI
 * document's enums (the SDK) passes those, so `status` and `provider` narrow too.
 */
export interface EventVocabulary {
  labOrderStatus: string;
  wearableStatus: string;
  wearableProvider: string | null;
}

/** `data` of the lab_order.* events: the order as it stands after the change. */
export interface LabOrderEventData<V extends EventVocabulary = EventVocabulary> {
  object: "lab_order";
  id: string;
  status: V["labOrderStatus"];
  patientRef: string;
}

/** `data` of the wearable.* events: the connection as it stands after the change. */
export interface WearableEventData<V extends EventVocabulary = EventVocabulary> {
  object: "wearable_connection";
  id: string;
  status: V["wearableStatus"];
  patientRef: string;
  provider: V["wearableProvider"];
}

/** `data` of the dashboard's test event. */
export interface TestEventData {
  object: "webhook_endpoint";
  id: string;
  test: true;
}

/**
 * The data shape of each account event type. Keyed by every EVENT_TYPES entry: a type added
 * there fails the typecheck of AccountEvent until its data is written here.
 */
export interface EventDataByType<V extends EventVocabulary = EventVocabulary> {
  "lab_order.status_changed": LabOrderEventData<V>;
  "lab_order.results_ready": LabOrderEventData<V>;
  "wearable.connected": WearableEventData<V>;
  "wearable.sync_completed": WearableEventData<V>;
  "wearable.disconnected": WearableEventData<V>;
  [TEST_EVENT_TYPE]: TestEventData;
}

/** One account event as delivered: the event resource with its type's data. */
export interface TypedEvent<Type extends string, Data> {
  id: string;
  object: "event";
  type: Type;
  apiVersion: string;
  createdAt: string;
  data: Data;
}

/**
 * Every event an account's webhook endpoint can receive, as a union narrowable on `type`
 * (`if (event.type === "lab_order.results_ready") event.data.patientRef`). The one definition
 * of the events' shapes; the SDK's verifyWebhook returns it.
 */
export type AccountEvent<V extends EventVocabulary = EventVocabulary> = {
  [T in EventType | typeof TEST_EVENT_TYPE]: TypedEvent<T, EventDataByType<V>[T]>;
}[EventType | typeof TEST_EVENT_TYPE];

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

/**
 * The payload of an MSE safety event, as stored (`@svc/db`'s safety-event writer) and delivered
 * (decision 38): ids, the version and the catalog-derived risk only, no free text from the record.
 * The one definition of it (decision 214).
 */
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

/** The MSE safety event as delivered (`x-mse-signature`); what the SDK's verifySafetyEvent returns. */
export type SafetyEvent = SafetyEventPayload;

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
