import { randomInt } from "node:crypto";
import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { labOrders } from "@svc/db";
import {
  ApiError,
  type AppEnv,
  errorResponses,
  rateLimitHeaders,
  runIdempotent,
  type ServiceApp,
} from "@svc/http";
import { newId } from "@svc/ids";
import { findPanel } from "../labs/catalog.js";
import { MetadataSchema, PatientRefSchema } from "../labs/metadata.js";
import { type LabOrderBody, LabOrderResponseSchema, toLabOrder } from "./v1_labs_schemas.js";

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

export const IdempotencyHeaderSchema = z.object({
  "idempotency-key": z
    .string()
    .optional()
    .openapi({
      param: { name: "idempotency-key", in: "header" },
      description:
        "1-255 printable characters; the first response is replayed for 24 h (`Idempotent-Replayed: true`).",
    }),
});

const route = createRoute({
  method: "post",
  path: "/v1/labs/orders",
  tags: ["Lab orders"],
  summary: "Order a lab panel",
  description:
    "Creates the order in `requested`; a provider must authorize it before collection. Honors `Idempotency-Key`: the same key and body replay the first response; the same key with another body is 422 `idempotency_key_reused`; one still in flight is 409 `idempotency_in_progress`.",
  request: {
    headers: IdempotencyHeaderSchema,
    body: { required: true, content: { "application/json": { schema: CreateLabOrderRequestSchema } } },
  },
  responses: {
    201: {
      description: "The order, in `requested`",
      headers: {
        ...rateLimitHeaders,
        "Idempotent-Replayed": {
          schema: { type: "string" as const },
          description: "`true` when this is the stored response of an earlier request with the same key.",
        },
      },
      content: { "application/json": { schema: LabOrderResponseSchema } },
    },
    ...errorResponses(400, 402, 409, 413, 422),
  },
});

const REQUISITION_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789";

/** A human-friendly requisition number, e.g. `REQ-7KQM-2XTP`. */
export function newRequisitionNumber(): string {
  const part = () =>
    Array.from({ length: 4 }, () => REQUISITION_ALPHABET[randomInt(REQUISITION_ALPHABET.length)]).join("");
  return `REQ-${part()}-${part()}-${part()}`;
}

export function registerLabOrdersCreate(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const input = c.req.valid("json");
    const panel = findPanel(input.panelId);
    if (!panel) {
      throw new ApiError("invalid_request", "Unknown panelId; list the catalog with GET /v1/labs/panels.", {
        issues: [{ path: "panelId", message: "not a panelId in the lab catalog" }],
      });
    }
    const auth = c.get("auth");
    const outcome = await runIdempotent<{ ok: true; data: LabOrderBody }>(c, service.deps.db, async (tx) => {
      const now = new Date();
      const [row] = await tx
        .insert(labOrders)
        .values({
          id: newId("labord"),
          accountId: auth.accountId as string,
          mode: auth.mode,
          patientRef: input.patientRef,
          panelId: panel.panelId,
          panelName: panel.name,
          category: panel.category,
          priceCents: panel.priceCents,
          status: "requested",
          note: input.note ?? "",
          requisitionNumber: newRequisitionNumber(),
          metadata: input.metadata ?? {},
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!row) throw new Error("lab order insert returned no row");
      return { status: 201, body: { ok: true as const, data: toLabOrder(row) } };
    });
    return c.json(outcome.body, outcome.status as 201);
  };
  service.openapi(route, handler);
}
