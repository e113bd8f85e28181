import type { DbOrTx } from "@svc/db";
import type { EndpointPosition, WebhookEndpointRow } from "@svc/delivery";
import { ApiError, type AppEnv, authOf } from "@svc/http";
import { decodeCursor, encodeCursor, recordAudit } from "@svc/records";
import { Refusal } from "@svc/refusal";
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
 * A refusal of the endpoint functions in the API's words: not found (also another account's or
 * mode's id) without the id the operator's message names, a refused URL naming `url`, the cap's
 * `conflict` as it is; anything else, the HTTP layer's own refusals (`runIdempotent`'s) among
 * them, unchanged. The error handler gives each its status.
 */
export function inApiWords(error: unknown): unknown {
  if (!(error instanceof Refusal) || error instanceof ApiError) return error;
  if (error.code === "not_found") return new Refusal("not_found", "No such webhook endpoint.");
  if (error.code === "conflict") return new Refusal("conflict", error.message);
  return new Refusal("invalid_request", error.message, {
    issues: [{ path: "url", message: error.message }],
  });
}

/** Run the endpoint functions with their refusals in the API's words. */
export async function refusingAsApi<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw inApiWords(error);
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
  const auth = authOf(c, "api_key");
  return recordAudit(tx, {
    workspace: { accountId: auth.accountId as string },
    action,
    targetId,
    detail: { ...detail, mode: auth.mode, apiKeyId: auth.keyId, requestId: c.get("requestId") },
  });
}
