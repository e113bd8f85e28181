import type { JSONWebKeySet } from "jose";
import { type EhrAddressPolicy, type EhrFetchOptions, ehrGetJson, JWKS_MAX_BYTES } from "./fetcher.js";
import { checkPublicJwks, unusableKeyReason } from "./jwks.js";

/**
 * Where a CDS client's public keys come from: its inline JWK Set, or a `jku` it registered,
 * fetched through the EHR fetcher (address rules of decision 122) and kept briefly.
 */

/** A fetched set is reused this long (key rotation shows within five minutes). */
export const JWKS_CACHE_TTL_MS = 5 * 60_000;
/** A set without the token's kid is fetched again, but not more often than this (no fetch floods). */
export const JWKS_REFETCH_MIN_MS = 30_000;
/** At most this many sets are cached; the oldest goes first. */
export const JWKS_CACHE_MAX_ENTRIES = 200;

export interface JwksSource {
  /** The set at `jku`, or null when it cannot be had or is not a public-key set. */
  get(jku: string, policy: EhrAddressPolicy, options?: { fresh?: boolean }): Promise<JSONWebKeySet | null>;
}

interface Cached {
  jwks: JSONWebKeySet;
  fetchedAt: number;
}

/** A JWKS source that fetches under the client's address rules and caches each set briefly. */
export class CachedJwksFetcher implements JwksSource {
  readonly #cache = new Map<string, Cached>();
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
    if (cached && age < JWKS_CACHE_TTL_MS && !(options.fresh && age >= JWKS_REFETCH_MIN_MS))
      return cached.jwks;
    const fetched = await ehrGetJson(jku, policy, undefined, {
      ...this.fetchOptions,
      maxBytes: JWKS_MAX_BYTES,
      accept: "application/jwk-set+json, application/json",
    });
    if (!fetched.ok) return null;
    const checked = checkPublicJwks(fetched.json);
    if (!checked.ok || (await unusableKeyReason(checked.jwks)) !== null) return null;
    this.#cache.delete(cacheKey);
    if (this.#cache.size >= JWKS_CACHE_MAX_ENTRIES) {
      const oldest = this.#cache.keys().next().value;
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
    this.#cache.set(cacheKey, { jwks: checked.jwks, fetchedAt: now });
    return checked.jwks;
  }
}
