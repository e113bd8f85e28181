import { codeToStatus, Refusal } from "@svc/refusal";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "../src/cursor.js";

const SHAPE = [/^\d{1,15}$/, /^labord_[0-9a-z]{26}$/];
const ID = `labord_${"a".repeat(26)}`;

function refusal(cursor: string): Refusal {
  try {
    decodeCursor(cursor, SHAPE);
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error(`accepted ${cursor}`);
}

describe("list cursors (one format for every list)", () => {
  it("round-trips the parts a list issued", () => {
    expect(decodeCursor(encodeCursor(["1795425637552", ID]), SHAPE)).toEqual(["1795425637552", ID]);
  });

  it.each([
    ["empty", ""],
    ["not base64url", "abc$%^"],
    ["too long", "A".repeat(401)],
    ["not JSON", Buffer.from("123:labord_x").toString("base64url")],
    ["a JSON object", Buffer.from('{"a":1}').toString("base64url")],
    ["a number among the parts", Buffer.from(`[1,"${ID}"]`).toString("base64url")],
    ["too few parts", encodeCursor(["1"])],
    ["too many parts", encodeCursor(["1", ID, "x"])],
    ["a part off its pattern", encodeCursor(["1", "evt_1"])],
    ["another list's cursor", encodeCursor(["2026-11-23T08:00:00.000Z", `sev_${"a".repeat(26)}`])],
    ["a truncated cursor", encodeCursor(["1", ID]).slice(0, -3)],
  ])("%s is a 400 invalid_request naming cursor", (_name, cursor) => {
    const error = refusal(cursor);
    expect(codeToStatus[error.code]).toBe(400);
    expect(error.code).toBe("invalid_request");
    expect(error.options.issues?.map((i) => i.path)).toEqual(["cursor"]);
  });
});
