import { eq, recordEvent, recordSafetyEvent, webhookDeliveries, webhookEndpoints } from "@svc/db";
import { newId } from "@svc/ids";
import {
  addEndpoint,
  captureLogger,
  type Receiver,
  selfSignedLoopbackCert,
  startReceiver,
  waitFor,
} from "@svc/testkit";
import { verifySignature } from "@svc/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESPONSE_SNIPPET_BYTES, systemResolver } from "../src/index.js";
import { attemptRows, deliveryRow, removeEndpoint, sleep, useDeliveryRig } from "./helpers.js";

let tls: ReturnType<typeof selfSignedLoopbackCert>;
let tlsReceiver: Receiver;
const logs = captureLogger("debug");
const rig = useDeliveryRig(() => {
  tls = selfSignedLoopbackCert();
  return {
    trustedCa: tls.cert,
    logger: logs.logger,
    timeScale: 0.001,
    sweepIntervalMs: 200,
    deliveryTimeoutMs: 1_000,
    // Names under .example.test resolve to chosen addresses; everything else as usual.
    resolve: async (host) => {
      if (host === "private.example.test") return [{ address: "10.1.2.3", family: 4 }];
      if (host === "mixed.example.test")
        return [
          { address: "93.184.216.34", family: 4 },
          { address: "::ffff:169.254.169.254", family: 6 },
        ];
      return systemResolver(host);
    },
  };
});

beforeAll(async () => {
  tlsReceiver = await startReceiver(() => ({ status: 200 }), tls);
});

afterAll(async () => {
  await tlsReceiver?.close();
});

/** A fresh account and a test-mode endpoint on its own path of the receiver. */
async function setup(
  reply?: Receiver["reply"],
  endpoint: { mode?: "test" | "live"; url?: string; allowPrivate?: boolean } = {},
) {
  const account = await rig.seed.account();
  const path = `/${account.id}`;
  const ep = await addEndpoint(rig.db, {
    accountId: account.id,
    url: endpoint.url ?? `${rig.receiver.url}${path}`,
    mode: endpoint.mode,
    allowPrivate: endpoint.allowPrivate,
  });
  if (reply) {
    const previous = rig.receiver.reply;
    rig.receiver.reply = (request, index) =>
      request.path === path ? reply(request, index) : previous(request, index);
  }
  const received = () => rig.receiver.requests.filter((r) => r.path === path);
  const emit = async (type = "lab_order.status_changed", enqueue = true) => {
    const recorded = await rig.db.transaction((tx) =>
      recordEvent(tx, {
        accountId: account.id,
        mode: endpoint.mode ?? "test",
        type,
        data: { object: "lab_order", id: "labord_x", status: "resulted", patientRef: "pt-secret-ref" },
      }),
    );
    if (enqueue) await rig.enqueuer.enqueue(recorded.deliveryIds);
    return { event: recorded.event, deliveryId: recorded.deliveryIds[0] as string };
  };
  return { account, endpoint: ep, path, received, emit };
}

describe("webhook delivery", () => {
  it("delivers a recorded event once, signed so the receiver's verification passes", async () => {
    const t = await setup();
    const { event, deliveryId } = await t.emit("lab_order.results_ready");
    await waitFor(
      async () => (await deliveryRow(rig.db, deliveryId))?.status === "delivered",
      10_000,
      "delivery",
    );
    expect(t.received()).toHaveLength(1);
    const request = t.received()[0];
    if (!request) throw new Error("no request");
    expect(
      verifySignature({
        secret: t.endpoint.secret,
        payload: request.body,
        header: request.headers["service-signature"] as string,
      }),
    ).toMatchObject({ ok: true });
    expect(JSON.parse(request.body)).toEqual(event);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["service-event-id"]).toBe(event.id);
    expect(request.headers["user-agent"]).toMatch(/Webhooks/);
    const row = await deliveryRow(rig.db, deliveryId);
    expect(row).toMatchObject({ attempts: 1, lastStatusCode: 200, lastError: null });
    expect(row?.deliveredAt).toBeInstanceOf(Date);
    const attempts = await attemptRows(rig.db, deliveryId);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt: 1, statusCode: 200, error: null, nextAttemptAt: null });
  });

  it("retries a failing receiver on the (compressed) schedule, then succeeds; every attempt recorded", async () => {
    const t = await setup((_request, _index) => ({ status: 200 }));
    let calls = 0;
    const previous = rig.receiver.reply;
    rig.receiver.reply = (request, index) => {
      if (request.path !== t.path) return previous(request, index);
      calls++;
      return calls <= 2 ? { status: 503, body: "busy" } : { status: 204 };
    };
    const { event, deliveryId } = await t.emit();
    await waitFor(
      async () => (await deliveryRow(rig.db, deliveryId))?.status === "delivered",
      15_000,
      "delivery",
    );
    const attempts = await attemptRows(rig.db, deliveryId);
    expect(attempts.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, 503, "http_503"],
      [2, 503, "http_503"],
      [3, 204, null],
    ]);
    expect(attempts[0]?.responseSnippet).toBe("busy");
    expect(attempts[0]?.nextAttemptAt).toBeInstanceOf(Date);
    expect(attempts[2]?.nextAttemptAt).toBeNull();
    // 30 s and 2 min scaled by 0.001, +/-20 %: the second attempt at least 24 ms after the first.
    const gap1 = (attempts[1]?.attemptedAt.getTime() ?? 0) - (attempts[0]?.attemptedAt.getTime() ?? 0);
    expect(gap1).toBeGreaterThanOrEqual(24);
    // Same event id on every attempt, each signed validly.
    expect(new Set(t.received().map((r) => r.headers["service-event-id"]))).toEqual(new Set([event.id]));
    for (const r of t.received())
      expect(
        verifySignature({
          secret: t.endpoint.secret,
          payload: r.body,
          header: r.headers["service-signature"] as string,
        }).ok,
      ).toBe(true);
    expect(await deliveryRow(rig.db, deliveryId)).toMatchObject({ attempts: 3, lastStatusCode: 204 });
  });

  it("410 Gone disables the endpoint and fails the delivery without retrying", async () => {
    const t = await setup(() => ({ status: 410 }));
    const { deliveryId } = await t.emit();
    await waitFor(
      async () => (await deliveryRow(rig.db, deliveryId))?.status === "failed",
      10_000,
      "failure",
    );
    const [endpoint] = await rig.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, t.endpoint.id));
    expect(endpoint?.disabledAt).toBeInstanceOf(Date);
    expect(endpoint?.disabledReason).toMatch(/410/);
    await sleep(300);
    expect(t.received()).toHaveLength(1);
    expect(await attemptRows(rig.db, deliveryId)).toHaveLength(1);
    // A disabled endpoint gets no new deliveries.
    const next = await t.emit();
    expect(next.deliveryId).toBeUndefined();
  });

  it("does not follow a redirect: the 3xx is a failed attempt and the target is never called", async () => {
    const t = await setup((request) =>
      request.path.endsWith("/moved")
        ? { status: 200 }
        : { status: 302, headers: { location: `${rig.receiver.url}${request.path}/moved` } },
    );
    rig.receiver.reply = (
      (previous) => (request, index) =>
        request.path === `${t.path}/moved` ? { status: 200 } : previous(request, index)
    )(rig.receiver.reply);
    const { deliveryId } = await t.emit();
    const attempts = await waitFor(async () => {
      const rows = await attemptRows(rig.db, deliveryId);
      return rows.length >= 1 ? rows : null;
    });
    expect(attempts[0]).toMatchObject({ statusCode: 302, error: "redirect_not_followed" });
    expect((await deliveryRow(rig.db, deliveryId))?.status).toBe("pending");
    expect(rig.receiver.requests.filter((r) => r.path === `${t.path}/moved`)).toHaveLength(0);
    await removeEndpoint(rig.db, t.endpoint.id);
    await waitFor(
      async () => (await deliveryRow(rig.db, deliveryId))?.status === "cancelled",
      10_000,
      "cancel",
    );
  });

  it("refuses at delivery a live endpoint whose name resolves to a private or metadata address", async () => {
    for (const host of ["private.example.test", "mixed.example.test"]) {
      const t = await setup(undefined, { mode: "live", url: `https://${host}/hook` });
      const { deliveryId } = await t.emit();
      const attempts = await waitFor(async () => {
        const rows = await attemptRows(rig.db, deliveryId);
        return rows.length >= 1 ? rows : null;
      });
      expect(attempts[0]).toMatchObject({ statusCode: null, error: "forbidden_address" });
      await removeEndpoint(rig.db, t.endpoint.id);
    }
    // A literal loopback URL on a live endpoint without --allow-private: refused too.
    const literal = await setup(undefined, {
      mode: "live",
      url: `${rig.receiver.url.replace("http", "https")}/x`,
    });
    const { deliveryId } = await literal.emit();
    const attempts = await waitFor(async () => {
      const rows = await attemptRows(rig.db, deliveryId);
      return rows.length >= 1 ? rows : null;
    });
    expect(attempts[0]?.error).toBe("forbidden_address");
    expect(literal.received()).toHaveLength(0);
    await removeEndpoint(rig.db, literal.endpoint.id);
  });

  it("enqueueing the same delivery twice delivers it once", async () => {
    const t = await setup(() => ({ status: 200, delayMs: 100 }));
    const { deliveryId } = await t.emit("lab_order.status_changed", false);
    await Promise.all([
      rig.enqueuer.enqueue([deliveryId, deliveryId]),
      rig.enqueuer.enqueue([deliveryId]),
      rig.worker.queue?.add("deliver", { deliveryId }, { jobId: `${deliveryId}-dup` }),
    ]);
    await waitFor(
      async () => (await deliveryRow(rig.db, deliveryId))?.status === "delivered",
      10_000,
      "delivery",
    );
    await sleep(500);
    expect(t.received()).toHaveLength(1);
    expect(await attemptRows(rig.db, deliveryId)).toHaveLength(1);
  });

  it("keeps only the first 1 kB of a receiver's body, and logs ids, never bodies", async () => {
    const t = await setup(() => ({ status: 500, body: `RECEIVER-BODY-${"x".repeat(5_000)}` }));
    const { deliveryId } = await t.emit();
    const attempts = await waitFor(async () => {
      const rows = await attemptRows(rig.db, deliveryId);
      return rows.length >= 1 ? rows : null;
    });
    await removeEndpoint(rig.db, t.endpoint.id);
    expect(attempts[0]?.responseSnippet?.length).toBe(RESPONSE_SNIPPET_BYTES);
    expect(attempts[0]?.responseSnippet?.startsWith("RECEIVER-BODY-")).toBe(true);
    expect(logs.lines.some((l) => l.includes(deliveryId) && l.includes(t.endpoint.id))).toBe(true);
    expect(logs.lines.some((l) => l.includes("RECEIVER-BODY"))).toBe(false);
    expect(logs.lines.some((l) => l.includes("pt-secret-ref"))).toBe(false);
  });

  it("times out a receiver that does not answer in time", async () => {
    const t = await setup(() => ({ status: 200, delayMs: 3_000 }));
    const { deliveryId } = await t.emit();
    const attempts = await waitFor(async () => {
      const rows = await attemptRows(rig.db, deliveryId);
      return rows.length >= 1 ? rows : null;
    });
    await removeEndpoint(rig.db, t.endpoint.id);
    expect(attempts[0]).toMatchObject({ statusCode: null, error: "timeout" });
    expect(attempts[0]?.latencyMs).toBeGreaterThanOrEqual(900);
  });

  it("delivers an MSE safety event to the organization's live https endpoint only, signed in x-mse-signature", async () => {
    const { org } = await rig.seed.org();
    const path = `/${org.id}`;
    // Live endpoints need https; loopback is allowed to a live endpoint only with allowPrivate.
    const endpoint = await addEndpoint(rig.db, {
      orgId: org.id,
      url: `${tlsReceiver.url}${path}`,
      allowPrivate: true,
    });
    // A test-mode endpoint of the same organization (written by hand, as before decision 28).
    await addEndpoint(rig.db, { orgId: org.id, url: `${rig.receiver.url}${path}`, mode: "test" });
    const recorded = await rig.db.transaction((tx) =>
      recordSafetyEvent(tx, {
        orgId: org.id,
        visitId: "visit-1",
        patientId: "patient-1",
        version: 2,
        risk: { flag: true, level: "high", labels: ["suicidal_ideation"] },
      }),
    );
    expect(recorded.deliveryIds).toHaveLength(1);
    await rig.enqueuer.enqueue(recorded.deliveryIds);
    const deliveryId = recorded.deliveryIds[0] as string;
    await waitFor(
      async () => (await deliveryRow(rig.db, deliveryId))?.status === "delivered",
      10_000,
      "delivery",
    );
    expect(rig.receiver.requests.find((r) => r.path === path)).toBeUndefined();
    const request = tlsReceiver.requests.find((r) => r.path === path);
    if (!request) throw new Error("no request");
    expect(request.headers["service-signature"]).toBeUndefined();
    expect(
      verifySignature({
        secret: endpoint.secret,
        payload: request.body,
        header: request.headers["x-mse-signature"] as string,
      }).ok,
    ).toBe(true);
    expect(JSON.parse(request.body)).toEqual(recorded.event);
    expect(request.headers["service-event-id"]).toBe(recorded.event.id);
  });

  it("never sends a safety event to a test-mode endpoint, even from a row written before the rule", async () => {
    const { org } = await rig.seed.org();
    const path = `/legacy-${org.id}`;
    const legacy = await addEndpoint(rig.db, {
      orgId: org.id,
      url: `${rig.receiver.url}${path}`,
      mode: "test",
    });
    const recorded = await rig.db.transaction((tx) =>
      recordSafetyEvent(tx, {
        orgId: org.id,
        visitId: "visit-2",
        patientId: "patient-2",
        version: 1,
        risk: { flag: true, level: "high", labels: ["suicidal_ideation"] },
      }),
    );
    expect(recorded.deliveryIds).toEqual([]);
    // A pending row to that endpoint, as an older version wrote them: cancelled, never posted.
    const deliveryId = newId("whd");
    await rig.db.insert(webhookDeliveries).values({
      id: deliveryId,
      endpointId: legacy.id,
      eventId: recorded.event.id,
      source: "safety_event",
      status: "pending",
      nextAttemptAt: new Date(),
    });
    await rig.enqueuer.enqueue([deliveryId]);
    await waitFor(
      async () => (await deliveryRow(rig.db, deliveryId))?.status === "cancelled",
      10_000,
      "cancel",
    );
    expect((await deliveryRow(rig.db, deliveryId))?.lastError).toBe("endpoint_not_live");
    expect(rig.receiver.requests.find((r) => r.path === path)).toBeUndefined();
  });

  it("cancels a pending delivery whose endpoint was removed before it ran", async () => {
    const t = await setup();
    const { deliveryId } = await t.emit("lab_order.status_changed", false);
    await removeEndpoint(rig.db, t.endpoint.id);
    await rig.enqueuer.enqueue([deliveryId]);
    await waitFor(
      async () => (await deliveryRow(rig.db, deliveryId))?.status === "cancelled",
      10_000,
      "cancel",
    );
    expect(t.received()).toHaveLength(0);
  });
});
