import { countAccounts, createAccount, createApiKey, DataDirLockedError } from "@svc/db";
import { createRuntime, EnvError, installShutdown, parseEnv, startServer } from "@svc/http";
import { createDeliveryEnqueuer, startWebhookWorker } from "@svc/webhook-worker";
import { buildCombinedApp } from "./combined.js";

/**
 * `pnpm start`: both APIs and the webhook worker in one process. Without DATABASE_URL the
 * database is embedded PGlite under SVC_DATA_DIR; on an empty database a sandbox account with a
 * secret test key and a publishable key is created and the keys are printed once.
 */
async function main(): Promise<void> {
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
  let runtime: Awaited<ReturnType<typeof createRuntime>>;
  try {
    runtime = await createRuntime(env, "svc");
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const { logger } = runtime;

  if ((await countAccounts(runtime.dbHandle.db)) === 0) {
    const account = await createAccount(runtime.dbHandle.db, { name: "Sandbox", plan: "sandbox" });
    const secret = await createApiKey(runtime.dbHandle.db, { kind: "secret_test", accountId: account.id });
    const publishable = await createApiKey(runtime.dbHandle.db, {
      kind: "publishable",
      accountId: account.id,
      origins: ["http://localhost:*"],
    });
    process.stdout.write(
      [
        "",
        `Sandbox account ${account.id} created. Its keys are shown this once; store them now.`,
        "Secret test key (server-side only):",
        secret.key,
        "Publishable key (browser, origin http://localhost:*):",
        publishable.key,
        "",
      ].join("\n"),
    );
  }

  // Deliveries are written with their events (the outbox); after commit the APIs hand their ids
  // to the queue, and the worker's sweeper catches whatever that misses (Redis down).
  const enqueuer = createDeliveryEnqueuer({
    redis: env.REDIS_URL,
    db: runtime.dbHandle.db,
    onError: () => logger.warn("delivery queue unreachable; the outbox sweeper will deliver"),
  });
  runtime.deps.deliveries = enqueuer;
  const combined = buildCombinedApp(runtime.deps);
  const server = await startServer({
    fetch: combined.fetch,
    port: env.PORT,
    hostname: env.HOST,
    tls:
      env.TLS_CERT_FILE && env.TLS_KEY_FILE
        ? { certFile: env.TLS_CERT_FILE, keyFile: env.TLS_KEY_FILE }
        : undefined,
  });
  const worker = await startWebhookWorker({ logger, db: runtime.dbHandle.db, redisUrl: env.REDIS_URL });
  process.stdout.write(
    `Listening on ${server.url} (database: ${runtime.dbHandle.kind}); reference at ${server.url}/docs\n`,
  );
  logger.info({ port: server.port, database: runtime.dbHandle.kind }, "service listening");

  installShutdown(async () => {
    await server.close();
    await worker.close();
    await enqueuer.close();
    await runtime.close();
  }, logger);
}

await main();
