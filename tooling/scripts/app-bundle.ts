import { cpSync } from "node:fs";
import path from "node:path";
import { defineConfig, type Options } from "tsup";

/**
 * The production build of a runnable entry (an app's `main.ts`, the launcher, the operator CLI):
 * one ESM file per entry with source maps, our own `@svc/*` packages compiled in, every
 * third-party package left to `node_modules` (PGlite and BullMQ load files next to their own
 * modules, so they must not be bundled). The committed migrations are copied beside the bundle,
 * where `@svc/db` looks for them first.
 */
export function appBundle(entry: Record<string, string>): Options {
  const migrations = path.resolve(import.meta.dirname, "../../packages/db/drizzle");
  return defineConfig({
    entry,
    format: "esm",
    platform: "node",
    target: "node24",
    sourcemap: true,
    clean: true,
    splitting: false,
    dts: false,
    noExternal: [/^@svc\//, /^drizzle-orm(\/|$)/],
    // Anything that is neither relative, one of ours nor drizzle-orm stays an import.
    external: [/^(?!@svc\/|drizzle-orm(\/|$))[^./]/],
    async onSuccess() {
      cpSync(migrations, path.resolve("dist/drizzle"), { recursive: true });
    },
  }) as Options;
}
