import { ApiError, type AppEnv, type HygieneIssue, type RoutePolicy, type ServiceApp } from "@svc/http";
import type { SelectionError } from "@svc/mse-catalog";
import type { Context } from "hono";
import { StoreError } from "../store.js";

/** Organization keys only, with the operation's scope (contract: Authentication, table). */
export const READ: RoutePolicy = { keys: ["organization"], scope: "mse:read" };
export const WRITE: RoutePolicy = { keys: ["organization"], scope: "mse:write" };
export const SIGN: RoutePolicy = { keys: ["organization"], scope: "mse:sign" };

export const TAG = "MSE Record";

/** The caller's organization and key (the policy admits organization keys only). */
export function caller(c: Context<AppEnv>): { orgId: string; keyId: string } {
  const auth = c.get("auth");
  if (!auth.orgId) throw new ApiError("forbidden", "Organization keys can call only the MSE Record API.");
  return { orgId: auth.orgId, keyId: auth.keyId };
}

/** 422 with the validator's per-problem list (ruling 11). */
export function invalidSelection(errors: SelectionError[]): ApiError {
  return new ApiError("invalid_selection", "The selection failed catalog validation; see errors.", {
    extra: { errors },
  });
}

export function noRecord(): ApiError {
  return new ApiError("not_found", "This visit has no MSE.");
}

/** The one mapping from store refusals to HTTP errors. */
export function toApiError(error: unknown): unknown {
  if (!(error instanceof StoreError)) return error;
  switch (error.kind) {
    case "not_found":
      return noRecord();
    case "no_mse":
      return new ApiError("conflict", "This visit has no MSE to sign.");
    case "patient_mismatch":
      return new ApiError("conflict", "This visit is recorded for a different patientId.");
    case "invalid_selection":
      return invalidSelection(error.errors);
  }
}

/**
 * Input hygiene findings (decision 29) inside a selection are selection problems, reported like
 * every other one (422, ruling 11; the contract answers unknown domains and options with 422):
 * NUL, other control characters or an unpaired surrogate in a note, a reserved or unprintable
 * key. Everything else (other fields, nesting, size, duplicate keys) keeps the 400.
 */
export function selectionFindings(issues: HygieneIssue[]): ApiError | undefined {
  const inSelection = (i: HygieneIssue) =>
    i.kind !== "structure" && i.at[0] === "selection" && i.at.length > 1;
  if (!issues.every(inSelection)) return undefined;
  return invalidSelection(
    issues.map((issue) => {
      const domain = String(issue.at[1]);
      // A refused key where a domain belongs is an unknown domain, as the catalog would say.
      if (issue.at.length === 2 && issue.kind === "key") return { domain, message: "Unknown domain." };
      const field = issue.at[2];
      return { domain, ...(field === undefined ? {} : { value: String(field) }), message: issue.message };
    }),
  );
}

/**
 * Hand committed deliveries to the queue. Best effort: the outbox sweeper picks up whatever this
 * misses, so a failure here is a warning and never fails the request.
 */
export async function enqueueDeliveries(
  service: ServiceApp,
  c: Context<AppEnv>,
  ids: string[],
): Promise<void> {
  const queue = service.deps.deliveries;
  if (ids.length === 0 || !queue) return;
  try {
    await queue.enqueue(ids);
  } catch (error) {
    service.deps.logger.warn(
      { requestId: c.get("requestId"), deliveries: ids.length, errName: (error as Error)?.name },
      "safety event deliveries not enqueued; the outbox sweeper will pick them up",
    );
  }
}
