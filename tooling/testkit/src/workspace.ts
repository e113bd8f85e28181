import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The workspace's package manifests and the closures between them, read from the package.json
 * files: what the boundary checks (decision 103) and the app build-scope check (decision 136)
 * compare against. No I/O beyond reading manifests.
 */
export interface PackageManifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

export interface WorkspaceManifest extends PackageManifest {
  /** The folder, relative to the repository root (`apps/dashboard`). */
  dir: string;
}

/** Every workspace package under packages/, apps/ and tooling/, by name. */
export function workspaceManifests(root: string): Map<string, WorkspaceManifest> {
  const manifests = new Map<string, WorkspaceManifest>();
  for (const top of ["packages", "apps", "tooling"]) {
    for (const entry of readdirSync(path.join(root, top), { withFileTypes: true })) {
      const dir = path.join(top, entry.name);
      const file = path.join(root, dir, "package.json");
      if (!entry.isDirectory() || !existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, "utf8")) as Omit<WorkspaceManifest, "dir">;
      manifests.set(manifest.name, { ...manifest, dir });
    }
  }
  return manifests;
}

/**
 * Every package `name` reaches through `workspace:` dependencies, itself included, each with the
 * path it was reached by (`@svc/records > @svc/ehr-gateway`). `devDependencies` count when
 * `includeDev` is set, as they do for turbo's build graph.
 */
export function workspaceClosure(
  name: string,
  manifests: ReadonlyMap<string, PackageManifest>,
  options: { includeDev?: boolean } = {},
): Map<string, string> {
  const reached = new Map<string, string>([[name, name]]);
  const queue = [name];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const m = manifests.get(next);
    if (!m) throw new Error(`no workspace package ${next}`);
    const deps = { ...m.dependencies, ...(options.includeDev ? m.devDependencies : {}) };
    for (const [dep, version] of Object.entries(deps)) {
      if (!version.startsWith("workspace:") || reached.has(dep)) continue;
      reached.set(dep, `${reached.get(next)} > ${dep}`);
      queue.push(dep);
    }
  }
  return reached;
}
