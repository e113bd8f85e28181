/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { accountPlanLimits, listApiUsage } from "@svc/db";
import { MSE_ORG_RATE } from "@svc/http";
import { isOrganization, type Workspace } from "@svc/records";
import { z } from "zod";
import { USAGE_WINDOWS, UsagePage } from "../pages/usage.js";
import { summarizeUsage, type UsageLimits, utcDayBefore, utcMonthStart } from "../usage.js";
import type { DashboardApp, DashboardContext } from "./context.js";
import type { Page } from "./page.js";

const UsageQuerySchema = z.object({
  days: z.coerce
    .number()
    .refine((d) => (USAGE_WINDOWS as readonly number[]).includes(d))
    .default(30),
});

/** An organization has no plan: the MSE Record API's per-organization rate (ruling 15). */
const ORGANIZATION_LIMITS: UsageLimits = {
  planName: "MSE Record API organization",
  dailyKeyQuota: null,
  dailyAccountQuota: null,
  ratePerSecond: MSE_ORG_RATE.ratePerSecond,
  burst: MSE_ORG_RATE.burst,
  monthlyAllowance: null,
};

async function limitsOf(ctx: DashboardContext, workspace: Workspace): Promise<UsageLimits> {
  if (isOrganization(workspace)) return ORGANIZATION_LIMITS;
  const plan = await accountPlanLimits(ctx.db, workspace.accountId);
  if (!plan) throw new Error("A signed-in account has no plan row.");
  return plan;
}

async function usagePage(c: Page<"/usage">, ctx: DashboardContext) {
  const viewer = c.get("viewer");
  const query = UsageQuerySchema.safeParse(c.req.query());
  if (!query.success)
    return ctx.problem(c, 400, "Bad window", `Choose ${USAGE_WINDOWS.join(", ")} days.`, "/dashboard/usage");
  const windowDays = query.data.days;
  const now = new Date();
  const windowStart = utcDayBefore(now, windowDays - 1);
  // From the month's start too, when the window begins later: the month-to-date total needs it.
  const since = [windowStart, utcMonthStart(now)].sort()[0] as string;
  const [rows, limits] = await Promise.all([
    listApiUsage(ctx.db, viewer.workspace, since),
    limitsOf(ctx, viewer.workspace),
  ]);
  const summary = summarizeUsage(rows, windowDays, now);
  return c.html(
    <UsagePage viewer={viewer} windowDays={windowDays} limits={limits} summary={summary} rows={rows} />,
  );
}

/** Requests per day, key and operation against the plan's limits (decision 58). */
export function registerUsage(app: DashboardApp, ctx: DashboardContext): void {
  app.get("/usage", (c) => usagePage(c, ctx));
}
