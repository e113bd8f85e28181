import type { OpenApiDoc } from "./standard-routes.js";

/**
 * The `@svc/sdk` call of each operation, shown in the reference beside the generated curl and
 * other clients (Scalar reads `x-codeSamples` on an operation). An operation's call is read from its
 * route (`derivedCall`): its path's words after `/v1` in camelCase (`/v1/relapse/{patientId}/agent`
 * is `relapse.agent`), taking its path parameters, then its body. `SDK_CALLS` names, by operationId,
 * only the calls the route does not give: the member of the client, what it takes in order (path
 * parameters, the body, or the required query parameters), and `list` for a cursor list, read with
 * `for await`. The SDK's tests check every operation has a sample naming a function of the client.
 */
interface SdkCall {
  call: string;
  args?: readonly ("path" | "body" | "query")[];
  list?: boolean;
}

export const SDK_CALLS: Readonly<Record<string, SdkCall>> = {
  getHealthz: { call: "health.live" },
  getReadyz: { call: "health.ready" },
  listLabPanels: { call: "labs.panels.list" },
  createLabOrder: { call: "labs.orders.create", args: ["body"] },
  listLabOrders: { call: "labs.orders.list", list: true },
  getLabOrder: { call: "labs.orders.retrieve", args: ["path"] },
  listEvents: { call: "events.list", list: true },
  listWearableProviders: { call: "wearables.providers.list" },
  listWearableConnections: { call: "wearables.connections.list", args: ["query"], list: true },
  getWearableConnection: { call: "wearables.connections.retrieve", args: ["path"] },
  createWebhookEndpoint: { call: "webhookEndpoints.create", args: ["body"] },
  listWebhookEndpoints: { call: "webhookEndpoints.list", list: true },
  getWebhookEndpoint: { call: "webhookEndpoints.retrieve", args: ["path"] },
  updateWebhookEndpoint: { call: "webhookEndpoints.update", args: ["path", "body"] },
  deleteWebhookEndpoint: { call: "webhookEndpoints.del", args: ["path"] },
  writeMseRecord: { call: "mse.write", args: ["path", "body"] },
  patchMseRecord: { call: "mse.patch", args: ["path", "body"] },
  getMseRecord: { call: "mse.retrieve", args: ["path", "query"] },
  getMseHistory: { call: "mse.history", args: ["path"], list: true },
  getMseAudit: { call: "mse.audit", args: ["path"], list: true },
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

const camel = (word: string) => word.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The call the route gives: the path's words after `/v1` (parameters left out) in camelCase, taking
 * the path parameters if it has any, then the body if it has one.
 */
function derivedCall(path: string, operation: SampleOperation): SdkCall {
  const words = path.split("/").filter((word) => word !== "" && word !== "v1" && !word.startsWith("{"));
  const args: ("path" | "body")[] = [];
  if (path.includes("{")) args.push("path");
  if (operation.requestBody) args.push("body");
  return { call: words.map(camel).join("."), args };
}

/** Adds the `@svc/sdk` sample to every operation of the document. */
export function addSdkSamples(doc: OpenApiDoc): void {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const value of Object.values(item)) {
      const operation = value as SampleOperation;
      if (!operation.operationId) continue;
      const entry = SDK_CALLS[operation.operationId] ?? derivedCall(path, operation);
      operation["x-codeSamples"] = [
        { lang: "typescript", label: SDK_SAMPLE_LABEL, source: sampleSource(entry, operation) },
      ];
    }
  }
}
