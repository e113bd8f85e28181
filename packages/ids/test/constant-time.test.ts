import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { constantTimeEqual } from "../src/index.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const SKIP = new Set(["node_modules", "dist", ".git", ".tools", ".turbo", "coverage"]);

/** Source files under `dir` that call Node's timingSafeEqual, relative to the repository. */
function timingSafeEqualCallers(dir: string, read = (file: string) => readFileSync(file, "utf8")): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...timingSafeEqualCallers(full, read));
    else if (/\.(ts|tsx|js|mjs)$/.test(entry.name) && /\btimingSafeEqual\s*\(/.test(read(full)))
      found.push(path.relative(ROOT, full));
  }
  return found;
}

describe("constantTimeEqual", () => {
  it("is true for equal strings only", () => {
    expect(constantTimeEqual("a1b2", "a1b2")).toBe(true);
    expect(constantTimeEqual("a1b2", "a1b3")).toBe(false);
    expect(constantTimeEqual("a1b2", "a1b")).toBe(false);
    expect(constantTimeEqual("", "")).toBe(true);
    expect(constantTimeEqual("é", "e\u0301")).toBe(false);
  });

  it("is the repository's one constant-time comparison: nothing else calls timingSafeEqual", () => {
    const callers = ["apps", "packages", "tooling"].flatMap((top) =>
      timingSafeEqualCallers(path.join(ROOT, top)),
    );
    // The SDK checks signatures with @svc/webhooks, which compares with this one (decision 154).
    expect(callers.sort()).toEqual(["packages/ids/src/index.ts"]);
  });

  it("the scan finds a second comparison (the guard above fails on one)", () => {
    const file = path.join(ROOT, "packages/ids/src/index.ts");
    const withSecond = (f: string) =>
      f === file
        ? readFileSync(f, "utf8")
        : f.endsWith("keys.ts")
          ? `export const same = (a: Buffer, b: Buffer) => ${["timingSafe", "Equal"].join("")}(a, b);`
          : "";
    expect(timingSafeEqualCallers(path.join(ROOT, "packages"), withSecond)).toContain(
      "packages/db/src/keys.ts",
    );
  });
});
