import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Tests anywhere in the workspace import the test kit without declaring it: a declared dependency
 * (or the root's) would put the test kit, and through it the launcher and every app, into each
 * app's build graph (`turbo run build --filter=<app>...`, decision 136). The same paths are in
 * tsconfig.base.json for the typecheck.
 */
const testkit = path.join(import.meta.dirname, "tooling/testkit/src");

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@svc\/testkit$/, replacement: path.join(testkit, "index.ts") },
      { find: /^@svc\/testkit\/fhir$/, replacement: path.join(testkit, "fhir-validation.ts") },
      { find: /^@svc\/testkit\/workspace$/, replacement: path.join(testkit, "workspace.ts") },
      { find: /^@svc\/testkit\/vitest$/, replacement: path.join(testkit, "vitest.ts") },
    ],
  },
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "apps/*/test/**/*.test.ts",
      "tooling/*/test/**/*.test.ts",
      "deploy/test/**/*.test.ts",
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default (CPUs - 1) is one file at a time on a 2-core machine, though most files
    // spend their time waiting on PostgreSQL, Redis, browsers and child processes: two at a time
    // halved the suite here (919 s -> 458 s, every test passing).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
