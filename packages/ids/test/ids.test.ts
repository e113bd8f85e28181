import { describe, expect, it } from "vitest";
import { isId, newId } from "../src/index.js";

describe("newId", () => {
  it("prefixes and shapes ids", () => {
    const id = newId("req");
    expect(id).toMatch(/^req_[0-9a-z]{26}$/);
    expect(isId("req", id)).toBe(true);
    expect(isId("evt", id)).toBe(false);
  });

  it("sorts by creation time, also within one millisecond", () => {
    const ids: string[] = [];
    for (let i = 0; i < 2000; i++) ids.push(newId("evt", 1_700_000_000_000 + Math.floor(i / 100)));
    const sorted = [...ids].sort();
    expect(sorted).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("draws fresh random bits for every millisecond, across refills of the random pool", () => {
    // 1,000 milliseconds use 10 kB of random bytes: more than two refills of the 4 kB pool.
    const randomParts = new Set<string>();
    for (let i = 0; i < 1000; i++) randomParts.add(newId("req", 1_800_000_000_000 + i).slice(-16));
    expect(randomParts.size).toBe(1000);
  });

  it("puts a later millisecond after an earlier one", () => {
    expect(newId("evt", 2_000) > newId("evt", 1_000)).toBe(true);
  });
});
