import {
  and,
  type Db,
  eq,
  events,
  gte,
  lte,
  mseSafetyEvents,
  sql,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from "@svc/db";
import {
  checkedAddresses,
  errorReason,
  postPinned,
  type Resolver,
  ShutdownAbort,
  systemResolver,
} from "@svc/outbound-http";
import {
  EVENT_ID_HEADER,
  SAFETY_SIGNATURE_HEADER,
  type SafetyEventPayload,
  type Schedule,
  SIGNATURE_HEADER,
  scheduleFor,
  serializeEvent,
  serializeSafetyEvent,
  signPayload,
} from "@svc/webhooks";
import type { Logger } from "pino";

/** Decision 48: a receiver gets 10 s. */
export const DELIVERY_TIMEOUT_MS = 10_000;
export const USER_AGENT = "ClinicalIntelligenceService-Webhooks/1";

export interface DeliverContext {
  db: Db;
  logger: Logger;
  /** Per-attempt limit on the whole exchange (connect, headers, body); default 10 s. */
  timeoutMs?: number;
  /** The retry schedule (tests compress time with `scheduleFor({ timeScale })`). */
  schedule?: Schedule;
  /**
   * How long a claimed row is reserved for the worker posting it. A worker that dies mid-attempt
   * leaves it reserved this long, then the sweeper hands it out again. Default: timeout + 30 s.
   */
  leaseMs?: number;
  resolve?: Resolver;
  /**
   * The operator's loopback setting (`loopbackWebhooksAllowed(env)`), checked at every attempt:
   * may a test-mode endpoint be delivered on loopback? Unset is no. An endpoint registered while it
   * was allowed is refused (`loopback_not_allowed`) once it is not.
   */
  allowLoopbackWebhooks?: boolean;
  now?: () => number;
  /** Aborted on a forced shutdown: an attempt in flight is dropped and its row released. */
  signal?: AbortSignal;
  /**
   * Certificate authorities trusted for https endpoints instead of Node's bundled ones (a
   * receiver with a private CA; tests with a self-signed loopback receiver).
   */
  trustedCa?: string;
}

export type DeliverOutcome =
  | { kind: "skipped"; reason: "not_found" | "not_pending" | "not_due"; nextAttemptAt?: Date }
  | { kind: "cancelled"; reason: string }
  | { kind: "delivered"; attempt: number; statusCode: number }
  | { kind: "retry"; attempt: number; error: string; nextAttemptAt: Date; delayMs: number }
  | { kind: "failed"; attempt: number; error: string }
  | { kind: "released" };

interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  snippet: string | null;
  latencyMs: number;
  /** When the attempt began (the attempt row's attemptedAt). */
  startedAt: number;
}

/** The payload and signature header of a delivery's source row, or null when it is gone. */
async function loadPayload(
  db: Db,
  delivery: { eventId: string; source: "event" | "safety_event" },
): Promise<{ body: string; header: string } | null> {
  if (delivery.source === "event") {
    const [event] = await db.select().from(events).where(eq(events.id, delivery.eventId));
    if (!event) return null;
    return {
      header: SIGNATURE_HEADER,
      body: serializeEvent({
        id: event.id,
        object: "event",
        type: event.type,
        apiVersion: event.apiVersion,
        createdAt: event.createdAt.toISOString(),
        data: event.data as Record<string, unknown>,
      }),
    };
  }
  const [safety] = await db.select().from(mseSafetyEvents).where(eq(mseSafetyEvents.id, delivery.eventId));
  if (!safety) return null;
  return {
    header: SAFETY_SIGNATURE_HEADER,
    body: serializeSafetyEvent(safety.payload as SafetyEventPayload),
  };
}

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type EndpointRow = typeof webhookEndpoints.$inferSelect;

/**
 * One attempt as it moves through the steps: prepared (row claimed, endpoint and signed payload
 * loaded), sent (the receiver's answer), classified (what happens next), recorded.
 */
interface AttemptContext {
  ctx: DeliverContext;
  deliveryId: string;
  clock: () => number;
  timeoutMs: number;
  row: DeliveryRow;
  endpoint: EndpointRow;
  payload: { body: string; header: string };
  /** This attempt's number (1-based) and when the retry window opened. */
  attempt: number;
  firstAttemptAt: Date;
  /** Log fields: ids only, never payloads or receiver bodies. */
  log: { deliveryId: string; endpointId: string; eventId: string };
}

/**
 * Deliver one delivery row in named steps: claim it, prepare (endpoint and payload, or cancel),
 * send (address checks and the pinned POST of `@svc/outbound-http`, signed here), classify the
 * answer (delivered, failed, or retryable: then count the attempts in the window and take the
 * schedule's next slot, or fail), record the attempt and settle the row, log. Safe to call twice
 * for one id at once: only one claims it. The BullMQ worker and the in-process dispatcher both
 * run this.
 */
export async function deliver(deliveryId: string, ctx: DeliverContext): Promise<DeliverOutcome> {
  const clock = ctx.now ?? Date.now;
  const claimed = await claimDelivery(deliveryId, ctx, clock);
  if (!("row" in claimed)) return claimed;
  const prepared = await prepareAttempt(claimed.row, ctx, clock);
  if (!("payload" in prepared)) return prepared;
  let result: AttemptResult;
  try {
    result = await sendAttempt(prepared);
  } catch (error) {
    if (!(error instanceof ShutdownAbort)) throw error;
    return releaseAtShutdown(prepared);
  }
  const answer = classifyAnswer(prepared, result);
  const outcome =
    answer.kind === "retryable"
      ? scheduleNext(prepared, answer.error, await attemptsInWindow(prepared))
      : answer;
  await recordAttemptSurely(prepared, result, outcome);
  logOutcome(prepared, result, outcome);
  return outcome;
}

/** PostgreSQL's SQLSTATE of a failed query, on the error or on its cause (the driver's error). */
function sqlState(error: unknown): string | null {
  for (let e = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return null;
}

/**
 * Record the attempt so that it always counts. If the attempt row cannot be written as it is
 * (something about the receiver's answer the database refuses), it is written again without the
 * snippet; if even that fails, the delivery row alone is settled (attempt count, outcome, next
 * attempt at the scheduled time). Otherwise the row would stay claimed but unsettled, the
 * sweeper would hand it out again when its claim ran out, and the receiver would be sent the same
 * event every minute, outside the retry schedule and its 24 h window. Only when the database
 * refuses every write (it is down) does the claim run out and the attempt repeat. The log names
 * ids and the error's class, never the error's message: a database error quotes the query's
 * parameters, which would be the receiver's body.
 */
async function recordAttemptSurely(
  prepared: AttemptContext,
  result: AttemptResult,
  outcome: DeliverOutcome,
): Promise<void> {
  const { ctx, attempt, log } = prepared;
  const failure = (error: unknown) => ({
    ...log,
    attempt,
    errName: error instanceof Error ? error.name : typeof error,
    // PostgreSQL's SQLSTATE (22021 for a NUL), on the error or on the query error's cause.
    errCode: sqlState(error),
  });
  try {
    await recordAttempt(prepared, result, outcome, { attemptRow: true });
    return;
  } catch (error) {
    ctx.logger.error(
      failure(error),
      "recording a webhook attempt failed; recording it without the answer's body",
    );
  }
  try {
    await recordAttempt(prepared, { ...result, snippet: null }, outcome, { attemptRow: true });
    return;
  } catch (error) {
    ctx.logger.error(failure(error), "recording a webhook attempt failed again; settling the delivery alone");
  }
  await recordAttempt(prepared, { ...result, snippet: null }, outcome, { attemptRow: false });
}

/** Claim: push next_attempt_at past the attempt, so the sweeper and a duplicate job leave it. */
async function claimDelivery(
  deliveryId: string,
  ctx: DeliverContext,
  clock: () => number,
): Promise<{ row: DeliveryRow } | DeliverOutcome> {
  const { db } = ctx;
  const timeoutMs = ctx.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const leaseMs = ctx.leaseMs ?? timeoutMs + 30_000;
  const now = clock();
  const [row] = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: new Date(now + leaseMs), updatedAt: new Date(now) })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.status, "pending"),
        lte(webhookDeliveries.nextAttemptAt, new Date(now)),
      ),
    )
    .returning();
  if (row) return { row };
  const [current] = await db
    .select({ status: webhookDeliveries.status, nextAttemptAt: webhookDeliveries.nextAttemptAt })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!current) return { kind: "skipped", reason: "not_found" };
  if (current.status !== "pending") return { kind: "skipped", reason: "not_pending" };
  return { kind: "skipped", reason: "not_due", nextAttemptAt: current.nextAttemptAt };
}

/** The endpoint and signed payload of a claimed row, or the row cancelled with the reason why not. */
async function prepareAttempt(
  row: DeliveryRow,
  ctx: DeliverContext,
  clock: () => number,
): Promise<AttemptContext | DeliverOutcome> {
  const { db, logger } = ctx;
  const log = { deliveryId: row.id, endpointId: row.endpointId, eventId: row.eventId };
  const cancel = async (reason: string): Promise<DeliverOutcome> => {
    await db
      .update(webhookDeliveries)
      .set({ status: "cancelled", lastError: reason, updatedAt: new Date(clock()) })
      .where(eq(webhookDeliveries.id, row.id));
    logger.info({ ...log, reason }, "webhook delivery cancelled");
    return { kind: "cancelled", reason };
  };
  const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, row.endpointId));
  if (!endpoint || endpoint.removedAt) return cancel("endpoint_removed");
  if (endpoint.disabledAt) return cancel("endpoint_disabled");
  // Rows written before decision 28 (or by hand) never send live patient data to a test endpoint.
  if (row.source === "safety_event" && endpoint.mode !== "live") return cancel("endpoint_not_live");
  const payload = await loadPayload(db, row);
  if (!payload) return cancel("event_missing");
  return {
    ctx,
    deliveryId: row.id,
    clock,
    timeoutMs: ctx.timeoutMs ?? DELIVERY_TIMEOUT_MS,
    row,
    endpoint,
    payload,
    attempt: row.attempts + 1,
    firstAttemptAt: row.firstAttemptAt ?? new Date(clock()),
    log,
  };
}

/** Forced shutdown mid-attempt: nothing is recorded; the row is due again at once. */
async function releaseAtShutdown(prepared: AttemptContext): Promise<DeliverOutcome> {
  const { ctx, deliveryId, clock, log } = prepared;
  await ctx.db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: new Date(clock()), enqueuedAt: null })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, "pending")));
  ctx.logger.warn(log, "webhook attempt dropped at shutdown; the delivery is due again");
  return { kind: "released" };
}

/**
 * Delivered on a 2xx; a 410 fails at once; anything else is retryable, for the schedule to decide.
 * Pure: the answer alone decides.
 */
function classifyAnswer(
  prepared: AttemptContext,
  result: AttemptResult,
): DeliverOutcome | { kind: "retryable"; error: string } {
  const { attempt } = prepared;
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  if (ok) return { kind: "delivered", attempt, statusCode: result.statusCode as number };
  const error = result.error ?? `http_${result.statusCode}`;
  if (result.statusCode === 410) return { kind: "failed", attempt, error: "http_410" };
  return { kind: "retryable", error };
}

/**
 * Attempts made since the window opened, this one included (a redelivery opens a new window). An
 * attempt whose row could not be written is not counted here, but the window (first_attempt_at on
 * the delivery) still ends the retries.
 */
async function attemptsInWindow(prepared: AttemptContext): Promise<number> {
  const { ctx, deliveryId, firstAttemptAt } = prepared;
  const [counted] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.deliveryId, deliveryId), gte(webhookAttempts.attemptedAt, firstAttemptAt)));
  return (counted?.n ?? 0) + 1;
}

/** A retry at the schedule's next slot after `made` attempts, or failed once the schedule is done. */
function scheduleNext(prepared: AttemptContext, error: string, made: number): DeliverOutcome {
  const { ctx, attempt, firstAttemptAt, clock } = prepared;
  const finishedAt = clock();
  const schedule = ctx.schedule ?? scheduleFor();
  const delay = schedule.nextAttemptDelay(made, firstAttemptAt.getTime(), finishedAt);
  if (delay === null) return { kind: "failed", attempt, error };
  return { kind: "retry", attempt, error, delayMs: delay, nextAttemptAt: new Date(finishedAt + delay) };
}

/** The attempt row and the delivery's new state in one transaction; a 410 disables the endpoint. */
async function recordAttempt(
  prepared: AttemptContext,
  result: AttemptResult,
  outcome: DeliverOutcome,
  options: { attemptRow: boolean },
): Promise<void> {
  const { ctx, deliveryId, attempt, firstAttemptAt, endpoint, clock } = prepared;
  const finishedAt = clock();
  const error = outcome.kind === "delivered" ? null : (result.error ?? `http_${result.statusCode}`);
  const latencyMs = Math.max(0, Math.round(result.latencyMs));
  await ctx.db.transaction(async (tx) => {
    if (options.attemptRow)
      await tx.insert(webhookAttempts).values({
        deliveryId,
        attempt,
        statusCode: result.statusCode,
        latencyMs,
        error,
        responseSnippet: result.snippet,
        nextAttemptAt: outcome.kind === "retry" ? outcome.nextAttemptAt : null,
        attemptedAt: new Date(result.startedAt),
      });
    const common = {
      attempts: attempt,
      firstAttemptAt,
      lastStatusCode: result.statusCode,
      lastLatencyMs: latencyMs,
      lastError: error,
      updatedAt: new Date(finishedAt),
    };
    const guard = and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, "pending"));
    if (outcome.kind === "delivered") {
      await tx
        .update(webhookDeliveries)
        .set({ ...common, status: "delivered", deliveredAt: new Date(finishedAt) })
        .where(guard);
    } else if (outcome.kind === "retry") {
      // enqueued_at = when the queued retry becomes due: the sweeper re-sends it only if it is
      // still waiting well after that (its job was lost with Redis).
      await tx
        .update(webhookDeliveries)
        .set({ ...common, nextAttemptAt: outcome.nextAttemptAt, enqueuedAt: outcome.nextAttemptAt })
        .where(guard);
    } else {
      await tx
        .update(webhookDeliveries)
        .set({ ...common, status: "failed" })
        .where(guard);
    }
    if (result.statusCode === 410) {
      await tx
        .update(webhookEndpoints)
        .set({ disabledAt: new Date(finishedAt), disabledReason: "The endpoint answered 410 Gone." })
        .where(eq(webhookEndpoints.id, endpoint.id));
    }
  });
}

function logOutcome(prepared: AttemptContext, result: AttemptResult, outcome: DeliverOutcome): void {
  const { ctx, attempt, log } = prepared;
  const fields = {
    ...log,
    attempt,
    statusCode: result.statusCode,
    latencyMs: Math.round(result.latencyMs),
    error: outcome.kind === "delivered" ? null : (result.error ?? `http_${result.statusCode}`),
    outcome: outcome.kind,
    ...(outcome.kind === "retry" ? { nextAttemptAt: outcome.nextAttemptAt.toISOString() } : {}),
  };
  if (outcome.kind === "delivered") ctx.logger.info(fields, "webhook delivered");
  else ctx.logger.warn(fields, "webhook attempt failed");
  if (result.statusCode === 410) ctx.logger.warn(log, "webhook endpoint disabled: it answered 410 Gone");
}

/** Check the addresses, sign afresh and POST once. Throws ShutdownAbort on a forced shutdown. */
async function sendAttempt(prepared: AttemptContext): Promise<AttemptResult> {
  const { ctx, clock, endpoint, payload, row, attempt, deliveryId, timeoutMs } = prepared;
  const startedAt = clock();
  const fail = (error: string): AttemptResult => ({
    statusCode: null,
    error,
    snippet: null,
    latencyMs: clock() - startedAt,
    startedAt,
  });
  const target = await checkedAddresses(
    endpoint,
    ctx.resolve ?? systemResolver,
    ctx.allowLoopbackWebhooks ?? false,
  );
  if ("refused" in target) return fail(target.refused);

  // Signed afresh on every attempt (a fresh timestamp); the event id stays the same.
  const timestamp = Math.floor(clock() / 1000);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": USER_AGENT,
    [payload.header]: signPayload(endpoint.secret, payload.body, timestamp),
    [EVENT_ID_HEADER]: row.eventId,
    "Service-Delivery-Id": deliveryId,
    "Service-Delivery-Attempt": String(attempt),
  };
  try {
    const response = await postPinned(target.url, target.addresses, headers, payload.body, {
      timeoutMs,
      signal: ctx.signal,
      trustedCa: ctx.trustedCa,
    });
    const code = response.statusCode;
    return {
      statusCode: code,
      error:
        code >= 300 && code < 400
          ? "redirect_not_followed"
          : code >= 200 && code < 300
            ? null
            : `http_${code}`,
      snippet: response.snippet,
      latencyMs: clock() - startedAt,
      startedAt,
    };
  } catch (error) {
    if (error instanceof ShutdownAbort) throw error;
    return fail(errorReason(error));
  }
}
