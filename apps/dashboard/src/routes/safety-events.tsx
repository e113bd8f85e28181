/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { deliveriesOfEvents } from "@svc/delivery";
import { isOrganization, listSafetyEvents, safetyEventCursor, safetyEventPosition } from "@svc/records";
import { SafetyEventsPage } from "../pages/safety-events.js";
import type { DashboardApp, DashboardContext } from "./context.js";
import type { Page } from "./page.js";

const PAGE_SIZE = 50;
const BACK = "/dashboard/safety-events";

async function listSafetyEventsPage(c: Page<"/safety-events">, ctx: DashboardContext) {
  const viewer = c.get("viewer");
  // The session guard keeps account users out; this narrows the type.
  if (!isOrganization(viewer.workspace)) return ctx.problem(c, 404, "Not found", "There is no such page.");
  const cursor = c.req.query("after");
  let after: ReturnType<typeof safetyEventPosition> | undefined;
  try {
    after = cursor ? safetyEventPosition(cursor) : undefined;
  } catch {
    return ctx.problem(c, 400, "Bad page link", "That page link is not valid.", BACK);
  }
  const page = await listSafetyEvents(ctx.db, { orgId: viewer.workspace.orgId, limit: PAGE_SIZE, after });
  const deliveries = await deliveriesOfEvents(
    ctx.db,
    page.events.map((e) => e.id),
  );
  const last = page.events.at(-1);
  const next =
    page.hasMore && last
      ? `${BACK}?${new URLSearchParams({ after: safetyEventCursor({ createdAt: new Date(last.createdAt), id: last.id }) })}`
      : undefined;
  return c.html(
    <SafetyEventsPage viewer={viewer} events={page.events} deliveries={deliveries} next={next} />,
  );
}

/** The organization's MSE safety events: the API's own query and cursor, 50 a page. */
export function registerSafetyEvents(app: DashboardApp, ctx: DashboardContext): void {
  app.get("/safety-events", (c) => listSafetyEventsPage(c, ctx));
}
