/**
 * What the deployment checks and the CI workflow checks share: the runnable apps with their
 * compiled entry points, and the Dockerfile read into stages.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const deployDir = path.resolve(import.meta.dirname, "..");
export const repoRoot = path.resolve(deployDir, "..");

/** Every long-running app process, by its folder under apps/ (the one-shot migration is MIGRATE_COMMAND). */
export const APPS = {
  "intelligence-api": "apps/intelligence-api/dist/main.js",
  "mse-record-api": "apps/mse-record-api/dist/main.js",
  "webhook-worker": "apps/webhook-worker/dist/main.js",
  dashboard: "apps/dashboard/dist/main.js",
} as const;
export type AppName = keyof typeof APPS;

export const MIGRATE_COMMAND = ["node", "--enable-source-maps", "tooling/cli/dist/main.js", "migrate"];

/** The folders under apps/ that hold a workspace package (what CI must build one by one). */
export function appFolders(): string[] {
  const appsDir = path.join(repoRoot, "apps");
  return readdirSync(appsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(appsDir, entry.name, "package.json")))
    .map((entry) => entry.name)
    .sort();
}

/** The `name` in apps/<folder>/package.json. */
export function appPackageName(folder: string): string {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, "apps", folder, "package.json"), "utf8"));
  return String(manifest.name);
}

export const dockerfile = readFileSync(path.join(deployDir, "Dockerfile"), "utf8");

/** The Dockerfile's stages, each from its FROM line to the next. */
export function dockerStages(): string[] {
  return dockerfile.split(/^(?=FROM\s)/m).filter((stage) => stage.startsWith("FROM"));
}

/** The last stage of the Dockerfile: the image that runs. */
export function runtimeStage(): string {
  const stages = dockerStages();
  return stages[stages.length - 1] as string;
}

/** One stage's instructions of a kind (RUN, ENV, CMD, ...), continuation lines joined. */
export function instructions(stage: string, kind: string): string[] {
  return stage
    .replace(/\\\n/g, " ")
    .split("\n")
    .filter((line) => line.startsWith(`${kind} `))
    .map((line) => line.slice(kind.length + 1).trim());
}
