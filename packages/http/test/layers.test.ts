import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The HTTP layer (`@svc/http`) and the runtime beside it (`@svc/http/runtime`: environment,
 * process wiring, servers, startup) depend one way (decision 105): the runtime builds on the HTTP
 * layer, never the reverse, so an app or a test can use the middleware without the runtime.
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../src");

/** The relative imports of a module that reach into `runtime/` from outside it. */
export function runtimeImports(source: string): string[] {
  const specifiers = [...source.matchAll(/\bfrom\s+"(\.[^"]*)"|\bimport\(\s*"(\.[^"]*)"\s*\)/g)].map(
    (m) => m[1] ?? m[2] ?? "",
  );
  return specifiers.filter((s) => /^\.\/runtime(\/|\.js$)/.test(s));
}

function httpLayerFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "runtime" && dir === SRC ? [] : httpLayerFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

describe("the HTTP layer and the runtime", () => {
  it("no module of the HTTP layer imports the runtime", () => {
    const found = httpLayerFiles().flatMap((file) =>
      runtimeImports(readFileSync(file, "utf8")).map((s) => `${path.relative(SRC, file)} -> ${s}`),
    );
    expect(found).toEqual([]);
  });

  it("the check catches an HTTP-layer module importing the runtime", () => {
    const source = [
      'import { parseEnv } from "./runtime/env.js";',
      'export * from "./runtime/index.js";',
      'import { ApiError } from "./errors.js";',
      'const r = await import("./runtime/runtime.js");',
    ].join("\n");
    expect(runtimeImports(source)).toEqual([
      "./runtime/env.js",
      "./runtime/index.js",
      "./runtime/runtime.js",
    ]);
  });
});
