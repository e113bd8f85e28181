import { defineConfig } from "vitest/config";

// Lets `pnpm exec vitest run -c deploy/vitest.config.ts` run the deploy checks on their own; the
// root vitest.config.ts runs them with everything else once its `include` names deploy/test.
export default defineConfig({
  root: import.meta.dirname,
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
  },
});
