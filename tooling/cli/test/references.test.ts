import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The repository stands on its own: its comments and documents cite `docs/decisions.md` entries
 * (that exist) or give the reason, never a tracker's issue number or a file outside the
 * repository, which a newcomer cannot open.
 */
const root = fileURLToPath(new URL("../../../", import.meta.url));
const TEXT_FILE = /\.(ts|tsx|mts|js|mjs|md|sh|yml|yaml|css)$/;

function trackedTextFiles(): { path: string; text: string }[] {
  return execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter((path) => TEXT_FILE.test(path) && !path.endsWith("CHANGELOG.md"))
    .flatMap((path) => {
      try {
        return [{ path, text: readFileSync(root + path, "utf8") }];
      } catch {
        return []; // listed but deleted in the working tree
      }
    });
}

/** Each line of `text` matching `pattern`, as `path:line: text`. */
function linesMatching(files: { path: string; text: string }[], pattern: RegExp): string[] {
  return files.flatMap(({ path, text }) =>
    text
      .split("\n")
      .flatMap((line, index) => (pattern.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
  );
}

/** Every number a line cites as a decision: "decision 12", "decisions 12 and 20", "decisions 60-63". */
function citedDecisions(line: string): number[] {
  const cited: number[] = [];
  for (const match of line.matchAll(/\bdecisions? ((?:\d+(?:-\d+)?(?:, | and | or |, and )?)+)/g)) {
    for (const part of (match[1] ?? "").matchAll(/(\d+)(?:-(\d+))?/g)) {
      const from = Number(part[1]);
      const to = part[2] ? Number(part[2]) : from;
      for (let n = from; n <= to; n += 1) cited.push(n);
    }
  }
  return cited;
}

describe("references a newcomer can follow", () => {
  const files = trackedTextFiles();

  it("reads the repository's text files", () => {
    expect(files.length).toBeGreaterThan(300);
  });

  it("cites no tracker issue and no file outside the repository", () => {
    const issueNumber = /\b[Ii]ssues? #?\d+\b|\b(stated|named|said) in the issue\b/;
    const outside = /\.\.\/shared\/|interface-spec\.md/;
    const here = "tooling/cli/test/references.test.ts";
    const found = linesMatching(
      files.filter(({ path }) => path !== here),
      new RegExp(`${issueNumber.source}|${outside.source}`),
    );
    // The README included: a newcomer's first page points only inside the repository.
    expect(found).toEqual([]);
  });

  it("every decision cited exists in docs/decisions.md", () => {
    const decisions = readFileSync(`${root}docs/decisions.md`, "utf8");
    const recorded = new Set([...decisions.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1])));
    expect(recorded.size).toBeGreaterThan(90);
    const unknown = files.flatMap(({ path, text }) =>
      text.split("\n").flatMap((line, index) =>
        citedDecisions(line)
          .filter((n) => !recorded.has(n))
          .map((n) => `${path}:${index + 1}: decision ${n}`),
      ),
    );
    expect(unknown).toEqual([]);
  });

  it("reads decision citations the ways they are written", () => {
    expect(citedDecisions("as decision 12 says")).toEqual([12]);
    expect(citedDecisions("(decisions 12 and 20; DESIGN ruling 21)")).toEqual([12, 20]);
    expect(citedDecisions("decisions 60-63, 64 and 65")).toEqual([60, 61, 62, 63, 64, 65]);
    expect(citedDecisions("no decision here")).toEqual([]);
  });
});
