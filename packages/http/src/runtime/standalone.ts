import type { AppDeps, ServiceApp } from "../app.js";
import { type ServiceEnv, tlsFilesOf } from "./env.js";
import { createRuntime } from "./runtime.js";
import { startServer } from "./server.js";

type FetchHandler = (request: Request) => Response | Promise<Response>;

import {
  exitOnStartupFailure,
  loadEnvOrExit,
  msSinceProcessStart,
  standaloneListeningLine,
} from "./startup.js";

/** Start one app alone (scale-out): validate env, open the database, serve, drain on SIGTERM. */
export async function runStandalone(
  name: string,
  /** Builds the app from the runtime and the environment (e.g. its model narrator). */
  build: (deps: AppDeps, env: ServiceEnv) => Pick<ServiceApp, "app"> | { app: { fetch: FetchHandler } },
  options: {
    /** Wires what the app needs beyond the runtime (e.g. the delivery queue); returns its closer. */
    prepare?: (deps: AppDeps, env: ServiceEnv) => { close(): Promise<void> } | undefined;
  } = {},
): Promise<void> {
  const env = loadEnvOrExit();
  const runtime = await createRuntime(env, name).catch((error: unknown) => exitOnStartupFailure(error, env));
  const extra = options.prepare?.(runtime.deps, env);
  const service = build(runtime.deps, env);
  const server = await startServer({
    fetch: service.app.fetch,
    port: env.PORT,
    hostname: env.HOST,
    tls: tlsFilesOf(env),
  }).catch((error: unknown) => exitOnStartupFailure(error, env));
  const startedInMs = msSinceProcessStart();
  process.stdout.write(
    `${standaloneListeningLine({
      name,
      hostname: env.HOST,
      port: server.port,
      tls: tlsFilesOf(env) !== undefined,
      details: `database: ${runtime.dbHandle.kind}; ${runtime.rateLimiting}`,
      startedInMs,
    })}\n`,
  );
  runtime.logger.info(
    { port: server.port, database: runtime.dbHandle.kind, startedInMs },
    `${name} listening`,
  );
  installShutdown(async () => {
    await server.close();
    await extra?.close();
    await runtime.close();
  }, runtime.logger);
}

/** SIGTERM/SIGINT: finish in-flight work, then close cleanly; a second signal exits at once. */
export function installShutdown(
  stop: () => Promise<void>,
  logger: { info: (m: string) => void; error: (o: object, m: string) => void },
): void {
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info(`${signal} received: draining`);
    stop()
      .then(() => process.exit(0))
      .catch((error: Error) => {
        logger.error({ errName: error.name }, "shutdown failed");
        process.exit(1);
      });
  };
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  process.on("SIGINT", () => onSignal("SIGINT"));
}
