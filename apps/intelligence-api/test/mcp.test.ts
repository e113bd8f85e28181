import { request as httpRequest } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { scoreRelapse } from "@svc/engines";
import type { ErrorEnvelope } from "@svc/http";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BATCH_REFUSED_CODE, MCP_TOOLS } from "../src/routes/v1_mcp.js";

/**
 * The engine tools over MCP (decision 52), driven by the SDK's own client over real HTTP: it lists
 * the tools and calls each one with real clinical input, and the answers are the engines'. Input
 * a tool cannot take is a tool error the calling agent can read, never a failed request; the
 * route admits secret keys only and counts each message against the key's rate limit.
 */
const svc = useTestService();
let key: string;
let publishable: string;
let client: Client;
const ORIGIN = "https://clinic.example.com";
/** What MCP clients send (the Streamable HTTP transport requires both). */
const MCP_ACCEPT = "application/json, text/event-stream";

async function connectClient(secretKey: string): Promise<Client> {
  const mcp = new Client({ name: "mcp-test-client", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(`${svc.url}/v1/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${secretKey}` } },
  });
  await mcp.connect(transport);
  return mcp;
}

beforeAll(async () => {
  const caller = await svc.seed.caller("enterprise");
  key = caller.key;
  publishable = (await svc.seed.key("publishable", caller.account.id, [ORIGIN])).key;
  client = await connectClient(key);
});
afterAll(async () => {
  await client?.close();
});

/** A tool call's structured answer (the engine's output object). */
async function callTool<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  const [first] = result.content;
  expect(first?.type).toBe("text");
  // The text content and the structured content carry the same answer.
  const fromText: T = JSON.parse(first?.type === "text" ? first.text : "null");
  if (result.structuredContent !== undefined) expect(result.structuredContent).toEqual(fromText);
  return fromText;
}

/** A tool call that must fail as a tool error: its message. */
async function callToolError(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError).toBe(true);
  return result;
}

function errorText(result: CallToolResult): string {
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join(" ");
}

/** One raw JSON-RPC message over plain fetch (for the HTTP-level checks). */
function postMessage(init: { key?: string; accept?: string; origin?: string; body?: unknown }) {
  const headers: Record<string, string> = { accept: init.accept ?? MCP_ACCEPT };
  if (init.origin) headers.origin = init.origin;
  return call<unknown>(svc.url, "/v1/mcp", {
    key: init.key,
    headers,
    body: init.body ?? { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
  });
}

describe("tools/list", () => {
  it("lists every engine tool with its description and JSON Schema input", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name));
    for (const expected of [
      "checkInteractions",
      "getPanels",
      "evaluatePanel",
      "getInstruments",
      "scoreInstruments",
      "getSignalModel",
      "scoreRelapse",
    ]) {
      expect(tools.map((t) => t.name)).toContain(expected);
    }
    for (const tool of tools) {
      const definition = MCP_TOOLS.find((t) => t.name === tool.name);
      expect(tool.description).toBe(definition?.description);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    // The zod bounds reach the published schema (1-50 medications).
    const check = tools.find((t) => t.name === "checkInteractions");
    expect(check?.inputSchema.required).toEqual(["medications"]);
    expect(check?.inputSchema.properties?.medications).toMatchObject({
      type: "array",
      minItems: 1,
      maxItems: 50,
    });
  });

  it("tells the connecting agent what the tools are (server instructions)", () => {
    expect(client.getInstructions()).toMatch(/deterministic/i);
    expect(client.getServerVersion()?.name).toBe("clinical-intelligence-service");
  });
});

describe("tools/call: the engines' answers", () => {
  it("checkInteractions: sertraline with tramadol is the high-severity serotonergic interaction", async () => {
    const check = await callTool<{
      interactions: { id: string; a: string; b: string; severity: string; source: string }[];
      recognized: string[];
      risk: { flag: boolean; level: string };
    }>("checkInteractions", { medications: ["sertraline 100 mg", "tramadol"] });
    expect(check.recognized).toEqual(expect.arrayContaining(["sertraline", "tramadol"]));
    const found = check.interactions.find((i) => i.id === "serotonergic-tramadol");
    expect(found).toMatchObject({ severity: "high" });
    expect([found?.a, found?.b].sort()).toEqual(["sertraline", "tramadol"]);
    expect(found?.source).toMatch(/tramadol/i);
    expect(check.risk).toMatchObject({ flag: true, level: "high" });
  });

  it("evaluatePanel: lithium 1.6 mmol/L is critical and raises the risk to high", async () => {
    const evaluation = await callTool<{
      results: { analyteKey: string; flag: string; critical: boolean }[];
      risk: { flag: boolean; level: string };
    }>("evaluatePanel", { panel: [{ analyte: "lithium", value: 1.6 }] });
    expect(evaluation.results).toHaveLength(1);
    expect(evaluation.results[0]).toMatchObject({
      analyteKey: "lithium",
      flag: "critical_high",
      critical: true,
    });
    expect(evaluation.risk).toMatchObject({ flag: true, level: "high" });
  });

  it("scoreInstruments: a PHQ-9 with item 9 answered 1 raises risk and names the item", async () => {
    const scoring = await callTool<{
      results: { instrumentId: string; total: number; itemFlags: { item: number; value: number }[] }[];
      risk: { flag: boolean; level: string };
    }>("scoreInstruments", {
      instruments: [{ instrument: "PHQ-9", responses: [1, 1, 1, 1, 1, 1, 0, 0, 1] }],
    });
    expect(scoring.results[0]).toMatchObject({ instrumentId: "phq9", total: 7 });
    expect(scoring.results[0]?.itemFlags).toEqual([expect.objectContaining({ item: 9, value: 1 })]);
    expect(scoring.risk.flag).toBe(true);
    expect(scoring.risk.level).not.toBe("none");
  });

  it("scoreRelapse: known signals give a 0-100 composite and band; unknown ones are listed", async () => {
    const score = await callTool<{
      compositeScore: number;
      band: string;
      contributing: { indicator: string }[];
      unrecognized: string[];
    }>("scoreRelapse", {
      signals: [
        { indicator: "medication_nonadherence", severity: 0.9 },
        { indicator: "sleep_disruption", severity: 0.8 },
        { indicator: "moon_phase", severity: 1 },
      ],
    });
    expect(score.compositeScore).toBeGreaterThan(0);
    expect(score.compositeScore).toBeLessThanOrEqual(100);
    expect(["low", "moderate", "elevated", "high"]).toContain(score.band);
    expect(score.contributing.map((c) => c.indicator)).toEqual(
      expect.arrayContaining(["medication_nonadherence", "sleep_disruption"]),
    );
    expect(score.unrecognized).toEqual(["moon_phase"]);
  });

  it("scoreRelapse reads safety concepts as the engine does: the same indicator, the same level (decision 178)", async () => {
    for (const indicator of [
      "cut her arms last night",
      "says he will hurt his neighbour",
      "stopped venlafaxine",
      "took 30 paracetamol",
      "denies cutting",
      "talks about killing",
    ]) {
      const signals = [{ indicator, severity: 0.7 }];
      const viaMcp = await callTool<{ risk: { level: string; flag: boolean }; concepts: unknown[] }>(
        "scoreRelapse",
        { signals },
      );
      const engine = scoreRelapse(signals);
      expect(viaMcp.risk, indicator).toEqual(engine.risk);
      expect(viaMcp.concepts, indicator).toEqual(engine.concepts);
      expect(viaMcp.risk.level, indicator).not.toBe("low");
    }
  });

  it("getPanels, getInstruments and getSignalModel describe what the engines recognise", async () => {
    const panels = await callTool<{ id: string; analytes: { analyte: string }[] }[]>("getPanels");
    expect(panels.flatMap((p) => p.analytes.map((a) => a.analyte))).toContain("lithium");
    const instruments = await callTool<unknown>("getInstruments");
    expect(JSON.stringify(instruments)).toContain("PHQ-9");
    const model = await callTool<{ indicators: { indicator: string; weight: number }[] }>("getSignalModel");
    expect(model.indicators.map((i) => i.indicator)).toContain("medication_nonadherence");
  });
});

describe("tools/call: the MSE tools (catalog, dmse engine, the write endpoint's validator and risk)", () => {
  it("lists them after the record tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).slice(-4)).toEqual([
      "getCatalog",
      "analyzeTelemetry",
      "validateDraft",
      "assessRisk",
    ]);
  });

  it("getCatalog: the 17 domains and the C-SSRS items", async () => {
    const catalog = await callTool<{ domains: { key: string }[]; cssrs: { questions: unknown[] } }>(
      "getCatalog",
    );
    expect(catalog.domains).toHaveLength(17);
    expect(catalog.domains.map((d) => d.key)).toContain("thought_content");
    expect(catalog.cssrs.questions).toHaveLength(6);
  });

  it("analyzeTelemetry: a 3.2 s response latency proposes increased latency as a digital finding", async () => {
    const analysis = await callTool<{
      findings: { signal: string; domain: string; value: string }[];
      proposed: Record<string, { values: string[]; provenance?: string }>;
    }>("analyzeTelemetry", { telemetry: { responseLatencySeconds: 3.2 } });
    expect(analysis.findings).toEqual([
      expect.objectContaining({ signal: "response_latency", domain: "speech", value: "increased_latency" }),
    ]);
    expect(analysis.proposed.speech).toMatchObject({
      values: ["increased_latency"],
      provenance: "digital_mse",
    });
    expect(analysis.proposed.risk).toBeUndefined();
  });

  it("validateDraft: a catalog selection passes with its lines; an unknown option is an error naming it", async () => {
    const valid = await callTool<{ ok: boolean; lines: unknown[] }>("validateDraft", {
      selection: { mood: { values: ["depressed"] } },
    });
    expect(valid.ok).toBe(true);
    expect(valid.lines.length).toBeGreaterThan(0);
    const invalid = await callTool<{ ok: boolean; errors: { domain: string; value?: string }[] }>(
      "validateDraft",
      {
        selection: { mood: { values: ["ecstatic_beyond_words"] } },
      },
    );
    expect(invalid.ok).toBe(false);
    expect(JSON.stringify(invalid.errors)).toContain("ecstatic_beyond_words");
  });

  it("assessRisk: suicidal ideation is flagged by the engine", async () => {
    const assessed = await callTool<{
      ok: boolean;
      risk: { flag: boolean; level: string; labels: string[] };
    }>("assessRisk", { selection: { thought_content: { values: ["suicidal_ideation"] } } });
    expect(assessed.ok).toBe(true);
    expect(assessed.risk.flag).toBe(true);
    expect(assessed.risk.level).not.toBe("none");
  });

  it("analyzeTelemetry without any metric is a tool error", async () => {
    const result = await callToolError("analyzeTelemetry", { telemetry: { sessionDurationSeconds: 600 } });
    expect(errorText(result)).toMatch(/at least one of/);
  });
});

describe("tools/call: input a tool cannot take is a tool error, not a failed request", () => {
  it("arguments that fail the tool's schema name the field", async () => {
    const wrongType = await callToolError("checkInteractions", { medications: "sertraline" });
    expect(errorText(wrongType)).toMatch(/medications/);
    const outOfRange = await callToolError("scoreRelapse", {
      signals: [{ indicator: "anxiety", severity: 7 }],
    });
    expect(errorText(outOfRange)).toMatch(/severity/);
  });

  it("a PHQ-9 with 8 responses is refused naming PHQ-9, with the issue's path", async () => {
    const result = await callToolError("scoreInstruments", {
      instruments: [{ instrument: "PHQ-9", responses: [0, 0, 0, 0, 0, 0, 0, 0] }],
    });
    expect(errorText(result)).toMatch(/PHQ-9/);
    expect(result.structuredContent).toMatchObject({
      error: {
        code: "invalid_request",
        issues: [expect.objectContaining({ path: expect.arrayContaining([0]) })],
      },
    });
  });

  it("an unknown tool is a tool error naming it", async () => {
    const result = await callToolError("prescribe", {});
    expect(errorText(result)).toMatch(/prescribe/);
  });

  it("the connection keeps working after errors", async () => {
    const check = await callTool<{ recognized: string[] }>("checkInteractions", { medications: ["lithium"] });
    expect(check.recognized).toEqual(["lithium"]);
  });
});

describe("HTTP: a JSON-RPC batch is refused before any message runs (decision 82)", () => {
  /** The checkInteractions tool as the MCP server runs it, watched for calls (the engine itself runs). */
  function watchTool() {
    const tool = MCP_TOOLS.find((t) => t.name === "checkInteractions");
    if (!tool) throw new Error("checkInteractions is not an MCP tool");
    return vi.spyOn(tool, "execute");
  }
  const toolsCall = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "checkInteractions", arguments: { medications: ["sertraline", "tramadol"] } },
  });
  const remaining = (res: { headers: Headers }) => Number(res.headers.get("x-ratelimit-remaining"));
  const refusal = {
    jsonrpc: "2.0",
    id: null,
    error: { code: BATCH_REFUSED_CODE, message: expect.stringMatching(/batch/i) },
  };

  it("100 tools/call messages in one array: JSON-RPC Invalid Request (-32600), no tool runs, one request of quota", async () => {
    // A sandbox key (100 requests a day): X-RateLimit-Remaining is an exact count.
    const caller = await svc.seed.caller("sandbox");
    const execute = watchTool();
    try {
      const before = await postMessage({ key: caller.key, body: toolsCall(1) });
      expect(before.status).toBe(200);
      expect(execute).toHaveBeenCalledTimes(1);
      execute.mockClear();

      const batch = await postMessage({
        key: caller.key,
        body: Array.from({ length: 100 }, (_, i) => toolsCall(i + 2)),
      });
      expect(batch.status).toBe(400);
      expect(batch.json).toEqual(refusal);
      expect(execute).not.toHaveBeenCalled();
      // The refused batch reached us, so it counts: exactly one request, not 100.
      expect(remaining(batch)).toBe(remaining(before) - 1);
      expect(batch.headers.get("x-request-id")).toMatch(/^req_/);

      // A single tools/call afterwards works exactly as before, one request of quota.
      const after = await postMessage({ key: caller.key, body: toolsCall(200) });
      expect(after.status).toBe(200);
      expect(after.json).toMatchObject({
        jsonrpc: "2.0",
        id: 200,
        result: { structuredContent: { risk: { flag: true } } },
      });
      expect(execute).toHaveBeenCalledTimes(1);
      expect(remaining(after)).toBe(remaining(batch) - 1);
    } finally {
      execute.mockRestore();
    }
  });

  it("an empty array, an array of one message and a batched initialize are batches too", async () => {
    const execute = watchTool();
    try {
      const initialize = {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      };
      for (const body of [
        [],
        [toolsCall(1)],
        [initialize],
        [{ jsonrpc: "2.0", method: "notifications/initialized" }],
      ]) {
        const res = await postMessage({ key, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.json).toEqual(refusal);
      }
      expect(execute).not.toHaveBeenCalled();
    } finally {
      execute.mockRestore();
    }
  });
});

describe("HTTP: who may call, limits and methods", () => {
  it("answers a secret key with the JSON-RPC response and the rate limit headers", async () => {
    const res = await postMessage({ key });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({ jsonrpc: "2.0", id: 1, result: { tools: expect.any(Array) } });
    expect(Number(res.headers.get("x-ratelimit-limit"))).toBeGreaterThan(0);
    expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
    expect(res.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("refuses a request without a key (401), a publishable key even from its origin and an organization key (403)", async () => {
    const none = await postMessage({});
    expect(none.status).toBe(401);
    expect((none.json as ErrorEnvelope).error.code).toBe("unauthorized");
    const pub = await postMessage({ key: publishable, origin: ORIGIN });
    expect(pub.status).toBe(403);
    expect((pub.json as ErrorEnvelope).error.code).toBe("forbidden");
    const organization = await postMessage({ key: (await svc.seed.org()).key });
    expect(organization.status).toBe(403);
  });

  it("counts every message against the key's limit: past the burst it is 429 rate_limited", async () => {
    const limited = await svc.seed.caller("enterprise", { ratePerSecond: 1, burst: 2 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => postMessage({ key: limited.key })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(3);
    const refused = answers.find((a) => a.status === 429);
    if (!refused) throw new Error(`no 429 among ${statuses.join(", ")}`);
    expect((refused.json as ErrorEnvelope).error.code).toBe("rate_limited");
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("GET (no server stream) and DELETE (no session) are 405 with Allow: POST", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await call<ErrorEnvelope>(svc.url, "/v1/mcp", {
        key,
        method,
        headers: { accept: MCP_ACCEPT },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(res.json.error.code).toBe("method_not_allowed");
    }
  });

  it("a client that does not accept both JSON and SSE is 406, as the transport requires", async () => {
    const res = await postMessage({ key, accept: "application/json" });
    expect(res.status).toBe(406);
    expect(res.json).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
  });

  it("no Accept header, or */* (a browser's fetch, the API reference's Test Request), accepts the JSON answer", async () => {
    for (const accept of ["*/*", "text/html, */*;q=0.8"]) {
      const res = await postMessage({ key, accept });
      expect(res.status, accept).toBe(200);
      expect(res.json).toMatchObject({ jsonrpc: "2.0", id: 1, result: { tools: expect.any(Array) } });
    }
    // undici adds */* to a fetch without Accept, so the header-less request goes over node:http.
    const body = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    const noAccept = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = httpRequest(
        `${svc.url}/v1/mcp`,
        { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            text += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      request.on("error", reject);
      request.end(body);
    });
    expect(noAccept.status).toBe(200);
    expect(JSON.parse(noAccept.text)).toMatchObject({
      jsonrpc: "2.0",
      id: 2,
      result: { tools: expect.any(Array) },
    });
    // A list that names types without the wildcard still needs both.
    expect((await postMessage({ key, accept: "text/event-stream" })).status).toBe(406);
  });

  it("a body that is not a JSON-RPC message is a JSON-RPC parse error; no body is 400", async () => {
    const notRpc = await postMessage({ key, body: { hello: "world" } });
    expect(notRpc.status).toBe(400);
    expect(notRpc.json).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    const empty = await call<ErrorEnvelope>(svc.url, "/v1/mcp", {
      key,
      method: "POST",
      headers: { accept: MCP_ACCEPT },
    });
    expect(empty.status).toBe(400);
    expect(empty.json.error.code).toBe("invalid_request");
  });

  it("is documented in the OpenAPI document as a POST operation", async () => {
    const doc = await call<{ paths: Record<string, Record<string, unknown>> }>(svc.url, "/v1/openapi.json");
    expect(Object.keys(doc.json.paths["/v1/mcp"] ?? {})).toEqual(["post"]);
  });

  it("logs the route pattern and no tool input", async () => {
    await callTool("checkInteractions", { medications: ["clozapine", "fluvoxamine"] });
    const lines = svc.logs.filter((line) => line.includes('"route":"/v1/mcp"'));
    expect(lines.length).toBeGreaterThan(0);
    expect(svc.logs.join("\n")).not.toContain("fluvoxamine");
  });
});
