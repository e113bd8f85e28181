import { call, waitFor } from "@svc/testkit";
import { verifySignature } from "@svc/webhooks";
import { describe, expect, it } from "vitest";
import { type LabOrderBody, useDeliveryPipeline } from "./helpers.js";

/**
 * End to end over real HTTP, PostgreSQL, Redis and BullMQ: a lab order created through the API
 * and walked through every state by the test helpers reaches a receiver on loopback as signed
 * events, each once or more, in causal order for the order.
 */
const pipeline = useDeliveryPipeline({ sweepIntervalMs: 500 });

describe("lab order events delivered end to end", () => {
  it("every state change arrives signed, once or more, in causal order", async () => {
    const created = await call<LabOrderBody>(pipeline.svc.url, "/v1/labs/orders", {
      key: pipeline.key,
      body: { patientRef: "patient-e2e", panelId: "lithium_monitoring" },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = created.json.data.id as string;
    const statuses: string[] = [];
    const authorized = await call<LabOrderBody>(
      pipeline.svc.url,
      `/v1/test_helpers/labs/orders/${id}/authorize`,
      {
        key: pipeline.key,
        method: "POST",
      },
    );
    statuses.push(authorized.json.data.status);
    for (;;) {
      const res = await call<LabOrderBody>(pipeline.svc.url, `/v1/test_helpers/labs/orders/${id}/advance`, {
        key: pipeline.key,
        method: "POST",
      });
      if (res.status !== 200) break;
      statuses.push(res.json.data.status);
      if (res.json.data.status === "completed") break;
    }
    expect(statuses.at(-1)).toBe("completed");

    const expected = statuses.length + 1; // every status_changed plus one results_ready
    const received = await waitFor(
      () => {
        const forOrder = pipeline.receiver.requests
          .map((r) => ({ r, event: JSON.parse(r.body) }))
          .filter(({ event }) => event.data?.id === id);
        const unique = new Map(forOrder.map((x) => [x.event.id as string, x]));
        return unique.size >= expected ? [...unique.values()] : false;
      },
      20_000,
      "all lab order events",
    );
    for (const { r } of received) {
      const header = r.headers["service-signature"] as string;
      expect(verifySignature({ secret: pipeline.secret, payload: r.body, header }).ok).toBe(true);
      // A tampered body fails.
      expect(
        verifySignature({
          secret: pipeline.secret,
          payload: r.body.replace("patient-e2e", "patient-x"),
          header,
        }).ok,
      ).toBe(false);
    }
    // Causal order: sorted by creation, the status_changed events follow the order's own path.
    const changes = received
      .map((x) => x.event)
      .filter((e) => e.type === "lab_order.status_changed")
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .map((e) => e.data.status);
    expect(changes).toEqual(statuses);
    expect(received.filter((x) => x.event.type === "lab_order.results_ready")).toHaveLength(1);
  });
});
