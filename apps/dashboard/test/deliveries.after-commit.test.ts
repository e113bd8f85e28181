import { eq, webhookDeliveries } from "@svc/db";
import { addWebhookEndpoint, startInProcessDelivery } from "@svc/delivery";
import { createInvite } from "@svc/records";
import { call, type Receiver, startReceiver, waitFor } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DashboardClient, PASSWORD } from "./session-client.js";

/**
 * The dashboard's after-commit hand-off (decision 125): a page that writes an event (a test event,
 * a redelivery, a lab order move) hands nothing off itself, and the outbox is read again only in
 * ten minutes, yet the delivery reaches the receiver within seconds: the dashboard's
 * `handOffAfterCommit` woke the delivery once the page's handler returned. Without it, only the
 * next read of the outbox would send it, long after this test gave up.
 */
const PROMPTLY_MS = 3_000;

const service = useTestService();

/** The service's in-process delivery, a receiver endpoint and a signed-in developer. */
async function start() {
  const receiver = await startReceiver();
  const { db } = service.db.handle;
  // The outbox is read once at start, then not within the test: only a hand-off delivers.
  const delivery = startInProcessDelivery({
    db,
    logger: service.deps.logger,
    allowLoopbackWebhooks: true,
    pollIntervalMs: 600_000,
  });
  service.deps.deliveries = delivery;
  const caller = await service.seed.caller("launch");
  const url = `${receiver.url}/hooks`;
  const endpoint = await addWebhookEndpoint(db, {
    accountId: caller.account.id,
    url,
    mode: "test",
    allowPrivate: true,
  });
  const workspace = { accountId: caller.account.id };
  const invite = await createInvite(
    db,
    { workspace, email: "hand-off@example.com", role: "developer" },
    service.url,
  );
  const client = new DashboardClient(service.url);
  expect((await client.acceptInvite(invite.url, PASSWORD)).status).toBe(303);
  return {
    receiver,
    delivery,
    key: caller.key,
    endpointId: endpoint.id,
    client,
    csrf: await client.csrf(),
  };
}

let receiver: Receiver;
let delivery: ReturnType<typeof startInProcessDelivery>;
let key: string;
let endpointId: string;
let client: DashboardClient;
let csrf: string;

beforeAll(async () => {
  ({ receiver, delivery, key, endpointId, client, csrf } = await start());
});
afterAll(async () => {
  await delivery?.close({ force: true });
  await receiver?.close();
});

/** Waits for the `count`-th delivery of an event of `type` (about `id` when given) at the receiver. */
async function arrives(type: string, count: number, id?: string): Promise<void> {
  const started = Date.now();
  await waitFor(
    () =>
      receiver.requests.filter((r) => {
        const event = JSON.parse(r.body) as { type?: string; data?: { id?: string } };
        return event.type === type && (id === undefined || event.data?.id === id);
      }).length >= count,
    PROMPTLY_MS,
    `delivery ${count} of ${type} at the receiver`,
  );
  expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
}

describe("the dashboard's after-commit hand-off", () => {
  it("a test event and its redelivery reach the receiver at once", async () => {
    expect((await client.post(`/dashboard/webhooks/${endpointId}/test`, { _csrf: csrf })).status).toBe(303);
    await arrives("webhook_endpoint.test", 1, endpointId);
    const [row] = await service.db.handle.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId));
    await waitFor(async () => {
      const [current] = await service.db.handle.db
        .select({ status: webhookDeliveries.status })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, row?.id as string));
      return current?.status === "delivered";
    });
    expect((await client.post(`/dashboard/deliveries/${row?.id}/redeliver`, { _csrf: csrf })).status).toBe(
      303,
    );
    await arrives("webhook_endpoint.test", 2, endpointId);
  });

  it("a lab order moved on its page reaches the receiver at once", async () => {
    const created = await call<{ data: { id: string } }>(service.url, "/v1/labs/orders", {
      key,
      body: { patientRef: "pt_dash_hand_off", panelId: "lithium_monitoring" },
    });
    expect(created.status).toBe(201);
    const orderId = created.json.data.id;
    expect((await client.post(`/dashboard/labs/${orderId}/authorize`, { _csrf: csrf })).status).toBe(303);
    await arrives("lab_order.status_changed", 1, orderId);
  });
});
