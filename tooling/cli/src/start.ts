import { countAccounts, createAccount, createApiKey, type Db, oldestAccountId } from "@svc/db";
import {
  apiDeliveryEnqueuer,
  type DeliveryEnqueuer,
  startInProcessDelivery,
  startWebhookWorker,
} from "@svc/delivery";
import { KEYS_CHANGED_CHANNEL, type Logger } from "@svc/http";
import {
  createRuntime,
  exitOnStartupFailure,
  installShutdown,
  listeningLines,
  loadEnvOrExit,
  loopbackWebhooksAllowed,
  msSinceProcessStart,
  redisUrlOf,
  type ServiceEnv,
  sandboxPublishableOrigins,
  startServer,
  tlsFilesOf,
} from "@svc/http/runtime";
import { chatModelFromEnv, languageModelNarratorFromEnv } from "@svc/model";
import { createInvite, INVITE_HOURS } from "@svc/records";
import { announce } from "./announce.js";
import { buildCombinedApp } from "./combined.js";
import { type OperatorEndpoint, startOperatorEndpoint } from "./operator.js";

/**
 * On an empty database: a sandbox account, its secret test key and publishable key, and the
 * owner's one-time dashboard link, printed once. Called only once the socket listens (decision
 * 162): a start that cannot bind creates nothing, so the next one still prints the keys.
 * On a database that has accounts: the line that says how to get a key, since the keys were shown
 * once, on the first start.
 */
async function sandboxOnFirstStart(db: Db, baseUrl: string): Promise<string[]> {
  if ((await countAccounts(db)) > 0) {
    const account = await oldestAccountId(db);
    return [
      `  API keys are printed on the first start only; another: pnpm svc keys create --account ${account ?? "ID"} --kind secret_test (in another shell, after . tooling/scripts/ensure-node.sh)`,
    ];
  }
  const account = await createAccount(db, { name: "Sandbox", plan: "sandbox" });
  const secret = await createApiKey(db, { kind: "secret_test", accountId: account.id });
  const origins = sandboxPublishableOrigins(baseUrl);
  const publishable = await createApiKey(db, { kind: "publishable", accountId: account.id, origins });
  const ownerLink = await createInvite(db, { workspace: { accountId: account.id }, role: "owner" }, baseUrl);
  process.stdout.write(
    [
      "",
      `Sandbox account ${account.id} created. Its keys are shown this once; store them now.`,
      "Secret test key (server-side only):",
      secret.key,
      `Publishable key (browser pages on ${origins.join(", ")}; try it at ${baseUrl}/capture-demo):`,
      publishable.key,
      `Dashboard: set the owner's password once, within ${INVITE_HOURS} h (later: pnpm svc users invite):`,
      ownerLink.url,
      "",
    ].join("\n"),
  );
  return [];
}

interface DeliveryPath {
  deliveries: DeliveryEnqueuer;
  description: string;
  close(): Promise<void>;
}

/**
 * How webhook and MSE safety-event deliveries leave this process. Deliveries are written with
 * their events (the outbox). On the embedded database with no REDIS_URL there is no queue: the
 * outbox is read and delivered in-process. Otherwise the APIs hand committed ids to BullMQ and
 * the worker (with its outbox sweeper for whatever Redis missed) delivers them.
 */
async function startDeliveries(env: ServiceEnv, db: Db, logger: Logger): Promise<DeliveryPath> {
  const allowLoopbackWebhooks = loopbackWebhooksAllowed(env);
  if (!env.DATABASE_URL && !env.REDIS_URL) {
    const inProcess = startInProcessDelivery({ db, logger, allowLoopbackWebhooks });
    return {
      deliveries: inProcess,
      description: "webhooks delivered in-process from the outbox (no REDIS_URL)",
      close: () => inProcess.close(),
    };
  }
  const redisUrl = redisUrlOf(env);
  const enqueuer = apiDeliveryEnqueuer({ redisUrl, db, logger });
  const worker = await startWebhookWorker({ logger, db, redisUrl, allowLoopbackWebhooks });
  return {
    deliveries: enqueuer,
    description: "webhooks delivered by the BullMQ worker in this process",
    async close() {
      await worker.close();
      await enqueuer.close();
    },
  };
}

/**
 * `pnpm start`: both APIs and the webhook delivery in one process. Without DATABASE_URL the
 * database is embedded PGlite under SVC_DATA_DIR, and the operator CLI reaches it through this
 * server's operator endpoint.
 */
async function main(): Promise<void> {
  const env = loadEnvOrExit();
  const runtime = await createRuntime(env, "svc").catch((error: unknown) => exitOnStartupFailure(error, env));
  const { logger } = runtime;
  const db = runtime.dbHandle.db;

  const delivery = await startDeliveries(env, db, logger);
  runtime.deps.deliveries = delivery.deliveries;
  // `explain: true` narrates through the model MODEL_BASE_URL names, else the template narrator.
  const combined = buildCombinedApp(
    runtime.deps,
    { narrator: languageModelNarratorFromEnv(env), chatModel: chatModelFromEnv(env) },
    // Dashboard revocations reach the other replicas' key caches the way the CLI's do.
    { onKeysChanged: async (keyId) => void (await announce(KEYS_CHANGED_CHANNEL, keyId)) },
  );
  const server = await startServer({
    fetch: combined.fetch,
    port: env.PORT,
    hostname: env.HOST,
    tls: tlsFilesOf(env),
  }).catch((error: unknown) => exitOnStartupFailure(error, env));
  let operator: OperatorEndpoint | undefined;
  if (runtime.embedded)
    operator = await startOperatorEndpoint({ dataDir: env.SVC_DATA_DIR, handle: runtime.dbHandle, logger });
  // Only now that the socket listens: a start that fails to bind has created no account.
  const keyHint = await sandboxOnFirstStart(db, runtime.deps.publicBaseUrl);

  const startedInMs = msSinceProcessStart();
  process.stdout.write(
    [
      ...listeningLines({
        hostname: env.HOST,
        port: server.port,
        tls: tlsFilesOf(env) !== undefined,
        publicBaseUrl: env.PUBLIC_BASE_URL,
      }),
      `  database: ${runtime.dbHandle.kind}; ${delivery.description}; ${runtime.rateLimiting}`,
      ...keyHint,
      ...(operator
        ? [
            "  the operator CLI works through this server while it runs: in another shell, . tooling/scripts/ensure-node.sh, then pnpm svc --help",
          ]
        : []),
      `  started in ${startedInMs} ms`,
      "",
    ].join("\n"),
  );
  logger.info({ port: server.port, database: runtime.dbHandle.kind, startedInMs }, "service listening");

  installShutdown(async () => {
    await server.close();
    await operator?.close();
    await delivery.close();
    await runtime.close();
  }, logger);
}

await main();
