import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { mustRun } from "./child.js";
import { packPackage } from "./pack.js";
import { type PublishablePackage, REPO_ROOT } from "./publishable.js";

/**
 * A project outside the workspace that installs the packed packages as another team would:
 * from tarballs, TypeScript strict with `module: nodenext`, no path into this repository.
 * Each package's README examples become files of it (decision 140).
 */
export interface ConsumerProject {
  dir: string;
  /** Each published package's tarball, by package name. */
  tarballs: Map<string, string>;
  /** README examples written into the project: `examples/<package>[-<label>].ts`. */
  examples: ReadmeExample[];
}

export interface ReadmeExample {
  packageName: string;
  file: string;
  /**
   * Under "## Example (<label>)": typechecked here, never run (a browser page, a server that keeps
   * listening). Under "## Example": typechecked and run.
   */
  typecheckOnly: boolean;
}

/**
 * The first ```ts block of each "## Example" section of a README, in order, with the section's
 * label: null for "## Example", `browser` for "## Example (browser)", and so on.
 */
export function readmeExamples(readme: string): { code: string; label: string | null }[] {
  const examples: { code: string; label: string | null }[] = [];
  for (const heading of readme.matchAll(/^## Example(?: \(([^)\n]+)\))?[ \t]*$/gm)) {
    const rest = readme.slice(heading.index + heading[0].length);
    const nextHeading = rest.search(/^## /m);
    const section = nextHeading === -1 ? rest : rest.slice(0, nextHeading);
    const block = /```ts\n([\s\S]*?)```/.exec(section);
    if (block?.[1]) examples.push({ code: block[1], label: heading[1] ?? null });
  }
  return examples;
}

/** The first ```ts block under the README's first "## Example" heading, or null when it has none. */
export function readmeExample(readme: string): { code: string; browserOnly: boolean } | null {
  const [first] = readmeExamples(readme);
  return first ? { code: first.code, browserOnly: first.label === "browser" } : null;
}

/** Where a published package sits once installed in the consumer project. */
export function installedPackageDir(project: ConsumerProject, name: string): string {
  return path.join(project.dir, "node_modules", name);
}

/** The version of a tool the workspace itself installed (the consumer uses the same TypeScript). */
function workspaceVersion(name: string): string {
  const manifest = path.join(REPO_ROOT, "node_modules", name, "package.json");
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2023",
    lib: ["es2023", "dom"],
    types: ["node"],
    noEmit: true,
    // The published declarations are checked too, as a consumer's stricter build would.
    skipLibCheck: false,
    erasableSyntaxOnly: true,
    verbatimModuleSyntax: true,
    noUncheckedIndexedAccess: true,
  },
  include: ["*.ts", "examples/*.ts"],
};

function slug(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** Write the project's files: package.json (tarballs, pinned to themselves), tsconfig, examples. */
function writeProject(
  dir: string,
  packages: PublishablePackage[],
  tarballs: Map<string, string>,
): ReadmeExample[] {
  const fromTarballs = Object.fromEntries(packages.map((p) => [p.name, `file:${tarballs.get(p.name)}`]));
  const manifest = {
    name: "svc-consumer",
    private: true,
    type: "module",
    dependencies: fromTarballs,
    devDependencies: {
      typescript: workspaceVersion("typescript"),
      "@types/node": workspaceVersion("@types/node"),
    },
    // A package's dependency on another of ours (intelligence -> engines) resolves to the tarball,
    // never to a registry that may hold a different package under the same name.
    pnpm: { overrides: fromTarballs },
  };
  writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(path.join(dir, "tsconfig.json"), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  mkdirSync(path.join(dir, "examples"));
  return packages.flatMap((pkg) => {
    const base = pkg.name.replace(/^@[^/]+\//, "");
    const examples = readmeExamples(readFileSync(path.join(pkg.dir, "README.md"), "utf8"));
    return examples.map((example, i) => {
      const suffix = example.label === null ? (i === 0 ? "" : `-${i + 1}`) : `-${slug(example.label)}`;
      const file = path.join("examples", `${base}${suffix}.ts`);
      writeFileSync(path.join(dir, file), example.code);
      return { packageName: pkg.name, file, typecheckOnly: example.label !== null };
    });
  });
}

/**
 * Pack every published package, write the consumer project in `dir` (outside the workspace),
 * and install it with pnpm from the tarballs (other dependencies from the store when there).
 */
export function createConsumerProject(
  dir: string,
  packages: PublishablePackage[],
  extraFiles: Record<string, string> = {},
): ConsumerProject {
  const packDir = path.join(dir, ".packs");
  mkdirSync(packDir);
  const tarballs = new Map(packages.map((p) => [p.name, packPackage(p, packDir)]));
  const examples = writeProject(dir, packages, tarballs);
  for (const [name, text] of Object.entries(extraFiles)) writeFileSync(path.join(dir, name), text);
  const storeDir = mustRun("pnpm", ["store", "path"], { cwd: REPO_ROOT, timeoutMs: 60_000 }).trim();
  // Mostly from the store; what is not there comes from the registry: ten minutes at most.
  mustRun("pnpm", ["install", "--prefer-offline", "--store-dir", storeDir, "--reporter", "append-only"], {
    cwd: dir,
    env: { ...process.env, CI: "true" },
    timeoutMs: 600_000,
  });
  return { dir, tarballs, examples };
}
