import { readFileSync } from "node:fs";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The committed OpenAPI document as a product (decision 129): every operation has an operationId,
 * a declared tag and its security; every example in it is a request the running service accepts.
 * Each operation is replayed from the document alone (its path, parameter and body examples), on
 * a resource created first when the operation needs one, and must answer 2xx.
 */

interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  schema?: { example?: unknown };
  example?: unknown;
}
interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, unknown>;
}
interface Document {
  tags?: { name: string; description?: string }[];
  security?: Record<string, string[]>[];
  components: { securitySchemes: Record<string, { description?: string }> };
  paths: Record<string, Record<string, Operation>>;
}

const doc = JSON.parse(
  readFileSync(new URL("../../../docs/openapi.json", import.meta.url), "utf8"),
) as Document;

const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
);

function exampleOf(parameter: Parameter): unknown {
  return parameter.example ?? parameter.schema?.example;
}

function bodyExample(operation: Operation): unknown {
  return operation.requestBody?.content["application/json"]?.example;
}

function byId(operationId: string) {
  const found = operations.find((o) => o.operation.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in the document`);
  return found;
}

describe("docs/openapi.json: what every operation declares", () => {
  it("has 44 operations, each with a unique camelCase operationId and a summary", () => {
    const ids = operations.map((o) => o.operation.operationId);
    expect(operations.length).toBeGreaterThanOrEqual(44);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("tags every operation with a tag declared, with a description, at the document level", () => {
    const declared = new Map((doc.tags ?? []).map((t) => [t.name, t.description]));
    for (const { operation } of operations) {
      expect(operation.tags?.length, operation.operationId).toBeGreaterThan(0);
      for (const tag of operation.tags ?? []) expect(declared.get(tag), tag).toBeTruthy();
    }
  });

  it("names the key kinds each operation accepts; the probes need none", () => {
    const schemes = doc.components.securitySchemes;
    for (const name of ["secretTestKey", "secretLiveKey", "publishableKey", "organizationKey"]) {
      expect(schemes[name]?.description, name).toBeTruthy();
    }
    for (const { operation } of operations) {
      expect(operation.security, operation.operationId).toBeDefined();
      for (const requirement of operation.security ?? []) {
        for (const name of Object.keys(requirement)) expect(schemes[name], name).toBeDefined();
      }
    }
    expect(byId("getHealthz").operation.security).toEqual([]);
    expect(byId("getReadyz").operation.security).toEqual([]);
    // Default policy: secret keys; dmse also publishable; the MSE Record API: organization keys
    // with a scope; the test helpers: secret test keys only.
    expect(byId("createLabOrder").operation.security).toEqual([{ secretTestKey: [] }, { secretLiveKey: [] }]);
    expect(byId("analyzeDmse").operation.security).toEqual([
      { secretTestKey: [] },
      { secretLiveKey: [] },
      { publishableKey: [] },
    ]);
    expect(byId("signMseRecord").operation.security).toEqual([{ organizationKey: ["mse:sign"] }]);
    expect(byId("runMseAgent").operation.security).toEqual([
      { secretTestKey: [] },
      { secretLiveKey: [] },
      { organizationKey: ["mse:write"] },
    ]);
    expect(byId("advanceTestLabOrder").operation.security).toEqual([{ secretTestKey: [] }]);
  });

  it("documents the guard's refusals on every keyed operation, 413 where a body may be sent", () => {
    for (const { method, operation } of operations) {
      if (operation.security?.length === 0) continue;
      const codes = Object.keys(operation.responses);
      for (const code of ["401", "403", "405", "429"])
        expect(codes, `${operation.operationId} ${code}`).toContain(code);
      if (method !== "get") expect(codes, `${operation.operationId} 413`).toContain("413");
      // A live secret key without a paid plan and production approval: 402.
      if (operation.security?.some((r) => "secretLiveKey" in r)) {
        expect(codes, `${operation.operationId} 402`).toContain("402");
      }
    }
  });

  it("gives every operation that takes a body a whole example body", () => {
    for (const { operation } of operations) {
      if (operation.requestBody) expect(bodyExample(operation), operation.operationId).toBeDefined();
    }
  });
});

describe("docs/openapi.json: every example is accepted by the running service", () => {
  const svc = useTestService();
  let secretKey: string;
  let orgKey: string;

  beforeAll(async () => {
    secretKey = (await svc.seed.caller("enterprise")).key;
    orgKey = (await svc.seed.org()).key;
  });

  /** The key an operation's first security requirement names (none for the public probes). */
  function keyFor(operation: Operation): string | undefined {
    const first = Object.keys(operation.security?.[0] ?? {})[0];
    if (!first) return undefined;
    return first === "organizationKey" ? orgKey : secretKey;
  }

  /** Replay one operation from the document: parameter examples, `ids` for the path, the body example. */
  async function replay(operationId: string, ids: Record<string, string> = {}) {
    const { path, method, operation } = byId(operationId);
    const query = new URLSearchParams();
    let url = path;
    for (const parameter of operation.parameters ?? []) {
      const value = ids[parameter.name] ?? exampleOf(parameter);
      if (parameter.in === "path") {
        expect(value, `${operationId}: path parameter ${parameter.name} has an example`).toBeDefined();
        url = url.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
      } else if (parameter.in === "query" && value !== undefined) {
        query.set(parameter.name, String(value));
      } else if (parameter.in === "query" && parameter.required) {
        throw new Error(`${operationId}: required query parameter ${parameter.name} has no example`);
      }
    }
    const search = query.size > 0 ? `?${query}` : "";
    // MCP's Streamable HTTP transport needs both media types in Accept (its documented 406).
    const headers: Record<string, string> =
      operationId === "callMcp" ? { accept: "application/json, text/event-stream" } : {};
    const body = bodyExample(operation);
    return call<{ data?: { id?: string } }>(svc.url, `${url}${search}`, {
      method: method.toUpperCase(),
      key: keyFor(operation),
      headers,
      body,
    });
  }

  async function created(operationId: string): Promise<string> {
    const res = await replay(operationId);
    expect(res.status, `${operationId}: ${res.text}`).toBeLessThan(300);
    const id = res.json.data?.id;
    if (!id) throw new Error(`${operationId} answered no id`);
    return id;
  }

  /** A lab order in the state an operation's example needs. */
  const labOrder = async (authorized = false) => {
    const id = await created("createLabOrder");
    if (authorized) await replay("authorizeTestLabOrder", { id });
    return { id };
  };
  /** A wearable connection, pending or connected. */
  const wearable = async (connected = false) => {
    const id = await created("connectWearable");
    if (connected) await replay("completeTestWearableConnection", { id });
    return { id };
  };
  /** A visit: new, or written with the write example first. */
  let visits = 0;
  const visit = async (written = true) => {
    visits += 1;
    const visitId = `visit_examples_${visits}`;
    if (written) {
      const res = await replay("writeMseRecord", { visitId });
      expect(res.status, res.text).toBe(200);
    }
    return { visitId };
  };

  /** A webhook endpoint of the caller's account (the create example's URL is a literal public address). */
  const webhookEndpoint = async () => ({ id: await created("createWebhookEndpoint") });

  /** The resource each operation's example needs, created first (most need none). */
  const setups: Record<string, () => Promise<Record<string, string>>> = {
    getLabOrder: () => labOrder(),
    cancelLabOrder: () => labOrder(),
    authorizeTestLabOrder: () => labOrder(),
    advanceTestLabOrder: () => labOrder(true),
    getWearableConnection: () => wearable(),
    completeTestWearableConnection: () => wearable(),
    syncWearableConnection: () => wearable(true),
    listWearableMetrics: () => wearable(true),
    disconnectWearableConnection: () => wearable(true),
    writeMseRecord: () => visit(false),
    patchMseRecord: () => visit(),
    getMseRecord: () => visit(),
    getMseHistory: () => visit(),
    getMseAudit: () => visit(),
    signMseRecord: () => visit(),
    runMseAgent: () => visit(false),
    getWebhookEndpoint: webhookEndpoint,
    updateWebhookEndpoint: webhookEndpoint,
    rotateWebhookEndpointSecret: webhookEndpoint,
    deleteWebhookEndpoint: webhookEndpoint,
  };

  it.each(operations.map((o) => o.operation.operationId ?? `${o.method} ${o.path}`))(
    "%s answers 2xx to its example",
    async (operationId) => {
      const ids = (await setups[operationId]?.()) ?? {};
      const res = await replay(operationId, ids);
      expect(res.status, `${operationId}: ${res.text.slice(0, 400)}`).toBeGreaterThanOrEqual(200);
      expect(res.status, `${operationId}: ${res.text.slice(0, 400)}`).toBeLessThan(300);
    },
  );
});
