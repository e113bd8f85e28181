import type { DbOrTx } from "@svc/db";
import { RepoError } from "@svc/db";
import type { EndpointPosition, WebhookEndpointRow } from "@svc/delivery";
import { ApiError, type AppEnv, decodeCursor, encodeCursor } from "@svc/http";
import { recordAudit } from "@svc/records";
import type { Context } from "hono";
import type { WebhookEndpoint } from "../schemas/webhook-endpoints.js";

/** What the webhook endpoint routes share: the body of a row, the list's cursor, refusals, audit. */

export function toWebhookEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    object: "webhook_endpoint",
    id: row.id,
    url: row.url,
    mode: row.mode,
    status: row.disabledAt ? "disabled" : "enabled",
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledReason: row.disabledReason,
    createdAt: row.createdAt.toISOString(),
  };
}

const CURSOR_PARTS = [/^we_[0-9a-z]{26}$/];

export function endpointCursor(row: WebhookEndpointRow): string {
  return encodeCursor([row.id]);
}

/** The position a `nextCursor` stands for; any other string is a 400 naming `cursor`. */
export function endpointPosition(cursor: string): EndpointPosition {
  const [id] = decodeCursor(cursor, CURSOR_PARTS) as [string];
  return { id };
}

/**
 * A refusal of the endpoint functions as the API's error: not found (also another account's or
 * mode's id) 404, a refused URL 400 naming `url`, the cap 409 `conflict`; anything else unchanged.
 */
export function asApiError(error: unknown): unknown {
  if (!(error instanceof RepoError)) return error;
  if (error.code === "not_found") return new ApiError("not_found", "No such webhook endpoint.");
  if (error.code === "conflict") return new ApiError("conflict", error.message);
  return new ApiError("invalid_request", error.message, {
    issues: [{ path: "url", message: error.message }],
  });
}

/** Run the endpoint functions with their refusals as API errors. */
export async function refusingAsApi<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asApiError(error);
  }
}

/**
 * An audit row of a change made through the API, in the account's log the dashboard shows (the
 * same actions as the dashboard's), inside the change's own transaction. It names the key that
 * made the change and the request, never a secret.
 */
export function auditEndpointChange(
  tx: DbOrTx,
  c: Context<AppEnv>,
  action: string,
  targetId: string,
  detail: Record<string, unknown> = {},
): Promise<void> {
  const auth = c.get("auth");
  return recordAudit(tx, {
    workspace: { accountId: auth.accountId as string },
    action,
    targetId,
    detail: { ...detail, mode: auth.mode, apiKeyId: auth.keyId, requestId: c.get("requestId") },
  });
}
