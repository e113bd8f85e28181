import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { signPayload, verifySignature } from "@svc/webhooks";
import fc from "fast-check";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  generateTestHeader,
  type LabOrder,
  type SafetyEvent,
  verifySafetyEvent,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from "../src/index.js";

/**
 * The SDK reimplements the service's signature scheme without importing it; these tests
 * cross-check the two both ways (the server's signPayload / verifySignature from @svc/webhooks).
 */
const secret = "whsec_0123456789ABCDEFGHIJabcdefghij0123456789";
const payload = JSON.stringify({
  id: "evt_1",
  object: "event",
  type: "lab_order.created",
  data: { id: "lo_1" },
});
const t = 1_800_000_000;

function reasonOf(run: () => unknown): WebhookVerificationReason | "ok" {
  try {
    run();
    return "ok";
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
}

describe("verifyWebhook", () => {
  it("a fixed vector: the server's header, the SDK's, and the literal agree", () => {
    const server = signPayload(secret, payload, t);
    expect(generateTestHeader({ payload, secret, timestampSeconds: t })).toBe(server);
    // HMAC-SHA256 over "1800000000.<payload>", computed once independently: a change to either
    // side's scheme shows here.
    expect(server).toBe(`t=${t},v1=d4251b4777eeacb6500887b1cf7ec0d0fadb08b014558b741b21dc672bdb93fd`);
    const event = verifyWebhook<{ id: string }>(payload, server, secret, { nowSeconds: t + 10 });
    expect(event.id).toBe("evt_1");
  });

  it("accepts what the server signs and the server accepts what the SDK signs, over any payload, secret and time", () => {
    fc.assert(
      fc.property(
        fc.json(),
        fc.string({ minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 4_000_000_000 }),
        (body, key, time) => {
          const header = signPayload(key, body, time);
          expect(() => verifyWebhook(body, header, key, { nowSeconds: time })).not.toThrow();
          const ours = generateTestHeader({ payload: body, secret: key, timestampSeconds: time });
          expect(verifySignature({ secret: key, payload: body, header: ours, now: time })).toEqual({
            ok: true,
            timestamp: time,
          });
        },
      ),
    );
  });

  it("takes the raw bytes as well as a string", () => {
    const header = signPayload(secret, payload, t);
    expect(verifyWebhook(new TextEncoder().encode(payload), header, secret, { nowSeconds: t })).toMatchObject(
      {
        id: "evt_1",
      },
    );
  });

  it("accepts a header with several v1 values when any one matches (secret rotation)", () => {
    const header = generateTestHeader({ payload, secret: ["whsec_old", secret], timestampSeconds: t });
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(reasonOf(() => verifyWebhook(payload, header, secret, { nowSeconds: t }))).toBe("ok");
    expect(reasonOf(() => verifyWebhook(payload, header, "whsec_old", { nowSeconds: t }))).toBe("ok");
    expect(verifySignature({ secret, payload, header, now: t }).ok).toBe(true);
  });

  it("refuses with a clear reason: missing, malformed, out of tolerance, mismatch", () => {
    const header = signPayload(secret, payload, t);
    const at = (h: string | null | undefined, body = payload, key = secret, now = t) =>
      reasonOf(() => verifyWebhook(body, h, key, { nowSeconds: now, toleranceSeconds: 300 }));
    expect(at(undefined)).toBe("missing_header");
    expect(at("")).toBe("missing_header");
    for (const bad of [
      "garbage",
      `t=${t}`,
      "v1=abc",
      `t=abc,v1=${"a".repeat(64)}`,
      `t=${t},v1=${"A".repeat(64)}`,
    ])
      expect(at(bad)).toBe("malformed_header");
    expect(at(header, payload, secret, t + 301)).toBe("timestamp_out_of_tolerance");
    expect(at(header, payload, secret, t - 301)).toBe("timestamp_out_of_tolerance");
    expect(at(header, payload, secret, t + 300)).toBe("ok");
    expect(at(header, `${payload} `)).toBe("signature_mismatch");
    expect(at(header, payload, "whsec_other")).toBe("signature_mismatch");
    const error = (() => {
      try {
        verifyWebhook(payload, header, "whsec_other", { nowSeconds: t });
      } catch (e) {
        return e as WebhookVerificationError;
      }
    })();
    expect(error?.message).toMatch(/raw bytes/);
  });

  it("the same reasons as the server's verifier over tampered headers and times", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), fc.boolean(), (skew, tamper) => {
        const header = signPayload(secret, payload, t);
        const last = header.at(-1) === "0" ? "1" : "0";
        const sent = tamper ? `${header.slice(0, -1)}${last}` : header;
        const server = verifySignature({ secret, payload, header: sent, now: t + skew });
        const ours = reasonOf(() => verifyWebhook(payload, sent, secret, { nowSeconds: t + skew }));
        expect(ours).toBe(server.ok ? "ok" : server.reason);
      }),
    );
  });

  it("a year-old signature with toleranceSeconds NaN (an unset variable) throws; it was accepted", () => {
    const old = signPayload(secret, payload, t - 365 * 24 * 3600);
    const fromEnv = Number(process.env.SVC_TEST_UNSET_TOLERANCE);
    expect(() => verifyWebhook(payload, old, secret, { nowSeconds: t, toleranceSeconds: fromEnv })).toThrow(
      RangeError,
    );
    expect(() =>
      verifySafetyEvent(payload, old, secret, { nowSeconds: t, toleranceSeconds: fromEnv }),
    ).toThrow(RangeError);
  });

  it("every tolerance that is not a finite number >= 0 throws, in both verifiers, whatever the header", () => {
    const bad = fc.oneof(
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, -0.5),
      fc.double({ max: -Number.MIN_VALUE, noNaN: true }),
      fc.constantFrom<unknown>("300", null, {}, true),
    );
    const headers = fc.constantFrom<string | undefined>(
      signPayload(secret, payload, t),
      signPayload(secret, payload, t - 365 * 24 * 3600),
      "garbage",
      undefined,
    );
    fc.assert(
      fc.property(bad, headers, fc.boolean(), (tolerance, header, safety) => {
        const verify = safety ? verifySafetyEvent : verifyWebhook;
        expect(() =>
          verify(payload, header, secret, { nowSeconds: t, toleranceSeconds: tolerance as number }),
        ).toThrow(RangeError);
      }),
    );
    for (const nowSeconds of [Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => verifyWebhook(payload, signPayload(secret, payload, t), secret, { nowSeconds })).toThrow(
        RangeError,
      );
    }
  });

  it("MSE safety events (x-mse-signature) use the same scheme", () => {
    const body = JSON.stringify({ id: "mse_se_1", type: "mse.safety_event", visitId: "v1" });
    const header = signPayload(secret, body, t);
    expect(verifySafetyEvent<{ id: string }>(body, header, secret, { nowSeconds: t }).id).toBe("mse_se_1");
  });
});

describe("what a receiver hands verifyWebhook", () => {
  const header = () => signPayload(secret, payload, t);

  it("Node's header value types: string, string[] of one, undefined; more than one value is malformed", () => {
    const value: IncomingHttpHeaders[string] = header();
    expect(reasonOf(() => verifyWebhook(payload, value, secret, { nowSeconds: t }))).toBe("ok");
    expect(reasonOf(() => verifyWebhook(payload, [header()], secret, { nowSeconds: t }))).toBe("ok");
    expect(reasonOf(() => verifyWebhook(payload, [], secret, { nowSeconds: t }))).toBe("missing_header");
    expect(reasonOf(() => verifyWebhook(payload, [header(), header()], secret, { nowSeconds: t }))).toBe(
      "malformed_header",
    );
  });

  it("a WHATWG Headers, and Node's whole req.headers: the right header is read for each verifier", () => {
    const web = new Headers({ "Service-Signature": header() });
    expect(reasonOf(() => verifyWebhook(payload, web, secret, { nowSeconds: t }))).toBe("ok");
    expect(reasonOf(() => verifySafetyEvent(payload, web, secret, { nowSeconds: t }))).toBe("missing_header");
    const safety = new Headers({ "X-MSE-Signature": header() });
    expect(reasonOf(() => verifySafetyEvent(payload, safety, secret, { nowSeconds: t }))).toBe("ok");
    const node: IncomingHttpHeaders = { "service-signature": header(), "content-type": "application/json" };
    expect(reasonOf(() => verifyWebhook(payload, node, secret, { nowSeconds: t }))).toBe("ok");
    expect(reasonOf(() => verifyWebhook(payload, {}, secret, { nowSeconds: t }))).toBe("missing_header");
  });

  it("a real delivery over loopback: the raw body and req.headers as node:http gives them", async () => {
    const received = new Promise<WebhookEvent>((resolve, reject) => {
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (chunk: Buffer) => chunks.push(chunk));
        req.on("end", () => {
          try {
            resolve(verifyWebhook(Buffer.concat(chunks), req.headers, secret, { nowSeconds: t }));
            res.writeHead(204).end();
          } catch (error) {
            reject(error);
            res.writeHead(400).end();
          } finally {
            server.close();
          }
        });
      });
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        const body = JSON.stringify({
          id: "evt_1",
          object: "event",
          type: "lab_order.results_ready",
          apiVersion: "2026-11-22",
          createdAt: "2026-11-22T10:00:00.000Z",
          data: { object: "lab_order", id: "labord_1", status: "resulted", patientRef: "pt_1" },
        });
        fetch(`http://127.0.0.1:${port}/hooks`, {
          method: "POST",
          headers: { "content-type": "application/json", "service-signature": signPayload(secret, body, t) },
          body,
        }).catch(reject);
      });
    });
    const event = await received;
    expect(event.type).toBe("lab_order.results_ready");
    if (event.type === "lab_order.results_ready") expect(event.data.status).toBe("resulted");
  });

  it("answers a union narrowable on type, with each type's data (checked by the typechecker)", () => {
    const event = verifyWebhook(payload, header(), secret, { nowSeconds: t });
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    expectTypeOf<WebhookEvent["type"]>().toEqualTypeOf<
      | "lab_order.status_changed"
      | "lab_order.results_ready"
      | "wearable.connected"
      | "wearable.sync_completed"
      | "wearable.disconnected"
      | "webhook_endpoint.test"
    >();
    const narrowed = (e: WebhookEvent) => {
      if (e.type === "lab_order.results_ready") {
        expectTypeOf(e.data.status).toEqualTypeOf<LabOrder["status"]>();
        expectTypeOf(e.data.patientRef).toEqualTypeOf<string>();
        // @ts-expect-error a lab order event has no provider
        void e.data.provider;
      } else if (e.type === "wearable.connected") {
        expectTypeOf(e.data.provider).toEqualTypeOf<
          "FITBIT" | "GARMIN" | "OURA" | "WITHINGS" | "APPLE_HEALTH" | "GOOGLE_FIT" | null
        >();
      }
    };
    narrowed(event);
    expectTypeOf(
      verifySafetyEvent(payload, header(), secret, { nowSeconds: t }),
    ).toEqualTypeOf<SafetyEvent>();
  });
});
