import { describe, expect, it } from "vitest";
import { CardSchema, cdsServiceById, parseHookRequest, runCdsService } from "../src/index.js";
import { lithium, options, patientViewRequest, searchset, service } from "./fixtures.js";

function run(prefetch: Record<string, unknown>) {
  const call = parseHookRequest(service("psych-lithium-level"), patientViewRequest(prefetch));
  if (!call.ok) throw new Error(JSON.stringify(call.issues));
  return runCdsService(call, prefetch, options());
}

describe("psych-lithium-level", () => {
  it("is listed by discovery at patient-view, asking for lithium levels only", () => {
    const descriptor = cdsServiceById("psych-lithium-level");
    expect(descriptor?.hook).toBe("patient-view");
    expect(descriptor?.prefetch.labs).toContain("http://loinc.org|14334-7");
  });

  it("a newest level at the 1.5 mmol/L threshold is a critical card citing the label", () => {
    const result = run({
      labs: searchset([lithium("l1", 0.8, "2026-10-01"), lithium("l2", 1.5, "2026-11-20")]),
    });
    expect(result.rules).toEqual(["lithium-toxicity-threshold"]);
    const [card] = result.cards;
    expect(card?.indicator).toBe("critical");
    expect(card?.summary).toContain("Lithium 1.5 mmol/L on 2026-11-20");
    expect(card?.detail).toContain("lithium US label, Overdosage");
    expect(CardSchema.safeParse(card).success).toBe(true);
  });

  it("a newest level below it gives no card, even after an older toxic one", () => {
    expect(
      run({ labs: searchset([lithium("l1", 1.8, "2026-10-01"), lithium("l2", 0.7, "2026-11-20")]) }).cards,
    ).toEqual([]);
  });

  it("no readable level is said on an insufficient-data card, never silence", () => {
    const result = run({ labs: searchset([]) });
    expect(result.rules).toEqual(["insufficient-data"]);
    expect(result.cards[0]?.summary).toBe("No readable lithium level");
    expect(run({}).cards[0]?.detail).toContain("not provided by the EHR");
  });
});
