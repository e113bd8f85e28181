import { createHash } from "node:crypto";
import { and, type Db, type DbOrTx, eq, idempotencyKeys, lt } from "@svc/db";
import type { Context } from "hono";
import type { AppEnv } from "./app.js";
import { ApiError } from "./errors.js";

/**
 * Idempotency-Key support (decision 47) for creation endpoints.
 *
 * 1. The key (1-255 printable ASCII characters) is scoped to the account and kept 24 h.
 * 2. The request's fingerprint is method + route path + key mode + SHA-256 of the raw body.
 * 3. An `in_progress` row is inserted first (INSERT ... ON CONFLICT DO NOTHING, committed at once),
 *    so of two concurrent requests with one key exactly one proceeds; the other sees the row.
 * 4. The work runs in a transaction that also stores the response on the row, so the created
 *    resource and its replayable response commit together. If the work fails, or outlives the
 *    request's time limit (the caller has had its 503), the transaction rolls back, the row is
 *    deleted and a retry with the same key can proceed.
 * 5. A later request with the key: same fingerprint and completed -> the stored status and body
 *    with `Idempotent-Replayed: true`; another fingerprint -> 422 `idempotency_key_reused`; still
 *    in progress -> 409 `idempotency_in_progress`.
 */

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_REPLAYED_HEADER = "Idempotent-Replayed";
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How long a key is remembered (decision 47). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * An `in_progress` row older than this belongs to a request that died (a crash between the insert
 * and the commit): no request runs longer than the 30 s hard limit, so it may be taken over.
 */
export const IDEMPOTENCY_ABANDONED_MS = 60_000;

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

export interface IdempotentWork<B> {
  status: number;
  body: B;
}

export interface IdempotentOutcome<B> {
  status: number;
  body: B;
  replayed: boolean;
}

/** The `Idempotency-Key` header, validated; undefined when the caller sent none. */
export function idempotencyKeyOf(c: Context<AppEnv>): string | undefined {
  const value = c.req.header(IDEMPOTENCY_HEADER);
  if (value === undefined) return undefined;
  if (value.length < 1 || value.length > IDEMPOTENCY_KEY_MAX_LENGTH || !PRINTABLE_ASCII.test(value)) {
    const message = `${IDEMPOTENCY_HEADER} must be 1-${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters.`;
    throw new ApiError("invalid_request", message, {
      issues: [{ path: `header.${IDEMPOTENCY_HEADER}`, message }],
    });
  }
  return value;
}

/** method + route path + mode + SHA-256 of the raw body (hex). */
export function requestFingerprint(method: string, path: string, mode: string, rawBody: string): string {
  const digest = createHash("sha256").update(rawBody, "utf8").digest("hex");
  return `${method.toUpperCase()} ${path} ${mode} ${digest}`;
}

/**
 * Past the request's time limit the caller has been told 503 (retry): throwing here rolls the
 * work's transaction back instead of committing what the caller will send again (decision 111).
 * A context without the request guard (no signal) never stops.
 */
function stopIfTimedOut(c: Context<AppEnv>): void {
  (c.get("signal") as AbortSignal | undefined)?.throwIfAborted();
}

/**
 * Run `work` at most once per Idempotency-Key. Without the header, `work` simply runs in a
 * transaction. Sets `Idempotent-Replayed: true` on a replay; the caller answers with
 * `c.json(outcome.body, outcome.status)`; webhook deliveries the work wrote go to the queue after
 * commit through the HTTP layer's outbox scope (`handOffAfterCommit`).
 */
export async function runIdempotent<B>(
  c: Context<AppEnv>,
  db: Db,
  work: (tx: DbOrTx) => Promise<IdempotentWork<B>>,
  now: () => Date = () => new Date(),
): Promise<IdempotentOutcome<B>> {
  const key = idempotencyKeyOf(c);
  if (key === undefined) {
    const done = await db.transaction(async (tx) => {
      const result = await work(tx);
      stopIfTimedOut(c);
      return result;
    });
    return { status: done.status, body: done.body, replayed: false };
  }
  const auth = c.get("auth");
  if (!auth?.accountId) throw new ApiError("forbidden", "Idempotency-Key needs an account key.");
  const accountId = auth.accountId;
  // The validator has read the body through Hono's cache as text: this is the raw body.
  const raw = await c.req.text();
  const fingerprint = requestFingerprint(c.req.method, c.req.path, auth.mode, raw);
  const scope = and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key));

  const claim = async (): Promise<boolean> => {
    const at = now();
    const inserted = await db
      .insert(idempotencyKeys)
      .values({
        accountId,
        key,
        requestFingerprint: fingerprint,
        status: "in_progress",
        createdAt: at,
        expiresAt: new Date(at.getTime() + IDEMPOTENCY_TTL_MS),
      })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    return inserted.length === 1;
  };

  let claimed = await claim();
  for (let round = 0; !claimed && round < 2; round++) {
    const [existing] = await db.select().from(idempotencyKeys).where(scope);
    if (!existing) {
      // Deleted (failed work or expiry) between our insert and read: try to claim again.
      claimed = await claim();
      continue;
    }
    const at = now();
    if (existing.expiresAt.getTime() <= at.getTime()) {
      // Expired but not purged yet: forget it and start over.
      await db.delete(idempotencyKeys).where(and(scope, lt(idempotencyKeys.expiresAt, at)));
      claimed = await claim();
      continue;
    }
    if (existing.requestFingerprint !== fingerprint) {
      throw new ApiError(
        "idempotency_key_reused",
        "This Idempotency-Key was already used with a different request; use a new key for a new request.",
      );
    }
    if (existing.status === "completed" && existing.responseStatus !== null) {
      c.header(IDEMPOTENCY_REPLAYED_HEADER, "true");
      return {
        status: existing.responseStatus,
        body: existing.responseBody as B,
        replayed: true,
      };
    }
    if (at.getTime() - existing.createdAt.getTime() > IDEMPOTENCY_ABANDONED_MS) {
      // Take over an abandoned claim; the compare on createdAt lets only one taker win.
      const taken = await db
        .update(idempotencyKeys)
        .set({ createdAt: at })
        .where(
          and(
            scope,
            eq(idempotencyKeys.status, "in_progress"),
            eq(idempotencyKeys.createdAt, existing.createdAt),
          ),
        )
        .returning({ key: idempotencyKeys.key });
      if (taken.length === 1) {
        claimed = true;
        break;
      }
    }
    throw new ApiError(
      "idempotency_in_progress",
      "A request with this Idempotency-Key is still being processed; retry shortly.",
      { headers: { "Retry-After": "1" } },
    );
  }
  if (!claimed) {
    throw new ApiError(
      "idempotency_in_progress",
      "A request with this Idempotency-Key is still being processed; retry shortly.",
      { headers: { "Retry-After": "1" } },
    );
  }

  try {
    const done = await db.transaction(async (tx) => {
      const result = await work(tx);
      stopIfTimedOut(c);
      await tx
        .update(idempotencyKeys)
        .set({ status: "completed", responseStatus: result.status, responseBody: result.body })
        .where(scope);
      return result;
    });
    return { status: done.status, body: done.body, replayed: false };
  } catch (error) {
    // The work failed (4xx or 5xx): nothing was created, so a retry with this key may proceed.
    await db
      .delete(idempotencyKeys)
      .where(and(scope, eq(idempotencyKeys.status, "in_progress")))
      .catch(() => {});
    throw error;
  }
}
