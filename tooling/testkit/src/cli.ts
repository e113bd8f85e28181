import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** What one run of the operator CLI printed, and its exit code. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `pnpm svc <args>` as the tests run it: the CLI's sources through tsx, from the repository root,
 * against `databaseUrl`, logs silenced, with `env` on top (e.g. REDIS_URL, PUBLIC_BASE_URL).
 */
export function runSvcCli(
  databaseUrl: string,
  args: readonly string[],
  env: Record<string, string> = {},
): CliRun {
  const result = spawnSync(`${root}node_modules/.bin/tsx`, [`${root}tooling/cli/src/main.ts`, ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
