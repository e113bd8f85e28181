import { createRoute, z } from "@hono/zod-openapi";
import type { ErrorEnvelope, FlatErrorBody, HealthSchema } from "@svc/http";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type { PingResponse } from "../src/index.js";

const MARKER = "PATIENT-MARKER-7f3a";

/** The body of the test-only echo route below. */
interface EchoResponse {
  ok: true;
  data: { object: "echo"; n: number };
}
/** The body of /healthz and /readyz. */
type HealthBody = z.infer<typeof HealthSchema>;

const svc = useTestService({
  requestTimeoutMs: 500,
  // Test-only routes: a JSON echo, a failure with an internal message, and a slow handler.
  extend: ({ intelligence }) => {
    intelligence.openapi(
      createRoute({
        method: "post",
        path: "/v1/test/echo",
        request: {
          body: {
            required: true,
            content: {
              "application/json": {
                schema: z.object({ n: z.number().int().max(10), note: z.string().optional() }),
              },
            },
          },
        },
        responses: { 200: { description: "echo" } },
      }),
      (c) => c.json({ ok: true, data: { object: "echo", n: c.req.valid("json").n } }),
    );
    intelligence.plain("GET", "/v1/test/boom", () => {
      throw new Error(`select * from api_keys where note = '${MARKER}'`);
    });
    intelligence.plain("GET", "/v1/test/slow", async (c) => {
      await new Promise((r) => setTimeout(r, 2_000));
      return c.json({ ok: true });
    });
  },
});
let key: string;
beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
});

describe("400 invalid_request", () => {
  it("names the offending paths of a schema failure", async () => {
    const res = await call<ErrorEnvelope>(svc.url, "/v1/test/echo", { key, body: { n: 11, note: 5 } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_request");
    const paths = res.json.error.issues?.map((i: { path: string }) => i.path).sort();
    expect(paths).toEqual(["n", "note"]);
  });
  it("refuses malformed JSON", async () => {
    const res = await call<ErrorEnvelope>(svc.url, "/v1/test/echo", { key, rawBody: '{"n": 1,' });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "invalid_request", message: "The body is not valid JSON." });
    expect(res.json.error.issues).toEqual([{ path: "", message: "The body is not valid JSON." }]);
  });
  it("refuses a body that is not sent as JSON", async () => {
    const res = await call<ErrorEnvelope>(svc.url, "/v1/test/echo", {
      key,
      rawBody: "n=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_request");
  });
  it("accepts the valid body", async () => {
    const res = await call<EchoResponse>(svc.url, "/v1/test/echo", { key, body: { n: 3 } });
    expect(res.status).toBe(200);
    expect(res.json.data.n).toBe(3);
  });
});

describe("413: body over 1 MB", () => {
  it("refuses by Content-Length before reading the body", async () => {
    const res = await call<ErrorEnvelope>(svc.url, "/v1/test/echo", {
      key,
      rawBody: JSON.stringify({ n: 1, note: "x".repeat(1_100_000) }),
    });
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe("invalid_request");
  });
  it("refuses a chunked body without Content-Length once it passes 1 MB", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 20) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${svc.url}/v1/test/echo`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });
});

describe("404 and 405", () => {
  it("404 not_found for an unknown route", async () => {
    const res = await call<ErrorEnvelope>(svc.url, "/v1/nothing-here", { key });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
  });
  it("405 method_not_allowed with Allow for a known route", async () => {
    const res = await call<ErrorEnvelope>(svc.url, "/v1/ping", { key, method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.json.error.code).toBe("method_not_allowed");
    expect(res.headers.get("allow")).toContain("GET");
  });
  it("a trailing slash is 404, never a 405 that names the route's own method", async () => {
    for (const path of ["/v1/ping/", "/v1/labs/orders/", "/v1/labs/orders/labord_x/", "/v1/events/"]) {
      const res = await call<ErrorEnvelope>(svc.url, path, { key });
      expect(res.status, path).toBe(404);
      expect(res.json.error.code).toBe("not_found");
      expect(res.headers.get("allow")).toBeNull();
    }
  });
});

describe("500 and timeouts never leak internals", () => {
  it("answers server_error without the internal message, and logs no SQL", async () => {
    const res = await call<ErrorEnvelope>(svc.url, "/v1/test/boom", { key });
    expect(res.status).toBe(500);
    expect(res.json.error.code).toBe("server_error");
    expect(res.text).not.toContain(MARKER);
    expect(res.text).not.toContain("select");
    expect(svc.logs.join("\n")).not.toContain(MARKER);
    expect(svc.logs.join("\n")).not.toMatch(/\bat .*\.ts:\d+/); // no stack frames
  });
  it("ends a request at the time limit with 503", async () => {
    const res = await call<ErrorEnvelope>(svc.url, "/v1/test/slow", { key });
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe("service_unavailable");
  });
});

describe("request ids and logs (decision 49)", () => {
  it("generates our own id even when the caller sends one, and logs theirs", async () => {
    const res = await call<PingResponse>(svc.url, "/v1/ping", {
      key,
      headers: { "x-request-id": "caller-123" },
    });
    const ours = res.headers.get("x-request-id") as string;
    expect(ours).toMatch(/^req_/);
    expect(ours).not.toBe("caller-123");
    const line = svc.logs.map((l) => JSON.parse(l)).find((l) => l.requestId === ours);
    expect(line).toMatchObject({
      msg: "request",
      method: "GET",
      route: "/v1/ping",
      status: 200,
      callerRequestId: "caller-123",
    });
    expect(typeof line.durationMs).toBe("number");
  });
  it("never logs a request body", async () => {
    await call<EchoResponse>(svc.url, "/v1/test/echo", { key, body: { n: 2, note: MARKER } });
    await call<ErrorEnvelope>(svc.url, "/v1/test/echo", { key, body: { n: 99, note: MARKER } });
    expect(svc.logs.join("\n")).not.toContain(MARKER);
  });
});

describe("health", () => {
  it("GET /healthz and /readyz need no key", async () => {
    const live = await call<HealthBody>(svc.url, "/healthz");
    expect(live.json).toEqual({ ok: true, status: "alive" });
    const ready = await call<HealthBody>(svc.url, "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({ ok: true, status: "ready", database: "ready", redis: "ready" });
  });
});

describe("MSE Record API envelope", () => {
  it("answers flat errors with x-mse-api-version: 1", async () => {
    const res = await call<FlatErrorBody>(svc.url, "/v1/mse/visit-1/nothing");
    expect(res.status).toBe(401);
    expect(res.headers.get("x-mse-api-version")).toBe("1");
    expect(res.json).toEqual({
      error: expect.any(String),
      code: "unauthorized",
      requestId: expect.stringMatching(/^req_/),
    });
  });
});
