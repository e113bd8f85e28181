import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readMarkdownTables } from "../src/index.js";
import { patientFactorRows } from "./patient-factor-rows.js";

/**
 * The patient-factor table in docs/engines/evidence.md says what the code holds (decision 190):
 * every teratogen, breastfeeding, renal and hepatic rule and the childbearing age band, with its
 * value, and no row the code lacks.
 */
const path = fileURLToPath(new URL("../../../docs/engines/evidence.md", import.meta.url));
const rows = readMarkdownTables(readFileSync(path, "utf8")).filter((r) =>
  r.section.startsWith("Patient factors"),
);
const documented = new Map(
  rows.map((r) => [(r.cells.Constant ?? "").replace(/`/g, ""), r.cells.Value ?? ""]),
);

describe("docs/engines/evidence.md: patient factors", () => {
  it("lists every rule of the patient-factor tables with its value, and nothing else", () => {
    const expected = patientFactorRows();
    expect(rows.length).toBeGreaterThan(0);
    expect([...documented.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [constant, value] of expected) expect(documented.get(constant), constant).toBe(value);
  });
});
