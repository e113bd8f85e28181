import { addApiUsage, type Db, type UsageCount } from "@svc/db";
import type { Logger } from "pino";
import { utcDayOf } from "./utc-day.js";

/** How often counted requests are added to the database. */
export const USAGE_FLUSH_INTERVAL_MS = 10_000;
/** Distinct (day, key, operation) rows held before counting stops until the next flush succeeds. */
const MAX_PENDING_ROWS = 50_000;

/**
 * Counts each keyed request by UTC day, key and operation, and the key's last use, in memory, and
 * adds them to `api_usage_daily` and `api_keys.last_used_at` every few seconds and at shutdown
 * (decision 58). The request path costs a map update, never a write; a crash loses at most one
 * interval of counts, which only the usage page shows (quotas are enforced by the rate limiter).
 */
export class UsageMeter {
  private pending = new Map<string, UsageCount>();
  /** Last use per key, in epoch milliseconds (a Date is made only when written). */
  private lastUsed = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | null = null;
  private lastWarn = 0;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    intervalMs = USAGE_FLUSH_INTERVAL_MS,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  /** One request made with `keyId` on `operation` (e.g. `POST /v1/dmse/analyze`) that ended in `status`. */
  count(keyId: string, operation: string, status: number, now?: Date): void {
    const nowMs = now ? now.getTime() : Date.now();
    const day = utcDayOf(nowMs).iso;
    const id = `${day} ${keyId} ${operation}`;
    let row = this.pending.get(id);
    if (!row) {
      if (this.pending.size >= MAX_PENDING_ROWS) return;
      row = { day, keyId, operation, requests: 0, rateLimited: 0 };
      this.pending.set(id, row);
    }
    row.requests += 1;
    if (status === 429) row.rateLimited += 1;
    this.lastUsed.set(keyId, nowMs);
  }

  /** Add what was counted since the last flush; on failure the counts are kept for the next one. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** Stop the timer and write what is left (call before the database closes). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flushing;
    await this.flush();
  }

  private async write(): Promise<void> {
    const counts = this.pending;
    const lastUsed = this.lastUsed;
    if (counts.size === 0 && lastUsed.size === 0) return;
    this.pending = new Map();
    this.lastUsed = new Map();
    try {
      const lastUsedAt = new Map([...lastUsed].map(([keyId, ms]) => [keyId, new Date(ms)]));
      await addApiUsage(this.db, [...counts.values()], lastUsedAt);
    } catch (error) {
      this.restore(counts, lastUsed);
      if (Date.now() - this.lastWarn > 60_000) {
        this.lastWarn = Date.now();
        this.logger.warn(
          { errCode: (error as { code?: string }).code },
          "usage counts not written; kept for the next try",
        );
      }
    }
  }

  private restore(counts: Map<string, UsageCount>, lastUsed: Map<string, number>): void {
    for (const [id, row] of counts) {
      const newer = this.pending.get(id);
      if (newer) {
        newer.requests += row.requests;
        newer.rateLimited += row.rateLimited;
      } else this.pending.set(id, row);
    }
    for (const [keyId, at] of lastUsed) if (!this.lastUsed.has(keyId)) this.lastUsed.set(keyId, at);
  }
}
