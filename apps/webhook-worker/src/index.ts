export { startWebhookWorker, type WorkerHandle } from "./worker.js";
