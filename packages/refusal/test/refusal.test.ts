import { describe, expect, it } from "vitest";
import { codeToStatus, ERROR_CODES, Refusal } from "../src/index.js";

describe("the one refusal", () => {
  it("carries its code, message and issues, and is an Error", () => {
    const refusal = new Refusal("invalid_request", "The cursor is not valid.", {
      issues: [{ path: "cursor", message: "not a cursor returned by this list" }],
    });
    expect(refusal).toBeInstanceOf(Error);
    expect(refusal.name).toBe("Refusal");
    expect(refusal.code).toBe("invalid_request");
    expect(refusal.message).toBe("The cursor is not valid.");
    expect(refusal.options.issues).toEqual([
      { path: "cursor", message: "not a cursor returned by this list" },
    ]);
    expect(new Refusal("not_found", "No such thing.").options).toEqual({});
  });

  it("has a status for every code of the vocabulary, and no other", () => {
    expect(Object.keys(codeToStatus).sort()).toEqual([...ERROR_CODES].sort());
    expect(codeToStatus.not_found).toBe(404);
    expect(codeToStatus.invalid_transition).toBe(409);
  });
});
