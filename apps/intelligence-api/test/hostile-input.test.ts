import { type events, type idempotencyKeys, labOrders, sql, wearableConnections } from "@svc/db";
import { type ErrorEnvelope, MAX_JSON_DEPTH, MAX_OBJECT_KEYS } from "@svc/http";
import { type CallResult, call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type {
  EventListResponse,
  LabOrderListResponse,
  LabOrderResponse,
  WearableConnectionList,
  WearableConnectionResponse,
  WearableMetricsResponse,
} from "../src/index.js";
import { type AnalysisResponse, bodies } from "./analysis-bodies.js";
import { HOSTILE_PG_ERRORS, pgLogMark } from "./pg-log.js";

/**
 * Hostile input (decision 29) over real HTTP: every finding answers 400 `invalid_request` naming
 * the path, nothing is stored, nothing reaches PostgreSQL's log, and nothing is a 500.
 */
let key: string;
let publishable: string;
/** The PostgreSQL server log from before this file's first request. */
let pgLog: ReturnType<typeof pgLogMark>;
/** In every hostile payload, so this file's requests can be told apart in the shared server log. */
const MARKER = `hostile${Date.now().toString(36)}`;

beforeAll(() => {
  pgLog = pgLogMark();
});
const svc = useTestService();
beforeAll(async () => {
  const caller = await svc.seed.caller("enterprise");
  key = caller.key;
  publishable = (await svc.seed.key("publishable", caller.account.id, ["http://localhost:5173"])).key;
});

/** 400 invalid_request whose issues name `path` (exactly, or a path below it). */
function expectRefused(res: CallResult<ErrorEnvelope>, path: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.json.ok).toBe(false);
  expect(res.json.error.code).toBe("invalid_request");
  const paths: string[] = res.json.error.issues?.map((i: { path: string }) => i.path) ?? [];
  expect(
    paths.some((p) => p === path || p.startsWith(`${path}.`)),
    paths.join(", "),
  ).toBe(true);
  expect(res.text).not.toMatch(/ at .*\.[jt]s:\d+|insert into|select .* from|syntax error/i);
}

async function count(
  table: typeof labOrders | typeof wearableConnections | typeof events | typeof idempotencyKeys,
) {
  const [row] = await svc.db.handle.db.select({ n: sql<number>`count(*)::int` }).from(table);
  return Number(row?.n ?? 0);
}

// The body read is the error envelope unless the test expects the created resource.
const createOrder = <Res = ErrorEnvelope>(body: unknown, headers?: Record<string, string>) =>
  call<Res>(svc.url, "/v1/labs/orders", { key, body, headers });
const connect = <Res = ErrorEnvelope>(body: unknown) =>
  call<Res>(svc.url, "/v1/wearables/connect", { key, body });
const order = { patientRef: `pt_${MARKER}`, panelId: "cbc_diff" };

describe("finding 1: NUL", () => {
  it.each([
    ["patientRef", { ...order, patientRef: `a\u0000b${MARKER}` }, "patientRef"],
    ["note", { ...order, note: `a\u0000b${MARKER}` }, "note"],
    ["a metadata value", { ...order, metadata: { k: `a\u0000${MARKER}` } }, "metadata.k"],
    ["a metadata key", { ...order, metadata: { [`k\u0000${MARKER}`]: "v" } }, "metadata"],
    ["another control character", { ...order, note: `bell\u0007${MARKER}` }, "note"],
  ])("POST /v1/labs/orders with NUL in %s: 400, nothing stored", async (_name, body, path) => {
    const before = await count(labOrders);
    expectRefused(await createOrder(body), path);
    expect(await count(labOrders)).toBe(before);
  });

  it("the key of a refused key is escaped in the issue path", async () => {
    const res = await createOrder({ ...order, metadata: { "a\u0000b": "v" } });
    expectRefused(res, "metadata");
    expect(res.json.error.issues?.[0]?.path).toBe("metadata.a\\u0000b");
  });

  it("tab, line feed and carriage return stay allowed in free text", async () => {
    const res = await createOrder<LabOrderResponse>({ ...order, note: "line one\r\nline two\tend" });
    expect(res.status).toBe(201);
    expect(res.json.data.note).toBe("line one\r\nline two\tend");
  });

  it("wearables connect with NUL in patientRef: 400, nothing stored", async () => {
    const before = await count(wearableConnections);
    expectRefused(await connect({ patientRef: `a\u0000b${MARKER}` }), "patientRef");
    expect(await count(wearableConnections)).toBe(before);
  });

  it.each([
    ["GET", "/v1/labs/orders/labord_%00"],
    ["POST", "/v1/labs/orders/labord_%00/cancel"],
    ["POST", "/v1/test_helpers/labs/orders/labord_%00/advance"],
    ["POST", "/v1/test_helpers/labs/orders/labord_%00/authorize"],
    ["POST", "/v1/test_helpers/wearables/connections/wear_%00/complete"],
    ["GET", "/v1/wearables/connections/wear_%00"],
    ["GET", "/v1/wearables/connections/wear_%00/metrics"],
    ["POST", "/v1/wearables/connections/wear_%00/sync"],
    ["POST", "/v1/wearables/connections/wear_%00/disconnect"],
    ["GET", "/v1/wearables/connections/wear_%01x"],
  ])("%s %s: 400 naming the id", async (method, path) => {
    expectRefused(await call<ErrorEnvelope>(svc.url, path, { method, key }), "id");
  });

  it("an id escape that is not UTF-8 is refused the same way", async () => {
    expectRefused(await call<ErrorEnvelope>(svc.url, "/v1/labs/orders/labord_%FF", { key }), "id");
  });

  it.each([
    "/v1/labs/orders?patientRef=a%00b",
    "/v1/wearables/connections?patientRef=a%00b",
    "/v1/wearables/connections?patientRef=a%ED%A0%80b",
  ])("GET %s: 400 naming patientRef", async (path) => {
    expectRefused(await call<ErrorEnvelope>(svc.url, path, { key }), "patientRef");
  });

  it("a body that is not valid UTF-8 is refused, not stored as U+FFFD", async () => {
    const before = await count(labOrders);
    const head = Buffer.from(`{"patientRef":"a`);
    const tail = Buffer.from(`${MARKER}","panelId":"cbc_diff"}`);
    const res = await fetch(`${svc.url}/v1/labs/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: Buffer.concat([head, Buffer.from([0xff, 0xfe]), tail]),
    });
    expect(res.status).toBe(400);
    const json = (await res.json()) as { error: { code: string; message: string } };
    expect(json.error.code).toBe("invalid_request");
    expect(json.error.message).toMatch(/UTF-8/);
    expect(await count(labOrders)).toBe(before);
  });

  it("a chunked body (no Content-Length) is screened the same way, inside the size check", async () => {
    const send = (text: string) =>
      fetch(`${svc.url}/v1/labs/orders`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            const bytes = new TextEncoder().encode(text);
            controller.enqueue(bytes.subarray(0, 10));
            controller.enqueue(bytes.subarray(10));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
    const before = await count(labOrders);
    const refused = await send(JSON.stringify({ ...order, note: `a\u0000${MARKER}` }));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { issues: { path: string }[] } }).error.issues[0]?.path).toBe(
      "note",
    );
    expect(await count(labOrders)).toBe(before);
    const created = await send(JSON.stringify(order));
    expect(created.status).toBe(201);
  });

  it("an Idempotency-Key header still needs printable ASCII", async () => {
    const res = await createOrder(order, { "idempotency-key": "k\u00e9y" });
    expectRefused(res, "header.Idempotency-Key");
  });
});

describe("finding 2: unpaired surrogates", () => {
  it.each([
    ["a metadata value", { ...order, metadata: { k: `\ud800${MARKER}` } }, "metadata.k"],
    ["a metadata key", { ...order, metadata: { [`\udc00${MARKER}`]: "v" } }, "metadata"],
    ["patientRef", { ...order, patientRef: `a\ud800${MARKER}` }, "patientRef"],
    ["note", { ...order, note: `\udfff${MARKER}` }, "note"],
  ])("in %s: 400, nothing stored (never U+FFFD)", async (_name, body, path) => {
    const before = await count(labOrders);
    const res = await createOrder(body);
    expectRefused(res, path);
    expect(await count(labOrders)).toBe(before);
  });

  it("a paired surrogate (an emoji) is fine", async () => {
    const res = await createOrder<LabOrderResponse>({
      ...order,
      note: "ok \ud83d\ude00",
      metadata: { "\ud83d\udc4d": "\ud83d\udc4d" },
    });
    expect(res.status).toBe(201);
    expect(res.json.data.note).toBe("ok 😀");
  });

  it("wearables connect with a lone surrogate in metadata: 400, nothing stored", async () => {
    const before = await count(wearableConnections);
    expectRefused(await connect({ patientRef: "pt", metadata: { k: `\ud800${MARKER}` } }), "metadata.k");
    expect(await count(wearableConnections)).toBe(before);
  });
});

/** `{"x":[[[...]]]}` nested `depth` levels below `inputs`, written as text (JSON.stringify would recurse). */
function deepPrevious(base: object, depth: number): string {
  const head = JSON.stringify({ ...base, previous: { inputs: {} } }).slice(0, -4);
  return `${head}{"x":${"[".repeat(depth)}${"]".repeat(depth)}}}}`;
}

describe("finding 3: deep nesting", () => {
  it.each(Object.entries(bodies))(
    "%s: previous.inputs nested 5,000 deep is 400, not a RangeError",
    async (_n, spec) => {
      const rawBody = deepPrevious(spec.body, 5_000);
      expect(rawBody.length).toBeLessThan(12_000);
      const res = await call<ErrorEnvelope>(svc.url, spec.path, { key, rawBody });
      expectRefused(res, "previous.inputs.x");
      expect(res.json.error.issues?.[0]?.message).toMatch(new RegExp(`deeper than ${MAX_JSON_DEPTH}`));
    },
  );

  it("through a publishable key too", async () => {
    const res = await call<ErrorEnvelope>(svc.url, bodies.dmse.path, {
      key: publishable,
      rawBody: deepPrevious(bodies.dmse.body, 5_000),
      headers: { origin: "http://localhost:5173" },
    });
    expectRefused(res, "previous.inputs.x");
  });

  it("a 1 MB body of brackets is refused at once", async () => {
    const depth = 500_000;
    const started = performance.now();
    const res = await call<ErrorEnvelope>(svc.url, bodies.dmse.path, {
      key,
      rawBody: `${"[".repeat(depth)}${"]".repeat(depth)}`,
    });
    expect(res.status).toBe(400);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it(`nesting of exactly ${MAX_JSON_DEPTH} levels is accepted by the screen`, async () => {
    // Level 1 is the body; metadata is 2; 30 more arrays make 32: the schema (flat metadata) then refuses it.
    const rawBody = `{"patientRef":"p","panelId":"cbc_diff","metadata":{"k":${"[".repeat(30)}${"]".repeat(30)}}}`;
    const res = await call<ErrorEnvelope>(svc.url, "/v1/labs/orders", { key, rawBody });
    expect(res.status).toBe(400);
    expect(res.json.error.issues?.[0]?.message).not.toMatch(/deeper/);
  });
});

describe("finding 4: previous.inputs is bounded like the request", () => {
  it("50,000 keys in previous.inputs: 400, no echo", async () => {
    const inputs = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]));
    const res = await call<ErrorEnvelope>(svc.url, bodies.dmse.path, {
      key,
      body: { ...bodies.dmse.body, previous: { inputs } },
    });
    expectRefused(res, "previous.inputs");
    expect(res.json.error.issues?.[0]?.message).toMatch(new RegExp(`more than ${MAX_OBJECT_KEYS}`));
    expect(res.text.length).toBeLessThan(2_000);
  });

  it.each(Object.entries(bodies))("%s: an unknown key in previous.inputs is refused", async (_n, spec) => {
    const res = await call<ErrorEnvelope>(svc.url, spec.path, {
      key,
      body: { ...spec.body, previous: { inputs: { ...spec.body, [`<b>${MARKER}</b>`]: 1 } } },
    });
    expectRefused(res, "previous.inputs");
    expect(res.json.error.issues?.[0]?.message).toMatch(/Unrecognized key/);
  });

  it.each(Object.entries(bodies))(
    "%s: previous.inputs values have the request's own bounds",
    async (_n, spec) => {
      const [field] = Object.keys(spec.body) as [string];
      const res = await call<ErrorEnvelope>(svc.url, spec.path, {
        key,
        body: { ...spec.body, previous: { inputs: { [field]: "x".repeat(10_000) } } },
      });
      expectRefused(res, `previous.inputs.${field}`);
    },
  );

  it.each(Object.entries(bodies))(
    "%s: explanations name only the endpoint's own fields",
    async (_n, spec) => {
      const [first, ...rest] = Object.keys(spec.body) as [string, ...string[]];
      const previousInputs = Object.fromEntries(
        rest.map((k) => [k, (spec.body as Record<string, unknown>)[k]]),
      );
      const res = await call<AnalysisResponse>(svc.url, spec.path, {
        key,
        body: { ...spec.body, previous: { inputs: previousInputs } },
      });
      expect(res.status).toBe(200);
      const explanations: string[] = res.json.data.intelligence.change?.explanations ?? [];
      expect(explanations.some((e) => e.startsWith(`${first} is now supplied`))).toBe(true);
      const fields = [
        ...Object.keys(spec.body),
        "activeMedications",
        "biomarkerWatchCount",
        "hasActiveMedication",
      ];
      for (const line of explanations) {
        if (line.startsWith("Status moved")) continue;
        expect(fields, line).toContain(line.split(" ")[0]);
      }
    },
  );
});

describe("finding 5: prototype keys", () => {
  it.each(["__proto__", "constructor", "prototype"])(
    "metadata.%s is 400 naming it; nothing stored",
    async (name) => {
      const before = await count(labOrders);
      const rawBody = `{"patientRef":"p${MARKER}","panelId":"cbc_diff","metadata":{"${name}":{"polluted":true}}}`;
      const res = await call<ErrorEnvelope>(svc.url, "/v1/labs/orders", { key, rawBody });
      expectRefused(res, `metadata.${name}`);
      expect(res.json.error.issues?.[0]?.path).toBe(`metadata.${name}`);
      expect(await count(labOrders)).toBe(before);
    },
  );

  it("at any depth and on every API body (analysis, wearables)", async () => {
    const analysis = `{"responseLatencySeconds":2,"history":{"psychomotor":[],"__proto__":{"x":1}}}`;
    expectRefused(
      await call<ErrorEnvelope>(svc.url, bodies.dmse.path, { key, rawBody: analysis }),
      "history.__proto__",
    );
    const wear = `{"patientRef":"p","metadata":{"a":1},"__proto__":null}`;
    expectRefused(
      await call<ErrorEnvelope>(svc.url, "/v1/wearables/connect", { key, rawBody: wear }),
      "__proto__",
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("finding 6: query integers are decimal digits", () => {
  const routes = ["/v1/labs/orders", "/v1/events", `/v1/wearables/connections?patientRef=p&x=1`];
  /** The 200 body of one of these list routes. */
  type ListResponse = LabOrderListResponse | EventListResponse | WearableConnectionList;
  const join = (route: string, query: string) => `${route}${route.includes("?") ? "&" : "?"}${query}`;
  it.each(routes)("%s: limit 0x10, 1e2, ' 5', +5, 5.0, -1, '' are 400", async (route) => {
    for (const limit of ["0x10", "1e2", "%205", "5%20", "%2B5", "5.0", "-1", "", "0b1", "Infinity", "1_0"]) {
      expectRefused(await call<ErrorEnvelope>(svc.url, join(route, `limit=${limit}`), { key }), "limit");
    }
    expect((await call<ListResponse>(svc.url, join(route, "limit=5"), { key })).status).toBe(200);
    expect((await call<ListResponse>(svc.url, join(route, "limit=007"), { key })).status).toBe(200);
    expect((await call<ListResponse>(svc.url, route, { key })).status).toBe(200);
  });

  it("metrics: days=0x10 is 400", async () => {
    const created = await connect<WearableConnectionResponse>({ patientRef: "pt_days" });
    const id = created.json.data.id;
    for (const days of ["0x10", "1e1", "%2010", "10.0"]) {
      expectRefused(
        await call<ErrorEnvelope>(svc.url, `/v1/wearables/connections/${id}/metrics?days=${days}`, { key }),
        "days",
      );
    }
    expect(
      (
        await call<WearableMetricsResponse>(svc.url, `/v1/wearables/connections/${id}/metrics?days=10`, {
          key,
        })
      ).status,
    ).toBe(200);
  });
});

describe("what a refusal leaves behind", () => {
  it("no unhandled error was logged by the service", () => {
    expect(svc.logs.filter((l) => l.includes("unhandled error"))).toEqual([]);
  });

  it("the PostgreSQL server log holds nothing from these requests", (ctx) => {
    if (!pgLog.available) {
      ctx.skip();
      return;
    }
    const text = pgLog.since();
    expect(text).not.toContain(MARKER);
    expect(text).not.toMatch(HOSTILE_PG_ERRORS);
  });
});
