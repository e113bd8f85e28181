import { createRoute, type RouteHandler, type z } from "@hono/zod-openapi";
import { type AppEnv, flatErrorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { listSafetyEvents, safetyEventPosition } from "@svc/records";
import {
  type SafetyEventList,
  SafetyEventListSchema,
  SafetyEventsQuerySchema,
} from "../schemas/safety-events.js";
import { caller, READ, TAG } from "./common.js";

/** The 200 body of GET /v1/mse/safety_events. */
export type MseSafetyEventList = z.infer<typeof SafetyEventListSchema>;

const route = createRoute({
  method: "get",
  operationId: "listMseSafetyEvents",
  path: "/v1/mse/safety_events",
  tags: [TAG],
  summary: "List safety events",
  description:
    "The organization's MSE safety events, newest first (additive). Every safety event written for a risk-bearing version, as delivered to webhooks. Keyset paging: pass `nextCursor` as `cursor`. Optional `visitId` filter. Scope `mse:read`.",
  request: { query: SafetyEventsQuerySchema },
  responses: {
    200: jsonAnswer("A page of safety events", SafetyEventListSchema),
    ...flatErrorResponses(400),
  },
});

export function registerMseSafetyEvents(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
    const query = c.req.valid("query");
    const { orgId } = caller(c);
    const page = await listSafetyEvents(service.deps.db, {
      orgId,
      limit: query.limit,
      ...(query.cursor === undefined ? {} : { after: safetyEventPosition(query.cursor) }),
      ...(query.visitId ? { visitId: query.visitId } : {}),
    });
    const response: SafetyEventList = {
      object: "list",
      resource: "mse.safety_event",
      count: page.events.length,
      events: page.events as SafetyEventList["events"],
      nextCursor: page.nextCursor,
      hasMore: page.hasMore,
    };
    return c.json(response, 200);
  };
  service.openapi(route, handler, READ);
}
