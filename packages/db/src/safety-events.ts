import { newId } from "@svc/ids";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "./events.js";
import { writeOutboxDeliveries } from "./outbox.js";
import { mseSafetyEvents, webhookEndpoints } from "./schema.js";

/** Type of every MSE safety event (decision 38). */
export const MSE_SAFETY_EVENT_TYPE = "mse.risk_flagged" as const;

export interface SafetyEventRisk {
  flag: boolean;
  level: string;
  labels: string[];
}

/**
 * The stored and delivered payload of an MSE safety event (decision 38). It carries ids, the
 * version and the catalog-derived risk only: no free text from the record.
 */
export interface MseSafetyEventPayload {
  id: string;
  object: "mse.safety_event";
  type: typeof MSE_SAFETY_EVENT_TYPE;
  organizationId: string;
  visitId: string;
  patientId: string;
  version: number;
  risk: SafetyEventRisk;
  createdAt: string;
}

export interface RecordedSafetyEvent {
  event: MseSafetyEventPayload;
  /** Pending deliveries written with the event (see `noteOutboxWrites` for their hand-off). */
  deliveryIds: string[];
}

/**
 * Write a durable MSE safety event and one pending delivery (source `safety_event`) per active
 * webhook endpoint of the organization, inside the caller's transaction (the outbox). The payload
 * carries a real patientId, so only live endpoints (https, the live address rules) that are
 * neither disabled nor removed get one; test-mode endpoints never do (decision 28). Inside
 * `noteOutboxWrites` the deliveries go to the queue after commit; whatever misses the queue, the
 * sweeper finds by state.
 */
export async function recordSafetyEvent(
  tx: DbOrTx,
  input: {
    orgId: string;
    visitId: string;
    patientId: string;
    version: number;
    risk: SafetyEventRisk;
    now?: Date;
  },
): Promise<RecordedSafetyEvent> {
  const now = input.now ?? new Date();
  const id = newId("sev");
  const risk: SafetyEventRisk = {
    flag: input.risk.flag,
    level: input.risk.level,
    labels: [...input.risk.labels],
  };
  const event: MseSafetyEventPayload = {
    id,
    object: "mse.safety_event",
    type: MSE_SAFETY_EVENT_TYPE,
    organizationId: input.orgId,
    visitId: input.visitId,
    patientId: input.patientId,
    version: input.version,
    risk,
    createdAt: now.toISOString(),
  };
  await tx.insert(mseSafetyEvents).values({
    id,
    orgId: input.orgId,
    visitId: input.visitId,
    patientId: input.patientId,
    version: input.version,
    risk,
    payload: event,
    createdAt: now,
  });
  const deliveryIds = await writeOutboxDeliveries(tx, {
    eventId: id,
    source: "safety_event",
    // Live patient data goes to live endpoints only (decision 28).
    endpointsWhere: and(eq(webhookEndpoints.orgId, input.orgId), eq(webhookEndpoints.mode, "live")),
    now,
  });
  return { event, deliveryIds };
}
