import { createHash, randomBytes } from "node:crypto";
import { constantTimeEqual } from "@svc/ids";
import type { KeyKind } from "./schema.js";

/**
 * API key format (decision 12): `<prefix><32 base62 chars><6-char base62 CRC32>`. The checksum lets
 * us reject a mistyped or truncated key without a database lookup, and lets secret scanners
 * recognise a leaked key by its shape.
 */
export const KEY_PREFIXES: Record<KeyKind, string> = {
  secret_test: "svc_sk_test_",
  secret_live: "svc_sk_live_",
  publishable: "svc_pk_",
  organization: "mse_live_",
};

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_CHARS = 32; // 32 * log2(62) = 190 bits of entropy
const CHECKSUM_CHARS = 6; // 62^6 > 2^32
const VISIBLE_RANDOM_CHARS = 4;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3), the same polynomial zlib uses. */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, "utf8"))
    crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62Fixed(value: number, width: number): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    // Rejection sampling keeps every character uniform (248 = 4 * 62).
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export interface GeneratedKey {
  key: string;
  hash: string;
  displayPrefix: string;
}

export function generateKey(kind: KeyKind): GeneratedKey {
  const prefix = KEY_PREFIXES[kind];
  const body = prefix + randomBase62(RANDOM_CHARS);
  const key = body + base62Fixed(crc32(body), CHECKSUM_CHARS);
  return { key, hash: hashKey(key), displayPrefix: key.slice(0, prefix.length + VISIBLE_RANDOM_CHARS) };
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The kind a well-formed key claims, or null when its prefix, length, alphabet or checksum is off. */
export function parseKey(key: string): KeyKind | null {
  for (const [kind, prefix] of Object.entries(KEY_PREFIXES) as [KeyKind, string][]) {
    if (!key.startsWith(prefix)) continue;
    if (key.length !== prefix.length + RANDOM_CHARS + CHECKSUM_CHARS) return null;
    const rest = key.slice(prefix.length);
    if (!/^[0-9A-Za-z]+$/.test(rest)) return null;
    const body = key.slice(0, key.length - CHECKSUM_CHARS);
    const expected = base62Fixed(crc32(body), CHECKSUM_CHARS);
    return constantTimeEqual(expected, key.slice(key.length - CHECKSUM_CHARS)) ? kind : null;
  }
  return null;
}

/** Constant-time comparison of two hex hashes (the lookup is by hash; this guards the final match). */
export function hashesEqual(a: string, b: string): boolean {
  return constantTimeEqual(a, b);
}
