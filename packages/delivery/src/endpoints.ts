import { isIP } from "node:net";
import {
  accounts,
  and,
  asc,
  type Db,
  desc,
  eq,
  inArray,
  isNull,
  makeDeliveryDueAgain,
  organizations,
  RepoError,
  recordEvent,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from "@svc/db";
import { newId } from "@svc/ids";
import { type Resolver, systemResolver } from "@svc/outbound-http";
import {
  addressPolicyFor,
  checkEndpointUrl,
  isAllowedAddress,
  newWebhookSecret,
  refusedAddressReason,
  TEST_EVENT_TYPE,
} from "@svc/webhooks";

/**
 * Operator actions on webhook endpoints and deliveries (the `pnpm svc webhooks ...` commands).
 * Refusals are RepoError, which the CLI prints as `{ error }`.
 */

export interface AddEndpointInput {
  accountId?: string;
  orgId?: string;
  url: string;
  mode?: "test" | "live";
  allowPrivate?: boolean;
  /**
   * The operator's loopback setting (`loopbackWebhooksAllowed(env)`): may a test-mode endpoint be
   * on loopback? Unset is no (DESIGN: off on a hosted service). `allowPrivate` is apart.
   */
  allowLoopbackWebhooks?: boolean;
  resolve?: Resolver;
}

/**
 * Register an endpoint (decision 48): live needs https; organization endpoints are always live
 * (decision 28); the URL must carry no credentials; every
 * address its name resolves to must be public, loopback being allowed for test mode where the
 * operator allows loopback webhooks, and private ranges with `allowPrivate` (operator only). The
 * secret is returned this once.
 */
export async function addWebhookEndpoint(db: Db, input: AddEndpointInput) {
  if (Boolean(input.accountId) === Boolean(input.orgId))
    throw new RepoError("invalid", "Give exactly one of --account and --org.");
  // Organization endpoints receive only MSE safety events, which carry live patient data: they
  // are live endpoints, under the live URL rules (https; private addresses only when allowed).
  const mode = input.mode ?? (input.orgId ? "live" : "test");
  if (mode !== "test" && mode !== "live") throw new RepoError("invalid", "--mode must be test or live.");
  const allowPrivate = input.allowPrivate ?? false;
  if (input.accountId) {
    const [account] = await db
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.id, input.accountId));
    if (!account) throw new RepoError("not_found", `No account ${input.accountId}.`);
  } else {
    const [org] = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, input.orgId as string));
    if (!org) throw new RepoError("not_found", `No organization ${input.orgId}.`);
    if (mode !== "live")
      throw new RepoError(
        "invalid",
        "Organization endpoints receive MSE safety events (live patient data) and must be live: https, public unless --allow-private.",
      );
  }
  const policyInput = { mode, allowPrivate, allowLoopbackWebhooks: input.allowLoopbackWebhooks };
  const checked = checkEndpointUrl(input.url, policyInput);
  if (!checked.ok) throw new RepoError("invalid", checked.reason);
  const host = checked.url.hostname.replace(/^\[|\]$/g, "");
  if (!isIP(host)) {
    let addresses: { address: string }[];
    try {
      addresses = await (input.resolve ?? systemResolver)(host);
    } catch {
      throw new RepoError("invalid", `The host ${host} does not resolve.`);
    }
    const policy = addressPolicyFor(policyInput);
    const refused = addresses.find((a) => !isAllowedAddress(a.address, policy));
    if (refused)
      throw new RepoError(
        "invalid",
        refusedAddressReason(
          `The host ${host} resolves to ${refused.address}, which`,
          refused.address,
          policyInput,
        ),
      );
  }
  const row = {
    id: newId("we"),
    accountId: input.accountId ?? null,
    orgId: input.orgId ?? null,
    url: input.url,
    mode,
    secret: newWebhookSecret(),
    allowPrivate,
  };
  await db.insert(webhookEndpoints).values(row);
  return { id: row.id, url: row.url, secret: row.secret };
}

/** Endpoints of an account or organization that are not removed; never their secrets. */
export async function listWebhookEndpoints(db: Db, owner: { accountId?: string; orgId?: string }) {
  if (Boolean(owner.accountId) === Boolean(owner.orgId))
    throw new RepoError("invalid", "Give exactly one of --account and --org.");
  const rows = await db
    .select({
      id: webhookEndpoints.id,
      url: webhookEndpoints.url,
      mode: webhookEndpoints.mode,
      allowPrivate: webhookEndpoints.allowPrivate,
      createdAt: webhookEndpoints.createdAt,
      disabledAt: webhookEndpoints.disabledAt,
      disabledReason: webhookEndpoints.disabledReason,
    })
    .from(webhookEndpoints)
    .where(
      and(
        owner.accountId
          ? eq(webhookEndpoints.accountId, owner.accountId)
          : eq(webhookEndpoints.orgId, owner.orgId as string),
        isNull(webhookEndpoints.removedAt),
      ),
    )
    .orderBy(webhookEndpoints.createdAt);
  return { endpoints: rows };
}

/** Remove an endpoint: it gets no new deliveries and its pending ones are cancelled. */
export async function removeWebhookEndpoint(db: Db, id: string, now = new Date()) {
  return db.transaction(async (tx) => {
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ removedAt: now })
      .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.removedAt)))
      .returning({ id: webhookEndpoints.id, removedAt: webhookEndpoints.removedAt });
    if (!endpoint) throw new RepoError("not_found", `No webhook endpoint ${id} (or it was already removed).`);
    const cancelled = await tx
      .update(webhookDeliveries)
      .set({ status: "cancelled", lastError: "endpoint_removed", updatedAt: now })
      .where(and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.status, "pending")))
      .returning({ id: webhookDeliveries.id });
    return { id: endpoint.id, removedAt: endpoint.removedAt, cancelledDeliveries: cancelled.length };
  });
}

/** Deliveries of one endpoint or of one event, newest first. */
export async function listWebhookDeliveries(
  db: Db,
  input: { endpointId?: string; eventId?: string; limit?: number },
) {
  if (Boolean(input.endpointId) === Boolean(input.eventId))
    throw new RepoError("invalid", "Give exactly one of --endpoint and --event.");
  const limit = input.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200)
    throw new RepoError("invalid", "--limit must be from 1 to 200.");
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      endpointId: webhookDeliveries.endpointId,
      eventId: webhookDeliveries.eventId,
      source: webhookDeliveries.source,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      lastStatusCode: webhookDeliveries.lastStatusCode,
      lastError: webhookDeliveries.lastError,
      deliveredAt: webhookDeliveries.deliveredAt,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .where(
      input.endpointId
        ? eq(webhookDeliveries.endpointId, input.endpointId)
        : eq(webhookDeliveries.eventId, input.eventId as string),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
  return { deliveries: rows };
}

/** The deliveries of several events (a page of them), oldest first, for a status per event. */
export async function deliveriesOfEvents(db: Db, eventIds: readonly string[]) {
  if (eventIds.length === 0) return [];
  return db
    .select({
      id: webhookDeliveries.id,
      eventId: webhookDeliveries.eventId,
      endpointId: webhookDeliveries.endpointId,
      url: webhookEndpoints.url,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(inArray(webhookDeliveries.eventId, [...eventIds]))
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id));
}

/**
 * Send a delivery again: back to pending, due now, with a fresh 24 h retry window; attempt
 * numbers continue. Refused when the endpoint is removed or disabled.
 */
export async function redeliverWebhook(db: Db, id: string, now = new Date()) {
  const [row] = await db
    .select({ id: webhookDeliveries.id, endpointId: webhookDeliveries.endpointId })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.id, id));
  if (!row) throw new RepoError("not_found", `No webhook delivery ${id}.`);
  const [endpoint] = await db
    .select({ removedAt: webhookEndpoints.removedAt, disabledAt: webhookEndpoints.disabledAt })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, row.endpointId));
  if (!endpoint || endpoint.removedAt) throw new RepoError("invalid", "The delivery's endpoint was removed.");
  if (endpoint.disabledAt) throw new RepoError("invalid", "The delivery's endpoint is disabled.");
  // Through the outbox, which notes the row for the after-commit hand-off (decision 125).
  return (await makeDeliveryDueAgain(db, id, now)) as { id: string; status: string; attempts: number };
}

/** Every attempt of the given deliveries, oldest first (status, latency, snippet, next retry). */
export async function listDeliveryAttempts(db: Db, deliveryIds: string[]) {
  if (deliveryIds.length === 0) return [];
  return db
    .select({
      deliveryId: webhookAttempts.deliveryId,
      attempt: webhookAttempts.attempt,
      statusCode: webhookAttempts.statusCode,
      latencyMs: webhookAttempts.latencyMs,
      error: webhookAttempts.error,
      responseSnippet: webhookAttempts.responseSnippet,
      nextAttemptAt: webhookAttempts.nextAttemptAt,
      attemptedAt: webhookAttempts.attemptedAt,
    })
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveryIds))
    .orderBy(asc(webhookAttempts.deliveryId), asc(webhookAttempts.attempt));
}

/** The event type of a dashboard "send test event" (defined with the other events' shapes). */
export { TEST_EVENT_TYPE };

/**
 * Write a test event in the endpoint's mode, delivered to that endpoint alone (the same outbox,
 * signing and retries as any event). Refused when the endpoint is disabled or removed.
 */
export async function sendTestEvent(db: Db, input: { accountId: string; endpointId: string }) {
  return db.transaction(async (tx) => {
    const [endpoint] = await tx
      .select({ mode: webhookEndpoints.mode, disabledAt: webhookEndpoints.disabledAt })
      .from(webhookEndpoints)
      .where(
        and(
          eq(webhookEndpoints.id, input.endpointId),
          eq(webhookEndpoints.accountId, input.accountId),
          isNull(webhookEndpoints.removedAt),
        ),
      );
    if (!endpoint) throw new RepoError("not_found", `No webhook endpoint ${input.endpointId}.`);
    if (endpoint.disabledAt) throw new RepoError("invalid", "The endpoint is disabled; enable it first.");
    return recordEvent(tx, {
      accountId: input.accountId,
      mode: endpoint.mode,
      type: TEST_EVENT_TYPE,
      data: { object: "webhook_endpoint", id: input.endpointId, test: true },
      endpointId: input.endpointId,
    });
  });
}

/** Disable an endpoint (no new deliveries; pending ones are cancelled when due) or enable it again. */
export async function setWebhookEndpointDisabled(
  db: Db,
  input: { id: string; disabled: boolean; reason?: string },
  now = new Date(),
) {
  const [updated] = await db
    .update(webhookEndpoints)
    .set(
      input.disabled
        ? { disabledAt: now, disabledReason: input.reason ?? "Disabled in the dashboard." }
        : { disabledAt: null, disabledReason: null },
    )
    .where(and(eq(webhookEndpoints.id, input.id), isNull(webhookEndpoints.removedAt)))
    .returning({ id: webhookEndpoints.id, disabledAt: webhookEndpoints.disabledAt });
  if (!updated) throw new RepoError("not_found", `No webhook endpoint ${input.id}.`);
  return updated;
}

/**
 * A new signing secret for an endpoint, returned this once; deliveries from now on are signed
 * with it (there is no overlap: receivers must switch when they roll).
 */
export async function rollWebhookSecret(db: Db, id: string) {
  const secret = newWebhookSecret();
  const [updated] = await db
    .update(webhookEndpoints)
    .set({ secret })
    .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.removedAt)))
    .returning({ id: webhookEndpoints.id, url: webhookEndpoints.url });
  if (!updated) throw new RepoError("not_found", `No webhook endpoint ${id}.`);
  return { ...updated, secret };
}
