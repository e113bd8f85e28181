import { eq, events, recordEvent } from "@svc/db";
import { addEndpoint, captureLogger, type Receiver, requireEnv, startReceiver, waitFor } from "@svc/testkit";
import { useTestDatabase } from "@svc/testkit/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDeliveryEnqueuer,
  startWebhookWorker,
  type WebhookWorkerOptions,
  type WorkerHandle,
} from "../src/index.js";
import { attemptRows, deliveryRow, sleep, uniquePrefix } from "./helpers.js";

const rig = useTestDatabase();
let receiver: Receiver;
const started: WorkerHandle[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  for (const w of started) await w.close({ force: true });
  await receiver?.close();
});

async function start(options: Partial<WebhookWorkerOptions> = {}) {
  const worker = await startWebhookWorker({
    // Test-mode receivers on loopback, as on a developer's machine (the operator's setting).
    allowLoopbackWebhooks: true,
    logger: captureLogger().logger,
    db: rig.db,
    redisUrl: requireEnv("TEST_REDIS_URL"),
    timeScale: 0.001,
    sweepIntervalMs: 200,
    sweepGraceMs: 0,
    deliveryTimeoutMs: 5_000,
    ...options,
  });
  started.push(worker);
  return worker;
}

async function emitFor(accountId: string) {
  const recorded = await rig.db.transaction((tx) =>
    recordEvent(tx, {
      accountId,
      mode: "test",
      type: "wearable.sync_completed",
      data: { object: "wearable_connection", id: "wear_x" },
    }),
  );
  return recorded.deliveryIds[0] as string;
}

// One file's tests share one database, and a sweeper sweeps the whole database: run in order.
describe.sequential("webhook worker lifecycle", () => {
  it("with Redis down the worker keeps running and warns; rows wait in the outbox", async () => {
    const { logger, lines } = captureLogger();
    const account = await rig.seed.account();
    await addEndpoint(rig.db, { accountId: account.id, url: `${receiver.url}/down` });
    const down = await startWebhookWorker({
      allowLoopbackWebhooks: true,
      logger,
      db: rig.db,
      redisUrl: "redis://127.0.0.1:1",
      sweepIntervalMs: 100,
      sweepGraceMs: 0,
    });
    const enqueuer = createDeliveryEnqueuer({ redis: "redis://127.0.0.1:1", db: rig.db });
    const deliveryId = await emitFor(account.id);
    const t0 = Date.now();
    await enqueuer.enqueue([deliveryId]); // resolves (best effort), never throws or hangs
    expect(Date.now() - t0).toBeLessThan(3_000);
    await waitFor(() => lines.some((l) => l.includes("Redis unreachable")), 10_000, "warning");
    expect(await deliveryRow(rig.db, deliveryId)).toMatchObject({ status: "pending", enqueuedAt: null });
    await enqueuer.close();
    await down.close();

    // Redis is back (a worker on the real one): the sweeper finds the row by state and delivers.
    await start({ prefix: uniquePrefix() });
    await waitFor(
      async () => (await deliveryRow(rig.db, deliveryId))?.status === "delivered",
      10_000,
      "delivery",
    );
    expect(receiver.requests.filter((r) => r.path === "/down")).toHaveLength(1);
  });

  it("the sweeper delivers rows that were written but never enqueued", async () => {
    const account = await rig.seed.account();
    await addEndpoint(rig.db, { accountId: account.id, url: `${receiver.url}/swept` });
    const ids = [await emitFor(account.id), await emitFor(account.id), await emitFor(account.id)];
    for (const id of ids)
      await waitFor(async () => (await deliveryRow(rig.db, id))?.status === "delivered", 10_000, "delivery");
    expect(receiver.requests.filter((r) => r.path === "/swept")).toHaveLength(3);
    for (const w of started.splice(0)) await w.close();
  });

  it("a worker killed mid-delivery and a new one started lose nothing", async () => {
    const prefix = uniquePrefix();
    const account = await rig.seed.account();
    await addEndpoint(rig.db, { accountId: account.id, url: `${receiver.url}/killed` });
    let slow = true;
    const previous = receiver.reply;
    receiver.reply = (request, index) =>
      request.path === "/killed"
        ? slow
          ? { status: 200, delayMs: 4_000 }
          : { status: 200 }
        : previous(request, index);
    const first = await start({ prefix, staleAfterMs: 500 });
    const enqueuer = createDeliveryEnqueuer({ redis: requireEnv("TEST_REDIS_URL"), db: rig.db, prefix });
    const inFlight = await emitFor(account.id);
    await enqueuer.enqueue([inFlight]);
    await waitFor(() => receiver.requests.some((r) => r.path === "/killed"), 10_000, "first request");
    // Kill: no draining, the attempt in flight is dropped.
    await first.close({ force: true });
    slow = false;
    // Events keep arriving while no worker runs: some enqueued, some not.
    const queued = await emitFor(account.id);
    await enqueuer.enqueue([queued]);
    const unqueued = await emitFor(account.id);
    await sleep(300);
    expect((await deliveryRow(rig.db, queued))?.status).toBe("pending");

    await start({ prefix, staleAfterMs: 500 });
    for (const id of [inFlight, queued, unqueued])
      await waitFor(
        async () => (await deliveryRow(rig.db, id))?.status === "delivered",
        15_000,
        `delivery ${id}`,
      );
    const ids = new Set(
      receiver.requests.filter((r) => r.path === "/killed").map((r) => r.headers["service-delivery-id"]),
    );
    expect(ids).toEqual(new Set([inFlight, queued, unqueued]));
    // The dropped attempt was not recorded: one attempt row per delivery, each a 200.
    for (const id of [inFlight, queued, unqueued]) {
      const attempts = await attemptRows(rig.db, id);
      expect(attempts.map((a) => a.statusCode)).toEqual([200]);
    }
    await enqueuer.close();
  });

  it("purges events past the 30-day retention when it starts, keeping recent ones", async () => {
    const { account } = await rig.seed.caller();
    const now = Date.now();
    const old = await rig.db.transaction((tx) =>
      recordEvent(tx, {
        accountId: account.id,
        mode: "test",
        type: "wearable.sync_completed",
        data: { object: "wearable_connection", id: "wear_old" },
        now: new Date(now - 31 * 86_400_000),
      }),
    );
    const recent = await emitFor(account.id);
    await start();
    await waitFor(
      async () => (await rig.db.select().from(events).where(eq(events.id, old.event.id))).length === 0,
      15_000,
      "old event purged",
    );
    const kept = await rig.db.select().from(events).where(eq(events.accountId, account.id));
    expect(kept.map((e) => e.id)).not.toContain(old.event.id);
    expect(kept.length).toBeGreaterThan(0);
    void recent;
  });
});
