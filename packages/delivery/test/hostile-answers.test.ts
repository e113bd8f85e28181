import { gzipSync } from "node:zlib";
import { recordEvent, sql } from "@svc/db";
import { addEndpoint, captureLogger, type Receiver, waitFor } from "@svc/testkit";
import { describe, expect, it } from "vitest";
import { RESPONSE_SNIPPET_BYTES, safeResponseSnippet } from "../src/index.js";
import { attemptRows, deliveryRow, removeEndpoint, sleep, useDeliveryRig } from "./helpers.js";

// Receivers whose answers PostgreSQL text cannot hold as they are (NUL bytes, a gzip-encoded
// binary body). The worker runs with short claims and a sweeper that hands out again any due row
// whose job is 300 ms old, so an attempt left unrecorded would be sent again within a second.

const logs = captureLogger("debug");
const TIME_SCALE = 0.01;
const rig = useDeliveryRig(() => ({
  logger: logs.logger,
  timeScale: TIME_SCALE,
  sweepIntervalMs: 100,
  sweepGraceMs: 0,
  staleAfterMs: 300,
  leaseMs: 300,
  deliveryTimeoutMs: 1_000,
}));

async function setup(
  reply: Receiver["reply"],
  options: { beforeEnqueue?: (deliveryId: string) => Promise<void> } = {},
) {
  const account = await rig.seed.account();
  const path = `/${account.id}`;
  const endpoint = await addEndpoint(rig.db, { accountId: account.id, url: `${rig.receiver.url}${path}` });
  const previous = rig.receiver.reply;
  rig.receiver.reply = (request, index) =>
    request.path === path ? reply(request, index) : previous(request, index);
  const received = () => rig.receiver.requests.filter((r) => r.path === path);
  const recorded = await rig.db.transaction((tx) =>
    recordEvent(tx, {
      accountId: account.id,
      mode: "test",
      type: "lab_order.status_changed",
      data: { object: "lab_order", id: "labord_x", status: "resulted" },
    }),
  );
  const deliveryId = recorded.deliveryIds[0] as string;
  await options.beforeEnqueue?.(deliveryId);
  await rig.enqueuer.enqueue([deliveryId]);
  return { endpoint, received, deliveryId };
}

function expectCleanSnippet(snippet: string | null | undefined) {
  expect(typeof snippet).toBe("string");
  const text = snippet as string;
  expect(text.includes("\u0000")).toBe(false);
  expect(Buffer.byteLength(text, "utf8")).toBeLessThanOrEqual(RESPONSE_SNIPPET_BYTES);
  // Valid UTF-8: encoding and decoding again changes nothing (no lone surrogates).
  expect(Buffer.from(text, "utf8").toString("utf8")).toBe(text);
}

const noBodyInLogs = (marker: string) => expect(logs.lines.filter((l) => l.includes(marker))).toEqual([]);

describe.sequential("receivers whose answers PostgreSQL text cannot hold", () => {
  it("a 200 with NUL bytes: recorded once with a clean snippet, delivered, never sent again", async () => {
    const marker = "NULBODY-MARKER";
    const t = await setup(() => ({ status: 200, body: `${marker}\u0000after\u0000nul\u0007bell` }));
    await waitFor(
      async () => (await deliveryRow(rig.db, t.deliveryId))?.status === "delivered",
      5_000,
      "delivered",
    );
    // Several sweeps and claim expiries later: still one request, one attempt.
    await sleep(1_500);
    expect(t.received()).toHaveLength(1);
    const attempts = await attemptRows(rig.db, t.deliveryId);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt: 1, statusCode: 200, error: null });
    expectCleanSnippet(attempts[0]?.responseSnippet);
    expect(attempts[0]?.responseSnippet).toBe(`${marker}\uFFFDafter\uFFFDnul\uFFFDbell`);
    expect(await deliveryRow(rig.db, t.deliveryId)).toMatchObject({ status: "delivered", attempts: 1 });
    noBodyInLogs(marker);
  });

  it("a gzip-encoded 200 (binary body): recorded once, delivered, never sent again", async () => {
    const marker = "GZIPBODY-MARKER";
    // Level 0 stores the text as it is between binary header bytes (NULs among them).
    const body = gzipSync(Buffer.from(`{"ok":true,"note":"${marker}"}`), { level: 0 });
    expect(body.includes(0)).toBe(true);
    const t = await setup(() => ({
      status: 200,
      body,
      headers: { "Content-Type": "application/json", "Content-Encoding": "gzip" },
    }));
    await waitFor(
      async () => (await deliveryRow(rig.db, t.deliveryId))?.status === "delivered",
      5_000,
      "delivered",
    );
    await sleep(1_500);
    expect(t.received()).toHaveLength(1);
    const attempts = await attemptRows(rig.db, t.deliveryId);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt: 1, statusCode: 200, error: null });
    expectCleanSnippet(attempts[0]?.responseSnippet);
    noBodyInLogs(marker);
  });

  it("a 500 with NUL bytes retries on the schedule, every attempt recorded, not at every sweep", async () => {
    const marker = "NUL500-MARKER";
    const t = await setup(() => ({ status: 500, body: `${marker}\u0000` }));
    const attempts = await waitFor(
      async () => {
        const rows = await attemptRows(rig.db, t.deliveryId);
        return rows.length >= 2 ? rows : null;
      },
      5_000,
      "two recorded attempts",
    );
    await removeEndpoint(rig.db, t.endpoint.id);
    const [first, second] = attempts;
    if (!first || !second) throw new Error("no attempts");
    for (const a of attempts) {
      expect(a).toMatchObject({ statusCode: 500, error: "http_500" });
      expectCleanSnippet(a.responseSnippet);
    }
    // The second attempt waited for its slot: 30 s scaled, minus 20 % jitter at most.
    expect(first.nextAttemptAt).toBeInstanceOf(Date);
    expect(second.attemptedAt.getTime()).toBeGreaterThanOrEqual((first.nextAttemptAt as Date).getTime() - 5);
    expect(second.attemptedAt.getTime() - first.attemptedAt.getTime()).toBeGreaterThanOrEqual(
      30_000 * TIME_SCALE * 0.8,
    );
    // Every request the receiver saw is a recorded attempt (none sent outside the schedule).
    await sleep(300);
    expect(t.received().length).toBe((await attemptRows(rig.db, t.deliveryId)).length);
    noBodyInLogs(marker);
  });
});

describe("an attempt whose row the database refuses", () => {
  it("still counts: the delivery is settled, and never sent again at every sweep", async () => {
    // A real PostgreSQL trigger refuses every attempt row of one delivery, whatever it holds.
    await rig.db.execute(sql`create table refused_attempts (delivery_id text primary key)`);
    await rig.db.execute(
      sql.raw(`create function refuse_attempt() returns trigger language plpgsql as $$
        begin
          if exists (select 1 from refused_attempts where delivery_id = new.delivery_id) then
            raise exception 'attempt refused';
          end if;
          return new;
        end $$`),
    );
    await rig.db.execute(
      sql`create trigger refuse_attempt before insert on webhook_attempts for each row execute function refuse_attempt()`,
    );
    const marker = "REFUSED-MARKER";
    const t = await setup(() => ({ status: 200, body: marker }), {
      beforeEnqueue: async (id) => {
        await rig.db.execute(sql`insert into refused_attempts (delivery_id) values (${id})`);
      },
    });
    await waitFor(
      async () => (await deliveryRow(rig.db, t.deliveryId))?.status === "delivered",
      5_000,
      "delivered",
    );
    await sleep(1_500);
    expect(t.received()).toHaveLength(1);
    expect(await attemptRows(rig.db, t.deliveryId)).toHaveLength(0);
    expect(await deliveryRow(rig.db, t.deliveryId)).toMatchObject({ attempts: 1, lastStatusCode: 200 });
    expect(
      logs.lines.some((l) => l.includes(t.deliveryId) && l.includes("settling the delivery alone")),
    ).toBe(true);
    noBodyInLogs(marker);
  });
});

describe("safeResponseSnippet", () => {
  it("never cuts into invalid text or past the byte limit, and keeps tab and newline", () => {
    // 400 three-byte characters: the limit falls inside the 342nd.
    const euros = safeResponseSnippet(Buffer.from("€".repeat(400), "utf8"));
    expectCleanSnippet(euros);
    expect(euros?.startsWith("€".repeat(341))).toBe(true);
    // Invalid bytes everywhere: each becomes U+FFFD (3 bytes), still within the limit.
    const binary = safeResponseSnippet(Buffer.alloc(2_000, 0xff));
    expectCleanSnippet(binary);
    expect(safeResponseSnippet(Buffer.from("a\tb\r\nc\u0000d\u001be\u0085f", "utf8"))).toBe(
      "a\tb\nc\uFFFDd\uFFFDe\uFFFDf",
    );
    expect(safeResponseSnippet(Buffer.alloc(0))).toBeNull();
  });
});
