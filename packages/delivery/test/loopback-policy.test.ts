import { type Db, recordEvent } from "@svc/db";
import { Refusal } from "@svc/refusal";
import {
  captureLogger,
  createTestDatabase,
  type Receiver,
  Seeder,
  startReceiver,
  type TestDatabase,
} from "@svc/testkit";
import { scheduleFor } from "@svc/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addWebhookEndpoint, type DeliverContext, deliver, type Resolver } from "../src/index.js";
import { attemptRows } from "./helpers.js";

// A tenant's test-mode endpoint on the server's own loopback would reach the host's services and
// read their answers back in the delivery log. It is allowed only where the operator allows
// loopback webhooks (on for the embedded database, off with DATABASE_URL): checked when the
// endpoint is added and again at every attempt, DNS rebinding included.

let tdb: TestDatabase;
let db: Db;
let seed: Seeder;
let receiver: Receiver;
const logs = captureLogger();

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.handle.db;
  seed = new Seeder(tdb.handle);
  receiver = await startReceiver(() => ({ status: 200, body: "loopback service answer" }));
});

afterAll(async () => {
  await receiver?.close();
  await tdb?.drop();
});

const context = (allowLoopbackWebhooks: boolean | undefined, resolve?: Resolver): DeliverContext => ({
  db,
  logger: logs.logger,
  schedule: scheduleFor({ timeScale: 0.001 }),
  timeoutMs: 2_000,
  allowLoopbackWebhooks,
  resolve,
});

async function eventFor(accountId: string) {
  const recorded = await db.transaction((tx) =>
    recordEvent(tx, {
      accountId,
      mode: "test",
      type: "lab_order.status_changed",
      data: { object: "lab_order", id: "labord_x", status: "resulted" },
    }),
  );
  expect(recorded.deliveryIds).toHaveLength(1);
  return recorded.deliveryIds[0] as string;
}

const requestsTo = (path: string) => receiver.requests.filter((r) => r.path === path);

describe.sequential("a tenant's test-mode endpoint on loopback", () => {
  it("is refused at registration where loopback is not allowed, saying why; --allow-private is unchanged", async () => {
    const account = await seed.account();
    const port = new URL(receiver.url).port;
    const toLoopback: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];
    for (const allowLoopbackWebhooks of [false, undefined]) {
      for (const url of [
        `http://127.0.0.1:${port}/refused`,
        `http://[::1]:${port}/refused`,
        `http://localhost:${port}/refused`,
        `http://hooks.example.test:${port}/refused`,
      ]) {
        const added = addWebhookEndpoint(db, {
          accountId: account.id,
          url,
          mode: "test",
          allowLoopbackWebhooks,
          resolve: toLoopback,
        });
        await expect(added, url).rejects.toBeInstanceOf(Refusal);
        await expect(added, url).rejects.toThrow(/loopback.*ALLOW_LOOPBACK_WEBHOOKS/);
      }
    }
    // The operator's own endpoint with --allow-private still may.
    await expect(
      addWebhookEndpoint(db, {
        accountId: account.id,
        url: `http://127.0.0.1:${port}/operator`,
        mode: "test",
        allowPrivate: true,
        allowLoopbackWebhooks: false,
      }),
    ).resolves.toMatchObject({ url: `http://127.0.0.1:${port}/operator` });
  });

  it("is added and delivered where the operator allows loopback webhooks", async () => {
    const account = await seed.account();
    const path = `/allowed-${account.id}`;
    await addWebhookEndpoint(db, {
      accountId: account.id,
      url: `${receiver.url}${path}`,
      mode: "test",
      allowLoopbackWebhooks: true,
    });
    const outcome = await deliver(await eventFor(account.id), context(true));
    expect(outcome).toMatchObject({ kind: "delivered", statusCode: 200 });
    expect(requestsTo(path)).toHaveLength(1);
  });

  it("registered while allowed, is not delivered once loopback is not allowed (nothing is sent)", async () => {
    const account = await seed.account();
    const path = `/disallowed-${account.id}`;
    await addWebhookEndpoint(db, {
      accountId: account.id,
      url: `${receiver.url}${path}`,
      mode: "test",
      allowLoopbackWebhooks: true,
    });
    for (const setting of [false, undefined]) {
      const deliveryId = await eventFor(account.id);
      const outcome = await deliver(deliveryId, context(setting));
      expect(outcome).toMatchObject({ kind: "retry", error: "loopback_not_allowed" });
      const attempts = await attemptRows(db, deliveryId);
      expect(attempts).toEqual([
        expect.objectContaining({ statusCode: null, error: "loopback_not_allowed", responseSnippet: null }),
      ]);
    }
    expect(requestsTo(path)).toHaveLength(0);
  });

  it("a name that resolved to a public address when added and to loopback at delivery (rebinding) is refused", async () => {
    const account = await seed.account();
    const port = new URL(receiver.url).port;
    const path = `/rebound-${account.id}`;
    await addWebhookEndpoint(db, {
      accountId: account.id,
      url: `http://hooks.example.test:${port}${path}`,
      mode: "test",
      allowLoopbackWebhooks: false,
      resolve: async () => [{ address: "93.184.216.34", family: 4 }],
    });
    const rebound: Resolver = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "::1", family: 6 },
    ];
    const deliveryId = await eventFor(account.id);
    const outcome = await deliver(deliveryId, context(false, rebound));
    expect(outcome).toMatchObject({ kind: "retry", error: "loopback_not_allowed" });
    expect(requestsTo(path)).toHaveLength(0);
  });
});
