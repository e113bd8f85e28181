import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createClient } from "../src/index.js";

/**
 * The reference (/docs) shows an `@svc/sdk` call beside curl for every operation (`x-codeSamples`
 * in docs/openapi.json): each must call a function this client has, so a renamed wrapper or a new
 * operation without a sample fails here rather than in a reader's editor.
 */
const document = JSON.parse(readFileSync(new URL("../../../docs/openapi.json", import.meta.url), "utf8")) as {
  paths: Record<
    string,
    Record<
      string,
      { operationId?: string; "x-codeSamples"?: { lang: string; label: string; source: string }[] }
    >
  >;
};
const client = createClient({
  apiKey: "svc_sk_test_unused",
  baseUrl: "http://127.0.0.1:9",
}) as unknown as Record<string, unknown>;

/** The client member at a dotted path (`labs.orders.create`), or undefined. */
function member(path: string): unknown {
  return path
    .split(".")
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], client);
}

describe("the reference's @svc/sdk samples", () => {
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
  );

  it("every operation has one, and it calls a function of the client", () => {
    expect(operations.length).toBeGreaterThan(40);
    for (const { name, op } of operations) {
      const samples = (op["x-codeSamples"] ?? []).filter((s) => s.label === "@svc/sdk");
      expect(samples, name).toHaveLength(1);
      const source = samples[0]?.source ?? "";
      expect(samples[0]?.lang).toBe("typescript");
      expect(source).toContain('import { createClient } from "@svc/sdk";');
      const call = /svc\.([A-Za-z.]+)\(/.exec(source)?.[1] ?? "";
      expect(typeof member(call), `${name}: svc.${call}`).toBe("function");
    }
  });
});
