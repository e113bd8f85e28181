import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  BASELINE_ONLY_REPORT_DAYS,
  BASELINE_WINDOW_DAYS,
  DUE_SOON_DAYS,
  LITHIUM_OLDER_AGE_YEARS,
  LITHIUM_UNTIL_STABLE_DAYS,
  MONITORING_SCHEDULES,
  RENAL_IMPAIRMENT_EGFR_BELOW,
} from "@svc/engines";
import { describe, expect, it } from "vitest";
import { readMarkdownTables } from "../src/index.js";

/**
 * The monitoring table in docs/engines/evidence.md says what the code holds (decision 192): every
 * row's analytes, baseline, phase intervals, risk phases, dose-change tests and levels.
 */
const path = fileURLToPath(new URL("../../../docs/engines/evidence.md", import.meta.url));
const rows = readMarkdownTables(readFileSync(path, "utf8")).filter((r) =>
  r.section.startsWith("Monitoring schedules"),
);
const documented = new Map(rows.map((r) => [(r.cells.Constant ?? "").replace(/`/g, ""), r.cells.Value]));

/** What the code says, constant by constant, written as the page writes it. */
function fromCode(): Map<string, string> {
  const expected = new Map<string, string>();
  for (const row of MONITORING_SCHEDULES) {
    expected.set(`${row.id}.analytes`, row.analytes.join(", "));
    expected.set(`${row.id}.baseline`, row.baseline ? "yes" : "no");
    for (const p of row.phases) {
      expected.set(`${row.id}.from${p.fromDay}d`, `${p.intervalDays} d`);
      if (p.overdueLevel) expected.set(`${row.id}.from${p.fromDay}d.overdueLevel`, p.overdueLevel);
    }
    for (const p of row.atRisk?.phases ?? [])
      expected.set(`${row.id}.atRisk.from${p.fromDay}d`, `${p.intervalDays} d`);
    for (const risk of row.atRisk?.risks ?? [])
      if (risk.kind === "taking_class") expected.set(`${row.id}.atRisk.taking`, risk.classes.join(", "));
    if (row.afterDoseChange)
      expected.set(
        `${row.id}.afterDoseChange`,
        `${row.afterDoseChange.intervalDays} d to day ${row.afterDoseChange.untilDay}`,
      );
    expected.set(`${row.id}.overdueLevel`, row.overdueLevel);
  }
  expected.set("BASELINE_WINDOW_DAYS", String(BASELINE_WINDOW_DAYS));
  expected.set("DUE_SOON_DAYS", String(DUE_SOON_DAYS));
  expected.set("BASELINE_ONLY_REPORT_DAYS", String(BASELINE_ONLY_REPORT_DAYS));
  expected.set("LITHIUM_UNTIL_STABLE_DAYS", String(LITHIUM_UNTIL_STABLE_DAYS));
  expected.set("LITHIUM_OLDER_AGE_YEARS", String(LITHIUM_OLDER_AGE_YEARS));
  expected.set("RENAL_IMPAIRMENT_EGFR_BELOW", String(RENAL_IMPAIRMENT_EGFR_BELOW));
  return expected;
}

describe("docs/engines/evidence.md: monitoring schedules", () => {
  it("lists every constant of the monitoring table with the code's value", () => {
    const expected = fromCode();
    for (const [constant, value] of expected) expect(documented.get(constant), constant).toBe(value);
  });

  it("lists nothing the table does not hold (besides the risk readings it names)", () => {
    const expected = fromCode();
    const extra = [...documented.keys()].filter((k) => !expected.has(k));
    expect(extra).toEqual(["lithium_level.atRisk.tsh"]);
  });
});
