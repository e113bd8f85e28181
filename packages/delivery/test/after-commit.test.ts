import { call, waitFor } from "@svc/testkit";
import { describe, expect, it } from "vitest";
import { type LabOrderBody, useDeliveryPipeline } from "./helpers.js";

/**
 * The after-commit hand-off, end to end (decision 107): the cancel route writes an event and hands
 * nothing off itself, the worker's sweeper runs once at start and then not for ten minutes, yet
 * the event reaches the receiver within seconds: the HTTP layer handed it to the queue after
 * commit. Without that hand-off only the sweeper would send it, long after this test gave up.
 */
const pipeline = useDeliveryPipeline({ sweepIntervalMs: 600_000 });

describe("after-commit hand-off", () => {
  it("an event written by a route without a hand-off of its own arrives well before the sweeper would run", async () => {
    const created = await call<LabOrderBody>(pipeline.svc.url, "/v1/labs/orders", {
      key: pipeline.key,
      body: { patientRef: "patient-after-commit", panelId: "lithium_monitoring" },
    });
    expect(created.status).toBe(201);
    const id = created.json.data.id;
    const started = Date.now();
    const cancelled = await call<LabOrderBody>(pipeline.svc.url, `/v1/labs/orders/${id}/cancel`, {
      key: pipeline.key,
      method: "POST",
    });
    expect(cancelled.status).toBe(200);
    await waitFor(
      () => pipeline.receiver.requests.some((r) => JSON.parse(r.body).data?.id === id),
      5_000,
      "the cancel event at the receiver",
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
