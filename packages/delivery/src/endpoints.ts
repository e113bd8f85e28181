import { isIP } from "node:net";
import {
  accounts,
  and,
  asc,
  type Db,
  type DbOrTx,
  desc,
  eq,
  gt,
  inArray,
  isNull,
  makeDeliveryDueAgain,
  organizations,
  recordEvent,
  type SQL,
  sql,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from "@svc/db";
import { newId } from "@svc/ids";
import {
  addressPolicyFor,
  checkEndpointUrl,
  isAllowedAddress,
  type Resolver,
  refusedAddressReason,
  systemResolver,
} from "@svc/outbound-http";
import { Refusal } from "@svc/refusal";
import { newWebhookSecret, TEST_EVENT_TYPE } from "@svc/webhooks";

/**
 * Operator actions on webhook endpoints and deliveries (the `pnpm svc webhooks ...` commands).
 * Refusals are `Refusal`s (decision 206), which the CLI prints as `{ error }`.
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

/** At most this many endpoints per account (or organization) and mode that are not removed. */
export const MAX_WEBHOOK_ENDPOINTS = 16;

/** The account and mode an API key acts in: the API's reads and writes of endpoints stay inside it. */
export interface EndpointOwner {
  accountId: string;
  mode: "test" | "live";
}

/** What every read and write of an endpoint answers (never its secret). */
const ENDPOINT_COLUMNS = {
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  mode: webhookEndpoints.mode,
  allowPrivate: webhookEndpoints.allowPrivate,
  createdAt: webhookEndpoints.createdAt,
  disabledAt: webhookEndpoints.disabledAt,
  disabledReason: webhookEndpoints.disabledReason,
};

/** An endpoint as every function here returns it. */
export interface WebhookEndpointRow {
  id: string;
  url: string;
  mode: "test" | "live";
  allowPrivate: boolean;
  createdAt: Date;
  disabledAt: Date | null;
  disabledReason: string | null;
}

/** The endpoint with this id that is not removed, inside the owner's account and mode when given. */
function endpointMatch(id: string, owner?: EndpointOwner): SQL | undefined {
  return and(
    eq(webhookEndpoints.id, id),
    isNull(webhookEndpoints.removedAt),
    owner ? eq(webhookEndpoints.accountId, owner.accountId) : undefined,
    owner ? eq(webhookEndpoints.mode, owner.mode) : undefined,
  );
}

function noEndpoint(id: string): Refusal {
  return new Refusal("not_found", `No webhook endpoint ${id}.`);
}

/** How an endpoint's address is judged (decision 48, decision 95). */
export interface EndpointAddressPolicy {
  mode: "test" | "live";
  allowPrivate: boolean;
  /**
   * The operator's loopback setting (`loopbackWebhooksAllowed(env)`): may a test-mode endpoint be
   * on loopback? Unset is no (DESIGN: off on a hosted service). `allowPrivate` is apart.
   */
  allowLoopbackWebhooks?: boolean;
  resolve?: Resolver;
}

/**
 * The address rules of an endpoint URL, checked when it is added and when it is changed: live
 * needs https, no credentials, and every address the name resolves to passes the policy. Reads no
 * row and writes nothing, so a caller runs it before opening a transaction (a name can take
 * seconds to resolve). Refusals are `invalid_request` with a sentence saying why.
 */
export async function checkEndpointAddress(url: string, policy: EndpointAddressPolicy): Promise<void> {
  const policyInput = {
    mode: policy.mode,
    allowPrivate: policy.allowPrivate,
    allowLoopbackWebhooks: policy.allowLoopbackWebhooks,
  };
  const checked = checkEndpointUrl(url, policyInput);
  if (!checked.ok) throw new Refusal("invalid_request", checked.reason);
  const host = checked.url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return;
  let addresses: { address: string }[];
  try {
    addresses = await (policy.resolve ?? systemResolver)(host);
  } catch {
    throw new Refusal("invalid_request", `The host ${host} does not resolve.`);
  }
  const allowed = addressPolicyFor(policyInput);
  const refused = addresses.find((a) => !isAllowedAddress(a.address, allowed));
  if (refused)
    throw new Refusal(
      "invalid_request",
      refusedAddressReason(
        `The host ${host} resolves to ${refused.address}, which`,
        refused.address,
        policyInput,
      ),
    );
}

/** An endpoint whose owner and address were checked, ready to insert. */
export interface CheckedEndpoint {
  accountId: string | null;
  orgId: string | null;
  url: string;
  mode: "test" | "live";
  allowPrivate: boolean;
}

/**
 * The checks of a new endpoint (decision 48): exactly one owner, which exists; organization
 * endpoints are always live (decision 28); the address rules of `checkEndpointAddress`. Writes
 * nothing.
 */
export async function checkNewWebhookEndpoint(db: DbOrTx, input: AddEndpointInput): Promise<CheckedEndpoint> {
  if (Boolean(input.accountId) === Boolean(input.orgId))
    throw new Refusal("invalid_request", "Give exactly one of --account and --org.");
  // Organization endpoints receive only MSE safety events, which carry live patient data: they
  // are live endpoints, under the live URL rules (https; private addresses only when allowed).
  const mode = input.mode ?? (input.orgId ? "live" : "test");
  if (mode !== "test" && mode !== "live")
    throw new Refusal("invalid_request", "--mode must be test or live.");
  const allowPrivate = input.allowPrivate ?? false;
  if (input.accountId) {
    const [account] = await db
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.id, input.accountId));
    if (!account) throw new Refusal("not_found", `No account ${input.accountId}.`);
  } else {
    const [org] = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, input.orgId as string));
    if (!org) throw new Refusal("not_found", `No organization ${input.orgId}.`);
    if (mode !== "live")
      throw new Refusal(
        "invalid_request",
        "Organization endpoints receive MSE safety events (live patient data) and must be live: https, public unless --allow-private.",
      );
  }
  await checkEndpointAddress(input.url, {
    mode,
    allowPrivate,
    allowLoopbackWebhooks: input.allowLoopbackWebhooks,
    resolve: input.resolve,
  });
  return {
    accountId: input.accountId ?? null,
    orgId: input.orgId ?? null,
    url: input.url,
    mode,
    allowPrivate,
  };
}

/**
 * Insert a checked endpoint with a new secret, returned this once. The owner's row is locked
 * first, so two inserts for one owner take turns and the count of its endpoints in this mode
 * stays at most MAX_WEBHOOK_ENDPOINTS (every event writes one delivery per endpoint, so the cap
 * also bounds what one event can fan out to).
 */
export async function insertWebhookEndpoint(db: DbOrTx, checked: CheckedEndpoint) {
  return db.transaction(async (tx) => {
    const owner = checked.accountId
      ? eq(webhookEndpoints.accountId, checked.accountId)
      : eq(webhookEndpoints.orgId, checked.orgId as string);
    if (checked.accountId)
      await tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(eq(accounts.id, checked.accountId))
        .for("update");
    else
      await tx
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.id, checked.orgId as string))
        .for("update");
    const [held] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookEndpoints)
      .where(and(owner, eq(webhookEndpoints.mode, checked.mode), isNull(webhookEndpoints.removedAt)));
    if (Number(held?.n ?? 0) >= MAX_WEBHOOK_ENDPOINTS)
      throw new Refusal(
        "conflict",
        `There are already ${MAX_WEBHOOK_ENDPOINTS} ${checked.mode}-mode webhook endpoints here, the most allowed; remove one first.`,
      );
    const secret = newWebhookSecret();
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({ id: newId("we"), ...checked, secret })
      .returning(ENDPOINT_COLUMNS);
    if (!row) throw new Error("webhook endpoint insert returned no row");
    return { ...row, secret };
  });
}

/**
 * Register an endpoint (decision 48): the checks of `checkNewWebhookEndpoint`, then the insert.
 * The secret is returned this once.
 */
export async function addWebhookEndpoint(db: Db, input: AddEndpointInput) {
  const created = await insertWebhookEndpoint(db, await checkNewWebhookEndpoint(db, input));
  return { id: created.id, url: created.url, secret: created.secret };
}

/**
 * Where a page of endpoints ends: the id of its last one. Ids are time-sortable (`@svc/ids`), so
 * id order is creation order, and unlike `created_at` (microseconds in PostgreSQL) an id survives
 * a cursor whole.
 */
export interface EndpointPosition {
  id: string;
}

/**
 * Endpoints of an account or organization that are not removed, oldest first; never their
 * secrets. `mode` keeps one mode's; `page` reads at most `limit` after `after` and says whether
 * more follow (without it, every endpoint: at most MAX_WEBHOOK_ENDPOINTS per mode).
 */
export async function listWebhookEndpoints(
  db: Db,
  owner: { accountId?: string; orgId?: string; mode?: "test" | "live" },
  page?: { after?: EndpointPosition; limit: number },
): Promise<{ endpoints: WebhookEndpointRow[]; hasMore: boolean }> {
  if (Boolean(owner.accountId) === Boolean(owner.orgId))
    throw new Refusal("invalid_request", "Give exactly one of --account and --org.");
  const after = page?.after;
  const rows = await db
    .select(ENDPOINT_COLUMNS)
    .from(webhookEndpoints)
    .where(
      and(
        owner.accountId
          ? eq(webhookEndpoints.accountId, owner.accountId)
          : eq(webhookEndpoints.orgId, owner.orgId as string),
        isNull(webhookEndpoints.removedAt),
        owner.mode ? eq(webhookEndpoints.mode, owner.mode) : undefined,
        after ? gt(webhookEndpoints.id, after.id) : undefined,
      ),
    )
    .orderBy(asc(webhookEndpoints.id))
    .limit(page ? page.limit + 1 : MAX_ENDPOINTS_READ);
  const limit = page?.limit ?? MAX_ENDPOINTS_READ;
  return { endpoints: rows.slice(0, limit), hasMore: rows.length > limit };
}

/**
 * Without a page, a list reads at most this many: both modes at the cap, with room for endpoints
 * added before the cap existed; the dashboard and the CLI show them all.
 */
const MAX_ENDPOINTS_READ = 1000;

/** One endpoint that is not removed (inside the owner's account and mode when given); never its secret. */
export async function getWebhookEndpoint(db: DbOrTx, id: string, owner?: EndpointOwner) {
  const [row] = await db.select(ENDPOINT_COLUMNS).from(webhookEndpoints).where(endpointMatch(id, owner));
  if (!row) throw noEndpoint(id);
  return row;
}

/**
 * Point an endpoint at a new URL, checked first with `checkEndpointAddress` under the endpoint's
 * mode. The operator's `allowPrivate` was granted for the old address, so it does not carry over.
 */
export async function setWebhookEndpointUrl(
  db: DbOrTx,
  input: { id: string; url: string; owner?: EndpointOwner },
) {
  const [updated] = await db
    .update(webhookEndpoints)
    .set({ url: input.url, allowPrivate: false })
    .where(endpointMatch(input.id, input.owner))
    .returning(ENDPOINT_COLUMNS);
  if (!updated) throw noEndpoint(input.id);
  return updated;
}

/**
 * Remove an endpoint (inside the owner's account and mode when given): it gets no new deliveries
 * and its pending ones are cancelled.
 */
export async function removeWebhookEndpoint(db: DbOrTx, id: string, now = new Date(), owner?: EndpointOwner) {
  return db.transaction(async (tx) => {
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ removedAt: now })
      .where(endpointMatch(id, owner))
      .returning({ id: webhookEndpoints.id, removedAt: webhookEndpoints.removedAt });
    if (!endpoint) throw new Refusal("not_found", `No webhook endpoint ${id} (or it was already removed).`);
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
    throw new Refusal("invalid_request", "Give exactly one of --endpoint and --event.");
  const limit = input.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200)
    throw new Refusal("invalid_request", "--limit must be from 1 to 200.");
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
  if (!row) throw new Refusal("not_found", `No webhook delivery ${id}.`);
  const [endpoint] = await db
    .select({ removedAt: webhookEndpoints.removedAt, disabledAt: webhookEndpoints.disabledAt })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, row.endpointId));
  if (!endpoint || endpoint.removedAt)
    throw new Refusal("invalid_request", "The delivery's endpoint was removed.");
  if (endpoint.disabledAt) throw new Refusal("invalid_request", "The delivery's endpoint is disabled.");
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
    if (!endpoint) throw new Refusal("not_found", `No webhook endpoint ${input.endpointId}.`);
    if (endpoint.disabledAt)
      throw new Refusal("invalid_request", "The endpoint is disabled; enable it first.");
    return recordEvent(tx, {
      accountId: input.accountId,
      mode: endpoint.mode,
      type: TEST_EVENT_TYPE,
      data: { object: "webhook_endpoint", id: input.endpointId, test: true },
      endpointId: input.endpointId,
    });
  });
}

/**
 * Disable an endpoint (no new deliveries; pending ones are cancelled when due) or enable it again,
 * inside the owner's account and mode when given.
 */
export async function setWebhookEndpointDisabled(
  db: DbOrTx,
  input: { id: string; disabled: boolean; reason?: string; owner?: EndpointOwner },
  now = new Date(),
) {
  const [updated] = await db
    .update(webhookEndpoints)
    .set(
      input.disabled
        ? { disabledAt: now, disabledReason: input.reason ?? "Disabled in the dashboard." }
        : { disabledAt: null, disabledReason: null },
    )
    .where(endpointMatch(input.id, input.owner))
    .returning(ENDPOINT_COLUMNS);
  if (!updated) throw noEndpoint(input.id);
  return updated;
}

/**
 * A new signing secret for an endpoint (inside the owner's account and mode when given), returned
 * this once; deliveries from now on are signed with it (there is no overlap: receivers must
 * switch when they roll).
 */
export async function rollWebhookSecret(db: DbOrTx, id: string, owner?: EndpointOwner) {
  const secret = newWebhookSecret();
  const [updated] = await db
    .update(webhookEndpoints)
    .set({ secret })
    .where(endpointMatch(id, owner))
    .returning(ENDPOINT_COLUMNS);
  if (!updated) throw noEndpoint(id);
  return { ...updated, secret };
}
