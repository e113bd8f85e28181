import type { ErrorEnvelope } from "@svc/http";
import { type CallResult, call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type {
  EventListResponse,
  WearableConnectionList,
  WearableConnectionResponse,
  WearableMetricsResponse,
  WearableProviderList,
  WearableSyncResponse,
} from "../src/index.js";
import { ISO_639_1 } from "../src/wearables/languages.js";

/** Wearable connections: providers, connect, lifecycle, sync and metrics, and every 4xx. */
const svc = useTestService();
let key: string;

beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
});

/** POST /v1/wearables/connect; the body read is the connection unless the test expects an error. */
const connect = <Res = WearableConnectionResponse>(body: Record<string, unknown>) =>
  call<Res>(svc.url, "/v1/wearables/connect", { key, body: { patientRef: "pt_w1", ...body } });

function expectInvalid(res: CallResult<ErrorEnvelope>, path: string) {
  expect(res.status).toBe(400);
  expect(res.json.error.code).toBe("invalid_request");
  const paths: string[] = res.json.error.issues?.map((i: { path: string }) => i.path) ?? [];
  expect(paths.some((p) => p === path || p.startsWith(`${path}.`))).toBe(true);
}

async function eventsOf(id: string, expected: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await call<EventListResponse>(svc.url, "/v1/events?limit=200", { key });
    const mine = res.json.data.events.filter((e: { data: { id: string } }) => e.data.id === id);
    if (mine.length >= expected || Date.now() > deadline) return mine;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("GET /v1/wearables/providers", () => {
  it("returns the uppercase codes plus details (decision 50)", async () => {
    const res = await call<WearableProviderList>(svc.url, "/v1/wearables/providers", { key });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ object: "list", resource: "wearable_provider", count: 6 });
    expect(res.json.data.providers).toEqual([
      "FITBIT",
      "GARMIN",
      "OURA",
      "WITHINGS",
      "APPLE_HEALTH",
      "GOOGLE_FIT",
    ]);
    for (const code of res.json.data.providers) expect(code).toMatch(/^[A-Z_]+$/);
    expect(res.json.data.details[0]).toEqual({
      code: "FITBIT",
      displayName: "Fitbit",
      metrics: ["sleepHours", "steps", "restingHeartRate", "hrvMs"],
    });
  });
});

describe("POST /v1/wearables/connect", () => {
  it("creates a pending connection with a service-hosted connect.url", async () => {
    const res = await connect({
      providers: ["OURA", "GARMIN", "OURA"],
      language: "es",
      metadata: { src: "intake" },
    });
    expect(res.status).toBe(201);
    const data = res.json.data;
    expect(data).toMatchObject({
      object: "wearable_connection",
      id: expect.stringMatching(/^wear_[0-9a-z]{26}$/),
      patientRef: "pt_w1",
      status: "pending",
      provider: null,
      providerDisplayName: null,
      providers: ["OURA", "GARMIN"],
      language: "es",
      metadata: { src: "intake" },
      connectedAt: null,
      lastSyncAt: null,
      notice: expect.any(String),
    });
    expect(data.connect.url).toMatch(/^http:\/\/localhost:3000\/connect\/[A-Za-z0-9_-]{43}$/);
  });

  it("defaults to every provider and English", async () => {
    const res = await connect({});
    expect(res.json.data.providers).toHaveLength(6);
    expect(res.json.data.language).toBe("en");
  });

  it("gives each connection its own unguessable token", async () => {
    const urls = new Set<string>();
    for (let i = 0; i < 5; i++) urls.add((await connect({})).json.data.connect.url);
    expect(urls.size).toBe(5);
  });

  it("refuses unknown provider codes with the index in the issue path", async () => {
    expectInvalid(await connect<ErrorEnvelope>({ providers: ["FITBIT", "POLAR"] }), "providers.1");
    expectInvalid(await connect<ErrorEnvelope>({ providers: ["fitbit"] }), "providers.0");
    expectInvalid(await connect<ErrorEnvelope>({ providers: [] }), "providers");
    expectInvalid(await connect<ErrorEnvelope>({ providers: "FITBIT" }), "providers");
  });

  it.each(["EN", "eng", "e", "xx", "zz", "en-US", "", "1a"])("refuses language %j", async (language) => {
    expectInvalid(await connect<ErrorEnvelope>({ language }), "language");
  });

  it("accepts every real ISO 639-1 code", async () => {
    expect(ISO_639_1.size).toBe(183);
    for (const language of ["en", "fr", "zu", "yo", "nb"]) {
      expect((await connect({ language })).status).toBe(201);
    }
  });

  it("patientRef 128 accepted, 129 refused; metadata bounded", async () => {
    expect((await connect({ patientRef: "p".repeat(128) })).status).toBe(201);
    expectInvalid(await connect<ErrorEnvelope>({ patientRef: "p".repeat(129) }), "patientRef");
    expectInvalid(await connect<ErrorEnvelope>({ patientRef: "" }), "patientRef");
    expectInvalid(
      await connect<ErrorEnvelope>({
        metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 1])),
      }),
      "metadata",
    );
  });
});

describe("lifecycle, sync and metrics", () => {
  it("pending -> connected (test helper) -> sync -> metrics -> disconnected, with events", async () => {
    const id = (await connect({ patientRef: "pt_life", providers: ["FITBIT", "WITHINGS"] })).json.data
      .id as string;

    const notOffered = await call<ErrorEnvelope>(
      svc.url,
      `/v1/test_helpers/wearables/connections/${id}/complete`,
      {
        key,
        body: { provider: "OURA" },
      },
    );
    expectInvalid(notOffered, "provider");

    const early = await call<ErrorEnvelope>(svc.url, `/v1/wearables/connections/${id}/sync`, {
      key,
      method: "POST",
    });
    expect(early.status).toBe(409);
    expect(early.json.error.code).toBe("conflict");

    const done = await call<WearableConnectionResponse>(
      svc.url,
      `/v1/test_helpers/wearables/connections/${id}/complete`,
      {
        key,
        body: { provider: "WITHINGS" },
      },
    );
    expect(done.status).toBe(200);
    expect(done.json.data).toMatchObject({
      status: "connected",
      provider: "WITHINGS",
      providerDisplayName: "Withings",
      connectedAt: expect.any(String),
    });
    const twice = await call<ErrorEnvelope>(
      svc.url,
      `/v1/test_helpers/wearables/connections/${id}/complete`,
      {
        key,
        body: { provider: "FITBIT" },
      },
    );
    expect(twice.status).toBe(409);
    expect(twice.json.error.code).toBe("invalid_transition");

    const empty = await call<WearableMetricsResponse>(svc.url, `/v1/wearables/connections/${id}/metrics`, {
      key,
    });
    expect(empty.json.data).toMatchObject({ count: 0, avgSleepHours: null, days: 30 });

    const sync = await call<WearableSyncResponse>(svc.url, `/v1/wearables/connections/${id}/sync`, {
      key,
      method: "POST",
    });
    expect(sync.status).toBe(200);
    expect(sync.json.data.sync).toEqual({ days: 7 });
    expect(sync.json.data.lastSyncAt).toEqual(expect.any(String));

    const metrics = await call<WearableMetricsResponse>(
      svc.url,
      `/v1/wearables/connections/${id}/metrics?days=7`,
      { key },
    );
    expect(metrics.status).toBe(200);
    const data = metrics.json.data;
    expect(data).toMatchObject({
      object: "wearable_metrics",
      connectionId: id,
      provider: "WITHINGS",
      days: 7,
      count: 7,
    });
    for (const day of data.daily) {
      expect(day.sleepHours).toBeGreaterThanOrEqual(5.5);
      expect(day.sleepHours).toBeLessThanOrEqual(8.5);
      expect(Number.isInteger(day.steps)).toBe(true);
      expect(day.restingHeartRate).toBeGreaterThan(40);
      expect(day.hrvMs).toBeNull(); // Withings supplies no HRV
    }
    const mean = data.daily.reduce((a, d) => a + (d.sleepHours as number), 0) / 7;
    expect(data.avgSleepHours).toBeCloseTo(mean, 2);
    const one = await call<WearableMetricsResponse>(
      svc.url,
      `/v1/wearables/connections/${id}/metrics?days=1`,
      { key },
    );
    expect(one.json.data.count).toBe(1);

    // Deterministic: a second sync stores the same numbers.
    await call<WearableSyncResponse>(svc.url, `/v1/wearables/connections/${id}/sync`, {
      key,
      method: "POST",
    });
    const again = await call<WearableMetricsResponse>(
      svc.url,
      `/v1/wearables/connections/${id}/metrics?days=7`,
      { key },
    );
    expect(again.json.data.daily).toEqual(data.daily);

    const off = await call<WearableConnectionResponse>(
      svc.url,
      `/v1/wearables/connections/${id}/disconnect`,
      { key, method: "POST" },
    );
    expect(off.status).toBe(200);
    expect(off.json.data.status).toBe("disconnected");
    expect(off.json.data.disconnectedAt).toEqual(expect.any(String));
    const offAgain = await call<ErrorEnvelope>(svc.url, `/v1/wearables/connections/${id}/disconnect`, {
      key,
      method: "POST",
    });
    expect(offAgain.status).toBe(409);
    expect(offAgain.json.error.code).toBe("invalid_transition");
    const complete = await call<ErrorEnvelope>(
      svc.url,
      `/v1/test_helpers/wearables/connections/${id}/complete`,
      {
        key,
        body: { provider: "FITBIT" },
      },
    );
    expect(complete.status).toBe(409);

    const events = await eventsOf(id, 4);
    expect(events.map((e: { type: string }) => e.type)).toEqual([
      "wearable.connected",
      "wearable.sync_completed",
      "wearable.sync_completed",
      "wearable.disconnected",
    ]);
    expect(events[0]?.data).toEqual({
      object: "wearable_connection",
      id,
      status: "connected",
      patientRef: "pt_life",
      provider: "WITHINGS",
    });
    expect(events[3]?.data.status).toBe("disconnected");

    const list = await call<WearableConnectionList>(svc.url, "/v1/wearables/connections?patientRef=pt_life", {
      key,
    });
    expect(list.json.data).toMatchObject({
      object: "list",
      resource: "wearable_connection",
      count: 1,
      patientRef: "pt_life",
    });
    expect(list.json.data.connections[0]?.lastSyncAt).toEqual(expect.any(String));
  });

  it("a pending connection can be withdrawn (disconnected)", async () => {
    const id = (await connect({})).json.data.id as string;
    const off = await call<WearableConnectionResponse>(
      svc.url,
      `/v1/wearables/connections/${id}/disconnect`,
      { key, method: "POST" },
    );
    expect(off.json.data).toMatchObject({ status: "disconnected", provider: null });
  });

  it.each([
    ["0", 400],
    ["1", 200],
    ["90", 200],
    ["91", 400],
    ["x", 400],
  ])("metrics days=%s -> %i", async (days, status) => {
    const id = (await connect({})).json.data.id as string;
    const res = await call<WearableMetricsResponse | ErrorEnvelope>(
      svc.url,
      `/v1/wearables/connections/${id}/metrics?days=${days}`,
      { key },
    );
    expect(res.status).toBe(status);
  });

  it("the list needs patientRef and lists newest first", async () => {
    expectInvalid(await call<ErrorEnvelope>(svc.url, "/v1/wearables/connections", { key }), "patientRef");
    const a = (await connect({ patientRef: "pt_order" })).json.data.id;
    const b = (await connect({ patientRef: "pt_order" })).json.data.id;
    const res = await call<WearableConnectionList>(svc.url, "/v1/wearables/connections?patientRef=pt_order", {
      key,
    });
    expect(res.json.data.connections.map((c: { id: string }) => c.id)).toEqual([b, a]);
    const limited = await call<WearableConnectionList>(
      svc.url,
      "/v1/wearables/connections?patientRef=pt_order&limit=1",
      { key },
    );
    expect(limited.json.data).toMatchObject({ count: 1, hasMore: true });
    expect(
      (await call<ErrorEnvelope>(svc.url, "/v1/wearables/connections?patientRef=pt_order&limit=0", { key }))
        .status,
    ).toBe(400);
    expect(
      (await call<ErrorEnvelope>(svc.url, "/v1/wearables/connections?patientRef=pt_order&limit=201", { key }))
        .status,
    ).toBe(400);
  });

  it.each([
    ["GET", "/v1/wearables/connections/wear_00000000000000000000000000"],
    ["GET", "/v1/wearables/connections/wear_00000000000000000000000000/metrics"],
    ["POST", "/v1/wearables/connections/wear_00000000000000000000000000/disconnect"],
    ["POST", "/v1/wearables/connections/wear_00000000000000000000000000/sync"],
  ])("%s %s -> 404", async (method, path) => {
    const res = await call<ErrorEnvelope>(svc.url, path, { key, method });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
  });
});
