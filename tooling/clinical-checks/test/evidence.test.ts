import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ENGINE_DESCRIPTORS } from "@svc/intelligence";
import { RISK_OPTION_LEVELS } from "@svc/mse-catalog";
import { describe, expect, it } from "vitest";
import { engineEvidenceProblems, readMarkdownTables } from "../src/index.js";

const path = fileURLToPath(new URL("../../../docs/engines/evidence.md", import.meta.url));
const rows = readMarkdownTables(readFileSync(path, "utf8"));
const LEVELS = new Set(["published cut-off", "derived", "expert-set"]);

/** The rows of the section whose title starts with `prefix`, keyed by the constant's name. */
function section(prefix: string): Map<string, Record<string, string>> {
  const found = rows.filter((r) => r.section.startsWith(prefix));
  expect(found.length, `section "${prefix}" has a table`).toBeGreaterThan(0);
  return new Map(found.map((r) => [(r.cells.Constant ?? "").replace(/`/g, ""), r.cells]));
}

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

  it("lists the level of every risk-bearing MSE option as in the code", () => {
    const table = section("MSE risk logic");
    for (const [key, level] of Object.entries(RISK_OPTION_LEVELS))
      expect(table.get(key)?.Value, key).toBe(level);
    expect(table.size).toBe(Object.keys(RISK_OPTION_LEVELS).length);
  });
});
