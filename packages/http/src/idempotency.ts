import { createHash } from "node:crypto";
import { and, type Db, type DbOrTx, eq, idempotencyKeys, lt, type SQL } from "@svc/db";
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

/** The work in one transaction that never commits past the request's time limit. */
async function runInTransaction<B>(
  c: Context<AppEnv>,
  db: Db,
  work: (tx: DbOrTx) => Promise<IdempotentWork<B>>,
  afterWork?: (tx: DbOrTx, result: IdempotentWork<B>) => Promise<void>,
): Promise<IdempotentOutcome<B>> {
  const done = await db.transaction(async (tx) => {
    const result = await work(tx);
    stopIfTimedOut(c);
    await afterWork?.(tx, result);
    return result;
  });
  return { status: done.status, body: done.body, replayed: false };
}

/** One caller's key: the row's scope and what a claim writes. */
interface KeyClaim {
  db: Db;
  accountId: string;
  key: string;
  fingerprint: string;
  scope: SQL | undefined;
  now: () => Date;
}

function stillInProgress(): ApiError {
  return new ApiError(
    "idempotency_in_progress",
    "A request with this Idempotency-Key is still being processed; retry shortly.",
    { headers: { "Retry-After": "1" } },
  );
}

/** Inserts the in-progress row; false when the key already has one. */
async function insertClaim(claim: KeyClaim): Promise<boolean> {
  const at = claim.now();
  const inserted = await claim.db
    .insert(idempotencyKeys)
    .values({
      accountId: claim.accountId,
      key: claim.key,
      requestFingerprint: claim.fingerprint,
      status: "in_progress",
      createdAt: at,
      expiresAt: new Date(at.getTime() + IDEMPOTENCY_TTL_MS),
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return inserted.length === 1;
}

/** Takes over a claim abandoned by a dead request; the compare on createdAt lets one taker win. */
async function takeOverAbandoned(claim: KeyClaim, createdAt: Date, at: Date): Promise<boolean> {
  const taken = await claim.db
    .update(idempotencyKeys)
    .set({ createdAt: at })
    .where(
      and(claim.scope, eq(idempotencyKeys.status, "in_progress"), eq(idempotencyKeys.createdAt, createdAt)),
    )
    .returning({ key: idempotencyKeys.key });
  return taken.length === 1;
}

/**
 * Claims the key for this request, or says what the existing row means: the first answer to
 * replay, a different request (422), or one still running (409). A row deleted or expired between
 * the insert and the read is claimed again (twice at most).
 */
async function claimOrReplay<B>(
  claim: KeyClaim,
): Promise<{ claimed: true } | { replay: IdempotentOutcome<B> }> {
  if (await insertClaim(claim)) return { claimed: true };
  for (let round = 0; round < 2; round++) {
    const [existing] = await claim.db.select().from(idempotencyKeys).where(claim.scope);
    const at = claim.now();
    if (!existing || existing.expiresAt.getTime() <= at.getTime()) {
      // Deleted (failed work or expiry), or expired but not purged yet: start over.
      if (existing) {
        await claim.db.delete(idempotencyKeys).where(and(claim.scope, lt(idempotencyKeys.expiresAt, at)));
      }
      if (await insertClaim(claim)) return { claimed: true };
      continue;
    }
    if (existing.requestFingerprint !== claim.fingerprint) {
      throw new ApiError(
        "idempotency_key_reused",
        "This Idempotency-Key was already used with a different request; use a new key for a new request.",
      );
    }
    if (existing.status === "completed" && existing.responseStatus !== null) {
      return {
        replay: { status: existing.responseStatus, body: existing.responseBody as B, replayed: true },
      };
    }
    const abandoned = at.getTime() - existing.createdAt.getTime() > IDEMPOTENCY_ABANDONED_MS;
    if (abandoned && (await takeOverAbandoned(claim, existing.createdAt, at))) return { claimed: true };
    throw stillInProgress();
  }
  throw stillInProgress();
}

/** Options of `runIdempotent`. */
export interface IdempotentOptions<P> {
  /**
   * Checks that read no row and may take a while (resolving a host name): run after the key is
   * claimed (a replay answers without them) and before the transaction opens, so no connection is
   * held while they wait. What it returns is handed to `work`; if it throws, the claim is released
   * as for a failed `work`.
   */
  prepare?: () => Promise<P>;
  now?: () => Date;
}

/**
 * Run `work` at most once per Idempotency-Key. Without the header, `work` simply runs in a
 * transaction. Sets `Idempotent-Replayed: true` on a replay; the caller answers with
 * `c.json(outcome.body, outcome.status)`; webhook deliveries the work wrote go to the queue after
 * commit through the HTTP layer's outbox scope (`handOffAfterCommit`).
 */
export async function runIdempotent<B, P = undefined>(
  c: Context<AppEnv>,
  db: Db,
  work: (tx: DbOrTx, prepared: P) => Promise<IdempotentWork<B>>,
  options: IdempotentOptions<P> = {},
): Promise<IdempotentOutcome<B>> {
  const now = options.now ?? (() => new Date());
  const prepare = async () => (options.prepare ? await options.prepare() : (undefined as P));
  const key = idempotencyKeyOf(c);
  if (key === undefined) {
    const prepared = await prepare();
    return runInTransaction(c, db, (tx) => work(tx, prepared));
  }
  const auth = c.get("auth");
  if (!auth?.accountId) throw new ApiError("forbidden", "Idempotency-Key needs an account key.");
  // The validator has read the body through Hono's cache as text: this is the raw body.
  const raw = await c.req.text();
  const claim: KeyClaim = {
    db,
    accountId: auth.accountId,
    key,
    fingerprint: requestFingerprint(c.req.method, c.req.path, auth.mode, raw),
    scope: and(eq(idempotencyKeys.accountId, auth.accountId), eq(idempotencyKeys.key, key)),
    now,
  };
  const claimed = await claimOrReplay<B>(claim);
  if ("replay" in claimed) {
    c.header(IDEMPOTENCY_REPLAYED_HEADER, "true");
    return claimed.replay;
  }
  try {
    const prepared = await prepare();
    return await runInTransaction(
      c,
      db,
      (tx) => work(tx, prepared),
      async (tx, result) => {
        await tx
          .update(idempotencyKeys)
          .set({ status: "completed", responseStatus: result.status, responseBody: result.body })
          .where(claim.scope);
      },
    );
  } catch (error) {
    // The work failed (4xx or 5xx): nothing was created, so a retry with this key may proceed.
    await db
      .delete(idempotencyKeys)
      .where(and(claim.scope, eq(idempotencyKeys.status, "in_progress")))
      .catch(() => {});
    throw error;
  }
}
