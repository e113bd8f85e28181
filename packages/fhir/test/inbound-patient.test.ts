import type { Bundle, MedicationRequest, MedicationStatement, Observation } from "@medplum/fhirtypes";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PREGNANCY_STATUS_LOINC, readFhirInputs, readPatientReview } from "../src/index.js";
import { labObservation, lithium, medicationRequest, PATIENT_ID } from "./inbound-fixtures.js";

/**
 * Who the patient is and when the medicines started, read from the EHR (decisions 201 and 202):
 * the Patient's birthDate and gender, a pregnancy-status Observation, a renewal followed back to
 * its first prescription, a MedicationStatement's start, and dated readings with their LOINC code.
 */

const NOW = new Date("2026-11-26T12:00:00Z");
const options = { now: NOW, patientId: PATIENT_ID };

const patient = (extra: Record<string, unknown> = {}) => ({
  resourceType: "Patient",
  id: PATIENT_ID,
  gender: "female",
  birthDate: "1956-05-02",
  ...extra,
});

function pregnancyStatus(id: string, answer: string, when: string): Observation {
  return {
    resourceType: "Observation",
    id,
    status: "final",
    code: {
      coding: [{ system: "http://loinc.org", code: PREGNANCY_STATUS_LOINC, display: "Pregnancy status" }],
    },
    subject: { reference: `Patient/${PATIENT_ID}` },
    effectiveDateTime: when,
    valueCodeableConcept: { coding: [{ system: "http://loinc.org", code: answer }] },
  };
}

const clozapine = (id: string, status: MedicationRequest["status"], authoredOn: string, prior?: string) =>
  medicationRequest(
    id,
    { rxnorm: "2626", display: "clozapine" },
    status,
    authoredOn,
    prior === undefined ? {} : { priorPrescription: { reference: `MedicationRequest/${prior}` } },
  );

function statement(
  id: string,
  effective: Partial<MedicationStatement>,
  text = "Clozapine 300 mg",
): MedicationStatement {
  return {
    resourceType: "MedicationStatement",
    id,
    status: "active",
    medicationCodeableConcept: { text },
    subject: { reference: `Patient/${PATIENT_ID}` },
    ...effective,
  };
}

describe("the Patient", () => {
  it("birthDate and gender become the patient context, with the EHR resource as their source", () => {
    const read = readPatientReview([patient()], options);
    expect(read.input.patient).toEqual({
      birthDate: "1956-05-02",
      sex: "female",
      sources: {
        birthDate: { kind: "ehr", reference: `Patient/${PATIENT_ID}` },
        sex: { kind: "ehr", reference: `Patient/${PATIENT_ID}` },
      },
    });
    expect(read.notes).toEqual([]);
  });

  it("no birthDate, a partial one, no gender, no Patient at all: each is said, never guessed", () => {
    expect(readPatientReview([patient({ birthDate: undefined })], options).notes).toEqual([
      `Patient/${PATIENT_ID} has no birthDate: the age is unknown, and rules that need it were not evaluated.`,
    ]);
    const partial = readPatientReview([patient({ birthDate: "1956" })], options);
    expect(partial.input.patient?.birthDate).toBeUndefined();
    expect(partial.notes[0]).toMatch(/only part of a birth date \(1956\)/);
    expect(readPatientReview([patient({ gender: undefined })], options).notes[0]).toMatch(/sex is unknown/);
    expect(readPatientReview([], options).notes[0]).toMatch(/No Patient resource/);
    const other = readPatientReview([patient({ id: "someone-else" })], options);
    expect(other.input.patient).toBeUndefined();
    expect(other.notUsed[0]?.reason).toBe("other_patient");
  });
});

describe("pregnancy status (LOINC 82810-3)", () => {
  it("a 'pregnant' answer is carried with its Observation as source; the engines' mapping leaves it alone", () => {
    const obs = pregnancyStatus("preg-1", "LA15173-0", "2026-11-20");
    const read = readPatientReview([patient(), obs], options);
    expect(read.input.patient?.pregnancy).toBe("pregnant");
    expect(read.input.patient?.sources?.pregnancy).toEqual({ kind: "ehr", reference: "Observation/preg-1" });
    expect(readFhirInputs([obs], options).notUsed).toEqual([]);
  });

  it("a newer 'not pregnant' is a point in time: pregnancy is left unknown and the note says what was recorded", () => {
    const read = readPatientReview(
      [
        patient(),
        pregnancyStatus("p1", "LA15173-0", "2026-01-05"),
        pregnancyStatus("p2", "LA26683-5", "2026-11-01"),
      ],
      options,
    );
    expect(read.input.patient?.pregnancy).toBeUndefined();
    expect(read.notes.join(" ")).toMatch(/Observation\/p2 recorded "not pregnant" on 2026-11-01/);
  });

  it("an answer outside the value set is not read", () => {
    const read = readPatientReview([patient(), pregnancyStatus("p3", "LA9999-9", "2026-11-01")], options);
    expect(read.input.patient?.pregnancy).toBeUndefined();
    expect(read.notUsed.map((n) => n.reason)).toEqual(["no_value"]);
  });
});

describe("start dates: a renewal is not a start", () => {
  it("a renewal is followed through priorPrescription to the first prescription in the data", () => {
    const read = readPatientReview(
      [
        clozapine("c3", "active", "2026-11-01", "c2"),
        clozapine("c2", "completed", "2026-05-01", "c1"),
        clozapine("c1", "completed", "2025-09-15"),
      ],
      options,
    );
    expect(read.input.medicines).toEqual([
      {
        name: "clozapine",
        startedAt: "2025-09-15T00:00:00.000Z",
        startSource:
          "MedicationRequest/c1 authoredOn, the first of 3 linked prescriptions (priorPrescription)",
      },
    ]);
  });

  it("a renewal whose prior prescription is not in the data has an unknown start, said so", () => {
    const [medicine] = readPatientReview([clozapine("c3", "active", "2026-11-01", "c2")], options).input
      .medicines;
    expect(medicine?.startedAt).toBeNull();
    expect(medicine?.startSource).toMatch(
      /renews an earlier prescription \(MedicationRequest\/c2\).*first start is unknown/,
    );
  });

  it("a loop of prior prescriptions is read as unknown, never followed for ever", () => {
    const [medicine] = readPatientReview(
      [clozapine("a", "active", "2026-11-01", "b"), clozapine("b", "completed", "2026-05-01", "a")],
      options,
    ).input.medicines;
    expect(medicine?.startedAt).toBeNull();
  });

  it("a MedicationStatement's effectivePeriod.start earlier than the order is the start; effectiveDateTime is read too", () => {
    const read = readPatientReview(
      [
        clozapine("c3", "active", "2026-11-01", "c2"),
        statement("s1", { effectivePeriod: { start: "2024-02-01" } }),
        statement("s2", { effectiveDateTime: "2025-03-01" }, "Lithium carbonate 400 mg"),
      ],
      options,
    );
    expect(read.input.medicines).toEqual([
      {
        name: "clozapine",
        startedAt: "2024-02-01T00:00:00.000Z",
        startSource: "MedicationStatement/s1 effectivePeriod.start",
      },
      {
        name: "Lithium carbonate 400 mg",
        startedAt: "2025-03-01T00:00:00.000Z",
        startSource: "MedicationStatement/s2 effectiveDateTime",
      },
    ]);
  });

  it("an order with no link is its own start, and says so", () => {
    const [medicine] = readPatientReview([clozapine("c1", "active", "2026-10-01")], options).input.medicines;
    expect(medicine).toEqual({
      name: "clozapine",
      startedAt: "2026-10-01T00:00:00.000Z",
      startSource: "MedicationRequest/c1 authoredOn (no prior prescription is linked)",
    });
  });

  it("property: shifting every date by the same number of days shifts the start by it, and the source is unchanged", () => {
    fc.assert(
      fc.property(fc.integer({ min: -2000, max: 0 }), fc.boolean(), (shiftDays, statementFirst) => {
        const shift = (iso: string) =>
          new Date(Date.parse(iso) + shiftDays * 86_400_000).toISOString().slice(0, 10);
        const sources = (s: (iso: string) => string): Bundle => ({
          resourceType: "Bundle",
          type: "collection",
          entry: [
            clozapine("c2", "active", s("2026-11-01"), "c1"),
            clozapine("c1", "completed", s("2025-09-15")),
            statement("s1", { effectivePeriod: { start: s(statementFirst ? "2024-01-01" : "2026-01-01") } }),
          ].map((resource) => ({ resource })),
        });
        const base = readPatientReview([sources((x) => x)], options).input.medicines[0];
        const moved = readPatientReview([sources(shift)], options).input.medicines[0];
        expect(moved?.startSource).toBe(base?.startSource);
        expect(Date.parse(moved?.startedAt ?? "") - Date.parse(base?.startedAt ?? "")).toBe(
          shiftDays * 86_400_000,
        );
      }),
      { numRuns: 50 },
    );
  });
});

describe("readings", () => {
  it("every dated Observation of a known analyte is a reading with its LOINC code, unit and flag", () => {
    const egfr = labObservation("e1", "98979-8", "eGFR", 52, "mL/min/{1.73_m2}", "2026-10-01T09:00:00Z");
    const read = readPatientReview([lithium("l1", 1.6, "2026-11-20T08:00:00Z", "HH"), egfr], options);
    expect(read.input.readings).toEqual([
      {
        analyte: "lithium",
        value: 1.6,
        unit: "mmol/L",
        observedAt: "2026-11-20T08:00:00.000Z",
        flag: "critical",
        loinc: "14334-7",
      },
      {
        analyte: "egfr",
        value: 52,
        unit: "mL/min/{1.73_m2}",
        observedAt: "2026-10-01T09:00:00.000Z",
        flag: null,
        loinc: "98979-8",
      },
    ]);
  });
});
