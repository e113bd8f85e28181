import { describe, expect, it } from "vitest";
import {
  eventCursor,
  eventPosition,
  type LabOrderRow,
  labOrderCursor,
  labOrderPosition,
  safetyEventCursor,
  safetyEventPosition,
} from "../src/index.js";

/** Each list reads back the cursors it issued and refuses every other list's as a 400 naming `cursor`. */
describe("list cursors", () => {
  const createdAt = new Date("2026-01-01T10:00:00.000Z");
  const events = eventCursor({ xact: "812", seq: "3" });
  const labs = labOrderCursor({ createdAt, id: "labord_01jd3k8w6t1x9c0q2m4n5p7r8s" } as LabOrderRow);
  const safety = safetyEventCursor({ createdAt, id: "sev_01jd3k8w6t1x9c0q2m4n5p7r8s" });

  it("round-trip", () => {
    expect(eventPosition(events)).toEqual({ xact: "812", seq: "3" });
    expect(labOrderPosition(labs)).toEqual({ createdAt, id: "labord_01jd3k8w6t1x9c0q2m4n5p7r8s" });
    expect(safetyEventPosition(safety)).toEqual({ createdAt, id: "sev_01jd3k8w6t1x9c0q2m4n5p7r8s" });
  });

  it("refuse another list's cursor and an edited one", () => {
    const refusal = { code: "invalid_request", options: { issues: [{ path: "cursor" }] } };
    for (const [read, cursor] of [
      [eventPosition, labs],
      [labOrderPosition, safety],
      [safetyEventPosition, events],
      [eventPosition, `${events}x`],
    ] as const) {
      expect(() => read(cursor)).toThrow();
      try {
        read(cursor);
      } catch (error) {
        expect(error).toMatchObject(refusal);
      }
    }
  });
});
