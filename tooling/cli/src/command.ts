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
