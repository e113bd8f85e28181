import { z } from "@hono/zod-openapi";
import { ApiError, type ServiceApp, zodIssues } from "@svc/http";
import { recordCdsFeedback } from "@svc/records";
import { CDS_BASE_PATH, cdsCallerOf } from "./cds_guard.js";

/**
 * POST /cds-hooks/{accountId}/cds-services/{id}/feedback (CDS Hooks 2.0.1 Feedback): what the clinician did with our
 * cards. Each report is stored once per client, card, outcome and outcome time (decision 124):
 * the spec warns the same card may be reported more than once. Answers 200 with an empty body.
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

/** The body as JSON, or 400. */
export async function cdsJsonBody(request: Request): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type))
    throw new ApiError("invalid_request", "Send the body as application/json.");
  try {
    return JSON.parse(await request.text());
  } catch {
    throw new ApiError("invalid_request", "The body is not valid JSON.");
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
      const parsed = CdsFeedbackRequestSchema.safeParse(await cdsJsonBody(c.req.raw));
      if (!parsed.success)
        throw new ApiError("invalid_request", "The feedback failed validation; see issues.", {
          issues: zodIssues(parsed.error),
        });
      const caller = cdsCallerOf(c);
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
      service.deps.logger.info(
        { requestId: c.get("requestId"), clientId: caller.clientId, serviceId, ...result },
        "cds feedback",
      );
      return c.body(null, 200);
    },
    null,
  );
}
