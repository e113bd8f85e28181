import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { and, asc, eq, gte, wearableConnections, wearableDailyMetrics } from "@svc/db";
import {
  ApiError,
  type AppEnv,
  decimalInteger,
  errorResponses,
  rateLimitHeaders,
  type ServiceApp,
} from "@svc/http";
import { lastDays } from "../wearables/providers.js";
import { ConnectionIdParams } from "./v1_wearables_schemas.js";

export const METRICS_DAYS_MAX = 90;

const QuerySchema = z.object({
  days: decimalInteger({ min: 1, max: METRICS_DAYS_MAX, fallback: 30 }).openapi({
    param: { name: "days", in: "query" },
    description: "1-90, default 30 (UTC days ending today).",
  }),
});

const DailySchema = z.object({
  day: z.string().openapi({ example: "2026-11-20" }),
  sleepHours: z.number().nullable(),
  steps: z.number().int().nullable(),
  restingHeartRate: z.number().nullable(),
  hrvMs: z.number().nullable(),
});

export const WearableMetricsResponseSchema = z
  .object({
    ok: z.literal(true),
    data: z.object({
      object: z.literal("wearable_metrics"),
      connectionId: z.string(),
      patientRef: z.string(),
      provider: z.string().nullable(),
      days: z.number().int(),
      from: z.string(),
      to: z.string(),
      count: z.number().int(),
      daily: z.array(DailySchema),
      avgSleepHours: z.number().nullable().openapi({
        description:
          "Mean nightly sleep over the days with data (null when none): feeds `avgSleepHours` of relapse and outcome.",
      }),
    }),
  })
  .openapi("WearableMetrics");
export type WearableMetricsResponse = z.infer<typeof WearableMetricsResponseSchema>;

const route = createRoute({
  method: "get",
  path: "/v1/wearables/connections/{id}/metrics",
  tags: ["Wearables"],
  summary: "Synced daily metrics of a connection",
  description:
    "Daily sleep hours, steps, resting heart rate and HRV for the last `days` UTC days, oldest first, plus `avgSleepHours`.",
  request: { params: ConnectionIdParams, query: QuerySchema },
  responses: {
    200: {
      description: "The metrics",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: WearableMetricsResponseSchema } },
    },
    ...errorResponses(400, 402, 404),
  },
});

export function registerWearableConnectionsMetrics(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { id } = c.req.valid("param");
    const { days } = c.req.valid("query");
    const auth = c.get("auth");
    const [connection] = await service.deps.db
      .select()
      .from(wearableConnections)
      .where(
        and(
          eq(wearableConnections.id, id),
          eq(wearableConnections.accountId, auth.accountId as string),
          eq(wearableConnections.mode, auth.mode),
        ),
      );
    if (!connection)
      throw new ApiError("not_found", "No wearable connection with this id exists for this account.");
    const window = lastDays(days);
    const from = window[0] as string;
    const to = window.at(-1) as string;
    const rows = await service.deps.db
      .select()
      .from(wearableDailyMetrics)
      .where(and(eq(wearableDailyMetrics.connectionId, id), gte(wearableDailyMetrics.day, from)))
      .orderBy(asc(wearableDailyMetrics.day));
    const daily = rows
      .filter((r) => r.day <= to)
      .map((r) => ({
        day: r.day,
        sleepHours: r.sleepHours,
        steps: r.steps,
        restingHeartRate: r.restingHeartRate,
        hrvMs: r.hrvMs,
      }));
    const sleeps = daily.map((d) => d.sleepHours).filter((v): v is number => v !== null);
    const avgSleepHours =
      sleeps.length > 0 ? Math.round((sleeps.reduce((a, b) => a + b, 0) / sleeps.length) * 100) / 100 : null;
    const body: WearableMetricsResponse = {
      ok: true,
      data: {
        object: "wearable_metrics",
        connectionId: connection.id,
        patientRef: connection.patientRef,
        provider: connection.provider,
        days,
        from,
        to,
        count: daily.length,
        daily,
        avgSleepHours,
      },
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
