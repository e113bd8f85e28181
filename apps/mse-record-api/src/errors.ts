import type { SelectionError } from "@svc/mse-catalog";
import { Refusal } from "@svc/refusal";

/**
 * The MSE Record API's own refusals, built in one place so the routes and the data-access
 * module answer each case with the same code and message (a `Refusal`, decision 206; the HTTP
 * error handler gives it its status).
 */

/** 422 with the validator's per-problem list (decision 39). */
export function invalidSelection(errors: SelectionError[]): Refusal {
  return new Refusal("invalid_selection", "The selection failed catalog validation; see errors.", {
    extra: { errors },
  });
}

/** 404: the visit has no MSE in the caller's organization (or a PATCH found nothing to amend). */
export function noRecord(): Refusal {
  return new Refusal("not_found", "This visit has no MSE.");
}

/** 409: signing needs a recorded version. */
export function nothingToSign(): Refusal {
  return new Refusal("conflict", "This visit has no MSE to sign.");
}

/** 409: a visit belongs to one patient; a write or signature naming another is refused. */
export function recordedForAnotherPatient(): Refusal {
  return new Refusal("conflict", "This visit is recorded for a different patientId.");
}

/** 409: a visit holds at most `max` versions (decision 86); the write or patch stored nothing. */
export function versionLimitReached(max: number): Refusal {
  return new Refusal(
    "conflict",
    `This visit already has ${max} versions, the most one visit may hold; nothing was stored.`,
  );
}

/** 409: a version carries at most `max` signatures (decision 86); nothing was stored. */
export function signatureLimitReached(max: number): Refusal {
  return new Refusal(
    "conflict",
    `This version already has ${max} signatures, the most one version may carry; nothing was stored.`,
  );
}
