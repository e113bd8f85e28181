import type { DbHandle } from "@svc/db";
import type { ParsedArgs } from "./args.js";

/** A refusal to print as `{ error }` on stderr with exit code 1. */
export class CliError extends Error {}

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
