import { sql } from "@svc/db";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { LabOrderResponse, PingResponse, WearableConnectionResponse } from "../src/index.js";
import { bodies } from "./analysis-bodies.js";
import { HOSTILE_PG_ERRORS, pgLogMark } from "./pg-log.js";

/**
 * Property: whatever is sent to any route of either API (mutated bodies, paths and queries:
 * control characters, lone surrogates, deep nesting, huge key counts, prototype keys, wrong
 * types, huge numbers, NaN-ish strings, broken encodings), the answer is never a 5xx, never
 * carries a stack frame or SQL text, a 4xx stores nothing, and the service still answers.
 * The routes come from the service's own OpenAPI document. FUZZ_RUNS raises the runs per route;
 * fast-check prints the seed and the smallest failing request.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
/** Organization keys are limited to 20 req/s each (decision 43): MSE requests rotate over several. */
const ORGS = 6;

let key: string;
let orgKeys: string[] = [];
let orderId: string;
let connectionId: string;
let pgLog: ReturnType<typeof pgLogMark>;
const VISIT = "fuzz-visit";

/** The part of the service's OpenAPI document the fuzzer reads: each route's parameters and body. */
interface OpenApiPaths {
  paths: Record<
    string,
    Record<string, { parameters?: { name: string; in: string }[]; requestBody?: unknown }>
  >;
}

interface Operation {
  method: string;
  path: string;
  query: string[];
  hasBody: boolean;
}
const operations: Operation[] = [];

/** Valid bodies to mutate, by `METHOD path`; other routes start from `{}`. */
const validBodies: Record<string, unknown> = {
  ...Object.fromEntries(Object.values(bodies).map((b) => [`POST ${b.path}`, b.body])),
  "POST /v1/labs/orders": { patientRef: "pt_fuzz", panelId: "cbc_diff", note: "n", metadata: { a: 1 } },
  "POST /v1/wearables/connect": { patientRef: "pt_fuzz", providers: ["FITBIT"], metadata: { a: "b" } },
  "POST /v1/test_helpers/labs/orders/{id}/advance": { to: "authorized" },
  "POST /v1/test_helpers/wearables/connections/{id}/complete": { provider: "FITBIT" },
  "POST /v1/mse/{visitId}": {
    patientId: "p",
    selection: { mood: { values: ["depressed"], text: "note" }, risk: { values: ["denies_si_hi"] } },
  },
  "PATCH /v1/mse/{visitId}": { patientId: "p", selection: { mood: { values: ["euthymic"] } } },
  "POST /v1/mse/{visitId}/sign": { patientId: "p", signedByName: "Dr. A" },
  "POST /v1/mse/{visitId}/agent": { patientId: "p", transcript: "t", telemetry: { speechRateWpm: 80 } },
  "POST /v1/medication/{patientId}/agent": { medications: ["sertraline 50 mg", "tramadol"], context: "c" },
  "POST /v1/biomarker/{patientId}/agent": { panel: [{ analyte: "lithium", value: 0.8 }] },
  "POST /v1/outcome/{patientId}/agent": { instruments: [{ instrument: "PHQ-9", total: 12, priorTotal: 15 }] },
  "POST /v1/relapse/{patientId}/agent": { signals: [{ indicator: "sleep_disruption", severity: 0.5 }] },
};

const TABLES = [
  "lab_orders",
  "wearable_connections",
  "events",
  "idempotency_keys",
  "mse_versions",
  "mse_safety_events",
  "mse_signatures",
];

async function rowCounts(): Promise<string> {
  const columns = TABLES.map((t) => `(select count(*) from ${t})::int as ${t}`).join(", ");
  const result = await svc.db.handle.db.execute(sql.raw(`select ${columns}`));
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as unknown[];
  return JSON.stringify(rows[0]);
}

beforeAll(() => {
  pgLog = pgLogMark();
});
const svc = useTestService();
beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
  orgKeys = await Promise.all(Array.from({ length: ORGS }, async () => (await svc.seed.org()).key));
  for (const orgKey of orgKeys) {
    const res = await call(svc.url, `/v1/mse/${VISIT}`, {
      key: orgKey,
      body: validBodies["POST /v1/mse/{visitId}"],
    });
    expect(res.status).toBe(200);
  }
  orderId = (
    await call<LabOrderResponse>(svc.url, "/v1/labs/orders", {
      key,
      body: validBodies["POST /v1/labs/orders"],
    })
  ).json.data.id;
  connectionId = (
    await call<WearableConnectionResponse>(svc.url, "/v1/wearables/connect", {
      key,
      body: { patientRef: "pt_fuzz" },
    })
  ).json.data.id;
  const doc = (await call<OpenApiPaths>(svc.url, "/v1/openapi.json")).json;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "post", "patch", "put", "delete"].includes(method)) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        query: (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name),
        hasBody: op.requestBody !== undefined || method !== "get",
      });
    }
  }
}, 60_000);

// ---------------------------------------------------------------------------------------------
// Arbitraries

/** Any UTF-16 code unit, so lone surrogates and every control character occur. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
const hostileString = fc.oneof(
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\u0007",
    "\u001b[31mred",
    "\ud800",
    "x\udc00",
    "\ud83d",
    "\ufffd",
    "😀",
    "\u2028",
    "__proto__",
    "constructor",
    "prototype",
    "NaN",
    "Infinity",
    "-0",
    "1e400",
    "0x10",
    " 5",
    "+5",
    "5.0",
    "null",
    "",
    "'; drop table lab_orders; --",
    "%00",
    "\\",
  ),
  fc.string({ unit: codeUnit, maxLength: 24 }),
  fc.string({ maxLength: 24 }),
  fc.string({ minLength: 600, maxLength: 3_000 }),
);
const hostileNumber = fc.oneof(
  fc.double(),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 2, -0, 5e-324, 1_000_001, -1),
  fc.integer(),
);
const hostileKey = fc.oneof(hostileString, fc.constantFrom("__proto__", "constructor", "prototype"));

const { json: hostileJson } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    tie("array"),
    tie("object"),
  ),
  array: fc.array(tie("json"), { maxLength: 4 }),
  object: fc.array(fc.tuple(hostileKey, tie("json")), { maxLength: 4 }).map(ownObject),
}));

/** An object with these own properties, `__proto__` included (assignment would set the prototype). */
function ownObject(entries: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true });
  return out;
}

/** Every dotted location inside a value (objects and arrays), for targeted replacement. */
function locations(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(at);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) locations(value[i], [...at, i], out);
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) locations(v, [...at, k], out);
  }
  return out;
}

function replaceAt(value: unknown, at: (string | number)[], replacement: unknown): unknown {
  if (at.length === 0) return replacement;
  const [head, ...rest] = at as [string | number, ...(string | number)[]];
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? replaceAt(v, rest, replacement) : v));
  const copy = ownObject(Object.entries(value as Record<string, unknown>));
  Object.defineProperty(copy, head, {
    value: replaceAt((value as Record<string, unknown>)[head], rest, replacement),
    enumerable: true,
    writable: true,
  });
  return copy;
}

/** Percent-encode any string, a lone surrogate as the (invalid) UTF-8 bytes of its code unit. */
function percentEncode(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const pair =
      unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && /[\udc00-\udfff]/.test(text[i + 1] ?? "");
    if (pair) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i += 1;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join("");
    } else out += encodeURIComponent(text[i] as string);
  }
  return out;
}

const hostileSegment = fc.oneof(
  hostileString.filter((s) => s.length > 0).map(percentEncode),
  fc.constantFrom("%00", "%FF", "%C0%80", "%ED%A0%80", "%", "%zz", "a%2Fb", ".."),
);

/** How a body is sent: JSON text (which escapes lone surrogates as `\ud800`) or raw bytes. */
type Body = { text: string } | { bytes: Uint8Array };

/** The base object's JSON text with one more member written as raw text (duplicates included). */
function withMember(base: Record<string, unknown>, member: string): string {
  const text = JSON.stringify(base);
  return text === "{}" ? `{${member}}` : `${text.slice(0, -1)},${member}}`;
}

function mutateBody(base: Record<string, unknown>) {
  const inside = fc.constantFrom(...locations(base));
  const keys = Object.keys(base);
  return fc.oneof(
    fc.constant<Body>({ text: JSON.stringify(base) }),
    fc.tuple(inside, hostileJson).map(([at, v]): Body => ({ text: JSON.stringify(replaceAt(base, at, v)) })),
    fc
      .tuple(inside, hostileKey, hostileJson)
      .map(([at, k, v]): Body => ({ text: JSON.stringify(replaceAt(base, at, ownObject([[k, v]]))) })),
    fc
      .tuple(fc.constantFrom("__proto__", "constructor", "prototype"), hostileJson)
      .map(([k, v]): Body => ({ text: withMember(base, `"${k}":${JSON.stringify(v)}`) })),
    hostileJson.map((v): Body => ({ text: JSON.stringify(v) ?? "null" })),
    fc.integer({ min: 30, max: 6_000 }).map(
      (depth): Body => ({
        text: withMember(base, `"deep":${"[".repeat(depth)}${"]".repeat(depth)}`),
      }),
    ),
    fc.integer({ min: 900, max: 3_000 }).map(
      (n): Body => ({
        text: withMember(base, `"wide":{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(",")}}`),
      }),
    ),
    // A duplicate of one of the body's own keys, with a hostile value.
    fc
      .tuple(fc.constantFrom(...(keys.length > 0 ? keys : ["x"])), hostileJson)
      .map(
        ([k, v]): Body => ({ text: withMember(base, `${JSON.stringify(k)}:${JSON.stringify(v) ?? "null"}`) }),
      ),
    fc.constantFrom<Body>(
      { text: `{"n":1e400}` },
      { text: `{"n":NaN}` },
      { text: "" },
      { text: "{" },
      { text: "[]" },
      { text: `"\\ud800"` },
      { bytes: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xc0, 0x80, 0x22, 0x7d]) },
      { bytes: new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]) },
    ),
  );
}

interface RequestInput {
  segment: string;
  query: [string, string][];
  body: Body | undefined;
  orgKey: string;
}

function requestArbitrary(op: Operation): fc.Arbitrary<RequestInput> {
  const real = op.path.includes("/wearables/") ? connectionId : op.path.includes("/mse/") ? VISIT : orderId;
  const segment = fc.oneof(fc.constant(real), hostileSegment);
  const queryValue = fc.oneof(
    hostileString.map(percentEncode),
    fc.constantFrom(
      "1",
      "50",
      "0x10",
      "1e2",
      "%205",
      "%2B5",
      "5.0",
      "-1",
      "99999999999999999999",
      "%00",
      "%FF",
    ),
  );
  const query = fc.array(
    fc.tuple(fc.oneof(fc.constantFrom(...op.query, "patientRef", "limit"), hostileSegment), queryValue),
    { maxLength: 3 },
  );
  const base = (validBodies[`${op.method} ${op.path}`] ?? {}) as Record<string, unknown>;
  const body = op.hasBody ? fc.option(mutateBody(base), { nil: undefined, freq: 6 }) : fc.constant(undefined);
  return fc.record({ segment, query, body, orgKey: fc.constantFrom(...orgKeys) });
}

// ---------------------------------------------------------------------------------------------
// The property

const STACK = /\n\s+at |\bat [\w.$<>]+ \(|node:internal|\.[cm]?[jt]s:\d+/;
const SQL =
  /\b(insert into|delete from|update \w+ set|select .{1,80} from \w|syntax error at|violates|duplicate key value|invalid byte sequence|unsupported unicode)\b/i;

async function send(op: Operation, input: RequestInput) {
  const path = op.path.replace(/\{[^}]+\}/g, input.segment);
  const query = input.query.map(([k, v]) => `${k}=${v}`).join("&");
  const url = `${svc.url}${path}${query ? `?${query}` : ""}`;
  const headers: Record<string, string> = {
    authorization: `Bearer ${op.path.startsWith("/v1/mse") ? input.orgKey : key}`,
  };
  let body: string | Uint8Array | undefined;
  if (input.body) {
    headers["content-type"] = "application/json";
    body = "text" in input.body ? input.body.text : input.body.bytes;
  }
  const res = await fetch(url, { method: op.method, headers, body });
  return { status: res.status, text: await res.text(), url };
}

describe("fuzz: every route of both APIs", () => {
  it("the OpenAPI document lists both APIs' routes", () => {
    expect(operations.length).toBeGreaterThan(25);
    expect(operations.some((o) => o.path.startsWith("/v1/mse/"))).toBe(true);
    expect(operations.some((o) => o.path === "/v1/labs/orders" && o.method === "POST")).toBe(true);
  });

  it("never a 5xx, a stack frame or SQL text; a 4xx stores nothing", async () => {
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(op), async (input) => {
          const before = op.method === "GET" ? "" : await rowCounts();
          const res = await send(op, input);
          expect(res.status, `${op.method} ${res.url}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
          expect(res.text).not.toMatch(STACK);
          expect(res.text).not.toMatch(SQL);
          if (op.method !== "GET" && res.status >= 400) expect(await rowCounts()).toBe(before);
        }),
        { numRuns: RUNS },
      );
    }
  }, 120_000);

  it("the service still answers, logged no unhandled error, and PostgreSQL saw none of it", async (ctx) => {
    expect((await call(svc.url, "/healthz")).status).toBe(200);
    expect((await call<PingResponse>(svc.url, "/v1/ping", { key })).status).toBe(200);
    expect(svc.logs.filter((l) => l.includes("unhandled error"))).toEqual([]);
    if (!pgLog.available) {
      ctx.skip();
      return;
    }
    expect(pgLog.since()).not.toMatch(HOSTILE_PG_ERRORS);
  });
});
