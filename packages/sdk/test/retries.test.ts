import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  backoffDelay,
  ConnectionError,
  createClient,
  InvalidRequestError,
  NotFoundError,
  parseRetryAfter,
  RateLimitedError,
  ServerError,
  ServiceUnavailableError,
  TimeoutError,
} from "../src/index.js";

/**
 * The runtime against a scripted flaky server on loopback (node:http): each request takes the
 * next scripted step (a status, headers and body, a delay, or a dropped connection) and is recorded
 * with its arrival time and headers.
 */
type Step =
  | { status: number; headers?: Record<string, string>; body?: unknown; delayMs?: number }
  | { drop: true };

let server: Server;
let baseUrl: string;
let script: Step[] = [];
let seen: { at: number; method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] =
  [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      seen.push({ at: Date.now(), method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const step = script.shift() ?? { status: 200, body: { ok: true, data: {} } };
      if ("drop" in step) {
        req.socket.destroy();
        return;
      }
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(step.status, { "content-type": "application/json", ...(step.headers ?? {}) });
        res.end(JSON.stringify(step.body ?? { ok: true, data: {} }));
      };
      if (step.delayMs) setTimeout(send, step.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  script = [];
  seen = [];
});

const envelope = (code: string, requestId = "req_flaky") => ({
  ok: false,
  requestId,
  error: { code, message: `scripted ${code}`, docs: `http://x/errors#error-${code}` },
});
const fast = (extra: Parameters<typeof createClient>[0] extends infer O ? Partial<O> : never = {}) =>
  createClient({ apiKey: "sk_test_x", baseUrl, retryBaseDelayMs: 10, retryMaxDelayMs: 3_000, ...extra });
const order = { patientRef: "pt_1", panelId: "lithium_monitoring" };

describe("retries", () => {
  it("retries 5xx twice by default, then answers", async () => {
    script = [
      { status: 503, body: envelope("service_unavailable") },
      { status: 500, body: envelope("server_error") },
      { status: 200, body: { ok: true, data: { pong: true } } },
    ];
    await expect(fast().ping()).resolves.toEqual({ ok: true, data: { pong: true } });
    expect(seen).toHaveLength(3);
  });

  it("gives up after the default 2 retries with the typed error of the last answer", async () => {
    script = [0, 1, 2, 3].map(() => ({ status: 503, body: envelope("service_unavailable", "req_last") }));
    const error = await fast()
      .ping()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).status).toBe(503);
    expect((error as ServiceUnavailableError).requestId).toBe("req_last");
    expect(seen).toHaveLength(3);
  });

  it("maxRetries 0 turns retries off; a per-call maxRetries overrides the client's", async () => {
    script = [{ status: 500, body: envelope("server_error") }];
    await expect(fast({ maxRetries: 0 }).ping()).rejects.toBeInstanceOf(ServerError);
    expect(seen).toHaveLength(1);
    seen = [];
    script = [0, 1, 2, 3, 4, 5].map(() => ({ status: 500, body: envelope("server_error") }));
    await expect(fast().ping({ maxRetries: 4 })).rejects.toBeInstanceOf(ServerError);
    expect(seen).toHaveLength(5);
  });

  it("retries 408 and 429; never 4xx otherwise", async () => {
    script = [{ status: 408 }, { status: 429, body: envelope("rate_limited") }, { status: 200 }];
    await fast().ping();
    expect(seen).toHaveLength(3);
    seen = [];
    script = [{ status: 404, body: envelope("not_found") }];
    await expect(fast().ping()).rejects.toBeInstanceOf(NotFoundError);
    expect(seen).toHaveLength(1);
  });

  it("waits Retry-After in seconds", async () => {
    script = [
      { status: 429, headers: { "retry-after": "1" }, body: envelope("rate_limited") },
      { status: 200 },
    ];
    await fast().ping();
    expect(seen).toHaveLength(2);
    expect((seen[1]?.at ?? 0) - (seen[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it("waits Retry-After as an HTTP date", async () => {
    const date = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000).toUTCString();
    script = [
      { status: 503, headers: { "retry-after": date }, body: envelope("service_unavailable") },
      { status: 200 },
    ];
    const started = Date.now();
    await fast().ping();
    expect(seen).toHaveLength(2);
    expect((seen[1]?.at ?? 0) - started).toBeGreaterThanOrEqual(1000);
  });

  it("does not wait a Retry-After longer than retryMaxDelayMs: answers the error at once", async () => {
    script = [{ status: 429, headers: { "retry-after": "3600" }, body: envelope("rate_limited") }];
    const started = Date.now();
    await expect(fast().ping()).rejects.toBeInstanceOf(RateLimitedError);
    expect(seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("retries dropped connections, then throws ConnectionError", async () => {
    script = [{ drop: true }, { status: 200 }];
    await fast().ping();
    expect(seen).toHaveLength(2);
    seen = [];
    script = [{ drop: true }, { drop: true }, { drop: true }];
    await expect(fast().ping()).rejects.toBeInstanceOf(ConnectionError);
    expect(seen).toHaveLength(3);
  });

  it("keeps one generated Idempotency-Key across a create's retries; a new call gets a new key", async () => {
    script = [{ status: 500, body: envelope("server_error") }, { drop: true }, { status: 201 }];
    await fast().labs.orders.create(order);
    expect(seen).toHaveLength(3);
    const keys = seen.map((s) => s.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys).size).toBe(1);
    expect(seen.every((s) => s.body === JSON.stringify(order))).toBe(true);
    seen = [];
    script = [{ status: 201 }];
    await fast().labs.orders.create(order);
    expect(seen[0]?.headers["idempotency-key"]).not.toBe(keys[0]);
  });

  it("sends the caller's own Idempotency-Key; wearable connect gets one too; analyses do not", async () => {
    script = [{ status: 201 }, { status: 201 }, { status: 200 }];
    await fast().labs.orders.create(order, { idempotencyKey: "my-key-1" });
    await fast().wearables.connect({ patientRef: "pt_1" });
    await fast().dmse.analyze({ responseLatencySeconds: 2, speechRateWpm: 120, sessionDurationSeconds: 600 });
    expect(seen[0]?.headers["idempotency-key"]).toBe("my-key-1");
    expect(seen[1]?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[2]?.headers["idempotency-key"]).toBeUndefined();
  });

  it("does not replay a write without an Idempotency-Key after a 5xx or a dropped connection; does after 429", async () => {
    const write = () =>
      fast().mse.write("v1", { patientId: "p", selection: { mood: { values: ["euthymic"] } } });
    script = [{ status: 500, body: envelope("server_error") }];
    await expect(write()).rejects.toBeInstanceOf(ServerError);
    expect(seen).toHaveLength(1);
    seen = [];
    script = [{ drop: true }];
    await expect(write()).rejects.toBeInstanceOf(ConnectionError);
    expect(seen).toHaveLength(1);
    seen = [];
    script = [
      { status: 429, body: { error: "Slow down", code: "rate_limited", requestId: "req_f" } },
      { status: 201 },
    ];
    await write();
    expect(seen).toHaveLength(2);
  });
});

describe("per-call options", () => {
  it("headers: added to every attempt, replacing the SDK's own of the same name", async () => {
    script = [{ status: 503, body: envelope("service_unavailable") }];
    await fast().ping({ headers: { "x-trace-id": "trace-1", authorization: "Bearer svc_sk_test_other" } });
    expect(seen).toHaveLength(2);
    for (const request of seen) {
      expect(request.headers["x-trace-id"]).toBe("trace-1");
      expect(request.headers.authorization).toBe("Bearer svc_sk_test_other");
    }
    await fast().ping({ headers: new Headers({ "x-trace-id": "trace-2" }) });
    expect(seen[2]?.headers["x-trace-id"]).toBe("trace-2");
    expect(seen[2]?.headers.authorization).toBe("Bearer sk_test_x");
  });

  it("format fhir asks for the FHIR answer (Accept), json or none leaves Accept alone", async () => {
    const body = { responseLatencySeconds: 2 };
    await fast().dmse.analyze(body, { format: "fhir" });
    await fast().dmse.analyze(body, { format: "json" });
    await fast().mse.retrieve("v1", undefined, { format: "fhir", headers: { accept: "text/plain" } });
    await fast().mse.retrieve("v1");
    expect(seen.map((r) => r.headers.accept)).toEqual([
      "application/fhir+json",
      seen[1]?.headers.accept,
      "application/fhir+json",
      seen[3]?.headers.accept,
    ]);
    expect(seen[1]?.headers.accept).not.toContain("fhir");
    expect(seen[3]?.headers.accept).not.toContain("fhir");
  });
});

describe("settings that bound the retry loop", () => {
  it("a maxRetries, timeout or delay that is not a usable number throws RangeError before anything is sent", async () => {
    const bad = fc.constantFrom<unknown>(
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      -1,
      "2",
    );
    await fc.assert(
      fc.asyncProperty(
        bad,
        fc.constantFrom("maxRetries", "timeoutMs", "retryBaseDelayMs", "retryMaxDelayMs"),
        async (value, name) => {
          seen = [];
          expect(() => fast({ [name]: value as number })).toThrow(RangeError);
          if (name === "maxRetries" || name === "timeoutMs") {
            await expect(fast().ping({ [name]: value as number })).rejects.toThrow(RangeError);
          }
          expect(seen).toEqual([]);
        },
      ),
      { numRuns: 40 },
    );
    expect(() => fast({ maxRetries: 1.5 })).toThrow(/whole number/);
  });

  it("maxRetries NaN (an unset variable) used to retry a failing call without end; now it is refused", async () => {
    script = [0, 1, 2, 3].map(() => ({ status: 503, body: envelope("service_unavailable") }));
    await expect(fast().ping({ maxRetries: Number(process.env.SVC_TEST_UNSET_RETRIES) })).rejects.toThrow(
      RangeError,
    );
    expect(seen).toEqual([]);
  });
});

describe("timeouts and abort", () => {
  it("times each attempt out, retries, then throws TimeoutError", async () => {
    script = [
      { status: 200, delayMs: 1_000 },
      { status: 200, delayMs: 1_000 },
    ];
    const started = Date.now();
    const error = await fast({ timeoutMs: 100, maxRetries: 1 })
      .ping()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(seen).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it("passes the caller's AbortSignal through: aborting stops the call and its retries", async () => {
    script = [{ status: 200, delayMs: 2_000 }];
    const controller = new AbortController();
    const pending = fast().ping({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user gave up")), 100);
    await expect(pending).rejects.toThrow("user gave up");
    expect(seen).toHaveLength(1);

    seen = [];
    script = [{ status: 503, headers: { "retry-after": "2" }, body: envelope("service_unavailable") }];
    const waiting = new AbortController();
    const during = fast().ping({ signal: waiting.signal });
    setTimeout(() => waiting.abort(new Error("stop waiting")), 100);
    await expect(during).rejects.toThrow("stop waiting");
    expect(seen).toHaveLength(1);
  });
});

describe("errors", () => {
  it("maps the MSE Record API's flat body to the same classes, with issues", async () => {
    script = [
      {
        status: 404,
        body: { error: "No MSE for this visit.", code: "not_found", requestId: "req_flat" },
      },
      {
        status: 400,
        body: {
          error: "Invalid request",
          code: "invalid_request",
          requestId: "req_flat2",
          issues: [{ path: ["patientId"], message: "Required" }],
        },
      },
    ];
    const error = await fast()
      .mse.retrieve("v1")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    // The flat body has no docs link; the SDK gives it the answering origin's error-codes page.
    expect(error).toMatchObject({
      status: 404,
      code: "not_found",
      requestId: "req_flat",
      docs: `${baseUrl}/docs/errors#error-not_found`,
    });
    expect((error as Error).message).toBe("No MSE for this visit.");
    const invalid = await fast()
      .mse.write("v1", { patientId: "", selection: {} })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid).toMatchObject({
      requestId: "req_flat2",
      issues: [{ path: ["patientId"], message: "Required" }],
    });
  });

  it("a flat body with a code this SDK does not know gets no docs link (no anchor to point at)", async () => {
    script = [{ status: 418, body: { error: "teapot", code: "brand_new_code", requestId: "req_new" } }];
    const error = await fast()
      .mse.retrieve("v1")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "brand_new_code", docs: undefined });
  });

  it("a body that is not JSON still gives a typed error from the status and X-Request-Id", async () => {
    script = [0, 1, 2].map(() => ({ status: 502, headers: { "x-request-id": "req_hdr" }, body: "<html>" }));
    const error = await fast()
      .ping()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, requestId: "req_hdr" });
  });
});

describe("Retry-After and backoff, over their input space", () => {
  it("delta-seconds read as seconds; HTTP dates as the distance from now (0 when past)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (seconds) => {
        expect(parseRetryAfter(String(seconds))).toBe(seconds * 1000);
      }),
    );
    const now = Date.parse("2026-11-26T12:00:00Z");
    expect(parseRetryAfter("Thu, 26 Nov 2026 12:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Thu, 26 Nov 2026 11:00:00 GMT", now)).toBe(0);
    for (const bad of ["", "soon", "-1", "1.5"]) expect(parseRetryAfter(bad, now)).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it("each backoff lies between half and all of min(max, base * 2^retry)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 5_000 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, base, max, r) => {
          const ceiling = Math.min(max, base * 2 ** retry);
          const delay = backoffDelay(retry, base, max, () => r);
          expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
          expect(delay).toBeLessThanOrEqual(ceiling);
        },
      ),
    );
  });
});
