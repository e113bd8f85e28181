import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The repository root (this file is tooling/release/src/publishable.ts). */
export const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");

/** One subpath of a published package: what `exports` points a consumer at once packed. */
export interface PublishedEntry {
  /** "." or "./browser". */
  subpath: string;
  types: string;
  import: string;
}

export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  description?: string;
  license?: string;
  files?: string[];
  exports?: Record<string, unknown>;
  publishConfig?: { registry?: string; exports?: Record<string, unknown> };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

export interface PublishablePackage {
  name: string;
  version: string;
  /** Absolute path of the package folder. */
  dir: string;
  manifest: Manifest;
  /** Entries with their type declarations (an export without `types`, such as a raw bundle, is left out). */
  entries: PublishedEntry[];
}

/**
 * The registry the workspace's `.npmrc` maps a scope to (`@svc:registry=<url>`), or null when it
 * maps none (decision 156).
 */
export function scopeRegistry(scope: string, root = REPO_ROOT): string | null {
  const npmrc = path.join(root, ".npmrc");
  if (!existsSync(npmrc)) return null;
  for (const line of readFileSync(npmrc, "utf8").split("\n")) {
    const match = /^\s*([^#;=\s]+):registry\s*=\s*(\S+)\s*$/.exec(line);
    if (match?.[1] === scope) return match[2] ?? null;
  }
  return null;
}

/**
 * The workspace packages that are published: every `packages/*` package not marked `private`
 * (decision 137). The flag in each package.json is the one list; nothing here names a package.
 */
export function listPublishable(root = REPO_ROOT): PublishablePackage[] {
  const packagesDir = path.join(root, "packages");
  return readdirSync(packagesDir)
    .map((folder) => path.join(packagesDir, folder))
    .filter((dir) => existsSync(path.join(dir, "package.json")))
    .map((dir) => ({
      dir,
      manifest: JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest,
    }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ dir, manifest }) => ({
      name: manifest.name,
      version: manifest.version,
      dir,
      manifest,
      entries: publishedEntries(manifest),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The `exports` a consumer sees once packed (`publishConfig.exports` replaces the workspace's). */
export function publishedEntries(manifest: Manifest): PublishedEntry[] {
  const exportsMap = manifest.publishConfig?.exports ?? {};
  return Object.entries(exportsMap).flatMap(([subpath, target]) => {
    if (target === null || typeof target !== "object") return [];
    const { types, import: importPath } = target as { types?: unknown; import?: unknown };
    return typeof types === "string" && typeof importPath === "string"
      ? [{ subpath, types, import: importPath }]
      : [];
  });
}

/** "@svc/engines" -> "engines"; "./browser" adds "-browser" (the API report's file name). */
export function reportBaseName(packageName: string, subpath: string): string {
  const unscoped = packageName.replace(/^@[^/]+\//, "");
  return subpath === "." ? unscoped : `${unscoped}-${subpath.replace(/^\.\//, "").replaceAll("/", "-")}`;
}

/** The file name `pnpm pack` gives a package: "@svc/engines"@0.1.0 -> "svc-engines-0.1.0.tgz". */
export function tarballName(name: string, version: string): string {
  return `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
}
