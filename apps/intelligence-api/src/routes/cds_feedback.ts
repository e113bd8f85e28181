import { z } from "@hono/zod-openapi";
import {
  ApiError,
  type AppDeps,
  type AppEnv,
  authOf,
  type EhrJwtAuth,
  type ServiceApp,
  zodIssues,
} from "@svc/http";
import { CDS_ISSUED_CARD_DAYS, recordCdsFeedback } from "@svc/records";
import type { Context } from "hono";
import { CDS_BASE_PATH, cdsJsonBody } from "./cds_guard.js";

/**
 * POST /cds-hooks/{accountId}/cds-services/{id}/feedback (CDS Hooks 2.0.1 Feedback): what the clinician did with our
 * cards (decisions 124 and 151). Each report counts against the account's rate limit as a call
 * does; a report on a card this service did not issue to this client in the last week refuses
 * the whole POST (400 naming each such report, nothing stored); each report is stored once per
 * client, card and outcome, since the spec warns the same card may be reported more than once.
 * Answers 200 with an empty body.
 */

const Coding = z.object({
  code: z.string().min(1).max(256),
  system: z.string().min(1).max(2048).optional(),
  display: z.string().max(1024).optional(),
});

export const CdsFeedbackItemSchema = z
  .object({
    card: z.string().min(1).max(128),
    outcome: z.enum(["accepted", "overridden"]),
    acceptedSuggestions: z
      .array(z.object({ id: z.string().min(1).max(128) }))
      .max(50)
      .optional(),
    overrideReason: z
      .object({ reason: Coding.optional(), userComment: z.string().max(2000).optional() })
      .optional(),
    outcomeTimestamp: z.iso.datetime({ offset: true, message: "must be an RFC 3339 date-time" }),
  })
  .superRefine((item, ctx) => {
    if (item.outcome === "accepted" && !item.acceptedSuggestions?.length)
      ctx.addIssue({
        code: "custom",
        path: ["acceptedSuggestions"],
        message: "is required for an accepted outcome",
      });
    if (item.outcome === "accepted" && item.overrideReason)
      ctx.addIssue({
        code: "custom",
        path: ["overrideReason"],
        message: "belongs to an overridden outcome only",
      });
    if (item.outcome === "overridden" && item.acceptedSuggestions)
      ctx.addIssue({
        code: "custom",
        path: ["acceptedSuggestions"],
        message: "belongs to an accepted outcome only",
      });
  });

export const CdsFeedbackRequestSchema = z.object({
  feedback: z.array(CdsFeedbackItemSchema).min(1).max(100),
});
export type CdsFeedbackRequest = z.infer<typeof CdsFeedbackRequestSchema>;

/**
 * The guard charged the call one unit; each further report is charged one more before anything is
 * stored (at most 99, the body's limit), and 429 as soon as the account has none left.
 */
async function chargeReports(
  c: Context<AppEnv>,
  deps: AppDeps,
  caller: EhrJwtAuth,
  reports: number,
): Promise<void> {
  for (let charged = 1; charged < reports; charged++) {
    const decision = await deps.limiter.consume(caller.limit);
    const headers = {
      "X-RateLimit-Limit": String(decision.limit),
      "X-RateLimit-Remaining": String(decision.remaining),
      "X-RateLimit-Reset": String(decision.resetAt),
    };
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    if (!decision.allowed)
      throw new ApiError(
        "rate_limited",
        `Each feedback report counts as a request; this account has no requests left for the ${reports} reports sent. Nothing was stored; retry after the number of seconds in Retry-After.`,
        { headers: { "Retry-After": String(decision.retryAfter), ...headers } },
      );
  }
}

export function registerCdsFeedback(service: ServiceApp, serviceIds: readonly string[]): void {
  const known = new Set(serviceIds);
  service.plain(
    "POST",
    `${CDS_BASE_PATH}/:id/feedback`,
    async (c) => {
      const serviceId = c.req.param("id") ?? "";
      if (!known.has(serviceId)) throw new ApiError("not_found", "No CDS service with this id.");
      const parsed = CdsFeedbackRequestSchema.safeParse(await cdsJsonBody(c));
      if (!parsed.success)
        throw new ApiError("invalid_request", "The feedback failed validation; see issues.", {
          issues: zodIssues(parsed.error),
        });
      const caller = authOf(c, "ehr_jwt");
      await chargeReports(c, service.deps, caller, parsed.data.feedback.length);
      const result = await recordCdsFeedback(
        service.deps.db,
        { clientId: caller.clientId, accountId: caller.accountId, mode: caller.mode },
        serviceId,
        parsed.data.feedback.map((item) => ({
          card: item.card,
          outcome: item.outcome,
          outcomeTimestamp: new Date(item.outcomeTimestamp),
          ...(item.acceptedSuggestions
            ? { acceptedSuggestions: item.acceptedSuggestions.map((s) => s.id) }
            : {}),
          ...(item.overrideReason ? { overrideReason: item.overrideReason } : {}),
        })),
      );
      if (!result.ok)
        throw new ApiError(
          "invalid_request",
          "Feedback names cards this service did not issue to this CDS client; nothing was stored; see issues.",
          {
            issues: result.unknownCards.map((index) => ({
              path: `feedback.${index}.card`,
              message: `is not a card this service answered to this CDS client in the last ${CDS_ISSUED_CARD_DAYS} days`,
            })),
          },
        );
      service.deps.logger.info(
        {
          requestId: c.get("requestId"),
          clientId: caller.clientId,
          serviceId,
          stored: result.stored,
          repeated: result.repeated,
        },
        "cds feedback",
      );
      return c.body(null, 200);
    },
    null,
  );
}
