import { randomFillSync, timingSafeEqual } from "node:crypto";

/**
 * Prefixed, time-sortable identifiers (`req_`, `evt_`, `labord_`, `wear_`, `sev_`, ...).
 * Layout: 48-bit millisecond timestamp + 80 random bits, Crockford base32 (26 chars), so ids
 * sort by creation time as plain strings and never collide in practice.
 */
const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

export const ID_PREFIXES = [
  "req",
  "acct",
  "org",
  "key",
  "evt",
  "labord",
  "wear",
  "sev",
  "we",
  "whd",
  "sig",
  "msev",
  "idem",
  "cdscl",
  "cdsfb",
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

let lastMs = -1;
const lastRandom = new Uint8Array(10);

/**
 * Random bytes are drawn from the OS in blocks of 4 kB: one call into the system's generator per
 * 400 ids instead of one per id (a request id is made on every request).
 */
const randomPool = new Uint8Array(4096);
let poolOffset = randomPool.length;
function freshRandom(into: Uint8Array): void {
  if (poolOffset + into.length > randomPool.length) {
    randomFillSync(randomPool);
    poolOffset = 0;
  }
  into.set(randomPool.subarray(poolOffset, poolOffset + into.length));
  poolOffset += into.length;
}

/** Increment an 80-bit big-endian counter in place; keeps ids monotonic within one millisecond. */
function incrementRandom(bytes: Uint8Array): void {
  for (let i = bytes.length - 1; i >= 0; i--) {
    const value = (bytes[i] ?? 0) + 1;
    bytes[i] = value & 0xff;
    if (value <= 0xff) break;
  }
}

function encodeBase32(timeMs: number, random: Uint8Array): string {
  let out = "";
  let time = timeMs;
  for (let i = 0; i < 10; i++) {
    out = (CROCKFORD[time % 32] as string) + out;
    time = Math.floor(time / 32);
  }
  // 80 random bits -> 16 base32 chars
  let bits = 0;
  let acc = 0;
  for (const byte of random) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += CROCKFORD[(acc >> bits) & 31];
    }
    acc &= (1 << bits) - 1;
  }
  return out;
}

/** A new id with the given prefix, e.g. `newId("req")` -> `req_01jd...`. */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  if (now === lastMs) {
    incrementRandom(lastRandom);
  } else {
    lastMs = now;
    freshRandom(lastRandom);
  }
  return `${prefix}_${encodeBase32(now, lastRandom)}`;
}

/** True when `value` looks like an id of `prefix` (shape only, no lookup). */
export function isId(prefix: IdPrefix, value: string): boolean {
  return new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{26}$`).test(value);
}

/**
 * Do two secrets (tokens, hashes, signatures, checksums) match? The repository's one constant-time
 * comparison: every secret compare calls it, so none is written twice or with `===`. Compares the
 * UTF-8 bytes; only the lengths' (in)equality is visible in the timing, never where they differ.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}
