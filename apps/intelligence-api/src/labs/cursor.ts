import { ApiError } from "@svc/http";

/** Opaque keyset cursors: base64url of `part:part`; anything else is 400 invalid_request. */
export function encodeCursor(parts: readonly string[]): string {
  return Buffer.from(parts.join(":"), "utf8").toString("base64url");
}

export function decodeCursor(cursor: string, pattern: RegExp): RegExpExecArray {
  const invalid = () =>
    new ApiError("invalid_request", "The cursor is not valid; pass back a nextCursor exactly as returned.", {
      issues: [{ path: "cursor", message: "not a cursor returned by this list" }],
    });
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw invalid();
  const match = pattern.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) throw invalid();
  return match;
}
