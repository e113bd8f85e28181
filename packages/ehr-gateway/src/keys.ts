import type { JSONWebKeySet } from "jose";
import { type EhrAddressPolicy, type EhrFetchOptions, ehrGetJson, JWKS_MAX_BYTES } from "./fetcher.js";
import { checkPublicJwks, unusableKeyReason } from "./jwks.js";

/**
 * Where a CDS client's public keys come from: its inline JWK Set, or a `jku` it registered,
 * fetched through the EHR fetcher (address rules of decision 122) and kept briefly. A fetch that
 * fails is remembered briefly too, and one fetch at a time runs per URL (decision 148): tokens
 * naming an issuer need not be valid, so without both, every token would cost a fetch.
 */

/** A fetched set is reused this long (key rotation shows within five minutes). */
export const JWKS_CACHE_TTL_MS = 5 * 60_000;
/** A set without the token's kid is fetched again, but not more often than this (no fetch floods). */
export const JWKS_REFETCH_MIN_MS = 30_000;
/** A failed fetch (unreachable, an error status, not a public-key set) is not retried before this. */
export const JWKS_FAILURE_TTL_MS = 30_000;
/** At most this many sets (and, apart, this many failures) are remembered; the oldest goes first. */
export const JWKS_CACHE_MAX_ENTRIES = 200;

export interface JwksSource {
  /** The set at `jku`, or null when it cannot be had or is not a public-key set. */
  get(jku: string, policy: EhrAddressPolicy, options?: { fresh?: boolean }): Promise<JSONWebKeySet | null>;
}

interface Cached {
  jwks: JSONWebKeySet;
  fetchedAt: number;
}

/** Set `key` in a map kept to JWKS_CACHE_MAX_ENTRIES, the oldest insertion dropped first. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  if (map.size >= JWKS_CACHE_MAX_ENTRIES) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
  map.set(key, value);
}

/**
 * A JWKS source that fetches under the client's address rules and caches each set briefly. Per
 * URL (and address policy): a set is reused for JWKS_CACHE_TTL_MS; a failure is answered from
 * memory for JWKS_FAILURE_TTL_MS (a set still within its time is kept meanwhile); and callers
 * arriving while a fetch runs wait for that fetch instead of starting another.
 */
export class CachedJwksFetcher implements JwksSource {
  readonly #cache = new Map<string, Cached>();
  readonly #failedAt = new Map<string, number>();
  readonly #inFlight = new Map<string, Promise<Cached | null>>();
  constructor(
    private readonly fetchOptions: EhrFetchOptions = {},
    private readonly clock: () => number = Date.now,
  ) {}

  async get(
    jku: string,
    policy: EhrAddressPolicy,
    options: { fresh?: boolean } = {},
  ): Promise<JSONWebKeySet | null> {
    // The policy is part of the key: a set fetched for a client allowed loopback is not reused
    // for one that is not.
    const cacheKey = `${policy.mode}|${policy.allowPrivate}|${policy.allowLoopback}|${jku}`;
    const now = this.clock();
    const cached = this.#cache.get(cacheKey);
    const age = cached ? now - cached.fetchedAt : Number.POSITIVE_INFINITY;
    const usable = cached && age < JWKS_CACHE_TTL_MS ? cached.jwks : null;
    if (usable && !(options.fresh && age >= JWKS_REFETCH_MIN_MS)) return usable;
    const failedAt = this.#failedAt.get(cacheKey);
    if (failedAt !== undefined && now - failedAt < JWKS_FAILURE_TTL_MS) return usable;
    let fetching = this.#inFlight.get(cacheKey);
    if (!fetching) {
      fetching = this.#fetch(cacheKey, jku, policy).finally(() => this.#inFlight.delete(cacheKey));
      this.#inFlight.set(cacheKey, fetching);
    }
    return (await fetching)?.jwks ?? usable;
  }

  /** One fetch of the set: cached when it is a usable public-key set, remembered as failed if not. */
  async #fetch(cacheKey: string, jku: string, policy: EhrAddressPolicy): Promise<Cached | null> {
    const fetched = await ehrGetJson(jku, policy, undefined, {
      ...this.fetchOptions,
      maxBytes: JWKS_MAX_BYTES,
      accept: "application/jwk-set+json, application/json",
    });
    const checked = fetched.ok ? checkPublicJwks(fetched.json) : null;
    if (!checked?.ok || (await unusableKeyReason(checked.jwks)) !== null) {
      remember(this.#failedAt, cacheKey, this.clock());
      return null;
    }
    this.#failedAt.delete(cacheKey);
    const entry = { jwks: checked.jwks, fetchedAt: this.clock() };
    remember(this.#cache, cacheKey, entry);
    return entry;
  }
}
