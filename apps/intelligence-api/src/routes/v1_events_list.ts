import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { and, asc, EVENT_RETENTION_DAYS, eq, events, gte, type SQL, sql } from "@svc/db";
import { ApiError, type AppEnv, errorResponses, rateLimitHeaders, type ServiceApp } from "@svc/http";
import { decodeCursor, encodeCursor } from "../labs/cursor.js";
import { LimitQuery } from "./v1_labs_orders_list.js";

/** Event types listed and delivered for lab orders and wearable connections. */
export const EVENT_TYPES = [
  "lab_order.status_changed",
  "lab_order.results_ready",
  "wearable.connected",
  "wearable.sync_completed",
  "wearable.disconnected",
] as const;

const QuerySchema = z.object({
  cursor: z
    .string()
    .max(200)
    .optional()
    .openapi({
      param: { name: "cursor", in: "query" },
      description: "`nextCursor` of the previous page; absent = from the oldest retained event.",
    }),
  limit: LimitQuery,
  type: z
    .enum(EVENT_TYPES)
    .optional()
    .openapi({ param: { name: "type", in: "query" }, description: "Only events of this type." }),
});

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

const route = createRoute({
  method: "get",
  path: "/v1/events",
  tags: ["Events"],
  summary: "List events (reconciliation)",
  description:
    "Events of the account in the key's mode from the last 30 days, oldest first, streamed with `cursor`. Paging never skips an event: a page only shows events of transactions that committed before every transaction still running, so an event that commits late can never land behind a cursor already handed out.",
  request: { query: QuerySchema },
  responses: {
    200: {
      description: "A page of events",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: EventListResponseSchema } },
    },
    ...errorResponses(400, 402),
  },
});

/** `<xact_id>:<seq>` of the last event returned. */
const CURSOR = /^(\d{1,20}):(\d{1,19})$/;
const DAY_MS = 24 * 60 * 60 * 1000;

export function registerEventsList(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const query = c.req.valid("query");
    const auth = c.get("auth");
    const conditions: (SQL | undefined)[] = [
      eq(events.accountId, auth.accountId as string),
      eq(events.mode, auth.mode),
      gte(events.createdAt, new Date(Date.now() - EVENT_RETENTION_DAYS * DAY_MS)),
      // Only transactions older than the oldest one still in flight: nothing can commit behind them.
      sql`${events.xactId} < pg_snapshot_xmin(pg_current_snapshot())`,
    ];
    if (query.type) conditions.push(eq(events.type, query.type));
    if (query.cursor !== undefined) {
      const [, xact, seq] = decodeCursor(query.cursor, CURSOR);
      if (BigInt(xact as string) >= 2n ** 64n || BigInt(seq as string) >= 2n ** 63n) {
        throw new ApiError(
          "invalid_request",
          "The cursor is not valid; pass back a nextCursor exactly as returned.",
          {
            issues: [{ path: "cursor", message: "not a cursor returned by this list" }],
          },
        );
      }
      conditions.push(sql`(${events.xactId}, ${events.seq}) > (${xact}::xid8, ${seq}::bigint)`);
    }
    const rows = await service.deps.db
      .select({
        seq: events.seq,
        xact: sql<string>`${events.xactId}::text`,
        id: events.id,
        type: events.type,
        apiVersion: events.apiVersion,
        data: events.data,
        createdAt: events.createdAt,
      })
      .from(events)
      .where(and(...conditions))
      .orderBy(asc(events.xactId), asc(events.seq))
      .limit(query.limit + 1);
    const hasMore = rows.length > query.limit;
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const body: EventListResponse = {
      ok: true,
      data: {
        object: "list",
        resource: "event",
        count: page.length,
        events: page.map((row) => ({
          id: row.id,
          object: "event" as const,
          type: row.type,
          apiVersion: row.apiVersion,
          createdAt: row.createdAt.toISOString(),
          data: row.data as EventListResponse["data"]["events"][number]["data"],
        })),
        nextCursor: last ? encodeCursor([String(last.xact), String(last.seq)]) : (query.cursor ?? null),
        hasMore,
      },
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
