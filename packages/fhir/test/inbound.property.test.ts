import { analyteByKey, INSTRUMENTS, isPublishedTotal, resolveUnit } from "@svc/engines";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  COUNTED_OBSERVATION_STATUSES,
  instrumentTotalLoincCodes,
  readFhirInputs,
  readMedicationRequest,
  readObservation,
} from "../src/index.js";
import { labObservation, medicationRequest, PATIENT_ID, phq9, scoreObservation } from "./inbound-fixtures.js";

const now = new Date("2026-11-26T12:00:00Z");
const options = { now, patientId: PATIENT_ID };
const LAB_CODES = [
  { loinc: "14334-7", key: "lithium" },
  { loinc: "2951-2", key: "sodium" },
  { loinc: "751-8", key: "anc" },
  { loinc: "4086-5", key: "valproate" },
];

describe("no unreadable input is ever turned into a value (property)", () => {
  it("arbitrary JSON never throws, and anything read has a counted status, a known code and a finite value", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const read = readObservation(value, options);
        if (!("reason" in read)) {
          const r = value as { status: string };
          expect(COUNTED_OBSERVATION_STATUSES).toContain(r.status);
        }
        const inbound = readFhirInputs([value], options);
        for (const lab of inbound.labs) expect(Number.isFinite(lab.value)).toBe(true);
        expect(
          inbound.instruments.length + inbound.labs.length + inbound.medications.length,
        ).toBeLessThanOrEqual(Array.isArray(value) ? value.length + 1 : 1);
      }),
      { numRuns: 400 },
    );
  });

  it("an Observation mutated anywhere still reads only when status, code, date, unit (or none) and value are readable", () => {
    const base = labObservation("x", "14334-7", "Lithium", 0.8, "mmol/L", "2026-11-20", "N");
    fc.assert(
      fc.property(
        fc.record({
          status: fc.oneof(
            fc.constantFrom("final", "amended", "corrected", "preliminary", "cancelled", "entered-in-error"),
            fc.string(),
          ),
          unit: fc.oneof(fc.constantFrom("mmol/L", "meq/L", "mg/dL", "", "mmol", "umol/L"), fc.string()),
          value: fc.oneof(fc.double(), fc.constant(undefined), fc.string()),
          date: fc.oneof(
            fc.constantFrom("2026-11-20", "2026-11-20T08:00:00Z", "2027-01-01", "yesterday"),
            fc.string(),
          ),
        }),
        ({ status, unit, value, date }) => {
          const obs = {
            ...base,
            status,
            effectiveDateTime: date,
            valueQuantity: { value, unit, code: unit, system: "http://unitsofmeasure.org" },
          };
          const read = readObservation(obs, options);
          const entry = analyteByKey("lithium");
          // No unit at all goes to the one judgement's unit-less rule (decision 180); a unit that is
          // given must be an accepted one.
          const kind =
            entry === undefined ? null : resolveUnit(entry, unit.trim() === "" ? undefined : unit).kind;
          const unitOk = kind === "resolved" || kind === "missing";
          const readable =
            COUNTED_OBSERVATION_STATUSES.includes(status) &&
            unitOk &&
            typeof value === "number" &&
            Number.isFinite(value) &&
            Number.isFinite(Date.parse(date)) &&
            Date.parse(date) <= now.getTime() &&
            /^\d{4}-\d{2}-\d{2}/.test(date);
          if (!readable) expect(read).toHaveProperty("reason");
          if (!("reason" in read))
            expect(read).toMatchObject({
              kind: "lab",
              value,
              unit: kind === "missing" ? null : expect.any(String),
            });
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a lab value in any unit the analyte table does not accept is unknown_unit", () => {
    fc.assert(
      fc.property(fc.constantFrom(...LAB_CODES), fc.string({ minLength: 1, maxLength: 12 }), (lab, unit) => {
        const entry = analyteByKey(lab.key);
        // A blank unit is no unit: read for the unit-less rule (decision 185), not refused.
        fc.pre(entry !== undefined && unit.trim() !== "" && resolveUnit(entry, unit).kind !== "resolved");
        const read = readObservation(
          labObservation("x", lab.loinc, lab.key, 1, unit, "2026-11-20", "N"),
          options,
        );
        expect(read).toMatchObject({ reason: expect.stringMatching(/unknown_unit|no_value/) });
      }),
    );
  });

  it("a score the instrument cannot produce is never read", () => {
    const codes = instrumentTotalLoincCodes();
    fc.assert(
      fc.property(
        fc.constantFrom(...codes),
        fc.double({ min: -100, max: 200, noNaN: true }),
        ({ code, instrumentId }, score) => {
          const k = INSTRUMENTS[instrumentId];
          const read = readObservation(scoreObservation("s", code, k.display, score, "2026-11-20"), options);
          if (isPublishedTotal(instrumentId, score, k.totalMax))
            expect(read).toMatchObject({ kind: "instrument" });
          else expect(read).toHaveProperty("reason");
        },
      ),
    );
  });

  it("a PHQ-9 with any status outside final/amended/corrected is skipped", () => {
    fc.assert(
      fc.property(fc.string(), (status) => {
        fc.pre(!COUNTED_OBSERVATION_STATUSES.includes(status));
        expect(readObservation({ ...phq9("p", 10, "2026-11-20"), status }, options)).toMatchObject({
          reason: "wrong_status",
        });
      }),
    );
  });

  it("a MedicationRequest counts only when active, whatever else it says", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (status, text) => {
        const read = readMedicationRequest(medicationRequest("m", { text }, status as "active"), options);
        if (status !== "active") expect(read).toMatchObject({ reason: "wrong_status" });
        if (!("reason" in read)) expect(read.ingredients.length).toBeGreaterThan(0);
      }),
    );
  });
});
