import { ApiError, type AppEnv, type RoutePolicy, type ServiceApp } from "@svc/http";
import type { SelectionError } from "@svc/mse-catalog";
import type { Context } from "hono";
import { isStorableText } from "../schemas.js";
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
 * Notes are the only free text of a selection; PostgreSQL cannot store NUL, and a lone surrogate
 * would not survive the round trip. Reported like any other selection problem (422).
 */
export function unstorableNotes(selection: Record<string, unknown>): SelectionError[] {
  const errors: SelectionError[] = [];
  for (const [domain, entry] of Object.entries(selection)) {
    if (typeof entry !== "object" || entry === null) continue;
    const note = (entry as { text?: unknown }).text;
    if (typeof note === "string" && !isStorableText(note)) {
      errors.push({
        domain,
        value: "text",
        message: "The note must not contain NUL characters or unpaired surrogates.",
      });
    }
  }
  return errors;
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
