import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ERROR_CODES as SERVER_ERROR_CODES } from "@svc/http";
import { describe, expect, it } from "vitest";
import { generateClient, generateMeta, staleFiles } from "../scripts/generate.js";
import {
  ERROR_CLASSES,
  ERROR_CODES,
  errorFromResponse,
  IDEMPOTENT_OPERATIONS,
  takesIdempotencyKey,
} from "../src/index.js";

const srcDir = join(dirname(fileURLToPath(import.meta.url)), "../src");

describe("generated from docs/openapi.json", () => {
  it("the committed types and metadata match the document (run `pnpm --filter @svc/sdk generate`)", async () => {
    expect(await staleFiles()).toEqual([]);
  }, 60_000);

  it("a changed document gives different generated text (what makes the check fail)", () => {
    const documentText = readFileSync(join(srcDir, "../../../docs/openapi.json"), "utf8");
    const doc = JSON.parse(documentText);
    doc.components.schemas.ErrorEnvelope.properties.error.properties.code.enum.push("brand_new_code");
    doc.paths["/v1/mse/{visitId}"].post.parameters = [{ name: "Idempotency-Key", in: "header" }];
    // A referenced parameter counts like an inline one.
    doc.components.parameters = { IdemKey: { name: "Idempotency-Key", in: "header" } };
    doc.paths["/v1/mse/{visitId}"].patch.parameters = [{ $ref: "#/components/parameters/IdemKey" }];
    const changed = generateMeta(JSON.stringify(doc));
    expect(changed).not.toBe(generateMeta(documentText));
    expect(changed).toContain('"brand_new_code"');
    expect(changed).toContain('"POST /v1/mse/{visitId}"');
    expect(changed).toContain('"PATCH /v1/mse/{visitId}"');
    expect(() => generateMeta(JSON.stringify({ paths: {}, components: { schemas: {} } }))).toThrow(/no enum/);
  });

  it("a new operation of the document is a client member with no hand edit", () => {
    const documentText = readFileSync(join(srcDir, "../../../docs/openapi.json"), "utf8");
    const doc = JSON.parse(documentText);
    const page = { hasMore: { type: "boolean" }, things: { type: "array" }, nextCursor: { type: "string" } };
    // Without a sample it is named by its operationId; with one, where the sample calls it.
    doc.paths["/v1/things/{thingId}"] = {
      get: {
        operationId: "getThing",
        summary: "Retrieve a thing",
        parameters: [{ name: "thingId", in: "path" }],
      },
    };
    doc.paths["/v1/things"] = {
      get: {
        operationId: "listThings",
        summary: "List things",
        parameters: [{ name: "cursor", in: "query" }],
        responses: { 200: { content: { "application/json": { schema: { properties: page } } } } },
        "x-codeSamples": [{ label: "@svc/sdk", source: "for await (const t of svc.things.list()) t;" }],
      },
    };
    const changed = generateClient(JSON.stringify(doc));
    expect(changed).not.toBe(generateClient(documentText));
    expect(changed).toMatch(/getThing: \(thingId: string, call\?: RequestOptions\) =>/);
    expect(changed).toContain(
      'raw.GET("/v1/things/{thingId}", { params: { path: { thingId } }, ...c(call) })',
    );
    expect(changed).toMatch(
      /things: \{\s+\/\*\* List things \(`GET \/v1\/things`\), page by page\. \*\/\s+list:/,
    );
    expect(changed).toContain("(page) => ({ items: page.things, next: nextCursor(page) })");
    // Two operations at one member, or a list whose sample does not iterate it, refuse to generate.
    const sample = doc.paths["/v1/things"].get["x-codeSamples"][0];
    sample.source = "for await (const t of svc.ping()) t;";
    expect(() => generateClient(JSON.stringify(doc))).toThrow(/svc\.ping names two operations/);
    sample.source = "await svc.things.list();";
    expect(() => generateClient(JSON.stringify(doc))).toThrow(/does not iterate it/);
  });

  it("the error codes are the server's, each with its own class", () => {
    expect([...ERROR_CODES]).toEqual([...SERVER_ERROR_CODES]);
    const classes = new Set(Object.values(ERROR_CLASSES));
    expect(classes.size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) {
      const error = errorFromResponse(
        400,
        { ok: false, requestId: "req_1", error: { code, message: "m" } },
        new Headers(),
      );
      expect(error).toBeInstanceOf(ERROR_CLASSES[code]);
      expect(error.code).toBe(code);
    }
  });

  it("an Idempotency-Key goes on the creates that take one, and only those", () => {
    expect(IDEMPOTENT_OPERATIONS).toEqual([
      "POST /v1/labs/orders",
      "POST /v1/wearables/connect",
      "POST /v1/webhook_endpoints",
    ]);
    expect(takesIdempotencyKey("POST", "/v1/labs/orders")).toBe(true);
    expect(takesIdempotencyKey("GET", "/v1/labs/orders")).toBe(false);
    expect(takesIdempotencyKey("POST", "/v1/labs/orders/lo_1/cancel")).toBe(false);
    expect(takesIdempotencyKey("POST", "/v1/mse/v1")).toBe(false);
    expect(takesIdempotencyKey("POST", "/v1/webhook_endpoints/we_1/rotate_secret")).toBe(false);
  });
});

/** Relative imports of a module, followed transitively from the browser entry. */
function importGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (file: string) => {
    if (graph.has(file)) return;
    const text = readFileSync(join(srcDir, file), "utf8");
    const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1] ?? "");
    graph.set(file, specifiers);
    for (const s of specifiers) if (s.startsWith(".")) visit(join(dirname(file), s).replace(/\.js$/, ".ts"));
  };
  visit(entry);
  return graph;
}

describe("the browser entry", () => {
  it("imports no Node module and nothing but openapi-fetch beyond its own files (no telemetry)", () => {
    const graph = importGraph("browser.ts");
    const external = [...graph.values()].flat().filter((s) => !s.startsWith("."));
    expect(external.filter((s) => s.startsWith("node:"))).toEqual([]);
    expect(new Set(external)).toEqual(new Set(["openapi-fetch"]));
    expect(graph.has("webhooks.ts")).toBe(false);
  });

  it("the whole SDK imports nothing that reports home: openapi-fetch, and @svc/webhooks for signatures", () => {
    const graph = importGraph("index.ts");
    expect(graph.has("generated/client.ts")).toBe(true);
    const external = [...graph.values()].flat().filter((s) => !s.startsWith("."));
    expect(new Set(external)).toEqual(new Set(["openapi-fetch", "@svc/webhooks"]));
    // @svc/webhooks (decision 154) and the @svc/ids it uses import only Node's own modules (the
    // address rules and their ipaddr.js live in @svc/outbound-http, decision 213).
    for (const dir of ["../../webhooks/src", "../../ids/src"]) {
      const files = readdirSync(join(srcDir, dir)).filter((f) => f.endsWith(".ts"));
      const imports = files.flatMap((f) =>
        [...readFileSync(join(srcDir, dir, f), "utf8").matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1] ?? ""),
      );
      const outside = imports.filter(
        (s) => !s.startsWith("./") && !s.startsWith("node:") && s !== "@svc/ids",
      );
      expect(outside, dir).toEqual([]);
    }
  });
});
