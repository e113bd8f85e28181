import type { LabOrderRow, LabResults } from "@svc/records";
import type { LabOrderBody } from "../schemas/labs.js";

export const LAB_ORDER_NOTICE =
  "A licensed provider must authorize this order before specimen collection; it stays in `requested` until then.";

/** A stored order as the API returns it. */
export function toLabOrder(row: LabOrderRow): LabOrderBody {
  const body: LabOrderBody = {
    object: "lab_order",
    id: row.id,
    patientRef: row.patientRef,
    panelId: row.panelId,
    panelName: row.panelName,
    category: row.category,
    priceCents: row.priceCents,
    status: row.status as LabOrderBody["status"],
    note: row.note,
    requisitionNumber: row.requisitionNumber,
    metadata: (row.metadata ?? {}) as LabOrderBody["metadata"],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    notice: LAB_ORDER_NOTICE,
  };
  if (row.results) body.results = row.results as LabResults as LabOrderBody["results"];
  return body;
}
