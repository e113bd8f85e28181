import { z } from "@hono/zod-openapi";

/** Event types listed and delivered for lab orders and wearable connections: the one list. */
export { EVENT_TYPES } from "@svc/webhooks";

export const EventSchema = z
  .object({
    id: z.string().openapi({ example: "evt_01jd3k8w6t1x9c0q2m4n5p7r8s" }),
    object: z.literal("event"),
    type: z.string(),
    apiVersion: z.string().openapi({ example: "2026-11-01" }),
    createdAt: z.string(),
    data: z
      .object({ object: z.string(), id: z.string(), status: z.string(), patientRef: z.string() })
      .catchall(z.unknown())
      .openapi({ description: "Wearable events add `provider`." }),
  })
  .openapi("Event");
export type EventBody = z.infer<typeof EventSchema>;

export const EventListResponseSchema = z
  .object({
    ok: z.literal(true),
    data: z.object({
      object: z.literal("list"),
      resource: z.literal("event"),
      count: z.number().int(),
      events: z.array(EventSchema),
      nextCursor: z.string().nullable().openapi({
        description:
          "Pass as `cursor` to continue after the last event returned (also when `hasMore` is false, to poll for newer events). Null only when nothing has been returned yet.",
      }),
      hasMore: z.boolean(),
    }),
  })
  .openapi("EventList");
export type EventListResponse = z.infer<typeof EventListResponseSchema>;
