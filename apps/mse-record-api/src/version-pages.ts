import { decodeCursor, encodeCursor } from "@svc/records";

/**
 * Paging of a visit's versions (history newest first, audit oldest first; decision 87): the
 * cursor names the list and the last version a page returned, and a page stops before its JSON
 * passes PAGE_BYTES, so one response stays bounded however long the notes are.
 */

/** The most bytes of entries one history or audit page carries (one entry always fits). */
export const PAGE_BYTES = 1_000_000;

export type VersionList = "history" | "audit";

const VERSION_NUMBER = /^[1-9][0-9]{0,8}$/;

/** The cursor after `version` in `list`. */
export function versionCursor(list: VersionList, version: number): string {
  return encodeCursor([`mse.${list}`, String(version)]);
}

/**
 * The version a `nextCursor` of `list` names. Anything this list did not issue (another list's
 * cursor included) is the shared 400 naming `cursor`, never a silent restart.
 */
export function cursorVersion(list: VersionList, cursor: string): number {
  const [, version] = decodeCursor(cursor, [new RegExp(`^mse\\.${list}$`), VERSION_NUMBER]);
  return Number(version);
}

/**
 * How many of `entries` (in page order) fit in `maxBytes` of JSON: at least one, so a page always
 * moves the cursor on. `sizeOf` gives each entry's JSON bytes.
 */
export function entriesWithin<T>(
  entries: readonly T[],
  maxBytes: number,
  sizeOf: (entry: T) => number,
): number {
  let used = 0;
  for (let i = 0; i < entries.length; i += 1) {
    used += sizeOf(entries[i] as T);
    if (used > maxBytes && i > 0) return i;
  }
  return entries.length;
}

/** The UTF-8 bytes of a value's JSON. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), "utf8");
}
