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
import { EnvError, parseEnv } from "@svc/http";
import { type ParsedArgs, parseArgs } from "./args.js";

/** A refusal to print as `{ error }` on stderr with exit code 1. */
class CliError extends Error {}

const USAGE = `Usage: pnpm svc <command> [--json]
  accounts create --name NAME [--plan sandbox|launch|scale|enterprise] [--production] [--rate N --burst N]
  orgs create --name NAME
  keys create --account ID --kind secret_test|secret_live|publishable [--origins a,b]
  keys create --org ID --kind organization --scopes mse:read,mse:write,mse:sign
  keys revoke --id KEY_ID`;

function text(args: ParsedArgs, name: string, required = true): string | undefined {
  const value = args.flags.get(name);
  if (value === undefined) {
    if (required) throw new CliError(`Missing --${name}.`);
    return undefined;
  }
  if (value === true || value.trim() === "") throw new CliError(`--${name} needs a value.`);
  return value;
}

function integer(args: ParsedArgs, name: string): number | undefined {
  const value = text(args, name, false);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new CliError(`--${name} must be a whole number.`);
  return Number(value);
}

function list(args: ParsedArgs, name: string): string[] | undefined {
  const value = text(args, name, false);
  return value
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

async function run(args: ParsedArgs, handle: DbHandle): Promise<Record<string, unknown>> {
  const [noun, verb] = args.positionals;
  const db = handle.db;
  switch (`${noun} ${verb}`) {
    case "accounts create": {
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
    }
    case "orgs create":
      return createOrganization(db, { name: text(args, "name") as string });
    case "keys create": {
      const created = await createApiKey(db, {
        kind: text(args, "kind") as string,
        accountId: text(args, "account", false),
        orgId: text(args, "org", false),
        scopes: list(args, "scopes"),
        origins: list(args, "origins"),
      });
      return { ...created };
    }
    case "keys revoke":
      return revokeApiKey(db, text(args, "id") as string);
    default:
      throw new CliError(`Unknown command "${args.positionals.join(" ")}".\n${USAGE}`);
  }
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
