import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { compiledEntry } from "./compiled.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** What one run of the operator CLI printed, and its exit code. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The operator CLI as `pnpm svc` runs it: the compiled bundle (`pnpm build`, which the test command
 * runs first), about half the start-up time of its sources through tsx on every call.
 */
export function svcCliCommand(args: readonly string[]): { command: string; args: string[] } {
  const entry = compiledEntry(root, "tooling/cli/dist/main.js");
  return { command: entry.command, args: [...entry.args, ...args] };
}

/**
 * `pnpm svc <args>` as the tests run it: the compiled CLI, from the repository root, against
 * `databaseUrl`, logs silenced, with `env` on top (e.g. REDIS_URL, PUBLIC_BASE_URL).
 */
export function runSvcCli(
  databaseUrl: string,
  args: readonly string[],
  env: Record<string, string> = {},
): CliRun {
  const cli = svcCliCommand(args);
  const result = spawnSync(cli.command, cli.args, {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * What a `--json` command that succeeded printed: exit 0, nothing on stderr, exactly one JSON line
 * on stdout (parsed). Throws, failing the test, with what it printed otherwise.
 */
export function cliJsonAnswer(out: CliRun): unknown {
  const lines = out.stdout.trim().split("\n");
  if (out.code !== 0 || out.stderr !== "" || lines.length !== 1) {
    throw new Error(`expected exit 0, no stderr and one JSON line; got ${JSON.stringify(out)}`);
  }
  return JSON.parse(lines[0] as string);
}

/**
 * The message of a `--json` command that refused: exit 1, nothing on stdout, and `{ "error": ... }`
 * alone on stderr. Throws, failing the test, with what it printed otherwise.
 */
export function cliJsonRefusal(out: CliRun): string {
  const body = out.code === 1 && out.stdout === "" ? (JSON.parse(out.stderr.trim()) as unknown) : undefined;
  const keys = body !== null && typeof body === "object" ? Object.keys(body) : [];
  if (keys.length !== 1 || keys[0] !== "error") {
    throw new Error(`expected exit 1, no stdout and { error } on stderr; got ${JSON.stringify(out)}`);
  }
  return String((body as { error: unknown }).error);
}
