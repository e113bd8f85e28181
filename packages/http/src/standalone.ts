import type { AppDeps, ServiceApp } from "./app.js";
import { EnvError, parseEnv } from "./env.js";
import { createRuntime } from "./runtime.js";
import { startServer } from "./server.js";

/** Start one app alone (scale-out): validate env, open the database, serve, drain on SIGTERM. */
export async function runStandalone(
  name: string,
  build: (deps: AppDeps) => ServiceApp,
  options: {
    /** Wires what the app needs beyond the runtime (e.g. the delivery queue); returns its closer. */
    prepare?: (deps: AppDeps, env: ReturnType<typeof parseEnv>) => { close(): Promise<void> } | undefined;
  } = {},
): Promise<void> {
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
  const runtime = await createRuntime(env, name);
  const extra = options.prepare?.(runtime.deps, env);
  const service = build(runtime.deps);
  const server = await startServer({
    fetch: service.app.fetch,
    port: env.PORT,
    hostname: env.HOST,
    tls:
      env.TLS_CERT_FILE && env.TLS_KEY_FILE
        ? { certFile: env.TLS_CERT_FILE, keyFile: env.TLS_KEY_FILE }
        : undefined,
  });
  runtime.logger.info({ port: server.port, database: runtime.dbHandle.kind }, `${name} listening`);
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
