import type { ErrorEnvelope } from "@svc/http";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type {
  LabOrderListResponse,
  LabOrderResponse,
  WearableConnectionList,
  WearableConnectionResponse,
} from "../src/index.js";

/**
 * Who may call the lab, wearable, event and test-helper routes: secret keys only, live keys not
 * on test helpers, and nobody sees another account's (or the other mode's) records.
 */
const svc = useTestService();
let secret: string;
let live: string;
let publishable: string;
let organization: string;
let stranger: string;
let orderId: string;
let connectionId: string;
const ORIGIN = "https://clinic.example.com";

beforeAll(async () => {
  const caller = await svc.seed.caller("enterprise", { production: true });
  secret = caller.key;
  live = (await svc.seed.key("secret_live", caller.account.id)).key;
  publishable = (await svc.seed.key("publishable", caller.account.id, [ORIGIN])).key;
  organization = (await svc.seed.org()).key;
  stranger = (await svc.seed.caller("enterprise")).key;
  orderId = (
    await call<LabOrderResponse>(svc.url, "/v1/labs/orders", {
      key: secret,
      body: { patientRef: "pt_s", panelId: "cmp" },
    })
  ).json.data.id;
  connectionId = (
    await call<WearableConnectionResponse>(svc.url, "/v1/wearables/connect", {
      key: secret,
      body: { patientRef: "pt_s" },
    })
  ).json.data.id;
});

const routes = (): [string, string, unknown][] => [
  ["GET", "/v1/labs/panels", undefined],
  ["POST", "/v1/labs/orders", { patientRef: "pt_s", panelId: "cmp" }],
  ["GET", "/v1/labs/orders", undefined],
  ["GET", `/v1/labs/orders/${orderId}`, undefined],
  ["POST", `/v1/labs/orders/${orderId}/cancel`, undefined],
  ["POST", `/v1/test_helpers/labs/orders/${orderId}/advance`, undefined],
  ["POST", `/v1/test_helpers/labs/orders/${orderId}/authorize`, undefined],
  ["GET", "/v1/events", undefined],
  ["GET", "/v1/wearables/providers", undefined],
  ["POST", "/v1/wearables/connect", { patientRef: "pt_s" }],
  ["GET", "/v1/wearables/connections?patientRef=pt_s", undefined],
  ["GET", `/v1/wearables/connections/${connectionId}`, undefined],
  ["POST", `/v1/wearables/connections/${connectionId}/disconnect`, undefined],
  ["POST", `/v1/wearables/connections/${connectionId}/sync`, undefined],
  ["GET", `/v1/wearables/connections/${connectionId}/metrics`, undefined],
  ["POST", `/v1/test_helpers/wearables/connections/${connectionId}/complete`, { provider: "FITBIT" }],
];

/** One request; the body read is the error envelope unless the test names the route's response. */
const send = <Res = ErrorEnvelope>(
  key: string | undefined,
  method: string,
  path: string,
  body: unknown,
  headers = {},
) => call<Res>(svc.url, path, { key, method, headers, ...(body === undefined ? {} : { body }) });

describe("authentication and key kinds", () => {
  it("every route needs a key (401)", async () => {
    for (const [method, path, body] of routes()) {
      const res = await send(undefined, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.json.error.code).toBe("unauthorized");
    }
  });
  it("publishable keys get 403 forbidden on every route, even from an allowed origin", async () => {
    for (const [method, path, body] of routes()) {
      const res = await send(publishable, method, path, body, { origin: ORIGIN });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json.error.code).toBe("forbidden");
    }
  });
  it("organization keys get 403 forbidden on every route", async () => {
    for (const [method, path, body] of routes()) {
      const res = await send(organization, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
  });
  it("live keys get 403 on every test helper and on sandbox sync", async () => {
    const liveOrder = (
      await send<LabOrderResponse>(live, "POST", "/v1/labs/orders", { patientRef: "pt_live", panelId: "cmp" })
    ).json.data.id;
    const liveConn = (
      await send<WearableConnectionResponse>(live, "POST", "/v1/wearables/connect", { patientRef: "pt_live" })
    ).json.data.id;
    for (const [path, body] of [
      [`/v1/test_helpers/labs/orders/${liveOrder}/advance`, undefined],
      [`/v1/test_helpers/labs/orders/${liveOrder}/authorize`, undefined],
      [`/v1/test_helpers/wearables/connections/${liveConn}/complete`, { provider: "FITBIT" }],
      [`/v1/wearables/connections/${liveConn}/sync`, undefined],
    ] as const) {
      const res = await send(live, "POST", path, body);
      expect(res.status, path).toBe(403);
      expect(res.json.error.code).toBe("forbidden");
    }
    const still = await send<LabOrderResponse>(live, "GET", `/v1/labs/orders/${liveOrder}`, undefined);
    expect(still.json.data.status).toBe("requested");
  });
});

describe("tenancy", () => {
  it("another account's order and connection are 404 everywhere, and absent from its lists", async () => {
    for (const [method, path, body] of routes().filter(
      ([, p]) => p.includes(orderId) || p.includes(connectionId),
    )) {
      const res = await send(stranger, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json.error.code).toBe("not_found");
    }
    const orders = await send<LabOrderListResponse>(
      stranger,
      "GET",
      "/v1/labs/orders?patientRef=pt_s",
      undefined,
    );
    expect(orders.json.data.count).toBe(0);
    const conns = await send<WearableConnectionList>(
      stranger,
      "GET",
      "/v1/wearables/connections?patientRef=pt_s",
      undefined,
    );
    expect(conns.json.data.count).toBe(0);
    const mine = await send<LabOrderResponse>(secret, "GET", `/v1/labs/orders/${orderId}`, undefined);
    expect(mine.json.data.status).toBe("requested");
  });

  it("test and live data are separate: a test key cannot see live records and vice versa", async () => {
    const liveOrder = (
      await send<LabOrderResponse>(live, "POST", "/v1/labs/orders", { patientRef: "pt_mode", panelId: "cmp" })
    ).json.data.id;
    expect((await send(secret, "GET", `/v1/labs/orders/${liveOrder}`, undefined)).status).toBe(404);
    expect((await send(live, "GET", `/v1/labs/orders/${orderId}`, undefined)).status).toBe(404);
    expect(
      (await send<LabOrderListResponse>(secret, "GET", "/v1/labs/orders?patientRef=pt_mode", undefined)).json
        .data.count,
    ).toBe(0);
    expect(
      (await send<LabOrderListResponse>(live, "GET", "/v1/labs/orders?patientRef=pt_mode", undefined)).json
        .data.count,
    ).toBe(1);
    expect((await send(live, "GET", `/v1/wearables/connections/${connectionId}`, undefined)).status).toBe(
      404,
    );
  });

  it("request logs carry neither bodies nor patientRef", async () => {
    await send<LabOrderResponse>(secret, "POST", "/v1/labs/orders", {
      patientRef: "pt_secret_marker",
      panelId: "cmp",
      note: "note_marker",
    });
    await send<LabOrderListResponse>(secret, "GET", "/v1/labs/orders?patientRef=pt_secret_marker", undefined);
    const logs = svc.logs.join("\n");
    expect(logs).not.toContain("pt_secret_marker");
    expect(logs).not.toContain("note_marker");
  });
});
