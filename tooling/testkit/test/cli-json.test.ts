import { describe, expect, it } from "vitest";
import { cliJsonAnswer, cliJsonRefusal } from "../src/cli.js";

/** The CLI tests' two readings of `--json` output fail on anything but the documented shape. */
describe("cliJsonAnswer / cliJsonRefusal", () => {
  it("read the one JSON line of a success and the error of a refusal", () => {
    expect(cliJsonAnswer({ code: 0, stdout: '{"id":"cdscl_1"}\n', stderr: "" })).toEqual({ id: "cdscl_1" });
    expect(cliJsonRefusal({ code: 1, stdout: "", stderr: '{"error":"no such client"}\n' })).toBe(
      "no such client",
    );
  });

  it("throw on a wrong exit code, output on the other stream, two lines or extra keys", () => {
    expect(() => cliJsonAnswer({ code: 1, stdout: "{}", stderr: "" })).toThrow(/exit 0/);
    expect(() => cliJsonAnswer({ code: 0, stdout: "{}", stderr: "warning" })).toThrow(/no stderr/);
    expect(() => cliJsonAnswer({ code: 0, stdout: "{}\n{}", stderr: "" })).toThrow(/one JSON line/);
    expect(() => cliJsonRefusal({ code: 0, stdout: "", stderr: '{"error":"x"}' })).toThrow(/exit 1/);
    expect(() => cliJsonRefusal({ code: 1, stdout: "partial", stderr: '{"error":"x"}' })).toThrow(
      /no stdout/,
    );
    expect(() => cliJsonRefusal({ code: 1, stdout: "", stderr: '{"error":"x","stack":"..."}' })).toThrow(
      /\{ error \}/,
    );
  });
});
