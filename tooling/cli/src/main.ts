import {
  acquireDataDirLock,
  createAccount,
  createApiKey,
  createDb,
  createOrganization,
  DataDirLockedError,
  type DbHandle,
  PLAN_IDS,
  type PlanId,
  RepoError,
  revokeApiKey,
} from "@svc/db";
import { EnvError, KEYS_CHANGED_CHANNEL, parseEnv } from "@svc/http";
import { announce } from "./announce.js";
import { type ParsedArgs, parseArgs } from "./args.js";
import { CliError, type CommandTable, integer, list, text } from "./command.js";
import { featureCommands, featureUsage } from "./commands/index.js";

const USAGE = `Usage: pnpm svc <command> [--json]
  accounts create --name NAME [--plan sandbox|launch|scale|enterprise] [--production] [--rate N --burst N]
  orgs create --name NAME
  keys create --account ID --kind secret_test|secret_live|publishable [--origins a,b]
  keys create --org ID --kind organization --scopes mse:read,mse:write,mse:sign
  keys revoke --id KEY_ID
${featureUsage.map((line) => `  ${line}`).join("\n")}`;

const coreCommands: CommandTable = {
  "accounts create": async (args, { db }) => {
    const plan = (text(args, "plan", false) ?? "sandbox") as PlanId;
    if (!PLAN_IDS.includes(plan))
      throw new CliError(`Unknown plan "${plan}"; valid plans: ${PLAN_IDS.join(", ")}.`);
    return createAccount(db, {
      name: text(args, "name") as string,
      plan,
      production: args.flags.get("production") === true,
      ratePerSecond: integer(args, "rate"),
      burst: integer(args, "burst"),
    });
  },
  "orgs create": async (args, { db }) => createOrganization(db, { name: text(args, "name") as string }),
  "keys create": async (args, { db }) => ({
    ...(await createApiKey(db, {
      kind: text(args, "kind") as string,
      accountId: text(args, "account", false),
      orgId: text(args, "org", false),
      scopes: list(args, "scopes"),
      origins: list(args, "origins"),
    })),
  }),
  "keys revoke": async (args, { db }) => {
    const result = await revokeApiKey(db, text(args, "id") as string);
    // Replicas caching key lookups drop them on this message; without Redis they cache nothing.
    await announce(KEYS_CHANGED_CHANNEL, result.id);
    return result;
  },
};

/** Every command: the core ones here, feature commands from ./commands/*. */
const commands: CommandTable = { ...coreCommands, ...featureCommands };

async function run(args: ParsedArgs, handle: DbHandle): Promise<Record<string, unknown>> {
  const [noun, verb] = args.positionals;
  const command = commands[`${noun} ${verb}`];
  if (!command) throw new CliError(`Unknown command "${args.positionals.join(" ")}".\n${USAGE}`);
  return command(args, handle);
}

function human(result: Record<string, unknown>): string {
  const lines = Object.entries(result).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(",") : String(v)}`);
  if (typeof result.key === "string") lines.push("", "The key is shown this once; store it now.");
  return lines.join("\n");
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const json = args.flags.get("json") === true;
  args.flags.delete("json");
  if (args.positionals.length === 0 || args.flags.has("help")) {
    process.stdout.write(`${USAGE}\n`);
    return args.positionals.length === 0 && !args.flags.has("help") ? 1 : 0;
  }
  let release = () => {};
  let handle: DbHandle | undefined;
  try {
    const env = parseEnv();
    if (!env.DATABASE_URL) release = acquireDataDirLock(env.SVC_DATA_DIR, "the operator CLI");
    handle = createDb({ databaseUrl: env.DATABASE_URL, dataDir: env.SVC_DATA_DIR, maxConnections: 2 });
    await handle.migrate();
    const result = await run(args, handle);
    process.stdout.write(json ? `${JSON.stringify(result)}\n` : `${human(result)}\n`);
    return 0;
  } catch (error) {
    const known =
      error instanceof CliError ||
      error instanceof RepoError ||
      error instanceof DataDirLockedError ||
      error instanceof EnvError;
    const message = known
      ? (error as Error).message
      : "Unexpected failure; nothing was changed if the command did not finish.";
    process.stderr.write(`${JSON.stringify({ error: message })}\n`);
    return 1;
  } finally {
    await handle?.close().catch(() => {});
    release();
  }
}

process.exitCode = await main();
