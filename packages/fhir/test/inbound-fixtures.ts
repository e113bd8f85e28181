/** Realistic FHIR R4 resources for the inbound mapping tests (shapes as EHRs send them). */
import type { Bundle, MedicationRequest, Observation } from "@medplum/fhirtypes";

export const PATIENT_ID = "pat-1288992";

export function scoreObservation(
  id: string,
  loinc: string,
  display: string,
  score: number,
  effectiveDateTime: string,
  extra: Partial<Observation> = {},
): Observation {
  return {
    resourceType: "Observation",
    id,
    status: "final",
    category: [
      {
        coding: [
          {
            system: "http://terminology.hl7.org/CodeSystem/observation-category",
            code: "survey",
            display: "Survey",
          },
        ],
      },
    ],
    code: { coding: [{ system: "http://loinc.org", code: loinc, display }], text: display },
    subject: { reference: `Patient/${PATIENT_ID}` },
    effectiveDateTime,
    valueQuantity: { value: score, system: "http://unitsofmeasure.org", code: "{score}", unit: "{score}" },
    ...extra,
  };
}

export const phq9 = (id: string, score: number, when: string, extra: Partial<Observation> = {}) =>
  scoreObservation(id, "44261-6", "PHQ-9 total score", score, when, extra);
export const gad7 = (id: string, score: number, when: string, extra: Partial<Observation> = {}) =>
  scoreObservation(id, "70274-6", "GAD-7 total score", score, when, extra);

export function labObservation(
  id: string,
  loinc: string,
  display: string,
  value: number,
  ucum: string,
  effectiveDateTime: string,
  interpretation?: string,
  extra: Partial<Observation> = {},
): Observation {
  return {
    resourceType: "Observation",
    id,
    status: "final",
    category: [
      {
        coding: [
          {
            system: "http://terminology.hl7.org/CodeSystem/observation-category",
            code: "laboratory",
            display: "Laboratory",
          },
        ],
      },
    ],
    code: { coding: [{ system: "http://loinc.org", code: loinc, display }], text: display },
    subject: { reference: `Patient/${PATIENT_ID}` },
    effectiveDateTime,
    // issued is an instant (time and zone required); a date-only result is released at noon UTC.
    issued: effectiveDateTime.length > 10 ? effectiveDateTime : `${effectiveDateTime}T12:00:00Z`,
    valueQuantity: { value, unit: ucum, system: "http://unitsofmeasure.org", code: ucum },
    ...(interpretation
      ? {
          interpretation: [
            {
              coding: [
                {
                  system: "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation",
                  code: interpretation,
                },
              ],
            },
          ],
        }
      : {}),
    ...extra,
  };
}

export const lithium = (id: string, value: number, when: string, flag?: string, unit = "mmol/L") =>
  labObservation(id, "14334-7", "Lithium [Moles/volume] in Serum or Plasma", value, unit, when, flag);
export const sodium = (id: string, value: number, when: string, flag?: string) =>
  labObservation(id, "2951-2", "Sodium [Moles/volume] in Serum or Plasma", value, "mmol/L", when, flag);
export const anc = (id: string, value: number, when: string, flag?: string) =>
  labObservation(
    id,
    "751-8",
    "Neutrophils [#/volume] in Blood by Automated count",
    value,
    "10*9/L",
    when,
    flag,
  );
export const valproate = (id: string, value: number, when: string, flag?: string) =>
  labObservation(id, "4086-5", "Valproate [Mass/volume] in Serum or Plasma", value, "mg/L", when, flag);

export function medicationRequest(
  id: string,
  medication: { rxnorm?: string; display?: string; text?: string },
  status: MedicationRequest["status"],
  authoredOn?: string,
  extra: Partial<MedicationRequest> = {},
): MedicationRequest {
  return {
    resourceType: "MedicationRequest",
    id,
    status,
    intent: "order",
    medicationCodeableConcept: {
      ...(medication.rxnorm || medication.display
        ? {
            coding: [
              {
                system: "http://www.nlm.nih.gov/research/umls/rxnorm",
                ...(medication.rxnorm ? { code: medication.rxnorm } : {}),
                ...(medication.display ? { display: medication.display } : {}),
              },
            ],
          }
        : {}),
      ...(medication.text ? { text: medication.text } : {}),
    },
    subject: { reference: `Patient/${PATIENT_ID}` },
    ...(authoredOn ? { authoredOn } : {}),
    ...extra,
  };
}

export function searchset(resources: (Observation | MedicationRequest)[]): Bundle {
  return {
    resourceType: "Bundle",
    type: "searchset",
    total: resources.length,
    entry: resources.map((resource) => ({
      fullUrl: `https://ehr.example.org/fhir/${resource.resourceType}/${resource.id}`,
      resource,
      search: { mode: "match" },
    })),
  };
}
