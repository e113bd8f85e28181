import type { Db } from "@svc/db";
import { ApiError, type AppEnv, authOf, type HygieneIssue, type RoutePolicy } from "@svc/http";
import type { Refusal } from "@svc/refusal";
import type { Context } from "hono";
import { appendVersion } from "../data/records.js";
import { invalidSelection } from "../errors.js";
import type { Change } from "../version-content.js";

/** Organization keys only, with the operation's scope (contract: Authentication, table). */
export const READ: RoutePolicy = { keys: ["organization"], scope: "mse:read" };
export const WRITE: RoutePolicy = { keys: ["organization"], scope: "mse:write" };
export const SIGN: RoutePolicy = { keys: ["organization"], scope: "mse:sign" };
/**
 * The MSE agent (decision 53): the contract's "secret key (write-equivalent)". An account's secret
 * test or live key (a live key under the usual plan rules, else 402), or an organization key with
 * `mse:write`; publishable keys and organization keys without `mse:write` are 403. The scope
 * applies to organization keys only. The route reads no organization data, so it needs no `caller`.
 */
export const AGENT: RoutePolicy = { keys: ["secret", "organization"], scope: "mse:write" };

export const TAG = "MSE Record";

/** The caller's organization and key (the policy admits organization keys only). */
export function caller(c: Context<AppEnv>): { orgId: string; keyId: string } {
  const auth = authOf(c, "api_key");
  if (!auth.orgId) throw new ApiError("forbidden", "Organization keys can call only the MSE Record API.");
  return { orgId: auth.orgId, keyId: auth.keyId };
}

/**
 * Appends the next version of the visit's MSE for the caller (a write or a patch whose selection
 * the route has checked); answers the write's result and its risk with the safety event it wrote.
 */
export async function appendCallerVersion(
  db: Db,
  c: Context<AppEnv>,
  visitId: string,
  body: { patientId: string; clinicianId?: string | undefined },
  change: Change,
) {
  const { orgId, keyId } = caller(c);
  const input = { orgId, keyId, visitId, patientId: body.patientId, clinicianId: body.clinicianId };
  const result = await appendVersion(db, input, change);
  return { result, risk: { ...result.risk, safetyEventId: result.safetyEventId } };
}

/**
 * Input hygiene findings (decision 29) inside a selection are selection problems, reported like
 * every other one (422, decision 39; the contract answers unknown domains and options with 422):
 * NUL, other control characters or an unpaired surrogate in a note, a reserved or unprintable
 * key. Everything else (other fields, nesting, size, duplicate keys) keeps the 400.
 */
export function selectionFindings(issues: HygieneIssue[]): Refusal | undefined {
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
