import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { type AppEnv, decimalInteger, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { dailyMetricsBetween, getConnection, lastDays } from "@svc/records";
import {
  ConnectionIdParams,
  type WearableMetricsResponse,
  WearableMetricsResponseSchema,
} from "../schemas/wearables.js";
import { scopeOf } from "../scope.js";
import { averageSleepHours, toDailyMetrics } from "../wearables/body.js";

export const METRICS_DAYS_MAX = 90;

const QuerySchema = z.object({
  days: decimalInteger({ min: 1, max: METRICS_DAYS_MAX, fallback: 30 }).openapi({
    param: { name: "days", in: "query" },
    description: "1-90, default 30 (UTC days ending today).",
  }),
});

// The body types of this route, for clients and tests (from the schemas it declares).
export type { WearableMetricsResponse };

const route = createRoute({
  method: "get",
  operationId: "listWearableMetrics",
  path: "/v1/wearables/connections/{id}/metrics",
  tags: ["Wearables"],
  summary: "List daily metrics",
  description:
    "Synced daily metrics of a connection. Daily sleep hours, steps, resting heart rate and HRV for the last `days` UTC days, oldest first, plus `avgSleepHours`.",
  request: { params: ConnectionIdParams, query: QuerySchema },
  responses: {
    200: jsonAnswer("The metrics", WearableMetricsResponseSchema),
    ...errorResponses(400, 402, 404),
  },
});

export function registerWearableConnectionsMetrics(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const { id } = c.req.valid("param");
    const { days } = c.req.valid("query");
    const connection = await getConnection(service.deps.db, scopeOf(c), id);
    const window = lastDays(days);
    const from = window[0] as string;
    const to = window.at(-1) as string;
    const daily = (await dailyMetricsBetween(service.deps.db, connection.id, from, to)).map(toDailyMetrics);
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
        avgSleepHours: averageSleepHours(daily),
      },
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
