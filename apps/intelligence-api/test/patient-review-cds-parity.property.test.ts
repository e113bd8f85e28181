import { randomUUID } from "node:crypto";
import type { Bundle, MedicationRequest, Observation } from "@medplum/fhirtypes";
import type { Card } from "@svc/cds-hooks";
import { DOOR_LEVELS, NOT_ASSESSED_DOORS, type PatientFinding, reviewPatient } from "@svc/engines";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CdsTestbed, startCdsTestbed } from "./cds-ehr.js";
import { DAY, daysBefore, REVIEWED_MEDICINES } from "./patient-review-fixtures.js";

/**
 * The patient review through the CDS door (decisions 189 and 203), over real HTTP as an EHR calls
 * patient-view: a generated Patient (gender, birth date), a pregnancy-status Observation, active
 * MedicationRequests whose `authoredOn` is the first start, and dated lab and ECG Observations by
 * LOINC and UCUM. The review the engine makes of the same facts, built here independently of the
 * CDS reader, decides the cards: one `patient-*` card per finding, its indicator the door table's
 * (`DOOR_LEVELS[level].cds`, a finding not assessed at least `NOT_ASSESSED_DOORS.cds`).
 */
let bed: CdsTestbed;
const PATIENT = "pt-parity";

beforeAll(async () => {
  bed = await startCdsTestbed();
});
afterAll(async () => {
  await bed?.close();
});

const MEDICINES = [...REVIEWED_MEDICINES, "topiramate 50 mg daily"] as const;

/** Analytes with the LOINC code and UCUM unit an EHR sends (codes of the analyte table). */
const ANALYTES = [
  { name: "QTc", loinc: "8636-3", unit: "ms", values: [400, 455, 470, 505, 530] },
  { name: "Neutrophils", loinc: "751-8", unit: "10*9/L", values: [0.4, 1.2, 1.8, 3.0, 5.0] },
  { name: "Creatinine", loinc: "14682-9", unit: "umol/L", values: [60, 90, 140, 220] },
  { name: "Weight", loinc: "29463-7", unit: "kg", values: [60, 66, 72, 80] },
  { name: "Lithium", loinc: "14334-7", unit: "mmol/L", values: [0.3, 0.7, 1.6] },
] as const;

const PREGNANCY_ANSWER = {
  pregnant: { code: "LA15173-0", display: "Pregnant" },
  not_pregnant: { code: "LA26683-5", display: "Not pregnant" },
} as const;

const caseArb = fc.record({
  sex: fc.constantFrom("female", "male"),
  ageYears: fc.integer({ min: 18, max: 85 }),
  pregnancy: fc.constantFrom("pregnant", "not_pregnant", null),
  medicines: fc.uniqueArray(
    fc.record({ name: fc.constantFrom(...MEDICINES), startedDaysAgo: fc.integer({ min: 3, max: 800 }) }),
    { selector: (m) => m.name, minLength: 1, maxLength: 2 },
  ),
  readings: fc.array(
    fc.record({
      analyte: fc.integer({ min: 0, max: ANALYTES.length - 1 }),
      pick: fc.nat(),
      daysAgo: fc.integer({ min: 1, max: 500 }),
    }),
    { maxLength: 6 },
  ),
});
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

const searchset = (resources: (Observation | MedicationRequest)[]): Bundle => ({
  resourceType: "Bundle",
  type: "searchset",
  entry: resources.map((resource) => ({ resource })),
});

/** The EHR's resources and the engine's input for the same facts. */
function facts(c: Case, now: number) {
  const birth = new Date(now - (c.ageYears * 365.25 + 30) * DAY).toISOString().slice(0, 10);
  const readings = c.readings.map((r, i) => {
    const a = ANALYTES[r.analyte] as (typeof ANALYTES)[number];
    const value = a.values[r.pick % a.values.length] as number;
    return { i, a, value, observedAt: daysBefore(now, r.daysAgo) };
  });
  const observations: Observation[] = readings.map(({ i, a, value, observedAt }) => ({
    resourceType: "Observation",
    id: `o${i}`,
    status: "final",
    code: { coding: [{ system: "http://loinc.org", code: a.loinc }], text: a.name },
    subject: { reference: `Patient/${PATIENT}` },
    effectiveDateTime: observedAt,
    valueQuantity: { value, unit: a.unit, system: "http://unitsofmeasure.org", code: a.unit },
  }));
  if (c.pregnancy !== null)
    observations.push({
      resourceType: "Observation",
      id: "pregnancy",
      status: "final",
      code: { coding: [{ system: "http://loinc.org", code: "82810-3" }] },
      subject: { reference: `Patient/${PATIENT}` },
      effectiveDateTime: daysBefore(now, 0),
      valueCodeableConcept: { coding: [{ system: "http://loinc.org", ...PREGNANCY_ANSWER[c.pregnancy] }] },
    });
  const requests: MedicationRequest[] = c.medicines.map((m, i) => ({
    resourceType: "MedicationRequest",
    id: `m${i}`,
    status: "active",
    intent: "order",
    subject: { reference: `Patient/${PATIENT}` },
    authoredOn: daysBefore(now, m.startedDaysAgo),
    medicationCodeableConcept: { text: m.name },
  }));
  const engineInput = {
    // A recorded "not pregnant" is not carried forward (decision 202): only "pregnant" is a fact.
    patient: {
      sex: c.sex,
      birthDate: birth,
      ...(c.pregnancy === "pregnant" ? { pregnancy: c.pregnancy } : {}),
    },
    medicines: c.medicines.map((m) => ({ name: m.name, startedAt: daysBefore(now, m.startedDaysAgo) })),
    readings: readings.map(({ a, value, observedAt }) => ({
      analyte: a.name,
      value,
      unit: a.unit,
      observedAt,
      loinc: a.loinc,
    })),
    now: new Date(now),
  };
  return {
    prefetch: {
      patient: { resourceType: "Patient", id: PATIENT, gender: c.sex, birthDate: birth },
      medications: searchset(requests),
      statements: searchset([]),
      scores: searchset([]),
      labs: searchset(observations),
    },
    engineInput,
  };
}

const RANK = { info: 1, warning: 2, critical: 3 } as const;
function expectedIndicator(finding: PatientFinding): keyof typeof RANK | null {
  const judged = DOOR_LEVELS[finding.level].cds;
  if (finding.assessed) return judged;
  const floor = NOT_ASSESSED_DOORS.cds;
  return judged === null || RANK[judged] < RANK[floor] ? floor : judged;
}
const ruleOf = (card: Card) => card.source.url?.split("/cds-rules/")[1] ?? "";

describe("the patient review through CDS patient-view", () => {
  it("one patient-* card per finding, at the door table's indicator", async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const now = Date.now();
        const { prefetch, engineInput } = facts(c, now);
        const review = reviewPatient(engineInput);
        const expected = review.findings.flatMap((f) => expectedIndicator(f) ?? []).sort();
        const answer = await bed.callHook("psych-patient-view", {
          hook: "patient-view",
          hookInstance: randomUUID(),
          context: { userId: "Practitioner/abc", patientId: PATIENT },
          prefetch,
        });
        expect(answer.status).toBe(200);
        const cards = answer.json.cards ?? [];
        const shown = cards
          .filter((card) => ruleOf(card).startsWith("patient-"))
          .map((card) => card.indicator);
        const cut = cards.some((card) => ruleOf(card) === "cards-not-shown");
        for (const level of expected) seen.add(level);
        if (cut) {
          // The card limit held some back: what is shown is the most serious of what was found.
          expect(shown.length).toBeLessThanOrEqual(expected.length);
          expect(Math.max(0, ...shown.map((i) => RANK[i]))).toBe(
            Math.max(0, ...expected.map((i) => RANK[i])),
          );
        } else expect(shown.sort()).toEqual(expected);
      }),
      { numRuns: 40 },
    );
    expect([...seen].sort()).toEqual(["critical", "info", "warning"]);
  }, 300_000);
});
