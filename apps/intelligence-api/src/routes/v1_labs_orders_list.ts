import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { and, desc, eq, labOrders, lt, or, type SQL } from "@svc/db";
import { type AppEnv, decimalInteger, errorResponses, rateLimitHeaders, type ServiceApp } from "@svc/http";
import { decodeCursor, encodeCursor } from "../labs/cursor.js";
import { LabOrderSchema, toLabOrder } from "./v1_labs_schemas.js";

export const LIST_LIMIT_MAX = 200;
export const LIST_LIMIT_DEFAULT = 50;

export const LimitQuery = decimalInteger({
  min: 1,
  max: LIST_LIMIT_MAX,
  fallback: LIST_LIMIT_DEFAULT,
}).openapi({
  param: { name: "limit", in: "query" },
  description: "1-200, default 50.",
});

const QuerySchema = z.object({
  patientRef: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .openapi({ param: { name: "patientRef", in: "query" }, description: "Only this patient's orders." }),
  limit: LimitQuery,
  cursor: z
    .string()
    .max(200)
    .optional()
    .openapi({
      param: { name: "cursor", in: "query" },
      description: "`nextCursor` of the previous page (additive to the contract).",
    }),
});

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

const route = createRoute({
  method: "get",
  path: "/v1/labs/orders",
  tags: ["Lab orders"],
  summary: "List lab orders",
  description: "The account's orders (in the key's mode), newest first, optionally of one patient.",
  request: { query: QuerySchema },
  responses: {
    200: {
      description: "A page of orders",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: LabOrderListResponseSchema } },
    },
    ...errorResponses(400, 402),
  },
});

/** `<createdAt ms>:<id>` of the last order on a page. */
const CURSOR = /^(\d{1,15}):(labord_[0-9a-z]{26})$/;

export function registerLabOrdersList(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const query = c.req.valid("query");
    const auth = c.get("auth");
    const conditions: (SQL | undefined)[] = [
      eq(labOrders.accountId, auth.accountId as string),
      eq(labOrders.mode, auth.mode),
    ];
    if (query.patientRef !== undefined) conditions.push(eq(labOrders.patientRef, query.patientRef));
    if (query.cursor !== undefined) {
      const [, ms, id] = decodeCursor(query.cursor, CURSOR);
      const at = new Date(Number(ms));
      conditions.push(
        or(lt(labOrders.createdAt, at), and(eq(labOrders.createdAt, at), lt(labOrders.id, id as string))),
      );
    }
    const rows = await service.deps.db
      .select()
      .from(labOrders)
      .where(and(...conditions))
      .orderBy(desc(labOrders.createdAt), desc(labOrders.id))
      .limit(query.limit + 1);
    const hasMore = rows.length > query.limit;
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const body: LabOrderListResponse = {
      ok: true,
      data: {
        object: "list",
        resource: "lab_order",
        count: page.length,
        orders: page.map(toLabOrder),
        hasMore,
        nextCursor: hasMore && last ? encodeCursor([String(last.createdAt.getTime()), last.id]) : null,
      },
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
