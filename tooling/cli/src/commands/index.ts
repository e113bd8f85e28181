import type { CommandTable } from "../command.js";
import { labCommands, labUsage } from "./labs.js";
import { modelCommands, modelUsage } from "./models.js";
import { webhookCommands, webhookUsage } from "./webhooks.js";

/**
 * Feature commands, one module per feature (labs, webhooks, models...). Each module exports a
 * CommandTable; add it to the spread below.
 */
export const featureCommands: CommandTable = {
  ...modelCommands,
  ...webhookCommands,
  ...labCommands,
};

/** Usage lines of the feature commands, appended to `pnpm svc --help`. */
export const featureUsage: string[] = [...modelUsage, ...webhookUsage, ...labUsage];
