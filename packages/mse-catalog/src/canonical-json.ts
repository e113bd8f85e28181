function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Stable JSON for content hashing: object keys sorted by UTF-16 code unit order at every depth,
 * array order kept, no whitespace. Otherwise it follows JSON.stringify (toJSON is honoured,
 * undefined members are dropped, non-finite numbers become null). Throws a TypeError when the value
 * has no JSON form (undefined, a function or a symbol at the top) or holds a cycle or a BigInt.
 */
export function canonicalJson(value: unknown): string {
  const out = JSON.stringify(value, (_key, v: unknown) => {
    if (!isPlainObject(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      Object.defineProperty(sorted, k, { value: v[k], enumerable: true, writable: true, configurable: true });
    }
    return sorted;
  });
  if (out === undefined) throw new TypeError("Value has no JSON representation.");
  return out;
}
