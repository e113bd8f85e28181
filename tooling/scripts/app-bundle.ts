import { cpSync, existsSync } from "node:fs";
import path from "node:path";
import { defineConfig, type Options } from "tsup";

/**
 * The production build of a runnable entry (an app's `main.ts`, the launcher, the operator CLI):
 * one ESM file per entry with source maps, our own `@svc/*` packages compiled in, every
 * third-party package left to `node_modules` (PGlite and BullMQ load files next to their own
 * modules, so they must not be bundled). drizzle-orm and better-auth's drizzle adapter are the
 * exceptions: importing drizzle-orm's root module from node_modules costs ~190 MB of heap at start,
 * bundled only the parts used remain. The committed migrations are copied beside the bundle, where
 * `@svc/db` looks for them first.
 */
/** Compiled into the bundle: our packages, drizzle-orm and better-auth's drizzle adapter. */
const BUNDLED =
  /^(@svc\/|drizzle-orm(\/|$)|better-auth\/adapters\/drizzle$|@better-auth\/drizzle-adapter(\/|$))/;

export function appBundle(entry: Record<string, string>): Options {
  const migrations = path.join(workspaceRoot(process.cwd()), "packages/db/drizzle");
  return defineConfig({
    entry,
    format: "esm",
    platform: "node",
    target: "node24",
    sourcemap: true,
    clean: true,
    splitting: false,
    dts: false,
    noExternal: [BUNDLED],
    // Anything that is neither relative nor bundled stays an import (BUNDLED without its "^",
    // as a negative lookahead).
    external: [new RegExp(`^(?!${BUNDLED.source.slice(1)})[^./]`)],
    async onSuccess() {
      cpSync(migrations, path.resolve("dist/drizzle"), { recursive: true });
    },
  }) as Options;
}

/** The monorepo's root above `from` (tsup runs a bundled copy of the config, so its own location says nothing). */
function workspaceRoot(from: string): string {
  let dir = path.resolve(from);
  while (!existsSync(path.join(dir, "pnpm-workspace.yaml"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no pnpm-workspace.yaml above ${from}`);
    dir = parent;
  }
  return dir;
}
