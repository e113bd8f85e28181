import { recordEvent } from "@svc/db";
import { createDeliveryQueue } from "@svc/delivery";
import { addEndpoint, createTestDatabase, requireEnv, Seeder, type TestDatabase } from "@svc/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handingOffDeliveries } from "../src/hand-off.js";

/**
 * The operator CLI's hand-off (decision 125): the delivery rows the outbox wrote while a command's
 * work ran are on the delivery queue when it returns, without the command naming them.
 */
let db: TestDatabase;
const savedRedisUrl = process.env.REDIS_URL;
beforeAll(async () => {
  db = await createTestDatabase();
  process.env.REDIS_URL = requireEnv("TEST_REDIS_URL");
});
afterAll(async () => {
  process.env.REDIS_URL = savedRedisUrl;
  await db.drop();
});

describe("handingOffDeliveries", () => {
  it("hands the deliveries the work wrote to the queue, and reports nothing enqueued when it wrote none", async () => {
    const account = await new Seeder(db.handle).account();
    await addEndpoint(db.handle.db, { accountId: account.id, url: "http://127.0.0.1:9/hook" });
    const event = {
      accountId: account.id,
      mode: "test",
      type: "wearable.synced",
      data: { id: "w1" },
    } as const;
    const { result, enqueued } = await handingOffDeliveries(() =>
      db.handle.db.transaction((tx) => recordEvent(tx, event)),
    );
    expect(result.deliveryIds).toHaveLength(1);
    expect(enqueued).toBe(true);
    const queue = createDeliveryQueue(requireEnv("TEST_REDIS_URL"));
    try {
      const job = await queue.getJob(result.deliveryIds[0] as string);
      expect(job?.data).toEqual({ deliveryId: result.deliveryIds[0] });
      await job?.remove();
    } finally {
      await queue.close();
    }
    expect(await handingOffDeliveries(async () => "nothing written")).toEqual({
      result: "nothing written",
      enqueued: false,
    });
  });
});
