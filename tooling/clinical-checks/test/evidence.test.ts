import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ENGINE_DESCRIPTORS } from "@svc/intelligence";
import { describe, expect, it } from "vitest";
import { engineEvidenceProblems, readMarkdownTables } from "../src/index.js";

const path = fileURLToPath(new URL("../../../docs/engines/evidence.md", import.meta.url));
const rows = readMarkdownTables(readFileSync(path, "utf8"));
const LEVELS = new Set(["published cut-off", "derived", "expert-set"]);

describe("docs/engines/evidence.md", () => {
  it("gives every row a value, a known evidence level and a source", () => {
    const withConstant = rows.filter((r) => r.cells.Constant !== undefined);
    expect(withConstant.length).toBeGreaterThan(90);
    for (const r of withConstant) {
      expect(LEVELS.has(r.cells.Level ?? ""), `${r.cells.Constant}: level "${r.cells.Level}"`).toBe(true);
      expect((r.cells.Source ?? "").length, `${r.cells.Constant}: source`).toBeGreaterThan(5);
      expect((r.cells.Value ?? "").length, `${r.cells.Constant}: value`).toBeGreaterThan(0);
    }
  });

  it("lists every default parameter of every engine with its value", () => {
    // Every engine of the registry, so a new engine without evidence fails here (decision 101).
    // The tables are generated (decision 217), so this holds once each engine has its block.
    expect(engineEvidenceProblems(rows, ENGINE_DESCRIPTORS)).toEqual([]);
  });
});
