import { z } from "@hono/zod-openapi";
import { cursorQuery, decimalInteger } from "@svc/http";
import { RiskLevelSchema } from "./common.js";

/** The safety events a risk flag writes: GET /v1/mse/safety_events. */

export const SafetyEventsQuerySchema = z.object({
  limit: decimalInteger({ min: 1, max: 200, fallback: 50 }).openapi({
    param: { name: "limit", in: "query" },
    description: "1-200, default 50.",
  }),
  cursor: cursorQuery("`nextCursor` of the previous page."),
  visitId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .openapi({ param: { name: "visitId", in: "query" }, description: "Only this visit's events." }),
});

export const SafetyEventSchema = z
  .object({
    id: z.string(),
    object: z.literal("mse.safety_event"),
    type: z.literal("mse.risk_flagged"),
    organizationId: z.string(),
    visitId: z.string(),
    patientId: z.string(),
    version: z.number().int(),
    risk: z.object({ flag: z.boolean(), level: RiskLevelSchema, labels: z.array(z.string()) }),
    createdAt: z.string(),
  })
  .openapi("MseSafetyEvent");

export const SafetyEventListSchema = z
  .object({
    object: z.literal("list"),
    resource: z.literal("mse.safety_event"),
    count: z.number().int(),
    events: z.array(SafetyEventSchema).openapi({ description: "Newest first." }),
    nextCursor: z.string().nullable(),
    hasMore: z.boolean(),
  })
  .openapi("MseSafetyEventList");
export type SafetyEventList = z.infer<typeof SafetyEventListSchema>;
