import { describe, expect, it } from "vitest";
import { resolveSleepParams, reviewSleep, SLEEP_MODEL_KEY } from "../src/index.js";

const now = new Date("2026-07-01T00:00:00Z");

describe("sleep duration engine", () => {
  it("reads the recommendation's bands and never reads nothing as normal", () => {
    expect(reviewSleep({}, { now }).data.status).toBe("insufficient_data");
    expect(reviewSleep({ avgSleepHours: 6.9 }, { now }).data.status).toBe("short");
    expect(reviewSleep({ avgSleepHours: 7 }, { now }).data.status).toBe("recommended");
    expect(reviewSleep({ avgSleepHours: 9.5 }, { now }).data.status).toBe("long");
    expect(reviewSleep({}, { now }).model).toEqual({
      key: SLEEP_MODEL_KEY,
      version: null,
      source: "default",
    });
  });

  it("refuses incoherent parameters", () => {
    expect(() => resolveSleepParams({ longHours: 6 })).toThrow(/longHours/);
  });
});
