import { acquireDataDirLock, createDb, DataDirLockedError, type DbHandle } from "@svc/db";
import { parseEnv } from "@svc/http/runtime";
import { parseArgs } from "./args.js";
import { refusalMessage } from "./command.js";
import { runCommand, USAGE } from "./commands/index.js";
import { humanOutput } from "./human.js";
import { runThroughServer } from "./operator.js";

/** Run on the database directly: PostgreSQL, or the embedded one when no server holds it. */
async function runLocally(args: ReturnType<typeof parseArgs>): Promise<Record<string, unknown>> {
  const env = parseEnv();
  let release = () => {};
  let handle: DbHandle | undefined;
  try {
    if (!env.DATABASE_URL) release = acquireDataDirLock(env.SVC_DATA_DIR, "the operator CLI");
    handle = createDb({ databaseUrl: env.DATABASE_URL, dataDir: env.SVC_DATA_DIR, maxConnections: 2 });
    await handle.migrate();
    return await runCommand(args, handle);
  } finally {
    await handle?.close().catch(() => {});
    release();
  }
}

/**
 * `pnpm svc ...`. While an embedded server holds the data dir, the command goes through that
 * server's operator endpoint instead (decision 27); a refusal naming the server's pid remains
 * only when the server offers none.
 */
async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const args = parseArgs(argv);
  const json = args.flags.get("json") === true;
  args.flags.delete("json");
  if (args.positionals.length === 0 || args.flags.has("help")) {
    process.stdout.write(`${USAGE}\n`);
    return args.positionals.length === 0 && !args.flags.has("help") ? 1 : 0;
  }
  const print = (result: Record<string, unknown>) =>
    process.stdout.write(json ? `${JSON.stringify(result)}\n` : `${humanOutput(result)}\n`);
  const refuse = (message: string) => process.stderr.write(`${JSON.stringify({ error: message })}\n`);
  try {
    print(await runLocally(args));
    return 0;
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      const dataDir = parseEnv().SVC_DATA_DIR;
      const reply = await runThroughServer(
        dataDir,
        argv.filter((a) => a !== "--json"),
      );
      if (reply?.ok) {
        print(reply.result);
        return 0;
      }
      if (reply) {
        refuse(reply.error);
        return 1;
      }
    }
    refuse(refusalMessage(error));
    return 1;
  }
}

process.exitCode = await main();
