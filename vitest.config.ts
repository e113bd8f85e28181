import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
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
