import { existsSync } from "node:fs";

/**
 * The command that runs a compiled entry the way production does (`node --enable-source-maps
 * <dist>.js`), e.g. `compiledEntry(root, "tooling/cli/dist/start.js")`. The bundles come from
 * `pnpm build`, which the test command runs first; a missing one is a clear failure, not a skip.
 */
export function compiledEntry(root: string, relativePath: string): { command: string; args: string[] } {
  const file = `${root}${relativePath}`;
  if (!existsSync(file)) throw new Error(`${relativePath} is missing: run \`pnpm build\` first.`);
  return { command: process.execPath, args: ["--enable-source-maps", file] };
}
