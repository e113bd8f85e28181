import {
  createDb,
  type DbHandle,
  eq,
  events,
  idempotencyKeys,
  purgeExpiredEvents,
  recordEvent,
  sql,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from "@svc/db";
import type { ErrorEnvelope } from "@svc/http";
import { newId } from "@svc/ids";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventListResponse } from "../src/index.js";

/** GET /v1/events: keyset paging that never loses a late commit, filters, bounds, retention. */
const svc = useTestService();
let writers: DbHandle;
let key: string;
let accountId: string;

beforeAll(async () => {
  writers = createDb({ databaseUrl: svc.db.url, maxConnections: 25 });
  const caller = await svc.seed.caller("enterprise", { production: true });
  key = caller.key;
  accountId = caller.account.id;
});
afterAll(async () => {
  await writers.close();
});

type Listed = { id: string; type: string; createdAt: string; data: { id: string; status: string } };

async function page(k: string, query: string) {
  const res = await call<EventListResponse>(svc.url, `/v1/events${query}`, { key: k });
  expect(res.status).toBe(200);
  return res.json.data as { events: Listed[]; nextCursor: string | null; hasMore: boolean; count: number };
}

/** Page from `cursor` until caught up; returns the events and the cursor to continue from. */
async function drain(k: string, cursor: string | null, extra = "", limit = 50) {
  const seen: Listed[] = [];
  let next = cursor;
  for (;;) {
    const data = await page(k, `?limit=${limit}${next ? `&cursor=${next}` : ""}${extra}`);
    seen.push(...data.events);
    expect(data.count).toBe(data.events.length);
    next = data.nextCursor;
    if (!data.hasMore) return { seen, cursor: next };
  }
}

const write = (tx: Parameters<Parameters<DbHandle["db"]["transaction"]>[0]>[0], marker: string, n: number) =>
  recordEvent(tx, {
    accountId,
    mode: "test",
    type: "lab_order.status_changed",
    data: { object: "lab_order", id: marker, status: `s${n}`, patientRef: "pt_events" },
  });

describe("GET /v1/events paging", () => {
  it("a transaction that commits late never falls behind a cursor already handed out", async () => {
    const start = await drain(key, null);
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let started = () => {};
    const written = new Promise<void>((r) => {
      started = r;
    });
    // T1 takes its transaction id first and stays open; T2 starts later and commits at once.
    const t1 = writers.db.transaction(async (tx) => {
      await write(tx, "late_1", 1);
      started();
      await gate;
    });
    await written;
    await writers.db.transaction((tx) => write(tx, "early_2", 2));
    // T2 committed, but T1 (older) is still open: neither is listed yet, and the cursor stays put.
    const during = await drain(key, start.cursor);
    expect(during.seen.map((e) => e.data.id)).toEqual([]);
    release();
    await t1;
    const deadline = Date.now() + 10_000;
    let after: Listed[] = [];
    while (Date.now() < deadline) {
      after = (await drain(key, during.cursor)).seen;
      if (after.length >= 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(after.map((e) => e.data.id)).toEqual(["late_1", "early_2"]);
  });

  it("pages across many pages while 20 concurrent writers commit (some held open): none missing, none duplicated", async () => {
    const start = await drain(key, null);
    const expected = new Set<string>();
    const writersDone = Promise.all(
      Array.from({ length: 20 }, async (_, w) => {
        for (let round = 0; round < 3; round++) {
          await writers.db.transaction(async (tx) => {
            for (let n = 0; n < 2; n++) await write(tx, `w${w}_r${round}`, n);
            // Every third transaction holds its snapshot open for a while before committing.
            if ((w + round) % 3 === 0) await tx.execute(sql`select pg_sleep(${0.05 + (w % 5) * 0.08})`);
          });
          expected.add(`w${w}_r${round}`);
        }
      }),
    );
    let finished = false;
    void writersDone.then(() => {
      finished = true;
    });
    const seen: Listed[] = [];
    let cursor = start.cursor;
    let pages = 0;
    const deadline = Date.now() + 25_000;
    for (;;) {
      const data = await page(key, `?limit=7${cursor ? `&cursor=${cursor}` : ""}`);
      pages += 1;
      seen.push(...data.events);
      cursor = data.nextCursor;
      const done = finished && !data.hasMore && seen.length >= expected.size * 2;
      if (done || Date.now() > deadline) break;
      if (!data.hasMore) await new Promise((r) => setTimeout(r, 15));
    }
    await writersDone;
    const ids = seen.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(seen.length).toBe(120);
    const markers = new Set(seen.map((e) => e.data.id));
    expect(markers).toEqual(expected);
    // Within one transaction the events keep their order (s0 before s1).
    for (const marker of markers) {
      expect(seen.filter((e) => e.data.id === marker).map((e) => e.data.status)).toEqual(["s0", "s1"]);
    }
    expect(pages).toBeGreaterThan(10);
  }, 40_000);
});

describe("GET /v1/events filters and bounds", () => {
  it("filters by type", async () => {
    await writers.db.transaction(async (tx) => {
      await recordEvent(tx, {
        accountId,
        mode: "test",
        type: "wearable.connected",
        data: {
          object: "wearable_connection",
          id: "wear_x",
          status: "connected",
          patientRef: "p",
          provider: "OURA",
        },
      });
    });
    let all: Listed[] = [];
    for (let i = 0; i < 100 && all.length === 0; i++) {
      all = (await drain(key, null, "&type=wearable.connected")).seen;
      if (all.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(all.length).toBeGreaterThan(0);
    for (const e of all) expect(e.type).toBe("wearable.connected");
  });

  it.each([
    ["limit=0", 400],
    ["limit=1", 200],
    ["limit=200", 200],
    ["limit=201", 400],
    ["type=lab_order.unknown", 400],
    ["cursor=not-a-cursor!", 400],
    ["cursor=Zm9vOmJhcg", 400],
    [`cursor=${Buffer.from("99999999999999999999:1").toString("base64url")}`, 400],
  ])("%s -> %i", async (query, status) => {
    const res = await call<ErrorEnvelope>(svc.url, `/v1/events?${query}`, { key });
    expect(res.status).toBe(status);
    if (status === 400) expect(res.json.error.code).toBe("invalid_request");
  });

  it("limit=1 returns one event and hasMore", async () => {
    const data = await page(key, "?limit=1");
    expect(data.count).toBe(1);
    expect(data.hasMore).toBe(true);
    expect(data.events[0]).toMatchObject({
      object: "event",
      apiVersion: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it("is scoped to the account and the key's mode", async () => {
    const other = await svc.seed.caller("enterprise");
    expect((await drain(other.key, null)).seen).toEqual([]);
    const liveKey = (await svc.seed.key("secret_live", accountId)).key;
    expect((await drain(liveKey, null)).seen).toEqual([]);
  });
});

describe("retention", () => {
  it("lists only the last 30 days, and purgeExpiredEvents removes older events, finished deliveries and expired keys", async () => {
    const db = svc.db.handle.db;
    const endpointId = newId("we");
    await db.insert(webhookEndpoints).values({
      id: endpointId,
      accountId,
      url: "http://127.0.0.1:9/hook",
      mode: "test",
      secret: "whsec_test",
      // Disabled, so recordEvent adds no deliveries of its own; the test writes them by hand.
      disabledAt: new Date(),
    });
    const old = new Date(Date.now() - 31 * 86_400_000);
    const mk = async (status: "delivered" | "pending" | null) => {
      const recorded = await recordEvent(db, {
        accountId,
        mode: "test",
        type: "lab_order.status_changed",
        data: { object: "lab_order", id: `old_${status}`, status: "x", patientRef: "p" },
        now: old,
      });
      if (status) {
        const deliveryId = newId("whd");
        await db.insert(webhookDeliveries).values({
          id: deliveryId,
          endpointId,
          eventId: recorded.event.id,
          source: "event",
          status,
        });
        if (status === "delivered")
          await db.insert(webhookAttempts).values({ deliveryId, attempt: 1, statusCode: 200, latencyMs: 5 });
      }
      return recorded.event.id;
    };
    const plain = await mk(null);
    const delivered = await mk("delivered");
    const pending = await mk("pending");
    // An MSE safety-event delivery is never touched.
    const safetyDelivery = newId("whd");
    await db.insert(webhookDeliveries).values({
      id: safetyDelivery,
      endpointId,
      eventId: "sev_untouched",
      source: "safety_event",
      status: "delivered",
      createdAt: old,
    });
    await db.insert(idempotencyKeys).values([
      {
        accountId,
        key: "expired",
        requestFingerprint: "f",
        status: "completed",
        expiresAt: new Date(Date.now() - 1000),
      },
      {
        accountId,
        key: "fresh",
        requestFingerprint: "f",
        status: "completed",
        expiresAt: new Date(Date.now() + 60_000),
      },
    ]);

    const listed = (await drain(key, null, "", 200)).seen.map((e) => e.id);
    for (const id of [plain, delivered, pending]) expect(listed).not.toContain(id);

    const result = await purgeExpiredEvents(db);
    expect(result).toMatchObject({ events: 2, deliveries: 1, attempts: 1, idempotencyKeys: 1 });
    const remaining = (await db.select({ id: events.id }).from(events)).map((r) => r.id);
    expect(remaining).not.toContain(plain);
    expect(remaining).not.toContain(delivered);
    expect(remaining).toContain(pending);
    const safety = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, safetyDelivery));
    expect(safety).toHaveLength(1);
    const keys = (await db.select({ key: idempotencyKeys.key }).from(idempotencyKeys)).map((r) => r.key);
    expect(keys).toContain("fresh");
    expect(keys).not.toContain("expired");
    // Recent events are untouched.
    expect((await drain(key, null, "", 200)).seen.length).toBeGreaterThan(100);
  });
});
