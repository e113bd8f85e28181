import { z } from "@hono/zod-openapi";
import { ApiError, type AppDeps } from "@svc/http";
import { LAB_CATEGORIES } from "../labs/catalog.js";
import { MetadataSchema } from "../labs/metadata.js";
import type { LabResults } from "../labs/results.js";
import { LAB_ORDER_STATUSES, LabOrderError, type LabOrderRow } from "../labs/transitions.js";
import { BiomarkerSchema, IsoDate } from "../schemas/common.js";

/** Shapes shared by the lab routes (one zod schema per shape: validation, OpenAPI and tests). */

export const LabCatalogPanelSchema = z
  .object({
    panelId: z.string(),
    name: z.string(),
    category: z.enum(LAB_CATEGORIES),
    description: z.string(),
    priceCents: z.number().int(),
    turnaround: z.string(),
    useCases: z.array(z.string()),
  })
  .openapi("LabCatalogPanel");

export const LabResultsSchema = z
  .object({
    observedAt: IsoDate,
    biomarkers: z.array(BiomarkerSchema).max(200),
  })
  .openapi("LabResults", {
    description:
      "Parsed results in the Biomarker input shape: send them as a lab panel's `results` to POST /v1/biomarker/analyze.",
  });

export const LAB_ORDER_NOTICE =
  "A licensed provider must authorize this order before specimen collection; it stays in `requested` until then.";

export const LabOrderSchema = z
  .object({
    object: z.literal("lab_order"),
    id: z.string().openapi({ example: "labord_01jd3k8w6t1x9c0q2m4n5p7r8s" }),
    patientRef: z.string(),
    panelId: z.string(),
    panelName: z.string(),
    category: z.string(),
    priceCents: z.number().int(),
    status: z.enum(LAB_ORDER_STATUSES),
    note: z.string(),
    requisitionNumber: z.string(),
    metadata: MetadataSchema,
    results: LabResultsSchema.optional().openapi({
      description: "Present once the order has reached `resulted`.",
    }),
    createdAt: z.string(),
    updatedAt: z.string(),
    notice: z.string(),
  })
  .openapi("LabOrder");
export type LabOrderBody = z.infer<typeof LabOrderSchema>;

export const LabOrderResponseSchema = z
  .object({ ok: z.literal(true), data: LabOrderSchema })
  .openapi("LabOrderResponse");

export const OrderIdParams = z.object({
  id: z
    .string()
    .max(64)
    .openapi({ param: { name: "id", in: "path" }, example: "labord_01jd3k8w6t1x9c0q2m4n5p7r8s" }),
});

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

/** The lab module's refusals as API errors. */
export function labApiError(error: unknown): unknown {
  if (!(error instanceof LabOrderError)) return error;
  switch (error.code) {
    case "not_found":
      return new ApiError("not_found", "No lab order with this id exists for this account.");
    case "results_required":
      return new ApiError("invalid_transition", error.message);
    case "invalid_status":
      return new ApiError("invalid_request", error.message, {
        issues: [{ path: "to", message: error.message }],
      });
    default:
      return new ApiError("invalid_transition", error.message);
  }
}

/** After commit: hand deliveries to the queue, best effort (the outbox sweeper catches misses). */
export async function enqueueDeliveries(deps: AppDeps, deliveryIds: string[]): Promise<void> {
  if (deliveryIds.length === 0 || !deps.deliveries) return;
  try {
    await deps.deliveries.enqueue(deliveryIds);
  } catch (error) {
    deps.logger.warn(
      { errName: (error as Error)?.name, count: deliveryIds.length },
      "could not enqueue webhook deliveries; the outbox sweeper will",
    );
  }
}
