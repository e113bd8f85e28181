import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type {
  BiomarkerAnalysisResponse,
  EventListResponse,
  LabOrderListResponse,
  LabOrderResponse,
  LabPanelListResponse,
} from "../src/index.js";

/** Lab orders: catalog, creation, the whole lifecycle with its events, listing. */
const svc = useTestService();
let key: string;

beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
});

const order = (body: Record<string, unknown> = {}) =>
  call<LabOrderResponse>(svc.url, "/v1/labs/orders", {
    key,
    body: { patientRef: "pt_1001", panelId: "lithium_monitoring", ...body },
  });

/** Events of one resource, waiting for commits still below the visibility horizon. */
async function eventsOf(id: string, expected: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const all: { type: string; data: { id: string; status: string } }[] = [];
    let cursor: string | null = null;
    for (;;) {
      const q: string = cursor ? `&cursor=${cursor}` : "";
      const res = await call<EventListResponse>(svc.url, `/v1/events?limit=200${q}`, { key });
      expect(res.status).toBe(200);
      all.push(...res.json.data.events);
      cursor = res.json.data.nextCursor;
      if (!res.json.data.hasMore) break;
    }
    const mine = all.filter((e) => e.data.id === id);
    if (mine.length >= expected || Date.now() > deadline) return mine;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("GET /v1/labs/panels", () => {
  it("lists at least 15 panels with the catalog fields", async () => {
    const res = await call<LabPanelListResponse>(svc.url, "/v1/labs/panels", { key });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ object: "list", resource: "lab_panel" });
    expect(res.json.data.count).toBeGreaterThanOrEqual(15);
    expect(res.json.data.panels).toHaveLength(res.json.data.count);
    for (const panel of res.json.data.panels) {
      expect(panel).toEqual({
        panelId: expect.any(String),
        name: expect.any(String),
        category: expect.any(String),
        description: expect.any(String),
        priceCents: expect.any(Number),
        turnaround: expect.any(String),
        useCases: expect.any(Array),
      });
    }
    const ids = res.json.data.panels.map((p: { panelId: string }) => p.panelId);
    for (const id of ["lithium_monitoring", "clozapine_anc", "thyroid_panel", "urine_drug_screen"]) {
      expect(ids).toContain(id);
    }
  });

  it("filters by category", async () => {
    const res = await call<LabPanelListResponse>(
      svc.url,
      "/v1/labs/panels?category=therapeutic_drug_monitoring",
      { key },
    );
    expect(res.status).toBe(200);
    expect(res.json.data.count).toBeGreaterThanOrEqual(4);
    for (const panel of res.json.data.panels) expect(panel.category).toBe("therapeutic_drug_monitoring");
  });
});

describe("POST /v1/labs/orders", () => {
  it("creates an order in requested with the catalog's name, price and a requisition number", async () => {
    const res = await order({
      note: "Trough level, 12 h post dose",
      metadata: { clinic: "north", visit: 3 },
    });
    expect(res.status).toBe(201);
    expect(res.json.ok).toBe(true);
    const data = res.json.data;
    expect(data).toEqual({
      object: "lab_order",
      id: expect.stringMatching(/^labord_[0-9a-z]{26}$/),
      patientRef: "pt_1001",
      panelId: "lithium_monitoring",
      panelName: "Lithium Monitoring Panel",
      category: "therapeutic_drug_monitoring",
      priceCents: 8900,
      status: "requested",
      note: "Trough level, 12 h post dose",
      requisitionNumber: expect.stringMatching(/^REQ-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/),
      metadata: { clinic: "north", visit: 3 },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      notice: expect.stringMatching(/authoriz/i),
    });
    expect(data.results).toBeUndefined();
    const again = await call<LabOrderResponse>(svc.url, `/v1/labs/orders/${data.id}`, { key });
    expect(again.status).toBe(200);
    expect(again.json.data).toEqual(data);
  });
});

describe("lifecycle", () => {
  it("walks requested -> ... -> completed, attaches results at resulted, and emits events in causal order", async () => {
    const created = await order({ panelId: "thyroid_panel", patientRef: "pt_walk" });
    const id = created.json.data.id as string;
    const auth = await call<LabOrderResponse>(svc.url, `/v1/test_helpers/labs/orders/${id}/authorize`, {
      key,
      method: "POST",
    });
    expect(auth.status).toBe(200);
    expect(auth.json.data.status).toBe("authorized");
    const seen = ["authorized"];
    for (const expected of ["scheduled", "collected", "in_transit", "processing", "resulted", "completed"]) {
      const res = await call<LabOrderResponse>(svc.url, `/v1/test_helpers/labs/orders/${id}/advance`, {
        key,
        method: "POST",
      });
      expect(res.status).toBe(200);
      expect(res.json.data.status).toBe(expected);
      seen.push(expected);
      if (expected === "resulted" || expected === "completed") {
        expect(res.json.data.results?.biomarkers.map((b: { name: string }) => b.name)).toEqual([
          "TSH",
          "Free T4",
          "Free T3",
        ]);
        expect(Date.parse(res.json.data.results?.observedAt as string)).not.toBeNaN();
      } else {
        expect(res.json.data.results).toBeUndefined();
      }
    }
    const final = await call<LabOrderResponse>(svc.url, `/v1/labs/orders/${id}`, { key });
    expect(final.json.data.status).toBe("completed");

    // Results go straight into the biomarker engine (decision 35).
    const analysis = await call<BiomarkerAnalysisResponse>(svc.url, "/v1/biomarker/analyze", {
      key,
      body: { labs: [{ id, labName: final.json.data.panelName, ...{ results: final.json.data.results } }] },
    });
    expect(analysis.status).toBe(200);

    const events = await eventsOf(id, 8);
    expect(events.map((e) => `${e.type}:${e.data.status}`)).toEqual([
      "lab_order.status_changed:authorized",
      "lab_order.status_changed:scheduled",
      "lab_order.status_changed:collected",
      "lab_order.status_changed:in_transit",
      "lab_order.status_changed:processing",
      "lab_order.status_changed:resulted",
      "lab_order.results_ready:resulted",
      "lab_order.status_changed:completed",
    ]);
    expect(events[0]).toMatchObject({
      object: "event",
      id: expect.stringMatching(/^evt_/),
      apiVersion: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      data: { object: "lab_order", id, status: "authorized", patientRef: "pt_walk" },
    });
    expect(Object.keys(events[0]?.data ?? {}).sort()).toEqual(["id", "object", "patientRef", "status"]);
  });

  it("allows collected -> resulted directly", async () => {
    const id = (await order()).json.data.id as string;
    for (let i = 0; i < 3; i++) {
      await call<LabOrderResponse>(svc.url, `/v1/test_helpers/labs/orders/${id}/advance`, {
        key,
        method: "POST",
      });
    }
    const res = await call<LabOrderResponse>(svc.url, `/v1/test_helpers/labs/orders/${id}/advance`, {
      key,
      body: { to: "resulted" },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.status).toBe("resulted");
    expect(res.json.data.results?.biomarkers.length).toBe(6);
  });

  it.each([0, 1, 2])("cancels from the %i-th state (requested, authorized, scheduled)", async (moves) => {
    const id = (await order()).json.data.id as string;
    for (let i = 0; i < moves; i++) {
      await call<LabOrderResponse>(svc.url, `/v1/test_helpers/labs/orders/${id}/advance`, {
        key,
        method: "POST",
      });
    }
    const res = await call<LabOrderResponse>(svc.url, `/v1/labs/orders/${id}/cancel`, {
      key,
      method: "POST",
    });
    expect(res.status).toBe(200);
    expect(res.json.data.status).toBe("cancelled");
    const events = await eventsOf(id, moves + 1);
    expect(events.at(-1)).toMatchObject({ type: "lab_order.status_changed", data: { status: "cancelled" } });
  });
});

describe("GET /v1/labs/orders", () => {
  it("lists newest first, filters by patientRef and pages with cursor", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await order({ patientRef: "pt_pager" })).json.data.id);
    const first = await call<LabOrderListResponse>(svc.url, "/v1/labs/orders?patientRef=pt_pager&limit=2", {
      key,
    });
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({ object: "list", resource: "lab_order", count: 2, hasMore: true });
    const got = first.json.data.orders.map((o: { id: string }) => o.id);
    let cursor = first.json.data.nextCursor as string;
    for (;;) {
      const next = await call<LabOrderListResponse>(
        svc.url,
        `/v1/labs/orders?patientRef=pt_pager&limit=2&cursor=${cursor}`,
        {
          key,
        },
      );
      expect(next.status).toBe(200);
      got.push(...next.json.data.orders.map((o: { id: string }) => o.id));
      if (!next.json.data.hasMore) {
        expect(next.json.data.nextCursor).toBeNull();
        break;
      }
      cursor = next.json.data.nextCursor as string;
    }
    expect(got).toEqual([...ids].reverse());
    const all = await call<LabOrderListResponse>(svc.url, "/v1/labs/orders", { key });
    expect(all.json.data.count).toBeGreaterThan(5);
    expect(all.json.data.count).toBeLessThanOrEqual(50);
    for (const o of all.json.data.orders) expect(o.object).toBe("lab_order");
  });
});
