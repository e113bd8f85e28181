import type { OpenApiDoc } from "./standard-routes.js";

/**
 * The `@svc/sdk` call of each operation, shown in the reference beside the generated curl and
 * other clients (Scalar reads `x-codeSamples` on an operation). Keyed by operationId: the member
 * of the client that makes the call, and what it takes, in order (path parameters, the body, or
 * the required query parameters); `list` for a cursor list, read with `for await`. The SDK's tests
 * check every operation has an entry and every entry names a function of the client.
 */
interface SdkCall {
  call: string;
  args?: readonly ("path" | "body" | "query")[];
  list?: boolean;
}

export const SDK_CALLS: Readonly<Record<string, SdkCall>> = {
  getHealthz: { call: "health.live" },
  getReadyz: { call: "health.ready" },
  ping: { call: "ping" },
  analyzeDmse: { call: "dmse.analyze", args: ["body"] },
  analyzeMedication: { call: "medication.analyze", args: ["body"] },
  analyzeBiomarkers: { call: "biomarker.analyze", args: ["body"] },
  scoreOutcome: { call: "outcome.score", args: ["body"] },
  predictRelapse: { call: "relapse.predict", args: ["body"] },
  runMedicationAgent: { call: "medication.agent", args: ["path", "body"] },
  runBiomarkerAgent: { call: "biomarker.agent", args: ["path", "body"] },
  runOutcomeAgent: { call: "outcome.agent", args: ["path", "body"] },
  runRelapseAgent: { call: "relapse.agent", args: ["path", "body"] },
  callMcp: { call: "mcp", args: ["body"] },
  listLabPanels: { call: "labs.panels.list" },
  createLabOrder: { call: "labs.orders.create", args: ["body"] },
  listLabOrders: { call: "labs.orders.list", list: true },
  getLabOrder: { call: "labs.orders.retrieve", args: ["path"] },
  cancelLabOrder: { call: "labs.orders.cancel", args: ["path"] },
  authorizeTestLabOrder: { call: "testHelpers.labs.orders.authorize", args: ["path"] },
  advanceTestLabOrder: { call: "testHelpers.labs.orders.advance", args: ["path", "body"] },
  completeTestWearableConnection: {
    call: "testHelpers.wearables.connections.complete",
    args: ["path", "body"],
  },
  listEvents: { call: "events.list", list: true },
  listWearableProviders: { call: "wearables.providers.list" },
  connectWearable: { call: "wearables.connect", args: ["body"] },
  listWearableConnections: { call: "wearables.connections.list", args: ["query"], list: true },
  getWearableConnection: { call: "wearables.connections.retrieve", args: ["path"] },
  disconnectWearableConnection: { call: "wearables.connections.disconnect", args: ["path"] },
  syncWearableConnection: { call: "wearables.connections.sync", args: ["path"] },
  listWearableMetrics: { call: "wearables.connections.metrics", args: ["path"] },
  createWebhookEndpoint: { call: "webhookEndpoints.create", args: ["body"] },
  listWebhookEndpoints: { call: "webhookEndpoints.list", list: true },
  getWebhookEndpoint: { call: "webhookEndpoints.retrieve", args: ["path"] },
  updateWebhookEndpoint: { call: "webhookEndpoints.update", args: ["path", "body"] },
  deleteWebhookEndpoint: { call: "webhookEndpoints.del", args: ["path"] },
  rotateWebhookEndpointSecret: { call: "webhookEndpoints.rotateSecret", args: ["path"] },
  writeMseRecord: { call: "mse.write", args: ["path", "body"] },
  patchMseRecord: { call: "mse.patch", args: ["path", "body"] },
  getMseRecord: { call: "mse.retrieve", args: ["path", "query"] },
  signMseRecord: { call: "mse.sign", args: ["path", "body"] },
  runMseAgent: { call: "mse.agent", args: ["path", "body"] },
  getMseHistory: { call: "mse.history", args: ["path"], list: true },
  getMseAudit: { call: "mse.audit", args: ["path"], list: true },
  listMseDomains: { call: "mse.domains" },
  listMseSafetyEvents: { call: "mse.safetyEvents.list", list: true },
};

export const SDK_SAMPLE_LABEL = "@svc/sdk";

interface SampleOperation {
  operationId?: string;
  parameters?: {
    in: string;
    name: string;
    required?: boolean;
    example?: unknown;
    schema?: { example?: unknown };
  }[];
  requestBody?: { content?: Record<string, { example?: unknown }> };
  "x-codeSamples"?: unknown[];
}

/** A JSON value as a TypeScript literal. */
function literal(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** The sample's source: create the client, then the one call with the document's own examples. */
function sampleSource(entry: SdkCall, operation: SampleOperation): string {
  const parameters = operation.parameters ?? [];
  const exampleOf = (p: (typeof parameters)[number]) => p.example ?? p.schema?.example;
  const args: string[] = [];
  for (const kind of entry.args ?? []) {
    if (kind === "path")
      for (const p of parameters.filter((q) => q.in === "path")) args.push(JSON.stringify(exampleOf(p)));
    if (kind === "body")
      args.push(literal(operation.requestBody?.content?.["application/json"]?.example ?? {}));
    if (kind === "query") {
      const required = parameters.filter((q) => q.in === "query" && q.required);
      args.push(literal(Object.fromEntries(required.map((q) => [q.name, exampleOf(q)]))));
    }
  }
  const call = `svc.${entry.call}(${args.join(", ")})`;
  const use = entry.list
    ? `for await (const item of ${call}) console.log(item);`
    : `const answer = await ${call};\nconsole.log(answer);`;
  return [
    'import { createClient } from "@svc/sdk";',
    "",
    'const svc = createClient({ apiKey: process.env.SVC_API_KEY ?? "", baseUrl: "http://localhost:3000" });',
    use,
  ].join("\n");
}

/** Adds the `@svc/sdk` sample to every operation of the document that has an entry. */
export function addSdkSamples(doc: OpenApiDoc): void {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const value of Object.values(item)) {
      const operation = value as SampleOperation;
      const entry = operation.operationId ? SDK_CALLS[operation.operationId] : undefined;
      if (!entry) continue;
      operation["x-codeSamples"] = [
        { lang: "typescript", label: SDK_SAMPLE_LABEL, source: sampleSource(entry, operation) },
      ];
    }
  }
}
