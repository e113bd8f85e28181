import { and, eq, idempotencyKeys, labOrders, sql } from "@svc/db";
import type { ErrorEnvelope } from "@svc/http";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type { LabOrderResponse, WearableConnectionList, WearableConnectionResponse } from "../src/index.js";

/** Idempotency-Key on POST /v1/labs/orders and POST /v1/wearables/connect (decision 47). */
const svc = useTestService();
let key: string;
let accountId: string;

beforeAll(async () => {
  const caller = await svc.seed.caller("enterprise");
  key = caller.key;
  accountId = caller.account.id;
});

/** Concurrent creates answer 201 with the order or 409 with the error: the test reads either. */
interface OrderOrError {
  data?: LabOrderResponse["data"];
  error?: ErrorEnvelope["error"];
}

const post = <Res>(path: string, body: unknown, idem?: string, raw?: string) =>
  call<Res>(svc.url, path, {
    key,
    method: "POST",
    ...(raw !== undefined ? { rawBody: raw } : { body }),
    headers: idem === undefined ? {} : { "Idempotency-Key": idem },
  });

async function ordersOf(patientRef: string): Promise<number> {
  const [row] = await svc.db.handle.db
    .select({ n: sql<number>`count(*)::int` })
    .from(labOrders)
    .where(and(eq(labOrders.accountId, accountId), eq(labOrders.patientRef, patientRef)));
  return row?.n ?? 0;
}

describe("Idempotency-Key on POST /v1/labs/orders", () => {
  it("replays the first status and body with Idempotent-Replayed: true and creates nothing", async () => {
    const body = { patientRef: "pt_idem_1", panelId: "prolactin" };
    const first = await post<LabOrderResponse>("/v1/labs/orders", body, "order-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const second = await post<LabOrderResponse>("/v1/labs/orders", body, "order-1");
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.json).toEqual(first.json);
    expect(await ordersOf("pt_idem_1")).toBe(1);
  });

  it("the same key with a different body is 422 idempotency_key_reused", async () => {
    expect(
      (
        await post<LabOrderResponse>(
          "/v1/labs/orders",
          { patientRef: "pt_idem_2", panelId: "hba1c" },
          "order-2",
        )
      ).status,
    ).toBe(201);
    const res = await post<ErrorEnvelope>(
      "/v1/labs/orders",
      { patientRef: "pt_idem_2", panelId: "lipid_panel" },
      "order-2",
    );
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe("idempotency_key_reused");
    // The fingerprint is of the raw body: whitespace counts as a different request.
    const spaced = await post<ErrorEnvelope>(
      "/v1/labs/orders",
      undefined,
      "order-2",
      '{ "patientRef": "pt_idem_2", "panelId": "hba1c" }',
    );
    expect(spaced.status).toBe(422);
    // ... and the same key on another route is another request too.
    const other = await post<ErrorEnvelope>("/v1/wearables/connect", { patientRef: "pt_idem_2" }, "order-2");
    expect(other.status).toBe(422);
    expect(await ordersOf("pt_idem_2")).toBe(1);
  });

  it("two concurrent requests with one key create exactly one order", async () => {
    const body = { patientRef: "pt_idem_3", panelId: "cmp" };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => post<OrderOrError>("/v1/labs/orders", body, "order-3")),
    );
    const statuses = results.map((r) => r.status);
    for (const status of statuses) expect([201, 409]).toContain(status);
    for (const r of results.filter((r) => r.status === 409)) {
      expect(r.json.error?.code).toBe("idempotency_in_progress");
    }
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    const ids = new Set(created.map((r) => r.json.data?.id));
    expect(ids.size).toBe(1);
    expect(await ordersOf("pt_idem_3")).toBe(1);
    const replay = await post<LabOrderResponse>("/v1/labs/orders", body, "order-3");
    expect(replay.status).toBe(201);
    expect(replay.json.data.id).toBe([...ids][0]);
  });

  it("a request still in flight is 409 idempotency_in_progress", async () => {
    const body = { patientRef: "pt_idem_4", panelId: "cmp" };
    const raw = JSON.stringify(body);
    const { requestFingerprint } = await import("@svc/http");
    await svc.db.handle.db.insert(idempotencyKeys).values({
      accountId,
      key: "order-4",
      requestFingerprint: requestFingerprint("POST", "/v1/labs/orders", "test", raw),
      status: "in_progress",
      expiresAt: new Date(Date.now() + 60_000),
    });
    const res = await post<ErrorEnvelope>("/v1/labs/orders", undefined, "order-4", raw);
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe("idempotency_in_progress");
    expect(await ordersOf("pt_idem_4")).toBe(0);
  });

  it("a failed request leaves the key free: a corrected retry with the same key proceeds", async () => {
    const bad = await post<ErrorEnvelope>(
      "/v1/labs/orders",
      { patientRef: "pt_idem_5", panelId: "nope" },
      "order-5",
    );
    expect(bad.status).toBe(400);
    const good = await post<LabOrderResponse>(
      "/v1/labs/orders",
      { patientRef: "pt_idem_5", panelId: "cmp" },
      "order-5",
    );
    expect(good.status).toBe(201);
  });

  it("keys are scoped to the account", async () => {
    const other = await svc.seed.caller("enterprise");
    const body = { patientRef: "pt_idem_6", panelId: "cmp" };
    const mine = await post<LabOrderResponse>("/v1/labs/orders", body, "shared-key");
    const theirs = await call<LabOrderResponse>(svc.url, "/v1/labs/orders", {
      key: other.key,
      body,
      headers: { "Idempotency-Key": "shared-key" },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(theirs.json.data.id).not.toBe(mine.json.data.id);
  });

  it("an expired key is forgotten", async () => {
    const body = { patientRef: "pt_idem_7", panelId: "cmp" };
    const first = await post<LabOrderResponse>("/v1/labs/orders", body, "order-7");
    await svc.db.handle.db
      .update(idempotencyKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, "order-7")));
    const second = await post<LabOrderResponse>("/v1/labs/orders", body, "order-7");
    expect(second.status).toBe(201);
    expect(second.json.data.id).not.toBe(first.json.data.id);
  });

  it.each([
    ["", 400],
    ["k".repeat(256), 400],
    ["k".repeat(255), 201],
    ["k", 201],
  ])("Idempotency-Key of length %#: 1-255 chars", async (idem, status) => {
    const res = await post<ErrorEnvelope>(
      "/v1/labs/orders",
      { patientRef: `pt_len_${idem.length}`, panelId: "cmp" },
      idem,
    );
    expect(res.status).toBe(status);
    if (status === 400) expect(res.json.error.code).toBe("invalid_request");
  });
});

describe("Idempotency-Key on POST /v1/wearables/connect", () => {
  it("replays the connection (same token) and creates one", async () => {
    const body = { patientRef: "pt_idem_w", providers: ["FITBIT"] };
    const first = await post<WearableConnectionResponse>("/v1/wearables/connect", body, "connect-1");
    expect(first.status).toBe(201);
    const second = await post<WearableConnectionResponse>("/v1/wearables/connect", body, "connect-1");
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.json).toEqual(first.json);
    const list = await call<WearableConnectionList>(
      svc.url,
      "/v1/wearables/connections?patientRef=pt_idem_w",
      { key },
    );
    expect(list.json.data.count).toBe(1);
    const reused = await post<ErrorEnvelope>(
      "/v1/wearables/connect",
      { ...body, language: "fr" },
      "connect-1",
    );
    expect(reused.status).toBe(422);
  });
});
