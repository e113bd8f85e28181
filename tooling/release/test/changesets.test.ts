import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../src/publishable.js";

/**
 * The release flow of decision 138 on a copy of the workspace's manifests and changelogs: a
 * changeset applied by `changeset version` bumps the package, writes its changelog, bumps a
 * dependant only when the new version leaves the dependant's published range, and never touches
 * an app or another private package.
 */
let copy: string | undefined;

function workspaceCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-changesets-"));
  copy = dir;
  for (const file of ["package.json", "pnpm-workspace.yaml"])
    cpSync(path.join(REPO_ROOT, file), path.join(dir, file));
  mkdirSync(path.join(dir, ".changeset"));
  cpSync(path.join(REPO_ROOT, ".changeset/config.json"), path.join(dir, ".changeset/config.json"));
  for (const group of ["packages", "apps", "tooling"]) {
    for (const folder of readdirSync(path.join(REPO_ROOT, group))) {
      for (const file of ["package.json", "CHANGELOG.md"]) {
        const source = path.join(REPO_ROOT, group, folder, file);
        if (!existsSync(source)) continue;
        mkdirSync(path.join(dir, group, folder), { recursive: true });
        cpSync(source, path.join(dir, group, folder, file));
      }
    }
  }
  return dir;
}

function versionWith(dir: string, changeset: string): void {
  writeFileSync(path.join(dir, ".changeset/a-change.md"), changeset);
  execFileSync(path.join(REPO_ROOT, "node_modules/.bin/changeset"), ["version"], { cwd: dir, stdio: "pipe" });
}

const manifest = (dir: string, folder: string) =>
  JSON.parse(readFileSync(path.join(dir, folder, "package.json"), "utf8")) as { version: string };
const changelog = (dir: string, folder: string) =>
  readFileSync(path.join(dir, folder, "CHANGELOG.md"), "utf8");

afterEach(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe("changeset version", () => {
  it("a patch bumps the package and its changelog; a dependant whose range still holds is left alone", () => {
    const dir = workspaceCopy();
    const before = manifest(dir, "packages/intelligence").version;
    versionWith(dir, '---\n"@svc/engines": patch\n---\n\nA fix in the relapse engine.\n');
    expect(manifest(dir, "packages/engines").version).toBe("0.1.1");
    expect(changelog(dir, "packages/engines")).toMatch(
      /^# @svc\/engines\n\n## 0\.1\.1\n\n### Patch Changes\n\n- A fix in the relapse engine\.\n\n## 0\.1\.0/,
    );
    expect(manifest(dir, "packages/intelligence").version).toBe(before);
    expect(existsSync(path.join(dir, ".changeset/a-change.md"))).toBe(false);
  });

  it("a minor of a 0.x package leaves the dependant's caret range, so the dependant is bumped with a note", () => {
    const dir = workspaceCopy();
    versionWith(dir, '---\n"@svc/engines": minor\n---\n\nA new engine input.\n');
    expect(manifest(dir, "packages/engines").version).toBe("0.2.0");
    expect(manifest(dir, "packages/intelligence").version).toBe("0.1.1");
    expect(changelog(dir, "packages/intelligence")).toContain(
      "- Updated dependencies\n  - @svc/engines@0.2.0",
    );
    expect(manifest(dir, "apps/intelligence-api").version).toBe(
      manifest(REPO_ROOT, "apps/intelligence-api").version,
    );
    expect(existsSync(path.join(dir, "apps/intelligence-api/CHANGELOG.md"))).toBe(false);
  });
});
