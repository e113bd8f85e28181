import { setMaxListeners } from "node:events";
import type { Db } from "@svc/db";
import type { Resolver } from "@svc/outbound-http";
import { scheduleFor } from "@svc/webhooks";
import type { Logger } from "pino";
import type { DeliverContext, DeliverOutcome } from "./deliver.js";

/** What every delivery runner (the BullMQ worker, the in-process dispatcher) is configured with. */
export interface DeliveryRunOptions {
  logger: Logger;
  /** Parallel deliveries in this process (default 10). */
  concurrency?: number;
  /** Multiplies every delay of the retry schedule and its 24 h window (tests: 0.001). */
  timeScale?: number;
  /** How often expired events (30 days) are purged (default hourly). */
  purgeIntervalMs?: number;
  /** Per-attempt timeout (default 10 s, decision 48). */
  deliveryTimeoutMs?: number;
  /** Reservation of a row while it is posted (default timeout + 30 s). */
  leaseMs?: number;
  /** DNS resolution (tests make names resolve to chosen addresses). */
  resolve?: Resolver;
  /**
   * The operator's loopback setting (`loopbackWebhooksAllowed(env)`): may test-mode endpoints be
   * delivered on loopback? Unset is no.
   */
  allowLoopbackWebhooks?: boolean;
  /** CAs trusted for https endpoints instead of Node's bundled ones (private CA; tests). */
  trustedCa?: string;
  /** Observes every delivery outcome (tests). */
  onOutcome?: (deliveryId: string, outcome: DeliverOutcome) => void;
}

/** The one way a runner builds the context `deliver()` works in. */
export function deliverContextFor(db: Db, options: DeliveryRunOptions, signal: AbortSignal): DeliverContext {
  // Every attempt in flight listens on the shutdown signal: more than Node's default warning of 10.
  setMaxListeners(0, signal);
  return {
    db,
    logger: options.logger,
    timeoutMs: options.deliveryTimeoutMs,
    leaseMs: options.leaseMs,
    schedule: scheduleFor({ timeScale: options.timeScale ?? 1 }),
    resolve: options.resolve,
    allowLoopbackWebhooks: options.allowLoopbackWebhooks,
    signal,
    trustedCa: options.trustedCa,
  };
}

/** How long a closing runner waits for attempts in flight: one attempt's timeout and a margin. */
export function drainWaitMs(options: DeliveryRunOptions): number {
  return (options.deliveryTimeoutMs ?? 10_000) + 5_000;
}

/** A timer that never holds the process open. */
export const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });
