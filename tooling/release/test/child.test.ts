import { describe, expect, it } from "vitest";
import { describeFailure, mustRun, runChild } from "../src/child.js";

/**
 * The release tooling's children (decision 164): a child that hangs, as `pnpm install` does when a
 * TLS proxy's certificate is not trusted, is killed at its time limit, and every failure reads as
 * text naming the command, why it stopped and what it printed.
 */
const node = process.execPath;

describe("runChild", () => {
  it("kills a child that outlives its time limit and says so, with what it printed", () => {
    const started = Date.now();
    const run = runChild(
      node,
      ["-e", 'process.stdout.write("waiting for the registry\\n"); setTimeout(() => {}, 60_000)'],
      { timeoutMs: 1_000 },
    );
    // Bounded: nowhere near the child's 60 s.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(run.ok).toBe(false);
    expect(run.reason).toBe("did not finish within 1 s and was killed");
    const message = describeFailure("pnpm", ["install"], run);
    expect(message).toBe("pnpm install did not finish within 1 s and was killed:\nwaiting for the registry");
  });

  it("a failing child's output is text, never a Buffer", () => {
    const script =
      'process.stderr.write("ERR_PNPM_FETCH self-signed certificate in certificate chain\\n"); process.exit(1)';
    expect(() => mustRun(node, ["-e", script], { timeoutMs: 30_000 })).toThrowError(
      /-e .* exited with code 1:\nERR_PNPM_FETCH self-signed certificate in certificate chain$/,
    );
    try {
      mustRun(node, ["-e", script], { timeoutMs: 30_000 });
    } catch (error) {
      expect(String(error)).not.toMatch(/Buffer|<[0-9a-f]{2} /);
    }
  });

  it("a command that is not installed, and a child killed by a signal, are named", () => {
    expect(runChild("svc-no-such-command", [], { timeoutMs: 5_000 }).reason).toBe(
      "was not found (is it installed and on PATH?)",
    );
    const killed = runChild(node, ["-e", 'process.kill(process.pid, "SIGTERM")'], { timeoutMs: 30_000 });
    expect(killed.reason).toBe("was killed by SIGTERM");
    expect(mustRun(node, ["-e", 'process.stdout.write("ok")'], { timeoutMs: 30_000 })).toBe("ok");
  });
});
