import { call, type Receiver, type TestService, waitFor } from "@svc/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DeliveryPipeline, startDeliveryPipeline } from "./helpers.js";

/** The part of a lab order body this test reads (@svc/delivery cannot depend on the API package). */
interface LabOrderBody {
  data: { id: string; status: string };
}

/**
 * The after-commit hand-off, end to end (decision 107): the cancel route writes an event and hands
 * nothing off itself, the worker's sweeper runs once at start and then not for ten minutes, yet
 * the event reaches the receiver within seconds: the HTTP layer handed it to the queue after
 * commit. Without that hand-off only the sweeper would send it, long after this test gave up.
 */
let pipeline: DeliveryPipeline;
let svc: TestService;
let receiver: Receiver;
let key: string;

beforeAll(async () => {
  pipeline = await startDeliveryPipeline({ sweepIntervalMs: 600_000 });
  ({ svc, receiver, key } = pipeline);
});
afterAll(async () => {
  await pipeline?.close();
});

describe("after-commit hand-off", () => {
  it("an event written by a route without a hand-off of its own arrives well before the sweeper would run", async () => {
    const created = await call<LabOrderBody>(svc.url, "/v1/labs/orders", {
      key,
      body: { patientRef: "patient-after-commit", panelId: "lithium_monitoring" },
    });
    expect(created.status).toBe(201);
    const id = created.json.data.id;
    const started = Date.now();
    const cancelled = await call<LabOrderBody>(svc.url, `/v1/labs/orders/${id}/cancel`, {
      key,
      method: "POST",
    });
    expect(cancelled.status).toBe(200);
    await waitFor(
      () => receiver.requests.some((r) => JSON.parse(r.body).data?.id === id),
      5_000,
      "the cancel event at the receiver",
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
