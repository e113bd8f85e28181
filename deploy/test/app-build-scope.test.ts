import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { type PackageManifest, workspaceClosure, workspaceManifests } from "@svc/testkit/workspace";
import { describe, expect, it } from "vitest";
import { appFolders, appPackageName, repoRoot } from "./apps.js";

/**
 * CI builds each app alone (`turbo run build --filter=@svc/<app>...`, decision 136). That proves
 * something only if turbo's scope is the app's own declared workspace dependencies: anything the
 * root package.json depends on joins every package's scope, and a dependency on the test kit
 * brings the launcher and every app with it. This asks turbo for its plan (a dry run, nothing is
 * built) and compares it with the closure read from the package.json files.
 */
function turboScope(name: string): string[] {
  const out = execFileSync(
    path.join(repoRoot, "node_modules/.bin/turbo"),
    ["run", "build", `--filter=${name}...`, "--dry=json"],
    {
      cwd: repoRoot,
      encoding: "utf8",
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
    },
  );
  return (JSON.parse(out) as { packages: string[] }).packages.sort();
}

describe("each app's CI build covers the app and its declared dependencies only", () => {
  const manifests = workspaceManifests(repoRoot);

  it("the root package.json depends on no workspace package", () => {
    const root = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as PackageManifest;
    const ours = Object.keys({ ...root.dependencies, ...root.devDependencies }).filter((d) =>
      manifests.has(d),
    );
    expect(ours).toEqual([]);
  });

  for (const folder of appFolders()) {
    const name = appPackageName(folder);
    it(`${name}: turbo's build scope is its declared closure, with no other app, the launcher or the test kit`, () => {
      const scope = turboScope(name);
      expect(scope).toEqual([...workspaceClosure(name, manifests, { includeDev: true }).keys()].sort());
      expect(
        scope.filter(
          (p) => p.startsWith("@svc/") && p !== name && appFolders().some((f) => appPackageName(f) === p),
        ),
      ).toEqual([]);
      expect(scope).not.toContain("@svc/cli");
      expect(scope).not.toContain("@svc/testkit");
    }, 60_000);
  }
});
