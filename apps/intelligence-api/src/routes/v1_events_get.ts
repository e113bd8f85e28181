import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { ApiError, type AppEnv, errorResponses, rateLimitHeaders, type ServiceApp } from "@svc/http";
import { findEvent } from "@svc/records";
import { toEvent } from "../events/body.js";
import { EventSchema } from "../schemas/events.js";
import { scopeOf } from "../scope.js";

const EventResponseSchema = z.object({ ok: z.literal(true), data: EventSchema }).openapi("EventResponse");
export type EventResponse = z.infer<typeof EventResponseSchema>;

const route = createRoute({
  method: "get",
  path: "/v1/events/{eventId}",
  tags: ["Events"],
  summary: "Retrieve an event",
  description: "An unknown id, another account's or mode's, or one older than 30 days is 404 `not_found`.",
  request: {
    params: z.object({
      eventId: z
        .string()
        .max(64)
        .openapi({ param: { name: "eventId", in: "path" }, example: "evt_01jd3k8w6t1x9c0q2m4n5p7r8s" }),
    }),
  },
  responses: {
    200: {
      description: "The event",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: EventResponseSchema } },
    },
    ...errorResponses(402, 404),
  },
});

export function registerEventsGet(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const row = await findEvent(service.deps.db, scopeOf(c), c.req.valid("param").eventId);
    if (!row) throw new ApiError("not_found", "No such event.");
    const body: EventResponse = { ok: true, data: toEvent(row) };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
