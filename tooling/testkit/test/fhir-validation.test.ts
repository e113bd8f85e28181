import { describe, expect, test } from "vitest";
import { assertValidFhirR4, fhirR4Problems } from "../src/fhir-validation.js";

// The validator every FHIR test relies on must itself refuse what R4 refuses.
describe("FHIR R4 validation used by the tests", () => {
  test("accepts a minimal valid Observation", () => {
    expect(
      fhirR4Problems({ resourceType: "Observation", status: "final", code: { text: "PHQ-9 total" } }),
    ).toEqual([]);
  });

  test("refuses a missing required element", () => {
    const resource = { resourceType: "Observation", code: { text: "PHQ-9 total" } } as never;
    expect(fhirR4Problems(resource).join("\n")).toMatch(/status/);
    expect(() => assertValidFhirR4(resource)).toThrow(/not valid FHIR R4/);
  });

  test("refuses a RiskAssessment probability above 100 (invariant ras-2)", () => {
    const problems = fhirR4Problems({
      resourceType: "RiskAssessment",
      status: "final",
      subject: { reference: "Patient/p1" },
      prediction: [{ probabilityDecimal: 150 }],
    });
    expect(problems.join("\n")).toMatch(/ras-2/);
  });
});
