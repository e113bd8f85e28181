import { closeSync, openSync, readSync } from "node:fs";
import { DataDirLockedError, type DbHandle, RepoError } from "@svc/db";
import { checkJsonText } from "@svc/http";
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

/** Most bytes of a JSON file a command reads: the API's body limit (decisions 9 and 192). */
export const MAX_JSON_FILE_BYTES = 1_048_576;

/**
 * A JSON file a command was given (`--params-file`, `--results-file`, `--jwks`), read as the API
 * reads a body (decision 192): at most MAX_JSON_FILE_BYTES, read in pieces and refused at the piece
 * that passes it (a device or pipe has no size to ask), then the input screen of @svc/http (32
 * levels, 1,000 keys an object, 200,000 values, no control characters or lone surrogates).
 * `messages` keep each command's own wording for a file it cannot read or parse.
 */
export function readJsonFile(
  where: string,
  named: string,
  messages: { cannotRead: string; notJson: string },
): unknown {
  let fd: number;
  try {
    fd = openSync(where, "r");
  } catch {
    throw new CliError(messages.cannotRead);
  }
  const buffer = Buffer.alloc(MAX_JSON_FILE_BYTES + 1);
  let length = 0;
  try {
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > MAX_JSON_FILE_BYTES)
        throw new CliError(
          `${named} is over ${MAX_JSON_FILE_BYTES} bytes, the most a JSON file may hold (the API's body limit); it was not read further.`,
        );
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(messages.cannotRead);
  } finally {
    closeSync(fd);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(buffer.subarray(0, length));
  } catch {
    throw new CliError(messages.notJson);
  }
  const checked = checkJsonText(text);
  if (checked.ok) return checked.value;
  if (checked.invalidJson) throw new CliError(messages.notJson);
  const issue = checked.issues[0];
  throw new CliError(
    `${named} is refused by the input screen: ${issue?.path ?? "(root)"} ${issue?.message ?? ""}`.trim(),
  );
}
