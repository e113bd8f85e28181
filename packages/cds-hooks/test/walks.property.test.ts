import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseHookRequest, runCdsService } from "../src/index.js";
import { draft, medicationRequest, options, orderRequest, patientViewRequest, service } from "./fixtures.js";

/**
 * Reading a hook request and its prefetch never recurses without bound (decision 150): generated
 * prefetch values and draft-order Bundles, from wide to 50,000 levels of Bundles and lists,
 * parse and run to cards without throwing. (The HTTP door refuses such depth before this; these
 * functions are also a library and must hold on their own.)
 */

const wrapper = fc.constantFrom<"array" | "bundle">("array", "bundle");

/** `inner` wrapped in `depth` containers, built iteratively. */
function wrap(inner: unknown, depth: number, kind: "array" | "bundle"): unknown {
  let doc = inner;
  for (let i = 0; i < depth; i++)
    doc = kind === "array" || i % 2 === 1 ? [doc] : { resourceType: "Bundle", entry: [{ resource: doc }] };
  return doc;
}

const active = (i: number) =>
  medicationRequest(`m${i}`, { rxnorm: "36437", display: "sertraline" }, "active", "2026-01-01");

const shape = fc.record({
  depth: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1_000, max: 50_000 })),
  width: fc.integer({ min: 0, max: 200 }),
  kind: wrapper,
});

describe("hook request reading and prefetch walks (property)", () => {
  it("patient-view runs on any nesting and width of prefetch", () => {
    fc.assert(
      fc.property(shape, ({ depth, width, kind }) => {
        const meds = {
          resourceType: "Bundle",
          entry: [
            {
              resource: wrap(
                Array.from({ length: width }, (_, i) => active(i)),
                depth,
                kind,
              ),
            },
          ],
        };
        const prefetch = { scores: { resourceType: "Bundle", entry: [] }, labs: null, medications: meds };
        const parsed = parseHookRequest(service("psych-patient-view"), patientViewRequest(prefetch));
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        const run = runCdsService(parsed, prefetch, options());
        expect(Array.isArray(run.cards)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("order-sign runs on any nesting and width of draft orders and medications", () => {
    fc.assert(
      fc.property(shape, ({ depth, width, kind }) => {
        const body = orderRequest("order-sign", [draft("d1", { rxnorm: "10689", display: "tramadol" })]);
        const entry = body.context.draftOrders.entry ?? [];
        entry.push({ resource: wrap({ resourceType: "Bundle", entry: [] }, depth, "bundle") as never });
        const medications = {
          resourceType: "Bundle",
          entry: [
            {
              resource: wrap(
                Array.from({ length: width }, (_, i) => active(i)),
                depth,
                kind,
              ),
            },
          ],
        };
        const parsed = parseHookRequest(service("psych-interactions-sign"), {
          ...body,
          prefetch: { medications },
        });
        if (!parsed.ok) return;
        const run = runCdsService(parsed, { medications }, options());
        expect(Array.isArray(run.cards)).toBe(true);
      }),
      { numRuns: 25 },
    );
  });
});
