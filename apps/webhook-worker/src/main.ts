import { createDb } from "@svc/db";
import { startWebhookWorker } from "@svc/delivery";
import { createLogger } from "@svc/http";
import {
  exitOnStartupFailure,
  installShutdown,
  loadEnvOrExit,
  loopbackWebhooksAllowed,
  msSinceProcessStart,
  redisUrlOf,
  standaloneListeningLine,
  startServer,
} from "@svc/http/runtime";
import { healthHandler } from "./health.js";

/**
 * The standalone worker (`pnpm --filter @svc/webhook-worker start`): needs DATABASE_URL (the
 * embedded database is one process; there the launcher delivers in-process). Scale out by
 * starting more of these. It serves /healthz and /readyz on PORT for probes, nothing else.
 */
const env = loadEnvOrExit();
if (!env.DATABASE_URL) {
  process.stderr.write(
    "The webhook worker needs DATABASE_URL (PostgreSQL). With the embedded database, `pnpm start` delivers in-process.\n",
  );
  process.exit(1);
}
const logger = createLogger({ level: env.LOG_LEVEL, name: "webhook-worker" });
const dbHandle = createDb({ databaseUrl: env.DATABASE_URL, maxConnections: 12 });
await dbHandle.migrate().catch((error: unknown) => exitOnStartupFailure(error, env));
const worker = await startWebhookWorker({
  logger,
  db: dbHandle.db,
  redisUrl: redisUrlOf(env),
  allowLoopbackWebhooks: loopbackWebhooksAllowed(env),
});
const health = await startServer({
  fetch: healthHandler(dbHandle, () => worker.redisState()),
  port: env.PORT,
  hostname: env.HOST,
}).catch((error: unknown) => exitOnStartupFailure(error, env));
const startedInMs = msSinceProcessStart();
process.stdout.write(
  `${standaloneListeningLine({
    name: "webhook-worker",
    hostname: env.HOST,
    port: health.port,
    tls: false,
    details: "health only",
    startedInMs,
  })}\n`,
);
logger.info({ port: health.port, startedInMs }, "webhook-worker listening");
installShutdown(async () => {
  await health.close();
  await worker.close();
  await dbHandle.close();
}, logger);
