import { recordEvent } from "@svc/db";
import type { ErrorEnvelope } from "@svc/http";
import { call, startTestService, type TestService } from "@svc/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventResponse } from "../src/index.js";

/** GET /v1/events/{eventId}: the event as the list and webhooks show it; others' are 404. */
let svc: TestService;
let key: string;
let accountId: string;

beforeAll(async () => {
  svc = await startTestService();
  const caller = await svc.seed.caller();
  key = caller.key;
  accountId = caller.account.id;
});
afterAll(async () => {
  await svc.close();
});

describe("GET /v1/events/{eventId}", () => {
  it("returns the account's event, and 404 for an unknown id or another account's", async () => {
    const recorded = await recordEvent(svc.db.handle.db, {
      accountId,
      mode: "test",
      type: "lab_order.status_changed",
      data: { object: "lab_order", id: "labord_get", status: "authorized", patientRef: "pt_get" },
    });
    const found = await call<EventResponse>(svc.url, `/v1/events/${recorded.event.id}`, { key });
    expect(found.status).toBe(200);
    expect(found.json.data).toMatchObject({
      id: recorded.event.id,
      object: "event",
      type: "lab_order.status_changed",
    });

    const other = (await svc.seed.caller()).key;
    for (const [k, id] of [
      [key, "evt_unknown"],
      [other, recorded.event.id],
    ] as const) {
      const res = await call<ErrorEnvelope>(svc.url, `/v1/events/${id}`, { key: k });
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe("not_found");
    }
  });
});
