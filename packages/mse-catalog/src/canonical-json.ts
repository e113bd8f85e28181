function serialize(value: unknown, key: string, stack: Set<object>): string | undefined {
  let v = value;
  if (typeof v === "object" && v !== null && typeof (v as { toJSON?: unknown }).toJSON === "function") {
    v = (v as { toJSON: (k: string) => unknown }).toJSON(key);
  }
  if (v === null) return "null";
  switch (typeof v) {
    case "string":
    case "boolean":
      return JSON.stringify(v);
    case "number":
      return Number.isFinite(v) ? JSON.stringify(v) : "null";
    case "bigint":
      throw new TypeError("BigInt has no JSON representation.");
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
  }
  const obj = v as object;
  if (stack.has(obj)) throw new TypeError("Cannot serialise a cyclic structure.");
  stack.add(obj);
  try {
    if (Array.isArray(obj)) {
      return `[${obj.map((item, i) => serialize(item, String(i), stack) ?? "null").join(",")}]`;
    }
    if (obj instanceof Number || obj instanceof String || obj instanceof Boolean) {
      return serialize(obj.valueOf(), key, stack);
    }
    const record = obj as Record<string, unknown>;
    const parts: string[] = [];
    for (const k of Object.keys(record).sort()) {
      const s = serialize(record[k], k, stack);
      if (s !== undefined) parts.push(`${JSON.stringify(k)}:${s}`);
    }
    return `{${parts.join(",")}}`;
  } finally {
    stack.delete(obj);
  }
}

/**
 * Stable JSON for content hashing: object keys sorted by UTF-16 code unit order at every depth,
 * array order kept, no whitespace. Otherwise it follows JSON.stringify (toJSON is honoured,
 * undefined members are dropped, undefined array items and non-finite numbers become null).
 * Throws a TypeError when the value has no JSON form (undefined, a function or a symbol at the
 * top) or holds a cycle or a BigInt.
 */
export function canonicalJson(value: unknown): string {
  const out = serialize(value, "", new Set());
  if (out === undefined) throw new TypeError("Value has no JSON representation.");
  return out;
}
