import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { apiReports, withoutChunkHashes } from "../src/api-report.js";
import { listPublishable, type PublishablePackage } from "../src/publishable.js";

/**
 * The API report check on a copy of a small published package (@svc/ids: its built declarations
 * and committed report): a changed public signature must be reported with its diff and must not
 * touch the committed report; `update` rewrites it. Needs the packages built.
 */
const ids = listPublishable().find((p) => p.name === "@svc/ids");
let copy: string | undefined;

function copyOfIds(): PublishablePackage {
  if (!ids) throw new Error("@svc/ids is not published");
  copy = mkdtempSync(path.join(tmpdir(), "svc-api-report-test-"));
  for (const part of ["package.json", "dist", "api"])
    cpSync(path.join(ids.dir, part), path.join(copy, part), { recursive: true });
  return { ...ids, dir: copy };
}

afterEach(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe("API reports", () => {
  it("a public signature using a type the entry does not export is an error (a consumer cannot name it)", () => {
    const pkg = copyOfIds();
    const declarations = path.join(pkg.dir, "dist/index.d.ts");
    writeFileSync(
      declarations,
      readFileSync(declarations, "utf8").replace(
        "export { ID_PREFIXES, type IdPrefix,",
        "export { ID_PREFIXES,",
      ),
    );
    const [result] = apiReports(pkg, pkg.dir, { update: false });
    expect(result?.errors.join("\n")).toMatch(/ae-forgotten-export[\s\S]*IdPrefix/);
  }, 60_000);

  it("the committed report of the built package matches", () => {
    const pkg = copyOfIds();
    const [result] = apiReports(pkg, pkg.dir, { update: false });
    expect(result).toMatchObject({ subpath: ".", changed: false, diff: "", errors: [] });
  }, 60_000);

  it("a changed public signature is reported with its diff, and the committed report is left alone", () => {
    const pkg = copyOfIds();
    const declarations = path.join(pkg.dir, "dist/index.d.ts");
    const report = path.join(pkg.dir, "api/ids.api.md");
    const before = readFileSync(report, "utf8");
    writeFileSync(
      declarations,
      readFileSync(declarations, "utf8").replace(
        "declare function isId(prefix: IdPrefix, value: string): boolean;",
        "declare function isId(prefix: IdPrefix, value: string, strict: boolean): boolean;",
      ),
    );
    const [result] = apiReports(pkg, pkg.dir, { update: false });
    expect(result?.changed).toBe(true);
    expect(result?.diff).toContain(
      "+export function isId(prefix: IdPrefix, value: string, strict: boolean): boolean;",
    );
    expect(result?.diff).toContain("-export function isId(prefix: IdPrefix, value: string): boolean;");
    expect(readFileSync(report, "utf8")).toBe(before);

    const [updated] = apiReports(pkg, pkg.dir, { update: true });
    expect(updated?.changed).toBe(true);
    expect(readFileSync(report, "utf8")).toContain("strict: boolean");
    expect(apiReports(pkg, pkg.dir, { update: false })[0]?.changed).toBe(false);
  }, 60_000);
});

describe("declaration chunk hashes in a report", () => {
  it("are read as <hash>, so a reworded comment in a shared chunk is no change but a renamed chunk is", () => {
    const report = (chunk: string) =>
      `import { A as AnalysisCall } from './${chunk}.js';\nimport { q as RedirectError } from './${chunk}.js';\n`;
    expect(withoutChunkHashes(report("errors-BaYBhaUa"))).toBe(withoutChunkHashes(report("errors-Czs2BCL7")));
    expect(withoutChunkHashes(report("errors-a-b_cdef"))).toContain("from './errors-<hash>.js'");
    expect(withoutChunkHashes(report("analysis-call-Czs2BCL7"))).toContain(
      "from './analysis-call-<hash>.js'",
    );
    expect(withoutChunkHashes(report("errors-BaYBhaUa"))).not.toBe(
      withoutChunkHashes(report("client-BaYBhaUa")),
    );
  });
});
