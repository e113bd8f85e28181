import type { AuthKeyRow } from "@svc/db";

/** Channel on which key revocations and account changes are announced to every replica. */
export const KEYS_CHANGED_CHANNEL = "svc:keys:changed";

/** One working publishable key's allow-list, and when it stops working (a rolled key's grace). */
export interface OriginEntry {
  origins: readonly string[];
  stopsAt: number | null;
}

/**
 * In-process cache of key lookups, so the hot path costs no database query. It is used only
 * while this process is subscribed to KEYS_CHANGED_CHANNEL: a revocation announced there drops the
 * cache at once, and while the subscription is down every request reads the database, so a
 * revocation is never missed (decision 12). Entries also expire after `ttlMs` as a second net.
 * The browser allow-lists (every working publishable key's origins, which a CORS preflight is
 * answered from: it carries no key) are held the same way and dropped with the key lookups.
 */
export class KeyCache {
  private readonly entries = new Map<string, { row: AuthKeyRow | null; at: number }>();
  private originList: { entries: readonly OriginEntry[]; at: number } | undefined;
  private live = false;
  /** Bumped on every invalidation: a lookup that started before one must not be cached. */
  private generationCounter = 0;

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 50_000,
  ) {}

  /** Called when the subscription is (re)established or lost; any change flushes. */
  setLive(live: boolean): void {
    this.live = live;
    this.invalidate();
  }

  /** Read before a database lookup and pass to `set`, so a lookup racing a revocation is dropped. */
  get generation(): number {
    return this.generationCounter;
  }

  get isLive(): boolean {
    return this.live;
  }

  get(hash: string): AuthKeyRow | null | undefined {
    if (!this.live) return undefined;
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (Date.now() - entry.at > this.ttlMs) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.row;
  }

  set(hash: string, row: AuthKeyRow | null, generation: number): void {
    if (!this.live || generation !== this.generationCounter) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(hash, { row, at: Date.now() });
  }

  /** The cached browser allow-lists, or undefined when they must be read from the database. */
  getOrigins(): readonly OriginEntry[] | undefined {
    if (!this.live || !this.originList) return undefined;
    if (Date.now() - this.originList.at > this.ttlMs) {
      this.originList = undefined;
      return undefined;
    }
    return this.originList.entries;
  }

  /** Keep the allow-lists read at `generation` (dropped if a change was announced meanwhile). */
  setOrigins(entries: readonly OriginEntry[], generation: number): void {
    if (!this.live || generation !== this.generationCounter) return;
    this.originList = { entries, at: Date.now() };
  }

  /** A key or account changed somewhere: forget everything (changes are rare; lookups are cheap). */
  invalidate(): void {
    this.generationCounter++;
    this.entries.clear();
    this.originList = undefined;
  }
}
