import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readmeExample, readmeExamples } from "../src/consumer.js";
import {
  listPublishable,
  publishedEntries,
  reportBaseName,
  scopeRegistry,
  tarballName,
} from "../src/publishable.js";

/**
 * What makes a workspace package installable by another team (decision 137), checked on every
 * package that is not private, so a newly published one is held to the same rules.
 */
const published = listPublishable();
const publishedNames = new Set(published.map((p) => p.name));

describe("published packages", () => {
  it("are the engine, knowledge, webhook, capture and SDK packages with what they depend on", () => {
    expect([...publishedNames].sort()).toEqual([
      "@svc/capture",
      "@svc/engines",
      "@svc/ids",
      "@svc/intelligence",
      "@svc/mse-catalog",
      "@svc/sdk",
      "@svc/webhooks",
    ]);
  });

  it("the workspace maps the @svc scope to one https registry (.npmrc), and every package names that one", () => {
    const registry = scopeRegistry("@svc");
    expect(registry).toMatch(/^https:\/\/[^/]+/);
    for (const pkg of published) expect(pkg.manifest.publishConfig?.registry, pkg.name).toBe(registry);
  });

  for (const pkg of published) {
    describe(pkg.name, () => {
      it("says what it is, under which license, and publishes its built files and changelog", () => {
        expect(pkg.manifest.description?.length ?? 0).toBeGreaterThan(20);
        expect(pkg.manifest.license).toBe("UNLICENSED");
        expect(pkg.manifest.files).toEqual(["dist", "CHANGELOG.md"]);
      });

      it("publishes every workspace entry, each with its declarations and ESM file in dist/", () => {
        const workspaceEntries = Object.keys(pkg.manifest.exports ?? {}).filter((s) => s !== "./bundle");
        expect(pkg.entries.map((e) => e.subpath).sort()).toEqual(workspaceEntries.sort());
        for (const entry of pkg.entries) {
          expect(entry.types).toMatch(/^\.\/dist\/.+\.d\.ts$/);
          expect(entry.import).toMatch(/^\.\/dist\/.+\.js$/);
        }
      });

      it("depends only on published packages of ours, by a caret range the pack turns into a version", () => {
        for (const [name, range] of Object.entries(pkg.manifest.dependencies ?? {})) {
          if (!name.startsWith("@svc/")) continue;
          expect(publishedNames.has(name), `${name} must be published too`).toBe(true);
          expect(range).toBe("workspace:^");
        }
        expect(pkg.manifest.peerDependencies ?? {}).toEqual({});
      });

      it("has a changelog whose newest entry is its version", () => {
        const changelog = readFileSync(path.join(pkg.dir, "CHANGELOG.md"), "utf8");
        expect(changelog.startsWith(`# ${pkg.name}\n`)).toBe(true);
        expect(/^## (\S+)$/m.exec(changelog)?.[1]).toBe(pkg.version);
      });

      it("has a README with an install line and an example that imports the package", () => {
        const readme = readFileSync(path.join(pkg.dir, "README.md"), "utf8");
        expect(readme).toContain(`pnpm add ${pkg.name}`);
        const example = readmeExample(readme);
        expect(example?.code).toMatch(new RegExp(`from "${pkg.name}(/[a-z]+)?"`));
      });

      it("has a committed API report for each entry", () => {
        for (const entry of pkg.entries) {
          expect(
            existsSync(path.join(pkg.dir, "api", `${reportBaseName(pkg.name, entry.subpath)}.api.md`)),
          ).toBe(true);
        }
      });
    });
  }
});

describe("helpers", () => {
  it("read the published entries, the report names and the tarball names", () => {
    expect(
      publishedEntries({
        name: "@x/y",
        version: "1.0.0",
        publishConfig: {
          exports: {
            ".": { types: "./dist/index.d.ts", import: "./dist/index.js" },
            "./raw": "./dist/raw.js",
            "./browser": { types: "./dist/browser.d.ts", import: "./dist/browser.js" },
          },
        },
      }).map((e) => e.subpath),
    ).toEqual([".", "./browser"]);
    expect(reportBaseName("@svc/sdk", "./browser")).toBe("sdk-browser");
    expect(reportBaseName("@svc/engines", ".")).toBe("engines");
    expect(tarballName("@svc/mse-catalog", "0.1.0")).toBe("svc-mse-catalog-0.1.0.tgz");
  });

  it("read a scope's registry from .npmrc, ignoring comments and other scopes", () => {
    const root = mkdtempSync(path.join(tmpdir(), "svc-npmrc-"));
    try {
      expect(scopeRegistry("@svc", root)).toBeNull();
      writeFileSync(
        path.join(root, ".npmrc"),
        "# @svc:registry=https://commented.example\n@other:registry=https://other.example\n @svc:registry = https://npm.example/x \n",
      );
      expect(scopeRegistry("@svc", root)).toBe("https://npm.example/x");
      expect(scopeRegistry("@none", root)).toBeNull();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("find the README example under its heading only, and mark browser ones", () => {
    const readme =
      "# x\n\n```ts\nnot this\n```\n\n## Example (browser)\n\nText.\n\n```ts\nthis();\n```\n\n## Next\n\n```ts\nnor this\n```\n";
    expect(readmeExample(readme)).toEqual({ code: "this();\n", browserOnly: true });
    expect(readmeExample("# x\n\n## Example\n\nno block\n\n## Next\n\n```ts\nlate();\n```\n")).toBeNull();
    expect(readmeExample("# x\n\n```ts\nx();\n```\n")).toBeNull();
  });

  it("find every example section with its label, each section's first block only", () => {
    const readme =
      "## Example\n\n```ts\nrun();\n```\n\n```ts\nnot this\n```\n\n## Example (webhook receiver)\n\n```ts\nserve();\n```\n\n## Example (browser)\n\n```ts\npage();\n```\n\n## Other\n\n```ts\nno();\n```\n";
    expect(readmeExamples(readme)).toEqual([
      { code: "run();\n", label: null },
      { code: "serve();\n", label: "webhook receiver" },
      { code: "page();\n", label: "browser" },
    ]);
  });
});
