/**
 * The class check of decision 169: every request a caller sends is bounded by its schema before
 * any work is done. `unboundedInSchema` walks a JSON Schema (an OpenAPI request body, or an MCP
 * tool's input schema) and names each place a caller could make a loop as long as it likes: an
 * array without `maxItems`, a string without `maxLength` (or an `enum`, `const` or a pattern of
 * fixed length), an object with free keys without `maxProperties`, a number without a maximum.
 */
export type JsonSchema = Record<string, unknown>;

/** `#/components/schemas/X` references resolved against `components`, if any. */
export function unboundedInSchema(root: unknown, components: Record<string, JsonSchema> = {}): string[] {
  const problems: string[] = [];
  const stack: { schema: unknown; at: string }[] = [{ schema: root, at: "" }];
  while (stack.length > 0) {
    const { schema: raw, at } = stack.pop() as { schema: unknown; at: string };
    const schema = resolve(raw, components);
    // Every path is walked (a shared component is reported where each body uses it); no schema of
    // ours is recursive, and this depth stops one that were.
    if (typeof schema !== "object" || schema === null || at.length > 2_000) continue;
    const s = schema as JsonSchema;
    for (const key of ["anyOf", "oneOf", "allOf"] as const) {
      const list = s[key];
      if (Array.isArray(list))
        for (const [i, part] of list.entries()) stack.push({ schema: part, at: `${at}|${key}${i}` });
    }
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (s.enum !== undefined || s.const !== undefined) continue;
    if (types.includes("array")) {
      if (typeof s.maxItems !== "number") problems.push(`${at || "/"}: array without maxItems`);
      if (s.items) stack.push({ schema: s.items, at: `${at}[]` });
      if (Array.isArray(s.prefixItems))
        for (const [i, part] of s.prefixItems.entries()) stack.push({ schema: part, at: `${at}[${i}]` });
    }
    if (types.includes("string") && typeof s.maxLength !== "number" && !fixedLengthPattern(s.pattern))
      problems.push(`${at || "/"}: string without maxLength`);
    if (
      (types.includes("number") || types.includes("integer")) &&
      typeof s.maximum !== "number" &&
      typeof s.exclusiveMaximum !== "number"
    )
      problems.push(`${at || "/"}: number without maximum`);
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    for (const [name, part] of Object.entries(properties)) stack.push({ schema: part, at: `${at}.${name}` });
    const free = s.additionalProperties;
    const freeKeys = free !== undefined && free !== false && (types.includes("object") || s.properties);
    if (freeKeys || (types.includes("object") && free === undefined && !s.properties)) {
      if (typeof s.maxProperties !== "number")
        problems.push(`${at || "/"}: object with free keys without maxProperties`);
      if (typeof free === "object") stack.push({ schema: free, at: `${at}.*` });
    }
  }
  return problems.sort();
}

function resolve(schema: unknown, components: Record<string, JsonSchema>): unknown {
  const ref = (schema as { $ref?: unknown } | null)?.$ref;
  if (typeof ref !== "string") return schema;
  return components[ref.split("/").at(-1) ?? ""];
}

/**
 * A pattern anchored at both ends whose every piece has a fixed upper count (no `*`, `+` or
 * open `{n,}`) bounds the string's length by itself: `^\d{1,7}-\d$`, `^[a-z]{2}$`.
 */
function fixedLengthPattern(pattern: unknown): boolean {
  if (typeof pattern !== "string" || !pattern.startsWith("^") || !pattern.endsWith("$")) return false;
  return !/[*+]|\{\d+,\}/.test(pattern.replace(/\\./g, "x"));
}
