import { createHash } from "node:crypto";

/**
 * A small deterministic generator (mulberry32) seeded from a string: sandbox lab results and
 * sandbox wearable metrics use it so the same order or connection always shows the same numbers.
 */
export function seededRandom(seed: string): () => number {
  let state = createHash("sha256").update(seed).digest().readUInt32BE(0);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
