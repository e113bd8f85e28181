import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { workspaceClosure, workspaceManifests } from "@svc/testkit/workspace";
import { describe, expect, it } from "vitest";

/**
 * The CDS services are pure (decision 209): a service module, the registry and everything they
 * reach import no HTTP layer (no Hono, no `@svc/http`), no database, queue or network client; the
 * app verifies the JWT, fetches what prefetch lacks and answers. Checked on the package's sources
 * and on the manifests of its workspace closure, so a slip fails CI.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const PACKAGE_DIR = "packages/cds-hooks";
const NOT_IN_CDS_HOOKS =
  /^(hono|@hono\/|bullmq|ioredis|drizzle-orm|postgres|pg|undici|@svc\/(http|db|records|ehr-gateway|delivery|model|agents|intelligence-api|mse-record-api|dashboard|webhook-worker|cli))(\/|$)/;

function sourcesOf(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => path.join(dir, f));
}

function importsOf(file: string): string[] {
  const source = readFileSync(path.join(root, file), "utf8");
  return [...source.matchAll(/\bfrom\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g)].map(
    (m) => (m[1] ?? m[2]) as string,
  );
}

describe("@svc/cds-hooks boundaries", () => {
  it("no source file, service modules included, imports an HTTP layer, database, queue or network client", () => {
    const sources = sourcesOf(`${PACKAGE_DIR}/src`);
    expect(sources.some((f) => f.includes(`${path.sep}services${path.sep}`))).toBe(true);
    const found = sources.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => NOT_IN_CDS_HOOKS.test(specifier))
        .map((specifier) => `${file}: ${specifier}`),
    );
    expect(found).toEqual([]);
  });

  it("no package in its workspace closure depends on one", () => {
    const manifests = workspaceManifests(root);
    const found = [...workspaceClosure("@svc/cds-hooks", manifests)].flatMap(([pkg, via]) =>
      Object.keys(manifests.get(pkg)?.dependencies ?? {})
        .filter((dep) => NOT_IN_CDS_HOOKS.test(dep))
        .map((dep) => `${via} > ${dep}`),
    );
    expect(found).toEqual([]);
  });
});
