import type { LimitRule } from "./limiter.js";

export type BucketRule = Extract<LimitRule, { kind: "bucket" }>;

/** What one script call took from a shared bucket. */
export interface TokenGrant {
  granted: number;
  /** Tokens left in the shared bucket after the grant. */
  tokensLeft: number;
  /** Redis's clock at the grant. */
  nowMs: number;
}

/** One request's share of a lease: allowed or not, and the bucket as this process sees it. */
export interface LeasedDecision {
  allowed: boolean;
  tokensLeft: number;
  nowMs: number;
}

/** A lease covers this much of the bucket's rate (50 ms worth of tokens) ... */
const LEASE_WINDOW_SECONDS = 0.05;
/** ... but never more than this many tokens, nor more than a quarter of the burst. */
const MAX_LEASE = 100;
/** Tokens of a lease not spent within this time are dropped (the limit only gets stricter). */
const LEASE_TTL_MS = 1_000;
/** Leases held before expired ones are swept out. */
const MAX_HELD_LEASES = 10_000;
/** Usage of leased tokens is added to the monthly counters this often. */
const USAGE_FLUSH_MS = 1_000;

/**
 * How many tokens a process takes from a shared bucket at once. 1 means every request asks Redis
 * (every plan below 40 req/s, the MSE organizations' 20 req/s, and small bursts): counters and
 * X-RateLimit-Remaining are then exact.
 */
export function leaseSizeFor(rule: BucketRule): number {
  const size = Math.min(
    MAX_LEASE,
    Math.floor(rule.ratePerSecond * LEASE_WINDOW_SECONDS),
    Math.floor(rule.burst / 4),
  );
  return size >= 2 ? size : 1;
}

interface Lease {
  /** Tokens of this lease not yet spent. */
  left: number;
  /** Tokens left in the shared bucket when the lease was taken. */
  bucketLeft: number;
  expiresAt: number;
}

/**
 * Leased tokens for fast token buckets (decision in docs/decisions.md): a process takes a small
 * batch of tokens from the shared Redis bucket in one script call and spends them locally, so an
 * account allowed hundreds of requests per second costs one Redis round trip per lease rather than
 * per request. Every spent token came out of the shared bucket, so replicas together never admit
 * more than the bucket allows; unspent tokens expire with the lease. Remaining is the shared
 * bucket as of the lease plus this lease's unspent tokens. Monthly usage counts spent tokens and
 * is written in one pipeline per second (and on close).
 */
export class BucketLeases {
  private readonly leases = new Map<string, Lease>();
  /** A lease being taken, per bucket: concurrent requests wait for the same script call. */
  private readonly taking = new Map<string, Promise<TokenGrant>>();
  /** Spent leased tokens per monthly usage key, not yet added to Redis. */
  private readonly unreported = new Map<string, number>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly take: (rule: BucketRule, wanted: number) => Promise<TokenGrant>,
    private readonly addUsage: (counts: ReadonlyMap<string, number>) => Promise<void>,
  ) {}

  /** Leases held now (expired ones included until the next sweep). */
  get heldLeases(): number {
    return this.leases.size;
  }

  /** Spend one token of the bucket, taking a new lease when this process holds none. */
  /** `usageKey`: the monthly usage counter the spent token adds to ("" for none). */
  async consume(rule: BucketRule, usageKey: string): Promise<LeasedDecision> {
    for (;;) {
      const lease = this.leases.get(rule.subject);
      if (lease && lease.left > 0 && Date.now() < lease.expiresAt) {
        lease.left--;
        if (usageKey) this.countUsage(usageKey);
        return { allowed: true, tokensLeft: lease.bucketLeft + lease.left, nowMs: Date.now() };
      }
      const grant = await this.renew(rule);
      // An empty bucket refuses; otherwise spend from the new lease (others waiting may drain it
      // first, and then the loop takes another).
      if (grant.granted === 0) return { allowed: false, tokensLeft: grant.tokensLeft, nowMs: grant.nowMs };
    }
  }

  private renew(rule: BucketRule): Promise<TokenGrant> {
    let pending = this.taking.get(rule.subject);
    if (!pending) {
      pending = this.take(rule, leaseSizeFor(rule)).then((grant) => {
        if (this.leases.size >= MAX_HELD_LEASES) this.dropExpired();
        this.leases.set(rule.subject, {
          left: grant.granted,
          bucketLeft: grant.tokensLeft,
          expiresAt: Date.now() + LEASE_TTL_MS,
        });
        return grant;
      });
      const forget = () => this.taking.delete(rule.subject);
      pending.then(forget, forget);
      this.taking.set(rule.subject, pending);
    }
    return pending;
  }

  /** Expired leases hold nothing: forget them (one per account ever seen would otherwise stay). */
  private dropExpired(): void {
    const now = Date.now();
    for (const [subject, lease] of this.leases) if (lease.expiresAt <= now) this.leases.delete(subject);
  }

  private countUsage(usageKey: string, n = 1): void {
    this.unreported.set(usageKey, (this.unreported.get(usageKey) ?? 0) + n);
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = undefined;
        void this.flushUsage().catch(() => {});
      }, USAGE_FLUSH_MS);
      this.flushTimer.unref();
    }
  }

  /** Add spent leased tokens to the monthly counters now; on failure they wait for the next flush. */
  flushUsage(): Promise<void> {
    // Each flush waits for the one before (success or not), so counts go out in order.
    this.flushing = this.flushing
      .catch(() => {})
      .then(async () => {
        if (this.unreported.size === 0) return;
        const counts = new Map(this.unreported);
        this.unreported.clear();
        try {
          await this.addUsage(counts);
        } catch (error) {
          for (const [key, n] of counts) this.countUsage(key, n);
          throw error;
        }
      });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.leases.clear();
    await this.flushUsage().catch(() => {});
  }
}
