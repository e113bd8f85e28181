import { describe, expect, it } from "vitest";
import { utcDayOf } from "../src/utc-day.js";

describe("utcDayOf (counter keys per UTC day and month)", () => {
  it("changes at 00:00 UTC, forwards and backwards in time, across a month end", () => {
    const lastMs = Date.parse("2026-11-30T23:59:59.999Z");
    expect(utcDayOf(lastMs)).toMatchObject({ iso: "2026-11-30", compact: "20261130", month: "202611" });
    expect(utcDayOf(lastMs + 1)).toMatchObject({ iso: "2026-12-01", compact: "20261201", month: "202612" });
    // Back to the earlier day after the cache moved on.
    expect(utcDayOf(lastMs).iso).toBe("2026-11-30");
    expect(utcDayOf(Date.parse("2027-01-01T00:00:00Z")).month).toBe("202701");
  });

  it("agrees with toISOString over a spread of times", () => {
    for (
      let ms = Date.parse("2024-02-28T12:00:00Z");
      ms < Date.parse("2024-03-02T12:00:00Z");
      ms += 3_599_999
    )
      expect(utcDayOf(ms).iso).toBe(new Date(ms).toISOString().slice(0, 10));
  });
});
