import type { Logger } from "@svc/http";

export interface WorkerHandle {
  close(): Promise<void>;
}

/**
 * The webhook worker. Delivery (BullMQ consumers, outbox sweeper, retries) lands with the
 * webhooks issue; until then the process starts, reports that it is idle, and stops cleanly.
 */
export async function startWebhookWorker(options: { logger: Logger }): Promise<WorkerHandle> {
  options.logger.info("webhook worker started (idle: no event types are delivered yet)");
  return {
    async close() {
      options.logger.info("webhook worker stopped");
    },
  };
}
