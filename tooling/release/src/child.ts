import { spawnSync } from "node:child_process";

/**
 * Every child process the release tooling runs goes through here (decision 164): bounded in time
 * (killed with SIGKILL past `timeoutMs`, so a registry that never answers, such as one behind a
 * TLS proxy whose certificate Node does not trust, fails in minutes, not never), its output read
 * as UTF-8 text, and a failure described in words: the command, why it stopped (exit code,
 * signal, time limit, not found) and the end of what it printed, never a Buffer.
 */
export interface ChildOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
}

export interface ChildResult {
  ok: boolean;
  stdout: string;
  stderr: string;
  /** Why it failed, in words; empty when it succeeded. */
  reason: string;
}

/** The most of a child's output kept in a failure message (its end, where the error usually is). */
const OUTPUT_TAIL_CHARS = 4000;
/** The most output read from a child; past it the child is killed. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

export function runChild(command: string, args: readonly string[], options: ChildOptions): ChildResult {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: options.timeoutMs,
    killSignal: "SIGKILL",
    maxBuffer: MAX_OUTPUT_BYTES,
  });
  const stdout = typeof result.stdout === "string" ? result.stdout : "";
  const stderr = typeof result.stderr === "string" ? result.stderr : "";
  const code = (result.error as NodeJS.ErrnoException | undefined)?.code;
  let reason = "";
  if (code === "ETIMEDOUT")
    reason = `did not finish within ${Math.round(options.timeoutMs / 1000)} s and was killed`;
  else if (code === "ENOENT") reason = "was not found (is it installed and on PATH?)";
  else if (code === "ENOBUFS") reason = `printed more than ${MAX_OUTPUT_BYTES} bytes and was killed`;
  else if (result.error) reason = `could not run: ${result.error.message}`;
  else if (result.signal) reason = `was killed by ${result.signal}`;
  else if (result.status !== 0) reason = `exited with code ${result.status}`;
  return { ok: reason === "", stdout, stderr, reason };
}

/** A failure as one readable message: the command, why, and the end of its output. */
export function describeFailure(command: string, args: readonly string[], run: ChildResult): string {
  const output = `${run.stdout}${run.stderr}`.trim();
  const tail = output.length > OUTPUT_TAIL_CHARS ? `...${output.slice(-OUTPUT_TAIL_CHARS)}` : output;
  return `${[command, ...args].join(" ")} ${run.reason}${tail ? `:\n${tail}` : " (it printed nothing)"}`;
}

/** runChild that throws describeFailure's message when the child fails; its stdout otherwise. */
export function mustRun(command: string, args: readonly string[], options: ChildOptions): string {
  const run = runChild(command, args, options);
  if (!run.ok) throw new Error(describeFailure(command, args, run));
  return run.stdout;
}
