import { and, apiKeys, type Db, eq, gt, isNull, or } from "@svc/db";
import type { AppDeps } from "./app.js";
import { originAllowed } from "./auth.js";
import type { KeyCache, OriginEntry } from "./key-cache.js";

/** At most one database read per this long for origins the cached allow-lists refuse. */
export const ORIGIN_MISS_REFRESH_MS = 1_000;

/** Every working publishable key's origins (a rolled one's with the end of its grace). */
async function readOriginEntries(db: Db, now: Date): Promise<OriginEntry[]> {
  const rows = await db
    .select({ origins: apiKeys.origins, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.kind, "publishable"), or(isNull(apiKeys.revokedAt), gt(apiKeys.revokedAt, now))));
  return rows.map((r) => ({ origins: r.origins, stopsAt: r.revokedAt ? r.revokedAt.getTime() : null }));
}

function allows(entries: readonly OriginEntry[], origin: string, now: number): boolean {
  return entries.some((e) => (e.stopsAt === null || e.stopsAt > now) && originAllowed(origin, e.origins));
}

/**
 * Does some working publishable key allow this browser origin? What a CORS preflight (which
 * carries no key) and a refusal's CORS headers are decided by. Served from the key cache's
 * allow-lists while it hears key changes (a revocation, a roll or an origin edit announced on
 * KEYS_CHANGED_CHANNEL drops them on every replica, decision 12), so repeated preflights cost no
 * query; a rolled key's origins stop with its grace without one. An origin the cached lists
 * refuse is checked against the database again, at most once per ORIGIN_MISS_REFRESH_MS per
 * process, so a key created a moment ago (creation is not announced) works at once while a flood
 * of refused preflights costs at most one query a second. Without a live cache every call reads
 * the database, as key lookups do.
 */
export class BrowserOrigins {
  private lastMissRefresh = 0;
  private refreshing: { read: Promise<readonly OriginEntry[]>; generation: number } | undefined;

  constructor(
    private readonly db: Db,
    private readonly cache?: KeyCache,
  ) {}

  async allowed(origin: string): Promise<boolean> {
    const now = Date.now();
    const cached = this.cache?.getOrigins();
    if (cached) {
      if (allows(cached, origin, now)) return true;
      if (now - this.lastMissRefresh < ORIGIN_MISS_REFRESH_MS) return false;
      this.lastMissRefresh = now;
    }
    return allows(await this.refresh(), origin, Date.now());
  }

  /**
   * Read the allow-lists, and keep them unless a key change was announced meanwhile. With a live
   * cache, callers share a read in flight only if no change was announced since it began; without
   * one (nothing announced can reach us) every caller reads for itself.
   */
  private refresh(): Promise<readonly OriginEntry[]> {
    const cache = this.cache;
    if (!cache?.isLive) return readOriginEntries(this.db, new Date());
    const generation = cache.generation;
    if (this.refreshing?.generation === generation) return this.refreshing.read;
    const read = readOriginEntries(this.db, new Date())
      .then((entries) => {
        cache.setOrigins(entries, generation);
        return entries;
      })
      .finally(() => {
        if (this.refreshing?.read === read) this.refreshing = undefined;
      });
    this.refreshing = { read, generation };
    return read;
  }
}

const perDeps = new WeakMap<AppDeps, BrowserOrigins>();

/** The one BrowserOrigins of a process's dependencies (its database and key cache). */
export function browserOriginsOf(deps: AppDeps): BrowserOrigins {
  let origins = perDeps.get(deps);
  if (!origins) {
    origins = new BrowserOrigins(deps.db, deps.keyCache);
    perDeps.set(deps, origins);
  }
  return origins;
}
