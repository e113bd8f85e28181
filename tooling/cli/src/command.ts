import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { DataDirLockedError, type DbHandle, RepoError } from "@svc/db";
import { EnvError } from "@svc/http/runtime";
import type { ParsedArgs } from "./args.js";

/** A refusal to print as `{ error }` on stderr with exit code 1. */
export class CliError extends Error {}

/**
 * What the operator is told about a failed command: the message of a refusal we made on purpose,
 * and nothing of an unexpected failure's internals.
 */
export function refusalMessage(error: unknown): string {
  const known =
    error instanceof CliError ||
    error instanceof RepoError ||
    error instanceof DataDirLockedError ||
    error instanceof EnvError;
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
    if (required) throw new CliError(`Missing --${name}.`);
    return undefined;
  }
  if (value === true || value.trim() === "") throw new CliError(`--${name} needs a value.`);
  return value;
}

export function integer(args: ParsedArgs, name: string): number | undefined {
  const value = text(args, name, false);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new CliError(`--${name} must be a whole number.`);
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
 * The most a file named by `--params-file`, `--results-file` or `--jwks` may hold: the API's body
 * limit. While `pnpm start` holds the embedded database the server itself runs the command
 * (decision 27), so an unbounded read (a device such as /dev/zero, a multi-gigabyte file) would
 * stop the service for every tenant.
 */
export const MAX_INPUT_FILE_BYTES = 1024 * 1024;

/**
 * A regular file's text, at most MAX_INPUT_FILE_BYTES, checked on the opened file before a byte is
 * read (decision 188); `what` names it in the refusals ("the JSON results").
 */
export function readInputFile(file: string, what: string, maxBytes = MAX_INPUT_FILE_BYTES): string {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    throw new CliError(`Cannot read ${what} from ${file}.`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new CliError(`${file} is not a regular file; ${what} must be a file.`);
    if (stat.size > maxBytes)
      throw new CliError(`${file} holds ${stat.size} bytes; ${what} may be at most ${maxBytes} bytes.`);
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
