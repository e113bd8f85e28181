import type { CommandTable } from "../command.js";
import { modelCommands, modelUsage } from "./models.js";

/**
 * Feature commands, one module per feature (labs, webhooks, models...). Each module exports a
 * CommandTable; add it to the spread below.
 */
export const featureCommands: CommandTable = { ...modelCommands };

/** Usage lines of the feature commands, appended to `pnpm svc --help`. */
export const featureUsage: string[] = [...modelUsage];
