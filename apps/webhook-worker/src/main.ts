import { createDb } from "@svc/db";
import { createLogger, EnvError, installShutdown, parseEnv } from "@svc/http";
import { startWebhookWorker } from "./worker.js";

/**
 * The standalone worker (`pnpm --filter @svc/webhook-worker start`): needs DATABASE_URL (the
 * embedded database is one process; there the launcher runs the worker in-process) and REDIS_URL.
 * Scale out by starting more of these.
 */
let env: ReturnType<typeof parseEnv>;
try {
  env = parseEnv();
} catch (error) {
  if (error instanceof EnvError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
const logger = createLogger({ level: env.LOG_LEVEL, name: "webhook-worker" });
if (!env.DATABASE_URL) {
  process.stderr.write(
    "The webhook worker needs DATABASE_URL (PostgreSQL). With the embedded database, `pnpm start` runs it in-process.\n",
  );
  process.exit(1);
}
const dbHandle = createDb({ databaseUrl: env.DATABASE_URL, maxConnections: 12 });
await dbHandle.migrate();
const worker = await startWebhookWorker({ logger, db: dbHandle.db, redisUrl: env.REDIS_URL });
// Keep the process alive until a signal arrives.
const keepAlive = setInterval(() => {}, 60_000);
installShutdown(async () => {
  clearInterval(keepAlive);
  await worker.close();
  await dbHandle.close();
}, logger);
