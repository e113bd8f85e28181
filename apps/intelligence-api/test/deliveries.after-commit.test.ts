import { and, eq, webhookDeliveries, webhookEndpoints } from "@svc/db";
import { newId } from "@svc/ids";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type { LabOrderResponse } from "../src/index.js";

/**
 * Deliveries are handed to the queue after commit in one place (the HTTP layer), never by a
 * route: a route that writes an event has no hand-off of its own, yet its deliveries reach the
 * queue before its response does. No sweeper runs here, so nothing else could enqueue them.
 */
const svc = useTestService();
let key: string;
let endpointId: string;
const enqueued: { ids: string[]; at: number }[] = [];

beforeAll(async () => {
  const caller = await svc.seed.caller("enterprise");
  key = caller.key;
  endpointId = newId("we");
  await svc.db.handle.db.insert(webhookEndpoints).values({
    id: endpointId,
    accountId: caller.account.id,
    url: "http://127.0.0.1:9/hook",
    mode: "test",
    secret: "whsec_test",
  });
  svc.deps.deliveries = {
    async enqueue(ids) {
      enqueued.push({ ids, at: Date.now() });
    },
  };
});

describe("after-commit hand-off", () => {
  it("a route that writes an event without handing off its deliveries still has them enqueued before it answers", async () => {
    const created = await call<LabOrderResponse>(svc.url, "/v1/labs/orders", {
      key,
      body: { patientRef: "pt_2001", panelId: "lithium_monitoring" },
    });
    expect(created.status).toBe(201);
    const before = enqueued.length;
    const cancelled = await call<LabOrderResponse>(
      svc.url,
      `/v1/labs/orders/${created.json.data.id}/cancel`,
      {
        key,
        method: "POST",
      },
    );
    const answeredAt = Date.now();
    expect(cancelled.status).toBe(200);
    const rows = await svc.db.handle.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")));
    expect(rows).toHaveLength(1);
    const handed = enqueued.slice(before);
    expect(handed.map((h) => h.ids)).toEqual([[rows[0]?.id]]);
    expect(handed[0]?.at).toBeLessThanOrEqual(answeredAt);
  });

  it("a refused write hands nothing off", async () => {
    const created = await call<LabOrderResponse>(svc.url, "/v1/labs/orders", {
      key,
      body: { patientRef: "pt_2002", panelId: "lithium_monitoring" },
    });
    const path = `/v1/labs/orders/${created.json.data.id}/cancel`;
    expect((await call(svc.url, path, { key, method: "POST" })).status).toBe(200);
    const before = enqueued.length;
    // Cancelling again is an illegal move: 409, nothing written, nothing enqueued.
    expect((await call(svc.url, path, { key, method: "POST" })).status).toBe(409);
    expect(enqueued.length).toBe(before);
  });
});
