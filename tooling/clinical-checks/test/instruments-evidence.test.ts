import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  INSTRUMENT_IDS,
  INSTRUMENTS,
  STALE_CONFIDENCE_CAP,
  STALE_CONFIDENCE_SCORE_CAP,
  SYMPTOM_SCORE_STALE_AFTER_DAYS,
  UNREAD_SCALE_CONFIDENCE_CAP,
  UNREAD_SCALE_CONFIDENCE_SCORE_CAP,
} from "@svc/engines";
import { describe, expect, it } from "vitest";
import { readMarkdownTables } from "../src/index.js";

const path = fileURLToPath(new URL("../../../docs/engines/evidence.md", import.meta.url));
const rows = readMarkdownTables(readFileSync(path, "utf8"));

function section(prefix: string): Map<string, Record<string, string>> {
  const found = rows.filter((r) => r.section.startsWith(prefix));
  expect(found.length, `section "${prefix}" has a table`).toBeGreaterThan(0);
  return new Map(found.map((r) => [(r.cells.Constant ?? "").replace(/`/g, ""), r.cells]));
}

describe("docs/engines/evidence.md: the instrument table and the staleness rule", () => {
  it("lists every instrument's direction, and each maximum and reliable change it states, as in the table", () => {
    const table = section("Instruments");
    for (const id of INSTRUMENT_IDS) {
      const k = INSTRUMENTS[id];
      expect(table.get(`${id}.direction`)?.Value, `${id}.direction`).toBe(k.direction);
      expect(Number(table.get(`${id}.maxScore`)?.Value), `${id}.maxScore`).toBe(k.totalMax);
      const reliable = table.get(`${id}.reliableChangePoints`);
      if (k.reliableChangePoints === null) expect(reliable, `${id} has no reliable change`).toBeUndefined();
      else expect(Number(reliable?.Value), `${id}.reliableChangePoints`).toBe(k.reliableChangePoints);
      expect(k.wholeNumberTotals, `${id}.wholeNumberTotals`).toBe(true);
    }
    expect(table.get("wholeNumberTotals")?.Value).toBe("true (all six)");
    expect(table.get("UNREAD_SCALE_CONFIDENCE_CAP")?.Value).toBe(UNREAD_SCALE_CONFIDENCE_CAP);
    expect(Number(table.get("UNREAD_SCALE_CONFIDENCE_SCORE_CAP")?.Value)).toBe(
      UNREAD_SCALE_CONFIDENCE_SCORE_CAP,
    );
  });

  it("lists the staleness constants with their values", () => {
    const table = section("Staleness");
    expect(Number(table.get("SYMPTOM_SCORE_STALE_AFTER_DAYS")?.Value)).toBe(SYMPTOM_SCORE_STALE_AFTER_DAYS);
    expect(table.get("STALE_CONFIDENCE_CAP")?.Value).toBe(STALE_CONFIDENCE_CAP);
    expect(Number(table.get("STALE_CONFIDENCE_SCORE_CAP")?.Value)).toBe(STALE_CONFIDENCE_SCORE_CAP);
  });
});
