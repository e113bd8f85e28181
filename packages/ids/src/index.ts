import { randomBytes } from "node:crypto";

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
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

let lastMs = -1;
let lastRandom: Uint8Array = new Uint8Array(10);

/** Increment an 80-bit big-endian counter; keeps ids monotonic within one millisecond. */
function incrementRandom(bytes: Uint8Array): Uint8Array {
  const next = Uint8Array.from(bytes);
  for (let i = next.length - 1; i >= 0; i--) {
    const value = (next[i] ?? 0) + 1;
    next[i] = value & 0xff;
    if (value <= 0xff) break;
  }
  return next;
}

function encodeBase32(timeMs: number, random: Uint8Array): string {
  let out = "";
  let time = timeMs;
  const timeChars: string[] = [];
  for (let i = 0; i < 10; i++) {
    timeChars.unshift(CROCKFORD[time % 32] as string);
    time = Math.floor(time / 32);
  }
  out += timeChars.join("");
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
    lastRandom = incrementRandom(lastRandom);
  } else {
    lastMs = now;
    lastRandom = new Uint8Array(randomBytes(10));
  }
  return `${prefix}_${encodeBase32(now, lastRandom)}`;
}

/** True when `value` looks like an id of `prefix` (shape only, no lookup). */
export function isId(prefix: IdPrefix, value: string): boolean {
  return new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{26}$`).test(value);
}
