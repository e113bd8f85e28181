import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { type AppEnv, cursorQuery, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { eventCursor, eventPosition, listEvents } from "@svc/records";
import { toEvent } from "../events/body.js";
import { EVENT_TYPES, type EventListResponse, EventListResponseSchema } from "../schemas/events.js";
import { LimitQuery } from "../schemas/resources.js";
import { scopeOf } from "../scope.js";

const QuerySchema = z.object({
  cursor: cursorQuery("`nextCursor` of the previous page; absent = from the oldest retained event."),
  limit: LimitQuery,
  type: z
    .enum(EVENT_TYPES)
    .optional()
    .openapi({ param: { name: "type", in: "query" }, description: "Only events of this type." }),
});

// The body types of this route, for clients and tests (from the schemas it declares).
export type { EventListResponse };

const route = createRoute({
  method: "get",
  operationId: "listEvents",
  path: "/v1/events",
  tags: ["Events"],
  summary: "List events",
  description:
    "Events of the account in the key's mode from the last 30 days, oldest first, streamed with `cursor`. Paging never skips an event: a page only shows events of transactions that committed before every transaction still running, so an event that commits late can never land behind a cursor already handed out.",
  request: { query: QuerySchema },
  responses: {
    200: jsonAnswer("A page of events", EventListResponseSchema),
    ...errorResponses(400, 402),
  },
});

export function registerEventsList(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const query = c.req.valid("query");
    const { rows, hasMore } = await listEvents(service.deps.db, {
      scope: scopeOf(c),
      type: query.type,
      after: query.cursor === undefined ? undefined : eventPosition(query.cursor),
      limit: query.limit,
    });
    const last = rows.at(-1);
    const body: EventListResponse = {
      ok: true,
      data: {
        object: "list",
        resource: "event",
        count: rows.length,
        events: rows.map(toEvent),
        // An empty page keeps the caller's place, so polling resumes from it.
        nextCursor: last ? eventCursor({ xact: last.xact, seq: String(last.seq) }) : (query.cursor ?? null),
        hasMore,
      },
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
