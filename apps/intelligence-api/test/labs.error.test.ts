import { events, sql } from "@svc/db";
import type { ErrorEnvelope } from "@svc/http";
import { type CallResult, call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type { LabOrderListResponse, LabOrderResponse } from "../src/index.js";

/** Every 4xx of the lab routes: bounds just inside and outside, unknown panel, illegal moves. */
const svc = useTestService();
let key: string;

beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
});

/** POST /v1/labs/orders; the body read is the error envelope unless the test expects the order. */
const create = <Res = ErrorEnvelope>(body: unknown) => call<Res>(svc.url, "/v1/labs/orders", { key, body });
const valid = { patientRef: "pt_1", panelId: "cbc_diff" };

function expectInvalid(res: CallResult<ErrorEnvelope>, path: string) {
  expect(res.status).toBe(400);
  expect(res.json.ok).toBe(false);
  expect(res.json.error.code).toBe("invalid_request");
  const paths: string[] = res.json.error.issues?.map((i: { path: string }) => i.path) ?? [];
  expect(paths.some((p) => p === path || p.startsWith(`${path}.`))).toBe(true);
}

async function eventCount(): Promise<number> {
  const [row] = await svc.db.handle.db.select({ n: sql<number>`count(*)::int` }).from(events);
  return Number(row?.n ?? 0);
}

describe("POST /v1/labs/orders validation", () => {
  it("refuses an unknown panel with an issue on panelId", async () => {
    expectInvalid(await create({ ...valid, panelId: "not_a_panel" }), "panelId");
  });
  it("requires patientRef and panelId", async () => {
    expectInvalid(await create({ panelId: "cbc_diff" }), "patientRef");
    expectInvalid(await create({ patientRef: "pt" }), "panelId");
  });
  it("patientRef: 1 and 128 chars are accepted, 0 and 129 refused", async () => {
    expect((await create<LabOrderResponse>({ ...valid, patientRef: "p" })).status).toBe(201);
    expect((await create<LabOrderResponse>({ ...valid, patientRef: "p".repeat(128) })).status).toBe(201);
    expectInvalid(await create({ ...valid, patientRef: "" }), "patientRef");
    expectInvalid(await create({ ...valid, patientRef: "p".repeat(129) }), "patientRef");
  });
  it("note: 500 chars accepted, 501 refused", async () => {
    expect((await create<LabOrderResponse>({ ...valid, note: "n".repeat(500) })).status).toBe(201);
    expectInvalid(await create({ ...valid, note: "n".repeat(501) }), "note");
  });
  it("metadata: flat, at most 50 keys of 40 chars, values up to 500 chars, 8 kB", async () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, "v"]));
    expect((await create<LabOrderResponse>({ ...valid, metadata: fifty })).status).toBe(201);
    expectInvalid(await create({ ...valid, metadata: { ...fifty, k50: "v" } }), "metadata");
    expectInvalid(await create({ ...valid, metadata: { nested: { a: 1 } } }), "metadata.nested");
    expectInvalid(await create({ ...valid, metadata: { ["k".repeat(41)]: 1 } }), "metadata");
    expectInvalid(await create({ ...valid, metadata: { v: "x".repeat(501) } }), "metadata.v");
    const big = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, "x".repeat(500)]));
    expectInvalid(await create({ ...valid, metadata: big }), "metadata");
    expectInvalid(await create({ ...valid, metadata: ["a"] }), "metadata");
  });
  it("refuses malformed JSON and a non-JSON content type", async () => {
    const bad = await call<ErrorEnvelope>(svc.url, "/v1/labs/orders", {
      key,
      method: "POST",
      rawBody: "{nope",
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("invalid_request");
    const text = await call<ErrorEnvelope>(svc.url, "/v1/labs/orders", {
      key,
      method: "POST",
      rawBody: "x",
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(400);
  });
});

describe("GET /v1/labs/orders bounds", () => {
  it.each([
    ["1", 200],
    ["200", 200],
    ["0", 400],
    ["201", 400],
    ["-1", 400],
    ["1.5", 400],
    ["abc", 400],
  ])("limit=%s -> %i", async (limit, status) => {
    const res = await call<ErrorEnvelope>(svc.url, `/v1/labs/orders?limit=${limit}`, { key });
    expect(res.status).toBe(status);
    if (status === 400) expectInvalid(res, "limit");
  });
  it("limit=1 returns one order and a cursor", async () => {
    await create<LabOrderResponse>(valid);
    await create<LabOrderResponse>(valid);
    const res = await call<LabOrderListResponse>(svc.url, "/v1/labs/orders?limit=1", { key });
    expect(res.json.data.count).toBe(1);
    expect(res.json.data.hasMore).toBe(true);
  });
  it("patientRef of 129 chars and a forged cursor are refused", async () => {
    expectInvalid(
      await call<ErrorEnvelope>(svc.url, `/v1/labs/orders?patientRef=${"p".repeat(129)}`, { key }),
      "patientRef",
    );
    expectInvalid(await call<ErrorEnvelope>(svc.url, "/v1/labs/orders?cursor=bm9wZQ", { key }), "cursor");
    expectInvalid(await call<ErrorEnvelope>(svc.url, "/v1/labs/orders?cursor=%2F%2F", { key }), "cursor");
  });
  it("an unknown category is refused", async () => {
    expectInvalid(
      await call<ErrorEnvelope>(svc.url, "/v1/labs/panels?category=astrology", { key }),
      "category",
    );
  });
});

describe("illegal transitions: 409 invalid_transition, nothing stored", () => {
  async function orderAt(moves: number): Promise<string> {
    const id = (await create<LabOrderResponse>(valid)).json.data.id as string;
    for (let i = 0; i < moves; i++) {
      const res = await call<LabOrderResponse>(svc.url, `/v1/test_helpers/labs/orders/${id}/advance`, {
        key,
        method: "POST",
      });
      expect(res.status).toBe(200);
    }
    return id;
  }
  async function expectRefused(id: string, path: string, body: unknown, from: string, to: string) {
    const before = await call<LabOrderResponse>(svc.url, `/v1/labs/orders/${id}`, { key });
    const eventsBefore = await eventCount();
    const res = await call<ErrorEnvelope>(
      svc.url,
      path,
      body === undefined ? { key, method: "POST" } : { key, body },
    );
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe("invalid_transition");
    expect(res.json.error.message).toContain(from);
    expect(res.json.error.message).toContain(to);
    const after = await call<LabOrderResponse>(svc.url, `/v1/labs/orders/${id}`, { key });
    expect(after.json.data).toEqual(before.json.data);
    expect(await eventCount()).toBe(eventsBefore);
  }

  it("requested -> completed (skipping states)", async () => {
    const id = await orderAt(0);
    await expectRefused(
      id,
      `/v1/test_helpers/labs/orders/${id}/advance`,
      { to: "completed" },
      "requested",
      "completed",
    );
  });
  it("requested -> resulted", async () => {
    const id = await orderAt(0);
    await expectRefused(
      id,
      `/v1/test_helpers/labs/orders/${id}/advance`,
      { to: "resulted" },
      "requested",
      "resulted",
    );
  });
  it("collected -> cancelled", async () => {
    const id = await orderAt(3);
    await expectRefused(id, `/v1/labs/orders/${id}/cancel`, undefined, "collected", "cancelled");
  });
  it("authorized -> authorized (authorize twice)", async () => {
    const id = await orderAt(1);
    await expectRefused(
      id,
      `/v1/test_helpers/labs/orders/${id}/authorize`,
      undefined,
      "authorized",
      "authorized",
    );
  });
  it("completed -> anything", async () => {
    const id = await orderAt(7);
    expect((await call<LabOrderResponse>(svc.url, `/v1/labs/orders/${id}`, { key })).json.data.status).toBe(
      "completed",
    );
    await expectRefused(
      id,
      `/v1/test_helpers/labs/orders/${id}/advance`,
      undefined,
      "completed",
      "completed",
    );
    await expectRefused(id, `/v1/labs/orders/${id}/cancel`, undefined, "completed", "cancelled");
  });
  it("cancelled -> anything, backwards moves", async () => {
    const id = await orderAt(0);
    expect(
      (await call<LabOrderResponse>(svc.url, `/v1/labs/orders/${id}/cancel`, { key, method: "POST" })).status,
    ).toBe(200);
    await expectRefused(
      id,
      `/v1/test_helpers/labs/orders/${id}/advance`,
      undefined,
      "cancelled",
      "cancelled",
    );
    await expectRefused(id, `/v1/labs/orders/${id}/cancel`, undefined, "cancelled", "cancelled");
    const later = await orderAt(4);
    await expectRefused(
      later,
      `/v1/test_helpers/labs/orders/${later}/advance`,
      { to: "scheduled" },
      "in_transit",
      "scheduled",
    );
  });
  it("an unknown target state is 400", async () => {
    const id = await orderAt(0);
    expectInvalid(
      await call<ErrorEnvelope>(svc.url, `/v1/test_helpers/labs/orders/${id}/advance`, {
        key,
        body: { to: "teleported" },
      }),
      "to",
    );
  });
});

describe("unknown ids", () => {
  it.each([
    ["GET", "/v1/labs/orders/labord_00000000000000000000000000"],
    ["GET", "/v1/labs/orders/whatever"],
    ["POST", "/v1/labs/orders/labord_00000000000000000000000000/cancel"],
    ["POST", "/v1/test_helpers/labs/orders/labord_00000000000000000000000000/advance"],
    ["POST", "/v1/test_helpers/labs/orders/labord_00000000000000000000000000/authorize"],
  ])("%s %s -> 404 not_found", async (method, path) => {
    const res = await call<ErrorEnvelope>(svc.url, path, { key, method });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
  });
});
