import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ANALYTES } from "@svc/engines";
import { describe, expect, it } from "vitest";
import { readMarkdownTables } from "../src/index.js";

/**
 * The analyte table in docs/engines/evidence.md says what the code holds (decision 64): every
 * analyte with a measurement row has a row, with its canonical unit, its accepted units with
 * their factors, and its critical limits with a source.
 */
const path = fileURLToPath(new URL("../../../docs/engines/evidence.md", import.meta.url));
const rows = readMarkdownTables(readFileSync(path, "utf8")).filter((r) =>
  r.section.startsWith("Analyte table"),
);
const byKey = new Map(rows.map((r) => [(r.cells.Analyte ?? "").replace(/`/g, ""), r.cells]));

describe("docs/engines/evidence.md: analyte table", () => {
  const measured = ANALYTES.filter((e) => e.measure !== undefined);

  it("has one row per analyte with a measurement row, and no other", () => {
    expect([...byKey.keys()].sort()).toEqual(measured.map((e) => e.key).sort());
  });

  it.each(measured.map((e) => [e.key, e] as const))(
    "%s: units, factors and critical limits as in the code",
    (key, e) => {
      const row = byKey.get(key);
      const m = e.measure;
      if (!row || !m) throw new Error(`no row for ${key}`);
      expect(row.Canonical).toBe(m.displayUnit);
      for (const u of m.units) expect(row["Units (x factor)"]).toContain(`${u.ucum} x`);
      const critical = row["Critical (published) and source"] ?? "";
      if (m.criticalLow)
        expect(critical).toContain(`${m.criticalLow.inclusive ? "<=" : "<"} ${m.criticalLow.value} (`);
      if (m.criticalHigh)
        expect(critical).toContain(`${m.criticalHigh.inclusive ? ">=" : ">"} ${m.criticalHigh.value} (`);
      if (!m.criticalLow && !m.criticalHigh) expect(critical).toBe("none");
      expect(row["Plausible (expert-set)"]).toBe(`${m.plausible.low}-${m.plausible.high}`);
    },
  );
});
