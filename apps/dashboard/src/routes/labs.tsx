/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { accountOf, listLabOrders, transitionLabOrder } from "@svc/records";
import { LabsPage } from "../pages/labs.js";
import { bothModes, type DashboardApp, type DashboardContext } from "./context.js";
import type { Page } from "./page.js";

const BACK = "/dashboard/labs";

/** The moves of the test-helper endpoints a test order can make here, by the route's last word. */
const MOVES = {
  authorize: { to: "authorized", expectFrom: "requested" },
  advance: {},
} as const;

async function listOrdersPage(c: Page<"/labs">, ctx: DashboardContext) {
  const viewer = c.get("viewer");
  const { test, live } = await bothModes(
    (scope) => listLabOrders(ctx.db, { scope, limit: 100 }).then((p) => p.rows),
    accountOf(viewer.workspace),
  );
  return c.html(<LabsPage viewer={viewer} test={test} live={live} notice={ctx.notice(c)} />);
}

async function moveTestOrder(
  c: Page<"/labs/:id/authorize" | "/labs/:id/advance">,
  ctx: DashboardContext,
  helper: keyof typeof MOVES,
) {
  const viewer = c.get("viewer");
  try {
    const outcome = await transitionLabOrder(ctx.db, {
      id: c.req.param("id"),
      accountId: accountOf(viewer.workspace),
      mode: "test",
      ...MOVES[helper],
    });
    await ctx.audit(c, `lab_order.${helper}d`, outcome.order.id, {
      from: outcome.from,
      to: outcome.order.status,
    });
    return c.redirect(`${BACK}?done=moved`, 303);
  } catch (error) {
    return ctx.refusal(c, error, BACK, "There is no such test lab order in this account.");
  }
}

/** Lab orders of both modes; on test orders the same moves as the test-helper endpoints. */
export function registerLabs(app: DashboardApp, ctx: DashboardContext): void {
  app.get("/labs", (c) => listOrdersPage(c, ctx));
  app.post("/labs/:id/authorize", (c) => moveTestOrder(c, ctx, "authorize"));
  app.post("/labs/:id/advance", (c) => moveTestOrder(c, ctx, "advance"));
}
