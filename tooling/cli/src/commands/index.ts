import type { DbHandle } from "@svc/db";
import { Refusal } from "@svc/refusal";
import type { ParsedArgs } from "../args.js";
import type { CommandTable } from "../command.js";
import { cdsCommands, cdsUsage } from "./cds.js";
import { coreCommands, coreUsage } from "./core.js";
import { labCommands, labUsage } from "./labs.js";
import { modelCommands, modelUsage } from "./models.js";
import { userCommands, userUsage } from "./users.js";
import { webhookCommands, webhookUsage } from "./webhooks.js";

/**
 * Every command, one module per feature (core, labs, webhooks, models...). Each module exports a
 * CommandTable and its usage lines; add both below.
 */
const commands: CommandTable = {
  ...coreCommands,
  ...modelCommands,
  ...webhookCommands,
  ...labCommands,
  ...userCommands,
  ...cdsCommands,
};

export const USAGE = `Usage: pnpm svc <command> [--json]
${[...coreUsage, ...modelUsage, ...webhookUsage, ...labUsage, ...userUsage, ...cdsUsage].map((line) => `  ${line}`).join("\n")}`;

/** Run the command the positionals name against a database handle; the one JSON object it prints. */
export async function runCommand(args: ParsedArgs, handle: DbHandle): Promise<Record<string, unknown>> {
  const command = commands[args.positionals.join(" ")];
  if (!command)
    throw new Refusal("invalid_request", `Unknown command "${args.positionals.join(" ")}".\n${USAGE}`);
  return command(args, handle);
}
