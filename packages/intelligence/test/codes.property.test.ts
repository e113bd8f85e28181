import { analyzeBiomarkers, analyzeMedication, BIOMARKER_MAP } from "@svc/engines";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { engineCodes, medicationCodes } from "../src/index.js";

/** Every code's `mapsTo` must resolve to a real value in the response data. */
function resolve(data: unknown, pointer: string): unknown {
  let at: unknown = data;
  for (const part of pointer.split(".")) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

const NOW = new Date("2026-11-01T00:00:00Z");
const names = BIOMARKER_MAP.flatMap((entry) => entry.variants.slice(0, 2)).concat(["Unmapped analyte"]);

describe("codes resolve to real paths", () => {
  it("biomarker LOINC codes point at emitted signals", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            name: fc.constantFrom(...names),
            value: fc.oneof(
              fc.double({ min: 0, max: 500, noNaN: true }),
              fc.constant("<0.5"),
              fc.constant(null),
            ),
            unit: fc.constantFrom("mmol/L", "mg/dL", "ng/mL", "U/L", undefined),
            flag: fc.constantFrom("high", "low", "critical", "normal", undefined),
          }),
          { maxLength: 30 },
        ),
        (biomarkers) => {
          const clean = biomarkers.map((b) =>
            Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)),
          ) as unknown as Parameters<typeof analyzeBiomarkers>[0]["labs"][number]["results"]["biomarkers"];
          const run = analyzeBiomarkers(
            { labs: [{ id: "lab_1", labName: "Lab", results: { biomarkers: clean } }] },
            { now: NOW },
          );
          for (const code of engineCodes(run.facts)) {
            expect(code.system).toBe("http://loinc.org");
            expect(resolve(run.data, code.mapsTo)).toBeDefined();
          }
          expect(run.data.signalsPresent).toBe(run.data.signals.length);
        },
      ),
    );
  });

  it("medication RxNorm codes point at the prescription's signal", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            "Sertraline 50 mg",
            "Quetiapine",
            "Lithium carbonate",
            "fluoxetine",
            "Escitalopram",
          ),
          {
            maxLength: 8,
          },
        ),
        (meds) => {
          const prescriptions = meds.map((medicationName, i) => ({
            id: `rx_${i}`,
            medicationName,
            status: "active",
          }));
          const run = analyzeMedication({ prescriptions, assessments: [] }, { now: NOW });
          for (const code of medicationCodes(run.data.signals, prescriptions)) {
            const signal = resolve(run.data, code.mapsTo) as { sourceRef: string } | undefined;
            expect(signal).toBeDefined();
            const rx = prescriptions.find((p) => p.id === signal?.sourceRef);
            expect(rx?.medicationName.toLowerCase()).toContain(code.display);
          }
        },
      ),
    );
  });
});
