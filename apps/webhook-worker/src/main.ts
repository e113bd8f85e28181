import { createLogger, installShutdown, parseEnv } from "@svc/http";
import { startWebhookWorker } from "./worker.js";

const env = parseEnv();
const logger = createLogger({ level: env.LOG_LEVEL, name: "webhook-worker" });
const worker = await startWebhookWorker({ logger });
// Keep the process alive until a signal arrives.
const keepAlive = setInterval(() => {}, 60_000);
installShutdown(async () => {
  clearInterval(keepAlive);
  await worker.close();
}, logger);
