import { codeToStatus, Refusal } from "@svc/refusal";
import { describe, expect, it } from "vitest";
import { assertTransition, LAB_ORDER_STATUSES, nextStatus } from "../src/index.js";

/** The lab order state machine without a database: the main path, the refusals and their codes. */
describe("lab order transitions", () => {
  it("walks the main path from requested to completed", () => {
    const path = ["requested"];
    for (;;) {
      const last = path.at(-1) as string;
      if (last === "completed") break;
      path.push(nextStatus(last));
    }
    expect(path.every((status) => (LAB_ORDER_STATUSES as readonly string[]).includes(status))).toBe(true);
    expect(path.at(-1)).toBe("completed");
    expect(() => nextStatus("completed")).toThrow(Refusal);
  });

  it("refuses an unknown status as invalid_request and an illegal move as invalid_transition", () => {
    expect(() => assertTransition("requested", "lost")).toThrow(
      expect.objectContaining({ code: "invalid_request" }),
    );
    expect(() => assertTransition("completed", "requested")).toThrow(
      expect.objectContaining({ code: "invalid_transition" }),
    );
    // The status is the HTTP layer's, from the contract's table.
    expect([codeToStatus.invalid_request, codeToStatus.invalid_transition]).toEqual([400, 409]);
    expect(() => assertTransition("requested", "cancelled")).not.toThrow();
  });
});
