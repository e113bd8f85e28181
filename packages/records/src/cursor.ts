import { Refusal } from "@svc/refusal";

/**
 * Opaque keyset cursors, one format for every list in both APIs: base64url of a JSON array of
 * strings. Clients pass `nextCursor` back unchanged; they never read it. It lives with the data
 * access whose lists issue it, not in the HTTP layer (decision 206).
 */
export function encodeCursor(parts: readonly string[]): string {
  return Buffer.from(JSON.stringify(parts), "utf8").toString("base64url");
}

/**
 * The parts of a cursor this list issued, each matched whole against its pattern (one pattern
 * per part). Anything else (another list's cursor, an edited or truncated one) is a 400
 * `invalid_request` naming `cursor`, so a bad cursor never silently restarts the list.
 */
export function decodeCursor(cursor: string, partPatterns: readonly RegExp[]): string[] {
  const parts = cursorParts(cursor);
  if (!parts || parts.length !== partPatterns.length) throw invalidCursor();
  partPatterns.forEach((pattern, i) => {
    if (!pattern.test(parts[i] as string)) throw invalidCursor();
  });
  return parts;
}

function cursorParts(cursor: string): string[] | undefined {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === "string")) return undefined;
    return parsed;
  } catch {
    return undefined;
  }
}

function invalidCursor(): Refusal {
  return new Refusal(
    "invalid_request",
    "The cursor is not valid; pass back a nextCursor exactly as returned.",
    {
      issues: [{ path: "cursor", message: "not a cursor returned by this list" }],
    },
  );
}
