import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import { createBrowserClient } from "../src/browser.js";
import {
  ConflictError,
  createClient,
  InvalidRequestError,
  InvalidTokenError,
  InvalidTransitionError,
  NotFoundError,
  type SvcClient,
} from "../src/index.js";

/**
 * Every operation of docs/openapi.json called once through the SDK against the real service
 * (PostgreSQL, Redis, HTTP on loopback); each request the SDK sends is recorded, and the last test
 * checks that every operation of the document was among them.
 */
const document = JSON.parse(readFileSync(new URL("../../../docs/openapi.json", import.meta.url), "utf8")) as {
  paths: Record<string, Record<string, unknown>>;
};
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.keys(item)
    .filter((m) => ["get", "post", "put", "patch", "delete"].includes(m))
    .map((m) => ({
      name: `${m.toUpperCase()} ${path}`,
      pattern: new RegExp(`^${m.toUpperCase()} ${path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
    })),
);

type Operation = {
  tags?: string[];
  requestBody?: { content?: Record<string, { example?: unknown }> };
  "x-codeSamples"?: { label: string; source: string }[];
};
/** The analyses of the document (tag Analysis): the SDK member its sample calls, and its example body. */
function analysisCalls(client: SvcClient) {
  return Object.values(document.paths).flatMap((item) => {
    const op = item.post as Operation | undefined;
    if (!op?.tags?.includes("Analysis")) return [];
    const source = op["x-codeSamples"]?.find((s) => s.label === "@svc/sdk")?.source ?? "";
    const member = (/svc\.([A-Za-z.]+)\(/.exec(source)?.[1] ?? "")
      .split(".")
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], client);
    const call = member as (body: unknown, options?: { format: "fhir" }) => Promise<unknown>;
    return [{ call, example: op.requestBody?.content?.["application/json"]?.example }];
  });
}

const sent: { line: string; status: number; idempotencyKey: string | null }[] = [];
const recordingFetch = async (request: Request) => {
  const response = await fetch(request);
  sent.push({
    line: `${request.method} ${new URL(request.url).pathname}`,
    status: response.status,
    idempotencyKey: request.headers.get("idempotency-key"),
  });
  return response;
};

const svc = useTestService();
let secretKey: string;
let client: SvcClient;
let org: SvcClient;
let publishableKey: string;

beforeAll(async () => {
  const caller = await svc.seed.caller("enterprise");
  secretKey = caller.key;
  client = createClient({ apiKey: caller.key, baseUrl: svc.url, fetch: recordingFetch });
  org = createClient({ apiKey: (await svc.seed.org()).key, baseUrl: svc.url, fetch: recordingFetch });
  publishableKey = (await svc.seed.key("publishable", caller.account.id, ["http://localhost:3000"])).key;
});

const phq9 = (scores: number[]) =>
  scores.map((score, i) => ({
    instrumentId: "phq9",
    instrumentName: "PHQ-9",
    score,
    maxScore: 27,
    createdAt: new Date(Date.parse("2026-06-01T09:00:00Z") + i * 7 * 86_400_000).toISOString(),
  }));

describe("the SDK against the running service", () => {
  it("health, ping", async () => {
    expect(await client.health.live()).toBeTruthy();
    expect(await client.health.ready()).toBeTruthy();
    expect(await client.ping()).toBeTruthy();
  });

  it("the five analyses and the four patient agents", async () => {
    const relapse = await client.relapse.predict({
      assessments: phq9([8, 10, 14, 17]),
      avgSleepHours: 5,
      daysSinceLastVisit: 60,
    });
    expect(relapse.data.object).toBe("relapse.prediction");
    const outcome = await client.outcome.score({ assessments: phq9([20, 17, 14, 11]), avgSleepHours: 7.5 });
    expect(outcome.data.object).toBe("outcome.score");
    const medication = await client.medication.analyze({
      prescriptions: [
        { id: "rx_1", medicationName: "Sertraline 50 mg", status: "active", prescribedAt: "2026-06-20" },
      ],
      assessments: phq9([20, 19, 16, 14]),
    });
    expect(medication.data.object).toBe("medication.analysis");
    const biomarker = await client.biomarker.analyze({
      labs: [
        {
          id: "lab_1",
          labName: "Reference Lab",
          observedAt: "2026-07-01",
          results: { biomarkers: [{ name: "TSH", value: 7.2, unit: "mIU/L", flag: "high" }] },
        },
      ],
    });
    expect(biomarker.data.object).toBe("biomarker.analysis");
    const dmse = await client.dmse.analyze({
      responseLatencySeconds: 2.6,
      speechRateWpm: 120,
      sessionDurationSeconds: 600,
    });
    expect(dmse.data.object).toBe("dmse.analysis");

    // Each analysis answers FHIR with { format: "fhir" }, typed as a Bundle without a cast.
    const bundles = [
      await client.relapse.predict(
        { assessments: phq9([8, 10, 14, 17]), avgSleepHours: 5 },
        { format: "fhir" },
      ),
      await client.outcome.score({ assessments: phq9([20, 17]) }, { format: "fhir" }),
      await client.dmse.analyze({ responseLatencySeconds: 2.6, speechRateWpm: 120 }, { format: "fhir" }),
    ];
    for (const bundle of bundles) expect(bundle.resourceType).toBe("Bundle");

    // Every analysis of the document, with its own example body, as JSON and as FHIR (so a new
    // engine's endpoint is called through the SDK without an entry here).
    const analyses = analysisCalls(client);
    expect(analyses.length).toBeGreaterThanOrEqual(5);
    for (const { call, example } of analyses) {
      const json = (await call(example)) as { data: { object: string } };
      expect(json.data.object, JSON.stringify(example)).toMatch(/^[a-z]+\.[a-z.]+$/);
      const fhir = (await call(example, { format: "fhir" })) as { resourceType: string };
      expect(fhir.resourceType).toBe("Bundle");
    }

    const med = await client.medication.agent("pt_1", {
      medications: ["Sertraline 100 mg", "tramadol 50mg"],
    });
    expect(med.data.object).toBe("medication.agent.assessment");
    const bio = await client.biomarker.agent("pt_2", { panel: [{ analyte: "lithium", value: 1.5 }] });
    expect(bio.data.toolCalls).toEqual(["getPanels", "evaluatePanel"]);
    const out = await client.outcome.agent("pt_3", {
      instruments: [{ instrument: "GAD-7", total: 6, priorTotal: 12 }],
    });
    expect(out.data).toBeTruthy();
    const rel = await client.relapse.agent("pt_4", {
      signals: [{ indicator: "medication_nonadherence", severity: 1 }],
    });
    expect(rel.data).toBeTruthy();
  });

  it("the browser entry: dmse analyze with a publishable key from an allowed origin", async () => {
    const browser = createBrowserClient({
      publishableKey,
      baseUrl: svc.url,
      fetch: (request) => {
        const headers = new Headers(request.headers);
        headers.set("origin", "http://localhost:3000");
        return recordingFetch(new Request(request, { headers }));
      },
    });
    const result = await browser.dmse.analyze({
      responseLatencySeconds: 2.6,
      speechRateWpm: 120,
      sessionDurationSeconds: 600,
    });
    expect(result.data.object).toBe("dmse.analysis");
  });

  it("lab orders: create (with an Idempotency-Key), walk, list as an async iterator, cancel", async () => {
    const panels = await client.labs.panels.list();
    expect(panels.data.panels.length).toBeGreaterThan(0);
    const created = await client.labs.orders.create({ patientRef: "pt_sdk", panelId: "lithium_monitoring" });
    expect(created.data.status).toBe("requested");
    const createLine = sent.find((s) => s.line === "POST /v1/labs/orders");
    expect(createLine?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const id = created.data.id;
    expect((await client.labs.orders.retrieve(id)).data.id).toBe(id);
    expect((await client.testHelpers.labs.orders.authorize(id)).data.status).toBe("authorized");
    expect((await client.testHelpers.labs.orders.advance(id, {})).data.status).toBe("scheduled");

    const second = await client.labs.orders.create({ patientRef: "pt_sdk", panelId: "lithium_monitoring" });
    expect((await client.labs.orders.cancel(second.data.id)).data.status).toBe("cancelled");
    // A second cancel is a typed error with the request id.
    const again = await client.labs.orders.cancel(second.data.id).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(InvalidTransitionError);
    expect((again as InvalidTransitionError).requestId).toMatch(/^req_/);
    expect((again as InvalidTransitionError).docs).toContain("#error-invalid_transition");

    // Pages of one: the iterator follows nextCursor across three pages.
    await client.labs.orders.create({ patientRef: "pt_sdk", panelId: "lithium_monitoring" });
    const ids: string[] = [];
    for await (const order of client.labs.orders.list({ patientRef: "pt_sdk", limit: 1 })) ids.push(order.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
  });

  it("events as an async iterator", async () => {
    const events = await client.events.list({ limit: 2 }).toArray();
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });

  it("webhook endpoints: create (secret once, Idempotency-Key), list as an async iterator, retrieve, update, rotate, delete", async () => {
    const created = await client.webhookEndpoints.create({ url: "https://93.184.215.14/sdk" });
    expect(created.data.secret).toMatch(/^whsec_/);
    expect(created.data.mode).toBe("test");
    const createLine = sent.find((s) => s.line === "POST /v1/webhook_endpoints");
    expect(createLine?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const id = created.data.id;
    const shown = await client.webhookEndpoints.retrieve(id);
    expect(shown.data.id).toBe(id);
    expect(shown.data).not.toHaveProperty("secret");
    const disabled = await client.webhookEndpoints.update(id, { status: "disabled" });
    expect(disabled.data.status).toBe("disabled");
    const moved = await client.webhookEndpoints.update(id, {
      url: "https://93.184.215.14/moved",
      status: "enabled",
    });
    expect(moved.data).toMatchObject({ url: "https://93.184.215.14/moved", status: "enabled" });
    const rotated = await client.webhookEndpoints.rotateSecret(id);
    expect(rotated.data.secret).toMatch(/^whsec_/);
    expect(rotated.data.secret).not.toBe(created.data.secret);

    // Pages of one: the iterator follows nextCursor across every endpoint, oldest first.
    const more = [
      await client.webhookEndpoints.create({ url: "https://93.184.215.14/sdk2" }),
      await client.webhookEndpoints.create({ url: "https://93.184.215.14/sdk3" }),
    ];
    const ids: string[] = [];
    for await (const endpoint of client.webhookEndpoints.list({ limit: 1 })) ids.push(endpoint.id);
    expect(ids).toEqual([id, ...more.map((m) => m.data.id)]);

    const deleted = await client.webhookEndpoints.del(id);
    expect(deleted.data).toMatchObject({ id, deleted: true });
    const gone = await client.webhookEndpoints.retrieve(id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(NotFoundError);
    const refused = await client.webhookEndpoints
      .create({ url: "https://10.0.0.1/internal" })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect((refused as InvalidRequestError).issues?.[0]?.path).toBe("url");
  });

  it("wearables: providers, connect, complete, sync, metrics, list, disconnect", async () => {
    const providers = await client.wearables.providers.list();
    expect(providers.data.providers).toContain("OURA");
    const connection = await client.wearables.connect({ patientRef: "pt_w_sdk" });
    const id = connection.data.id;
    await client.testHelpers.wearables.connections.complete(id, { provider: "OURA" });
    expect((await client.wearables.connections.retrieve(id)).data.status).toBe("connected");
    expect((await client.wearables.connections.sync(id)).data.sync).toEqual({ days: 7 });
    expect((await client.wearables.connections.metrics(id, { days: 7 })).data).toBeTruthy();
    const listed = await client.wearables.connections.list({ patientRef: "pt_w_sdk" }).toArray();
    expect(listed.map((c) => c.id)).toEqual([id]);
    expect((await client.wearables.connections.disconnect(id)).data.status).toBe("disconnected");
  });

  it("MSE Record API: write, patch, read, sign, history and audit pages, catalog, safety events, agent", async () => {
    const visitId = `v-sdk-${Date.now().toString(36)}`;
    const written = await org.mse.write(visitId, {
      patientId: "pat-sdk",
      selection: {
        mood: { values: ["depressed"] },
        risk: { values: ["active_si"], cssrs: { q1: "yes", q2: "yes" } },
      },
    });
    expect(written.version).toBe(1);
    await org.mse.patch(visitId, { patientId: "pat-sdk", selection: { insight: { values: ["good"] } } });
    expect((await org.mse.retrieve(visitId, { patientId: "pat-sdk" })).mse.version).toBe(2);
    expect((await org.mse.retrieve(visitId)).mse.version).toBe(2);
    const fhir = await org.mse.retrieve(visitId, undefined, { format: "fhir" });
    expect(fhir.resourceType).toBe("Bundle");
    expect((await org.mse.sign(visitId, { patientId: "pat-sdk", signedByName: "Dr. Ada" })).ok).toBe(true);
    const history = await org.mse.history(visitId, { limit: 1 }).toArray();
    expect(history.map((v) => v.version)).toEqual([2, 1]);
    const audit = await org.mse.audit(visitId, { limit: 1 }).toArray();
    expect(audit.map((v) => v.version)).toEqual([1, 2]);
    expect((await org.mse.domains()).domains.length).toBeGreaterThan(0);
    const safety = await org.mse.safetyEvents.list({ visitId }).toArray();
    expect(safety.length).toBeGreaterThanOrEqual(1);
    const proposal = await org.mse.agent(visitId, {
      patientId: "pat-sdk",
      transcript: "I feel hopeless most days.",
      telemetry: { speechRateWpm: 80, responseLatencySeconds: 2.6, sessionDurationSeconds: 600 },
    });
    expect(proposal).toBeTruthy();

    // The flat MSE errors map to the same classes.
    const missing = await org.mse.retrieve("v-none", { patientId: "pat-sdk" }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).status).toBe(404);
    expect((missing as NotFoundError).requestId).toMatch(/^req_/);
    // The flat body carries no docs link; the SDK's points at the same page the envelope's does.
    const docs = (missing as NotFoundError).docs ?? "";
    expect(docs).toBe(`${svc.url}/docs/errors#error-not_found`);
    const page = await fetch(docs.replace(/#.*$/, ""));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="error-not_found"');
    const wrongPatient = await org.mse
      .sign(visitId, { patientId: "someone-else", signedByName: "Dr. B" })
      .catch((e: unknown) => e);
    expect(wrongPatient).toBeInstanceOf(ConflictError);
  });

  it("MCP over the SDK", async () => {
    const result = await client.mcp({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    expect(result).toBeTruthy();
  });

  it("errors: invalid body with issues, unknown key", async () => {
    const bad = await client.relapse
      .predict({ assessments: "nope" } as unknown as Parameters<SvcClient["relapse"]["predict"]>[0])
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(InvalidRequestError);
    expect((bad as InvalidRequestError).issues?.length).toBeGreaterThan(0);
    const stranger = createClient({ apiKey: "sk_test_nope", baseUrl: svc.url });
    await expect(stranger.ping()).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it("the README's example (examples/quickstart.ts) runs against the service", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/quickstart.ts"],
      {
        cwd: new URL("..", import.meta.url),
        env: { ...process.env, SVC_API_KEY: secretKey, SVC_BASE_URL: svc.url },
      },
    );
    expect(stdout).toMatch(/^relapse \d+(\.\d+)? (low|moderate|elevated|high)$/m);
    expect(stdout).toMatch(/^order labord_\S+ requested$/m);
    expect(stdout).toMatch(/^cancelled cancelled$/m);
  });

  it("every operation of the document was called through the SDK", () => {
    const missing = operations
      .filter((op) => !sent.some((s) => op.pattern.test(s.line)))
      .map((op) => op.name);
    expect(missing).toEqual([]);
    expect(operations.length).toBeGreaterThanOrEqual(38);
  });
});
