/**
 * Webhook delivery bench: event-to-delivery latency (commit of the event to its arrival at a
 * receiver on loopback) at a steady rate, and how many deliveries per second one worker makes
 * when a backlog is waiting. Real PostgreSQL, Redis, BullMQ and HTTP.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { type Db, recordEvent } from "@svc/db";
import { addWebhookEndpoint, createDeliveryEnqueuer, startWebhookWorker } from "@svc/delivery";
import { createLogger } from "@svc/http";
import { type SteadyMeasure, steady } from "./mse.js";

export interface DeliveryBenchResult {
  latency: SteadyMeasure;
  backlog: { deliveries: number; seconds: number; perSecond: number };
}

export async function runDeliveryBench(options: {
  db: Db;
  accountId: string;
  redisUrl: string;
  rate: number;
  seconds: number;
  backlog: number;
  log: (line: string) => void;
}): Promise<DeliveryBenchResult> {
  const sentAt = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  // The worker's outbox sweeper may deliver an event before anyone waits for it: remember arrivals.
  const arrivedIds = new Set<string>();
  const arrival = (id: string) =>
    new Promise<void>((resolve) => {
      if (arrivedIds.has(id)) resolve();
      else waiters.set(id, resolve);
    });
  const receiver = createServer((req, res) => {
    const id = String(req.headers["service-event-id"] ?? "");
    req.resume();
    req.on("end", () => {
      res.writeHead(200).end();
      arrivedIds.add(id);
      waiters.get(id)?.();
      waiters.delete(id);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  await addWebhookEndpoint(options.db, {
    accountId: options.accountId,
    url,
    mode: "test",
    allowPrivate: true,
  });
  const logger = createLogger({ level: "silent" });
  const prefix = `bench-${Date.now().toString(36)}`;
  const worker = await startWebhookWorker({
    logger,
    db: options.db,
    redisUrl: options.redisUrl,
    prefix,
    concurrency: 20,
  });
  const enqueuer = createDeliveryEnqueuer({ redis: options.redisUrl, db: options.db, prefix });
  const emit = async () => {
    const recorded = await options.db.transaction((tx) =>
      recordEvent(tx, {
        accountId: options.accountId,
        mode: "test",
        type: "lab_order.status_changed",
        data: { object: "lab_order", id: "labord_bench", status: "collected", patientRef: "bench" },
      }),
    );
    return recorded;
  };
  try {
    // Latency: time from the event's commit to its arrival, at a steady rate.
    const latency = await steady(options.rate, options.seconds, async () => {
      const recorded = await emit();
      const arrived = arrival(recorded.event.id);
      sentAt.set(recorded.event.id, performance.now());
      await enqueuer.enqueue(recorded.deliveryIds);
      await Promise.race([
        arrived,
        new Promise((_, reject) => setTimeout(() => reject(new Error("late")), 15_000)),
      ]);
      return true;
    });
    options.log(
      `webhooks: event-to-delivery @${options.rate}/s p50 ${latency.p50} ms p99 ${latency.p99} ms (${latency.failures} late)`,
    );
    // Throughput: a backlog written first, then handed to one worker at once.
    const ids: string[] = [];
    const events: string[] = [];
    for (let i = 0; i < options.backlog; i++) {
      const recorded = await emit();
      ids.push(...recorded.deliveryIds);
      events.push(recorded.event.id);
    }
    const all = Promise.all(events.map(arrival));
    const started = performance.now();
    await enqueuer.enqueue(ids);
    await Promise.race([
      all,
      new Promise((_, reject) =>
        setTimeout(() => {
          const missing = events.filter((id) => !arrivedIds.has(id)).length;
          reject(new Error(`${missing} of ${events.length} backlog deliveries did not arrive in 120 s`));
        }, 120_000).unref(),
      ),
    ]);
    const seconds = (performance.now() - started) / 1000;
    const perSecond = Math.round(options.backlog / seconds);
    options.log(
      `webhooks: one worker delivered a backlog of ${options.backlog} in ${seconds.toFixed(2)} s (${perSecond}/s)`,
    );
    return {
      latency,
      backlog: { deliveries: options.backlog, seconds: Math.round(seconds * 100) / 100, perSecond },
    };
  } finally {
    await worker.close({ force: true });
    await enqueuer.close();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
}
