import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type PackageManifest, workspaceClosure, workspaceManifests } from "@svc/testkit/workspace";
import { describe, expect, it } from "vitest";

/**
 * The boundary decision 212 draws: `@svc/db` reaches no domain package, directly or through a
 * package it depends on. The model-version store takes the engine names from its callers (the
 * engine registry's `ENGINE_NAMES`) instead of importing the registry; the event payloads it
 * writes come from `@svc/webhooks`, which is pure and imports no domain package either.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const NOT_IN_DB = /^@svc\/(intelligence|engines|mse-catalog|model|agents|cds-hooks|fhir|capture)$/;

const manifests = workspaceManifests(root);

/** The domain packages in `name`'s workspace closure, with the path to each. */
function domainInClosure(name: string, chain: ReadonlyMap<string, PackageManifest>): string[] {
  return [...workspaceClosure(name, chain)].filter(([pkg]) => NOT_IN_DB.test(pkg)).map(([, via]) => via);
}

/** Package specifiers of a source text that `@svc/db` must not import. */
function forbiddenImports(source: string): string[] {
  const specifiers = [...source.matchAll(/\bfrom\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g)].map(
    (m) => (m[1] ?? m[2]) as string,
  );
  return specifiers.filter((s) => NOT_IN_DB.test(s.replace(/^(@svc\/[^/]+).*$/, "$1")));
}

describe("@svc/db depends on no domain package (decision 212)", () => {
  it("neither @svc/db nor any package it reaches depends on @svc/intelligence or another domain package", () => {
    expect(workspaceClosure("@svc/db", manifests).size).toBeGreaterThan(1);
    expect(domainInClosure("@svc/db", manifests)).toEqual([]);
  });

  it("no source file of @svc/db imports one", () => {
    const dir = path.join(root, "packages/db/src");
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(5);
    const found = files.flatMap((f) =>
      forbiddenImports(readFileSync(path.join(dir, f), "utf8")).map((s) => `${f}: ${s}`),
    );
    expect(found).toEqual([]);
  });

  it("the checks catch the edge they guard against", () => {
    // The manifest as it was before decision 212, and the same edge one package away.
    const before = new Map<string, PackageManifest>([
      ["@svc/db", { name: "@svc/db", dependencies: { "@svc/intelligence": "workspace:*" } }],
      ["@svc/intelligence", { name: "@svc/intelligence", dependencies: { "@svc/engines": "workspace:^" } }],
      ["@svc/engines", { name: "@svc/engines" }],
    ]);
    expect(domainInClosure("@svc/db", before)).toEqual([
      "@svc/db > @svc/intelligence",
      "@svc/db > @svc/intelligence > @svc/engines",
    ]);
    const throughWebhooks = new Map<string, PackageManifest>([
      ["@svc/db", { name: "@svc/db", dependencies: { "@svc/webhooks": "workspace:*" } }],
      ["@svc/webhooks", { name: "@svc/webhooks", dependencies: { "@svc/intelligence": "workspace:*" } }],
      ["@svc/intelligence", { name: "@svc/intelligence" }],
    ]);
    expect(domainInClosure("@svc/db", throughWebhooks)).toEqual([
      "@svc/db > @svc/webhooks > @svc/intelligence",
    ]);
    expect(
      forbiddenImports(
        'import { ENGINE_NAMES } from "@svc/intelligence";\nimport type { X } from "@svc/engines/knowledge";\nimport { newId } from "@svc/ids";',
      ),
    ).toEqual(["@svc/intelligence", "@svc/engines/knowledge"]);
  });
});
