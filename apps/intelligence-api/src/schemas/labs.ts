import { z } from "@hono/zod-openapi";
import { LabResultsSchema } from "@svc/http";
import { LAB_CATEGORIES, LAB_ORDER_STATUSES } from "@svc/records";
import { MetadataSchema, PatientRefSchema } from "./resources.js";

/** Shapes of the lab routes (one zod schema per shape: validation, OpenAPI and tests). */

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

export const LabPanelListResponseSchema = z
  .object({
    ok: z.literal(true),
    data: z.object({
      object: z.literal("list"),
      resource: z.literal("lab_panel"),
      count: z.number().int(),
      panels: z.array(LabCatalogPanelSchema),
    }),
  })
  .openapi("LabPanelList");
export type LabPanelListResponse = z.infer<typeof LabPanelListResponseSchema>;

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
export type LabOrderResponse = z.infer<typeof LabOrderResponseSchema>;

export const OrderIdParams = z.object({
  id: z
    .string()
    .max(64)
    .openapi({ param: { name: "id", in: "path" }, example: "labord_01jd3k8w6t1x9c0q2m4n5p7r8s" }),
});

export const LAB_ORDER_NOTE_MAX = 500;

export const CreateLabOrderRequestSchema = z
  .object({
    patientRef: PatientRefSchema,
    panelId: z.string().min(1).max(64).openapi({ description: "A panelId from GET /v1/labs/panels." }),
    note: z
      .string()
      .max(LAB_ORDER_NOTE_MAX)
      .optional()
      .openapi({ description: "Up to 500 characters, free of patient health information." }),
    metadata: MetadataSchema.optional(),
  })
  .openapi("CreateLabOrderRequest");

export const LabOrderListResponseSchema = z
  .object({
    ok: z.literal(true),
    data: z.object({
      object: z.literal("list"),
      resource: z.literal("lab_order"),
      count: z.number().int(),
      orders: z.array(LabOrderSchema),
      hasMore: z.boolean(),
      nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page." }),
    }),
  })
  .openapi("LabOrderList");
export type LabOrderListResponse = z.infer<typeof LabOrderListResponseSchema>;

/** Body of the sandbox advance helper. */
export const LabOrderAdvanceRequestSchema = z
  .object({
    to: z
      .enum(LAB_ORDER_STATUSES)
      .optional()
      .openapi({ description: "Target state; the next state on the main path when absent." }),
  })
  .openapi("LabOrderAdvanceRequest");
export type LabOrderAdvanceRequest = z.infer<typeof LabOrderAdvanceRequestSchema>;
