import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_SOURCE_NESTING, readFhirInputs, resourcesOf } from "../src/index.js";
import { labObservation, PATIENT_ID } from "./inbound-fixtures.js";

/**
 * Every walk over FHIR data is iterative and depth-bounded (decision 150): generated documents,
 * from flat and wide to 100,000 levels of Bundles and lists, never throw and never exhaust the
 * stack; what lies within MAX_SOURCE_NESTING levels is read, what lies deeper is said not read.
 */

const options = { now: new Date("2026-11-26T12:00:00Z"), patientId: PATIENT_ID };

/** `width` resources wrapped in `wrappers` containers (innermost first), built without recursion. */
function nested(width: number, wrappers: readonly ("array" | "bundle")[]): unknown {
  const leaf = Array.from({ length: width }, (_, i) =>
    labObservation(`o${i}`, "14334-7", "Lithium", 0.8, "mmol/L", "2026-11-20", "N"),
  );
  let doc: unknown = leaf;
  for (const kind of wrappers)
    doc =
      kind === "array" ? [doc] : { resourceType: "Bundle", type: "searchset", entry: [{ resource: doc }] };
  return doc;
}

const wrapper = fc.constantFrom<"array" | "bundle">("array", "bundle");
const shallow = fc.array(wrapper, { maxLength: MAX_SOURCE_NESTING + 3 });
const deep = fc
  .integer({ min: 1_000, max: 100_000 })
  .chain((n) =>
    wrapper.map((kind) => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? kind : ("array" as const)))),
  );

describe("resourcesOf and readFhirInputs walk any nesting without recursion (property)", () => {
  it("reads what lies within the bound, names what lies deeper, never throws", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.oneof(shallow, deep), (width, wrappers) => {
        const doc = nested(width, wrappers);
        // The leaf list is the innermost container, at depth wrappers.length.
        const within = wrappers.length < MAX_SOURCE_NESTING;
        const { resources, notUsed } = resourcesOf(doc);
        expect(resources).toHaveLength(within ? width : 0);
        const tooDeep = notUsed.filter((n) => n.detail.includes("nested more than"));
        expect(tooDeep).toHaveLength(within ? 0 : 1);
        const inbound = readFhirInputs([doc, doc], options);
        expect(inbound.labs.length).toBe(within ? width : 0);
      }),
      { numRuns: 60 },
    );
  });

  it("a wide Bundle keeps document order, and a next page is noted after the entries it holds", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_000 }), (width) => {
        const entry = Array.from({ length: width }, (_, i) => ({
          resource:
            i % 3 === 0
              ? { resourceType: "OperationOutcome", id: `oo${i}` }
              : { resourceType: "Patient", id: `p${i}` },
        }));
        const bundle = { resourceType: "Bundle", link: [{ relation: "next", url: "x" }], entry };
        const { resources, notUsed } = resourcesOf(bundle);
        expect(resources.map((r) => r.id)).toEqual(
          entry.filter((_, i) => i % 3 !== 0).map((e) => e.resource.id),
        );
        expect(notUsed.at(-1)?.detail).toContain("further pages");
        expect(notUsed.slice(0, -1).map((n) => n.id)).toEqual(
          entry.filter((_, i) => i % 3 === 0).map((e) => e.resource.id),
        );
      }),
      { numRuns: 40 },
    );
  });

  it("arbitrary JSON, nested anywhere, never throws", () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 8 }), fc.integer({ min: 0, max: 20_000 }), (value, depth) => {
        let doc: unknown = value;
        for (let i = 0; i < depth; i++) doc = { resourceType: "Bundle", entry: [{ resource: doc }, doc] };
        expect(() => readFhirInputs([doc], options)).not.toThrow();
      }),
      { numRuns: 40 },
    );
  });
});
