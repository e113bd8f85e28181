import type { MedicationRequest } from "@medplum/fhirtypes";
import { assertValidFhirR4 } from "@svc/testkit/fhir";
import { describe, expect, it } from "vitest";
import {
  type NotUsed,
  readFhirInputs,
  readMedicationRequest,
  readObservation,
  toBiomarkerInput,
  toRelapseInput,
} from "../src/index.js";
import {
  anc,
  gad7,
  labObservation,
  lithium,
  medicationRequest,
  PATIENT_ID,
  phq9,
  searchset,
  sodium,
  valproate,
} from "./inbound-fixtures.js";

const now = new Date("2026-11-26T12:00:00Z");
const options = { now, patientId: PATIENT_ID };

function reasonOf(result: unknown): string {
  return (result as NotUsed).reason;
}

describe("the fixtures are valid FHIR R4", () => {
  it("every example resource and Bundle validates", () => {
    assertValidFhirR4(phq9("p1", 12, "2026-11-01T09:00:00Z"));
    assertValidFhirR4(lithium("l1", 1.6, "2026-11-20T08:00:00Z", "HH"));
    assertValidFhirR4(
      medicationRequest("m1", { rxnorm: "36437", display: "sertraline" }, "active", "2026-10-01"),
    );
    assertValidFhirR4(searchset([gad7("g1", 9, "2026-11-02"), anc("a1", 1.2, "2026-11-25T07:30:00Z", "L")]));
    assertValidFhirR4(
      searchset([
        sodium("s1", 124, "2026-11-24", "LL"),
        valproate("v1", 70, "2026-11-20T06:15:00+01:00"),
        medicationRequest("m2", { text: "Lithium carbonate 400 mg" }, "active"),
        medicationRequest(
          "m3",
          { rxnorm: "312940", display: "sertraline 50 MG Oral Tablet" },
          "draft",
          "2026-11-26",
        ),
      ]),
    );
    const { effectiveDateTime: _e, ...periodic } = phq9("p2", 9, "2026-11-01");
    assertValidFhirR4({
      ...periodic,
      effectivePeriod: { start: "2026-10-30", end: "2026-11-02T10:00:00+01:00" },
    });
  });
});

describe("Observation -> instrument score", () => {
  it("reads a PHQ-9 total by LOINC 44261-6 with {score}", () => {
    const read = readObservation(phq9("p1", 14, "2026-11-01T09:00:00Z"), options);
    expect(read).toMatchObject({
      kind: "instrument",
      loinc: "44261-6",
      assessment: {
        instrumentId: "phq9",
        instrumentName: "PHQ-9",
        score: 14,
        maxScore: 27,
        createdAt: "2026-11-01T09:00:00.000Z",
      },
    });
  });

  it("reads valueInteger, effectivePeriod.end and a date-only effectiveDateTime", () => {
    const base = phq9("p2", 0, "2026-11-01");
    const { valueQuantity: _v, effectiveDateTime: _e, ...rest } = base;
    const read = readObservation(
      {
        ...rest,
        valueInteger: 21,
        effectivePeriod: { start: "2026-10-30", end: "2026-11-02T10:00:00+01:00" },
      },
      options,
    );
    expect(read).toMatchObject({ assessment: { score: 21, createdAt: "2026-11-02T09:00:00.000Z" } });
    expect(readObservation(gad7("g", 3, "2026-11-01"), options)).toMatchObject({
      assessment: { createdAt: "2026-11-01T00:00:00.000Z" },
    });
  });

  it("never reads an impossible total, a fraction, a censored score or a non-score unit", () => {
    expect(reasonOf(readObservation(phq9("p", 28, "2026-11-01"), options))).toBe("invalid_value");
    expect(reasonOf(readObservation(phq9("p", 12.5, "2026-11-01"), options))).toBe("invalid_value");
    expect(
      reasonOf(
        readObservation(
          phq9("p", 5, "2026-11-01", { valueQuantity: { value: 5, comparator: "<" } }),
          options,
        ),
      ),
    ).toBe("invalid_value");
    expect(
      reasonOf(
        readObservation(
          phq9("p", 5, "2026-11-01", {
            valueQuantity: { value: 5, unit: "mg", code: "mg", system: "http://unitsofmeasure.org" },
          }),
          options,
        ),
      ),
    ).toBe("unknown_unit");
  });
});

describe("Observation panel with the total as a component", () => {
  it("reads the PHQ-9 total from a panel (44249-1) component, with the panel's status and time", () => {
    const panel = phq9("panel", 0, "2026-11-20T10:00:00Z", {
      code: {
        coding: [
          { system: "http://loinc.org", code: "44249-1", display: "PHQ-9 quick depression assessment panel" },
        ],
      },
      component: [
        {
          code: { coding: [{ system: "http://loinc.org", code: "44261-6", display: "PHQ-9 total score" }] },
          valueInteger: 19,
        },
      ],
    });
    delete panel.valueQuantity;
    assertValidFhirR4(panel);
    expect(readObservation(panel, options)).toMatchObject({
      kind: "instrument",
      resourceId: "panel",
      loinc: "44261-6",
      assessment: { instrumentId: "phq9", score: 19, createdAt: "2026-11-20T10:00:00.000Z" },
    });
    expect(reasonOf(readObservation({ ...panel, status: "preliminary" }, options))).toBe("wrong_status");
    const noTotal = {
      ...panel,
      component: [{ code: { coding: [{ system: "http://loinc.org", code: "44250-9" }] }, valueInteger: 2 }],
    };
    expect(reasonOf(readObservation(noTotal, options))).toBe("unknown_code");
  });
});

describe("Observation -> laboratory reading", () => {
  it("reads lithium in mmol/L with its HH interpretation", () => {
    expect(readObservation(lithium("l1", 1.6, "2026-11-20T08:00:00Z", "HH"), options)).toMatchObject({
      kind: "lab",
      analyteKey: "lithium",
      value: 1.6,
      unit: "mmol/L",
      flag: "critical",
      observedAt: "2026-11-20T08:00:00.000Z",
    });
  });

  it("reads mEq/L for lithium and the ANC in cells/uL (accepted units of the analyte table)", () => {
    expect(readObservation(lithium("l2", 0.7, "2026-11-20", "N", "meq/L"), options)).toMatchObject({
      unit: "meq/L",
      flag: "normal",
    });
    expect(
      readObservation(labObservation("a", "751-8", "ANC", 1200, "/uL", "2026-11-20", "L"), options),
    ).toMatchObject({ analyteKey: "anc", unit: "/uL", flag: "low" });
  });

  it("an unknown unit is unreadable, never normal; no unit at all is read without one", () => {
    const read = readObservation(lithium("l3", 0.8, "2026-11-20", "N", "mg/dL"), options);
    expect(read).toMatchObject({ reason: "unknown_unit", id: "l3" });
    expect((read as NotUsed).detail).toMatch(/not known for Lithium/);
    // No unit at all is read, unit null, for the one judgement's unit-less rule (decision 180).
    const noUnit = lithium("l4", 0.8, "2026-11-20", "N");
    noUnit.valueQuantity = { value: 0.8 };
    expect(readObservation(noUnit, options)).toMatchObject({ kind: "lab", value: 0.8, unit: null });
    const otherSystem = lithium("l5", 0.8, "2026-11-20");
    otherSystem.valueQuantity = { value: 0.8, system: "http://example.org/units", code: "mmol/L" };
    expect(reasonOf(readObservation(otherSystem, options))).toBe("unknown_unit");
  });

  it("keeps a censored value's comparator for the engine", () => {
    const censored = lithium("l6", 0.2, "2026-11-20");
    censored.valueQuantity = { ...censored.valueQuantity, comparator: "<" };
    const read = readObservation(censored, options);
    expect(read).toMatchObject({ comparator: "<", value: 0.2 });
    const input = toBiomarkerInput(
      { instruments: [], labs: [read as never], medications: [], notUsed: [] },
      () => "Lithium",
    );
    expect(input.labs[0]?.results.biomarkers[0]?.value).toBe("<0.2");
  });

  it("maps v3 interpretation codes: H high, L low, HH/LL/AA critical, N normal, A and conflicts none", () => {
    const flagOf = (code: string) =>
      (readObservation(sodium("s", 140, "2026-11-20", code), options) as { flag: unknown }).flag;
    expect([
      flagOf("H"),
      flagOf("L"),
      flagOf("HH"),
      flagOf("LL"),
      flagOf("AA"),
      flagOf("N"),
      flagOf("A"),
    ]).toEqual(["high", "low", "critical", "critical", "critical", "normal", null]);
    const both = sodium("s", 140, "2026-11-20");
    both.interpretation = [
      {
        coding: [{ system: "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation", code: "H" }],
      },
      {
        coding: [{ system: "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation", code: "L" }],
      },
    ];
    expect((readObservation(both, options) as { flag: unknown }).flag).toBeNull();
  });
});

describe("Observation: what is skipped, and why", () => {
  it.each(["preliminary", "registered", "entered-in-error", "cancelled", "unknown"] as const)(
    "status %s is skipped and said",
    (status) => {
      const read = readObservation({ ...sodium("s", 120, "2026-11-20", "LL"), status }, options);
      expect(read).toMatchObject({ reason: "wrong_status", resourceType: "Observation", id: "s" });
      expect((read as NotUsed).detail).toContain(status);
    },
  );

  it("amended and corrected count", () => {
    expect(readObservation({ ...sodium("s", 130, "2026-11-20"), status: "amended" }, options)).toMatchObject({
      kind: "lab",
    });
    expect(
      readObservation({ ...sodium("s", 130, "2026-11-20"), status: "corrected" }, options),
    ).toMatchObject({ kind: "lab" });
  });

  it("no date, a bad date, a future date and `issued` alone are no_date", () => {
    const { effectiveDateTime: _e, ...undated } = sodium("s", 130, "2026-11-20");
    expect(reasonOf(readObservation(undated, options))).toBe("no_date"); // issued is not used
    expect(reasonOf(readObservation(sodium("s", 130, "20/11/2026"), options))).toBe("no_date");
    expect(reasonOf(readObservation(sodium("s", 130, "2026-12-20"), options))).toBe("no_date");
  });

  it("unknown code, no value and another patient", () => {
    expect(
      reasonOf(readObservation(labObservation("x", "9999-9", "Unknown", 1, "mmol/L", "2026-11-20"), options)),
    ).toBe("unknown_code");
    const noValue = sodium("s", 1, "2026-11-20");
    delete noValue.valueQuantity;
    noValue.dataAbsentReason = {
      coding: [{ system: "http://terminology.hl7.org/CodeSystem/data-absent-reason", code: "error" }],
    };
    expect(reasonOf(readObservation(noValue, options))).toBe("no_value");
    const other = { ...sodium("s", 130, "2026-11-20"), subject: { reference: "Patient/someone-else" } };
    expect(reasonOf(readObservation(other, options))).toBe("other_patient");
    expect(reasonOf(readObservation({ resourceType: "Patient", id: "p" }, options))).toBe(
      "unsupported_resource",
    );
    expect(reasonOf(readObservation("not json", options))).toBe("unsupported_resource");
  });
});

describe("MedicationRequest -> medicine", () => {
  it("reads an RxNorm ingredient code from the medicine model", () => {
    expect(
      readMedicationRequest(medicationRequest("m1", { rxnorm: "36437" }, "active", "2026-10-01"), options),
    ).toMatchObject({
      kind: "medication",
      text: "sertraline",
      ingredients: ["sertraline"],
      rxnorm: "36437",
      authoredOn: "2026-10-01T00:00:00.000Z",
    });
  });

  it("reads a clinical-drug RxNorm code by its display, and text when there is no coding", () => {
    expect(
      readMedicationRequest(
        medicationRequest("m2", { rxnorm: "312940", display: "sertraline 50 MG Oral Tablet" }, "active"),
        options,
      ),
    ).toMatchObject({ ingredients: ["sertraline"], rxnorm: null, authoredOn: null });
    expect(
      readMedicationRequest(medicationRequest("m3", { text: "Lithium carbonate 400 mg" }, "active"), options),
    ).toMatchObject({
      ingredients: ["lithium"],
    });
  });

  it("counts only active requests; on-hold, draft, stopped, completed, cancelled are said", () => {
    for (const status of [
      "on-hold",
      "draft",
      "stopped",
      "completed",
      "cancelled",
      "entered-in-error",
      "unknown",
    ] as const) {
      expect(
        reasonOf(readMedicationRequest(medicationRequest("m", { rxnorm: "36437" }, status), options)),
      ).toBe("wrong_status");
    }
    expect(
      readMedicationRequest(medicationRequest("m", { rxnorm: "36437" }, "draft"), options, ["draft"]),
    ).toMatchObject({
      kind: "medication",
    });
  });

  it("reads a contained Medication's code, else the reference's display", () => {
    const contained = {
      ...medicationRequest("m5", {}, "active", "2026-10-01"),
      contained: [
        {
          resourceType: "Medication" as const,
          id: "med1",
          code: {
            coding: [
              { system: "http://www.nlm.nih.gov/research/umls/rxnorm", code: "2626", display: "clozapine" },
            ],
          },
        },
      ],
      medicationReference: { reference: "#med1" },
    };
    delete (contained as { medicationCodeableConcept?: unknown }).medicationCodeableConcept;
    assertValidFhirR4(contained);
    expect(readMedicationRequest(contained, options)).toMatchObject({
      ingredients: ["clozapine"],
      rxnorm: "2626",
    });
    const byDisplay = {
      ...contained,
      contained: [],
      medicationReference: { reference: "Medication/x", display: "Sertraline 50 mg tablet" },
    };
    expect(readMedicationRequest(byDisplay, options)).toMatchObject({
      ingredients: ["sertraline"],
      rxnorm: null,
    });
  });

  it("unknown medicines, references and doNotPerform are not read", () => {
    expect(
      reasonOf(
        readMedicationRequest(medicationRequest("m", { text: "Unobtainium 5 mg" }, "active"), options),
      ),
    ).toBe("unknown_code");
    expect(
      reasonOf(readMedicationRequest(medicationRequest("m", { rxnorm: "99999999" }, "active"), options)),
    ).toBe("unknown_code");
    const byReference = {
      ...medicationRequest("m", {}, "active"),
      medicationReference: { reference: "Medication/x" },
    };
    delete (byReference as { medicationCodeableConcept?: unknown }).medicationCodeableConcept;
    expect((readMedicationRequest(byReference, options) as NotUsed).detail).toMatch(
      /reference the service cannot read/,
    );
    expect(
      reasonOf(
        readMedicationRequest(
          medicationRequest("m", { rxnorm: "36437" }, "active", undefined, { doNotPerform: true }),
          options,
        ),
      ),
    ).toBe("wrong_status");
  });
});

describe("Bundles and engine inputs", () => {
  const observations = searchset([
    phq9("p1", 6, "2026-09-01"),
    phq9("p2", 16, "2026-11-20"),
    lithium("l1", 1.6, "2026-11-20T08:00:00Z", "HH"),
    { ...sodium("s1", 120, "2026-11-20", "LL"), status: "preliminary" },
  ]);
  const medications = searchset([
    medicationRequest("m1", { text: "Lithium carbonate 400 mg bd" }, "active", "2026-11-10"),
    medicationRequest("m2", { rxnorm: "36437" }, "stopped", "2026-01-01"),
  ]);

  it("reads a searchset Bundle, names every skipped resource, and dedupes repeats", () => {
    const inbound = readFhirInputs([observations, medications, observations], options);
    expect(inbound.instruments.map((r) => r.resourceId)).toEqual(["p1", "p2"]);
    expect(inbound.labs.map((r) => r.analyteKey)).toEqual(["lithium"]);
    expect(inbound.medications.map((r) => r.resourceId)).toEqual(["m1"]);
    expect(inbound.notUsed.map((n) => `${n.id}:${n.reason}`).sort()).toEqual([
      "m2:wrong_status",
      "s1:wrong_status",
    ]);
  });

  it("an OperationOutcome, a next page and a non-resource are named as incomplete or unsupported", () => {
    const paged = {
      ...searchset([phq9("p1", 6, "2026-09-01")]),
      link: [{ relation: "next", url: "https://ehr/fhir?page=2" }],
    };
    const inbound = readFhirInputs(
      [
        paged,
        { resourceType: "OperationOutcome", issue: [{ severity: "error", code: "timeout" }] },
        [42],
        null,
      ],
      options,
    );
    expect(inbound.notUsed.map((n) => n.reason).sort()).toEqual([
      "incomplete",
      "incomplete",
      "unsupported_resource",
    ]);
    expect(inbound.instruments).toHaveLength(1);
  });

  it("builds the relapse input: assessments oldest first, medication known or not", () => {
    const inbound = readFhirInputs([observations, medications], options);
    const input = toRelapseInput(inbound, now, true);
    expect(input.assessments.map((a) => a.score)).toEqual([6, 16]);
    expect(input.hasActiveMedication).toBe(true);
    expect(input.daysSinceMedChange).toBe(16);
    expect(input.avgSleepHours).toBeUndefined();
    const unknown = toRelapseInput(inbound, now, false);
    expect(unknown.hasActiveMedication).toBeUndefined();
    expect(unknown.daysSinceMedChange).toBeUndefined();
    expect(toRelapseInput(readFhirInputs([searchset([])], options), now, true).hasActiveMedication).toBe(
      false,
    );
  });

  it("builds the biomarker input with names, UCUM units, LOINC and flags", () => {
    const inbound = readFhirInputs([observations], options);
    expect(toBiomarkerInput(inbound, () => "Lithium").labs).toEqual([
      {
        id: "l1",
        labName: "FHIR Observation",
        observedAt: "2026-11-20T08:00:00.000Z",
        results: {
          biomarkers: [{ name: "Lithium", value: 1.6, unit: "mmol/L", loinc: "14334-7", flag: "critical" }],
        },
      },
    ]);
  });
});

describe("MedicationRequest daily dose (decision 184)", () => {
  const timed = (repeat: Record<string, unknown>, quantity: Record<string, unknown>, extra = {}) =>
    medicationRequest("d1", { rxnorm: "36437" }, "draft", "2026-11-26", {
      dosageInstruction: [{ timing: { repeat }, doseAndRate: [quantity], ...extra }],
    } as Partial<MedicationRequest>);
  const read = (resource: MedicationRequest) => {
    const reading = readMedicationRequest(resource, { now: new Date("2026-11-27T00:00:00Z") }, ["draft"]);
    if ("reason" in reading) throw new Error(reading.detail);
    return reading.dailyDose;
  };
  const mg = (value: number, code = "mg") => ({ doseQuantity: { value, unit: code, code } });

  it("reads the dose times the administrations in any 24 hours", () => {
    expect(read(timed({ frequency: 3, period: 1, periodUnit: "d" }, mg(100)))).toBe("300 mg per day");
    expect(read(timed({ frequency: 1, period: 8, periodUnit: "h" }, mg(100)))).toBe("300 mg per day");
    expect(read(timed({ frequency: 1, period: 5, periodUnit: "h" }, mg(10)))).toBe("50 mg per day");
    expect(read(timed({ frequency: 1, period: 2, periodUnit: "d" }, mg(50)))).toBe("50 mg per day");
    expect(read(timed({ frequency: 1, frequencyMax: 2, period: 1, periodUnit: "d" }, mg(50)))).toBe(
      "100 mg per day",
    );
    expect(read(timed({ timeOfDay: ["08:00:00", "20:00:00"] }, mg(0.5, "g")))).toBe("1 g per day");
    expect(
      read(
        timed(
          { frequency: 1, period: 1, periodUnit: "d" },
          { doseRange: { high: { value: 40, code: "mg" } } },
        ),
      ),
    ).toBe("40 mg per day");
  });

  it("gives no daily dose it cannot read: tablets, no timing, as needed, mixed units", () => {
    expect(read(timed({ frequency: 1, period: 1, periodUnit: "d" }, mg(2, "{tbl}")))).toBeUndefined();
    expect(read(timed({ frequency: 1 }, mg(100)))).toBeUndefined();
    expect(
      read(timed({ frequency: 1, period: 1, periodUnit: "d" }, mg(100), { asNeededBoolean: true })),
    ).toBeUndefined();
    expect(read(timed({ frequency: 1, period: 1, periodUnit: "d" }, mg(-5)))).toBeUndefined();
    const mixed = medicationRequest("d1", { rxnorm: "36437" }, "draft", "2026-11-26", {
      dosageInstruction: [
        { timing: { repeat: { frequency: 1, period: 1, periodUnit: "d" } }, doseAndRate: [mg(100)] },
        { timing: { repeat: { frequency: 1, period: 1, periodUnit: "d" } }, doseAndRate: [mg(100, "ug")] },
      ],
    });
    expect(read(mixed)).toBeUndefined();
    expect(read(medicationRequest("d1", { rxnorm: "36437" }, "draft"))).toBeUndefined();
  });
});
