import { newId } from "@svc/ids";
import { SAFETY_EVENT_TYPE, type SafetyEventPayload } from "@svc/webhooks";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "./events.js";
import { writeOutboxDeliveries } from "./outbox.js";
import { mseSafetyEvents, webhookEndpoints } from "./schema.js";

/**
 * The payload of an MSE safety event, stored here as it is delivered, is `@svc/webhooks`'s
 * `SafetyEventPayload` (decision 38; one definition, decision 214): ids, the version and the
 * catalog-derived risk only, no free text from the record.
 */
export interface RecordedSafetyEvent {
  event: SafetyEventPayload;
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
    risk: SafetyEventPayload["risk"];
    now?: Date;
  },
): Promise<RecordedSafetyEvent> {
  const now = input.now ?? new Date();
  const id = newId("sev");
  const risk: SafetyEventPayload["risk"] = {
    flag: input.risk.flag,
    level: input.risk.level,
    labels: [...input.risk.labels],
  };
  const event: SafetyEventPayload = {
    id,
    object: "mse.safety_event",
    type: SAFETY_EVENT_TYPE,
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
