/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { accountOf, eventCursor, eventPosition, listAudit, listEvents } from "@svc/records";
import { z } from "zod";
import { AuditPage } from "../pages/audit.js";
import { EventsPage } from "../pages/events.js";
import type { DashboardApp, DashboardContext } from "./context.js";
import type { Page } from "./page.js";

const EventsQuerySchema = z.object({
  mode: z.enum(["test", "live"]).default("test"),
  type: z
    .string()
    .max(64)
    .regex(/^[a-z0-9_.]*$/)
    .default(""),
  after: z.string().max(200).optional(),
});
const BACK = "/dashboard/events";

async function listEventsPage(c: Page<"/events">, ctx: DashboardContext) {
  const viewer = c.get("viewer");
  const query = EventsQuerySchema.safeParse(c.req.query());
  if (!query.success)
    return ctx.problem(c, 400, "Bad filter", "Mode is test or live; a type is lower case.", BACK);
  let after: ReturnType<typeof eventPosition> | undefined;
  try {
    after = query.data.after ? eventPosition(query.data.after) : undefined;
  } catch {
    return ctx.problem(c, 400, "Bad filter", "That page link is not valid.", BACK);
  }
  const { mode, type } = query.data;
  const page = await listEvents(ctx.db, {
    scope: { accountId: accountOf(viewer.workspace), mode },
    type: type || undefined,
    after,
    limit: 100,
  });
  const last = page.rows.at(-1);
  const next =
    page.hasMore && last
      ? `${BACK}?${new URLSearchParams({ mode, type, after: eventCursor({ xact: last.xact, seq: String(last.seq) }) })}`
      : undefined;
  return c.html(<EventsPage viewer={viewer} mode={mode} type={type} rows={page.rows} next={next} />);
}

async function auditPage(c: Page<"/audit">, ctx: DashboardContext) {
  const viewer = c.get("viewer");
  return c.html(<AuditPage viewer={viewer} rows={await listAudit(ctx.db, viewer.workspace)} />);
}

/** The account's events (the API's own query, with its cursor) and the dashboard's audit log. */
export function registerEventsAndAudit(app: DashboardApp, ctx: DashboardContext): void {
  app.get("/events", (c) => listEventsPage(c, ctx));
  app.get("/audit", (c) => auditPage(c, ctx));
}
