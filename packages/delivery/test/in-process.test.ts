import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createDb,
  type Db,
  type DbHandle,
  eq,
  inArray,
  recordEvent,
  recordSafetyEvent,
  webhookDeliveries,
  webhookEndpoints,
} from "@svc/db";
import {
  addEndpoint,
  captureLogger,
  type Receiver,
  Seeder,
  selfSignedLoopbackCert,
  startReceiver,
  waitFor,
} from "@svc/testkit";
import { verifySignature } from "@svc/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InProcessDelivery, startInProcessDelivery } from "../src/index.js";
import { attemptRows, deliveryRow } from "./helpers.js";

/**
 * The embedded default's delivery path: no Redis, the outbox table read in-process, on the real
 * embedded database (PGlite in a temporary data dir), reopened to stand for a restart.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), "svc-inprocess-"));
let handle: DbHandle;
let db: Db;
let receiver: Receiver;
let tlsReceiver: Receiver;
const tls = selfSignedLoopbackCert();
const logs = captureLogger("debug");
const running: InProcessDelivery[] = [];

function start(options: { leaseMs?: number; deliveryTimeoutMs?: number } = {}): InProcessDelivery {
  const delivery = startInProcessDelivery({
    logger: logs.logger,
    db,
    timeScale: 0.001,
    pollIntervalMs: 50,
    deliveryTimeoutMs: options.deliveryTimeoutMs ?? 2_000,
    trustedCa: tls.cert,
    ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
  });
  running.push(delivery);
  return delivery;
}

async function openDatabase(): Promise<void> {
  handle = createDb({ dataDir });
  await handle.migrate();
  db = handle.db;
}

beforeAll(async () => {
  await openDatabase();
  receiver = await startReceiver();
  tlsReceiver = await startReceiver(() => ({ status: 200 }), tls);
});

afterAll(async () => {
  for (const delivery of running) await delivery.close({ force: true });
  await receiver.close();
  await tlsReceiver.close();
  await handle.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function testAccountWithEndpoint(url: string) {
  const { account } = await new Seeder(handle).caller();
  const endpoint = await addEndpoint(db, { accountId: account.id, url, allowPrivate: true });
  return { account, endpoint };
}

async function recordEvents(accountId: string, count: number, mode: "test" | "live" = "test") {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const recorded = await recordEvent(db, {
      accountId,
      mode,
      type: "lab_order.status_changed",
      data: { object: "lab_order", id: `labord_${i}`, status: "authorized" },
    });
    ids.push(...recorded.deliveryIds);
  }
  return ids;
}

const statusOf = async (ids: string[]) =>
  db
    .select({ id: webhookDeliveries.id, status: webhookDeliveries.status })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.id, ids));

describe("in-process delivery from the outbox (embedded default, no Redis)", () => {
  it("delivers an event and an MSE safety event, each signed with the endpoint's secret", async () => {
    const { account, endpoint } = await testAccountWithEndpoint(`${receiver.url}/signed`);
    const delivery = start();
    const [deliveryId] = await recordEvents(account.id, 1);
    await delivery.enqueue([deliveryId as string]);
    await waitFor(async () => (await deliveryRow(db, deliveryId as string))?.status === "delivered");
    const got = receiver.requests.filter((r) => r.path === "/signed");
    expect(got).toHaveLength(1);
    const request = got[0] as (typeof got)[number];
    expect(
      verifySignature({
        secret: endpoint.secret,
        payload: request.body,
        header: String(request.headers["service-signature"]),
      }).ok,
    ).toBe(true);
    expect(JSON.parse(request.body)).toMatchObject({ object: "event", type: "lab_order.status_changed" });

    // A safety event goes to every active live endpoint of the organization (https), with the
    // MSE header.
    const org = await new Seeder(handle).org();
    const orgEndpoint = await addEndpoint(db, {
      orgId: org.org.id,
      url: `${tlsReceiver.url}/safety`,
      allowPrivate: true,
    });
    const safety = await recordSafetyEvent(db, {
      orgId: org.org.id,
      visitId: "visit_1",
      patientId: "pt_1",
      version: 1,
      risk: { flag: true, level: "high", labels: ["Suicidal ideation with intent"] },
    });
    await delivery.enqueue(safety.deliveryIds);
    await waitFor(() => tlsReceiver.requests.some((r) => r.path === "/safety"), 10_000, "safety event");
    const safetyRequest = tlsReceiver.requests.find((r) => r.path === "/safety") as (typeof got)[number];
    expect(
      verifySignature({
        secret: orgEndpoint.secret,
        payload: safetyRequest.body,
        header: String(safetyRequest.headers["x-mse-signature"]),
      }).ok,
    ).toBe(true);
    expect(JSON.parse(safetyRequest.body)).toMatchObject({
      object: "mse.safety_event",
      type: "mse.risk_flagged",
    });
    await delivery.close();
  });

  it("retries a failing endpoint on the schedule, records every attempt, and a 410 disables it", async () => {
    let calls = 0;
    const flaky = await startReceiver(() => {
      calls++;
      return { status: calls < 3 ? 500 : 200 };
    });
    const gone = await startReceiver(() => ({ status: 410 }));
    const delivery = start();
    try {
      const first = await testAccountWithEndpoint(flaky.url);
      const [retried] = await recordEvents(first.account.id, 1);
      const second = await testAccountWithEndpoint(gone.url);
      const [refused] = await recordEvents(second.account.id, 1);
      await waitFor(async () => (await deliveryRow(db, retried as string))?.status === "delivered", 15_000);
      const attempts = await attemptRows(db, retried as string);
      expect(attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
      expect(attempts[0]?.nextAttemptAt).not.toBeNull();

      await waitFor(async () => (await deliveryRow(db, refused as string))?.status === "failed", 15_000);
      expect((await attemptRows(db, refused as string)).map((a) => a.statusCode)).toEqual([410]);
      const [endpoint] = await db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, second.endpoint.id));
      expect(endpoint?.disabledAt).not.toBeNull();
    } finally {
      await delivery.close();
      await flaky.close();
      await gone.close();
    }
  });

  it("refuses a loopback address on a live endpoint that is not allowed one, as the worker does", async () => {
    const { account } = await new Seeder(handle).caller();
    const endpoint = await addEndpoint(db, {
      accountId: account.id,
      url: `${receiver.url}/private`,
      mode: "live",
    });
    const delivery = start();
    const before = receiver.requests.length;
    const [id] = await recordEvents(account.id, 1, "live");
    await waitFor(async () => (await attemptRows(db, id as string)).length > 0, 10_000);
    expect((await attemptRows(db, id as string))[0]?.error).toBe("forbidden_address");
    expect(receiver.requests.slice(before).some((r) => r.path === "/private")).toBe(false);
    await delivery.close();
    await db
      .update(webhookEndpoints)
      .set({ removedAt: new Date() })
      .where(eq(webhookEndpoints.id, endpoint.id));
  });

  it("loses nothing across a restart: stopped mid-burst, reopened, every delivery goes out", async () => {
    const slow = await startReceiver(() => ({ status: 200, delayMs: 300 }));
    try {
      const { account } = await testAccountWithEndpoint(slow.url);
      const first = start({ deliveryTimeoutMs: 5_000 });
      const ids = await recordEvents(account.id, 30);
      await waitFor(() => slow.requests.length >= 3, 10_000, "the first attempts");
      // Stop as a forced shutdown does: attempts in flight are dropped and their rows released.
      await first.close({ force: true });
      const pendingAtStop = (await statusOf(ids)).filter((r) => r.status === "pending").length;
      expect(pendingAtStop).toBeGreaterThan(0);

      // A new process: the database reopened from its directory, a new dispatcher.
      await handle.close();
      await openDatabase();
      const second = start({ deliveryTimeoutMs: 5_000 });
      await waitFor(
        async () => (await statusOf(ids)).every((r) => r.status === "delivered"),
        20_000,
        "every delivery after the restart",
      );
      const eventIds = new Set(slow.requests.map((r) => String(r.headers["service-event-id"])));
      expect(eventIds.size).toBe(30);
      await second.close();
    } finally {
      await slow.close();
    }
  });

  it("a row claimed by an attempt that died with its process is delivered when the claim runs out", async () => {
    const { account } = await testAccountWithEndpoint(`${receiver.url}/crashed`);
    const ids = await recordEvents(account.id, 2);
    // What a SIGKILL mid-attempt leaves: rows pushed past now by the claim (the lease).
    await db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(Date.now() + 500) })
      .where(inArray(webhookDeliveries.id, ids));
    const delivery = start({ leaseMs: 500 });
    expect(await delivery.poll()).toBe(0);
    await waitFor(async () => (await statusOf(ids)).every((r) => r.status === "delivered"), 10_000);
    expect(receiver.requests.filter((r) => r.path === "/crashed")).toHaveLength(2);
    await delivery.close();
  });
});
