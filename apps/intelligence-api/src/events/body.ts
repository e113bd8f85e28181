import type { EventRow } from "@svc/records";
import type { EventBody } from "../schemas/events.js";

/** A stored event as the list returns it (the same shape webhooks deliver). */
export function toEvent(row: EventRow): EventBody {
  return {
    id: row.id,
    object: "event",
    type: row.type,
    apiVersion: row.apiVersion,
    createdAt: row.createdAt.toISOString(),
    data: row.data as EventBody["data"],
  };
}
