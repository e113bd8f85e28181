import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { DataDirLockedError, type DbHandle } from "@svc/db";
import { checkJsonText } from "@svc/http";
import { EnvError } from "@svc/http/runtime";
import { Refusal } from "@svc/refusal";
import type { ParsedArgs } from "./args.js";

/**
 * What the operator is told about a failed command (printed as `{ error }` on stderr with exit
 * code 1): the message of a refusal made on purpose (a `Refusal` of the command's own checks or of
 * the data access, decision 206; the data directory held by another process; a bad environment),
 * and nothing of an unexpected failure's internals. The one place the CLI maps a refusal.
 */
export function refusalMessage(error: unknown): string {
  const known = error instanceof Refusal || error instanceof DataDirLockedError || error instanceof EnvError;
  return known
    ? (error as Error).message
    : "Unexpected failure; nothing was changed if the command did not finish.";
}

/** `"noun verb"` -> handler returning the one JSON object the command prints. */
export type CommandTable = Record<
  string,
  (args: ParsedArgs, handle: DbHandle) => Promise<Record<string, unknown>>
>;

export function text(args: ParsedArgs, name: string, required = true): string | undefined {
  const value = args.flags.get(name);
  if (value === undefined) {
    if (required) throw new Refusal("invalid_request", `Missing --${name}.`);
    return undefined;
  }
  if (value === true || value.trim() === "") throw new Refusal("invalid_request", `--${name} needs a value.`);
  return value;
}

export function integer(args: ParsedArgs, name: string): number | undefined {
  const value = text(args, name, false);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Refusal("invalid_request", `--${name} must be a whole number.`);
  return Number(value);
}

export function list(args: ParsedArgs, name: string): string[] | undefined {
  const value = text(args, name, false);
  return value
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Most bytes of a JSON file a command reads: the API's body limit. While `pnpm start` holds the
 * embedded database the server itself runs the command (decision 27), so an unbounded read (a
 * device such as /dev/zero, a multi-gigabyte file) would stop the service for every tenant
 * (decisions 167 and 170).
 */
export const MAX_JSON_FILE_BYTES = 1_048_576;

/**
 * A JSON file a command was given (`--params-file`, `--results-file`, `--jwks`), read as the API
 * reads a body (decisions 167 and 170): a regular file only (a device or a folder is refused
 * before a byte is read), at most `maxBytes` (its size checked first, and the read stopped at the
 * piece that passes it should the file grow meanwhile), strict UTF-8, then the input screen of
 * @svc/http (32 levels, 1,000 keys an object, 200,000 values, no control characters or lone
 * surrogates). `messages` keep each command's own wording for a file it cannot read or parse.
 */
export function readJsonFile(
  where: string,
  named: string,
  messages: { cannotRead: string; notJson: string },
  maxBytes = MAX_JSON_FILE_BYTES,
): unknown {
  const text = readBoundedFile(where, named, messages.cannotRead, maxBytes);
  const checked = checkJsonText(text);
  if (checked.ok) return checked.value;
  if (checked.invalidJson) throw new Refusal("invalid_request", messages.notJson);
  const issue = checked.issues[0];
  throw new Refusal(
    "invalid_request",
    `${named} is refused by the input screen: ${issue?.path ?? "(root)"} ${issue?.message ?? ""}`.trim(),
  );
}

/** A regular file's UTF-8 text of at most `maxBytes`, bounded before and while it is read. */
function readBoundedFile(where: string, named: string, cannotRead: string, maxBytes: number): string {
  const tooLarge = () =>
    new Refusal(
      "invalid_request",
      `${named} is over ${maxBytes} bytes, the most a JSON file may hold here; it was not read.`,
    );
  let fd: number;
  try {
    fd = openSync(where, "r");
  } catch {
    throw new Refusal("invalid_request", cannotRead);
  }
  const buffer = Buffer.alloc(maxBytes + 1);
  let length = 0;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile())
      throw new Refusal("invalid_request", `${named} is not a regular file; give a JSON file.`);
    if (stat.size > maxBytes) throw tooLarge();
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > maxBytes) throw tooLarge();
    }
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw new Refusal("invalid_request", cannotRead);
  } finally {
    closeSync(fd);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buffer.subarray(0, length));
  } catch {
    throw new Refusal("invalid_request", `${named} is not UTF-8 text.`);
  }
}
