/** Hook requests as an EHR sends them, over the FHIR examples of the inbound mapping tests. */
import type { Bundle, MedicationRequest } from "@medplum/fhirtypes";
import { medicationRequest, PATIENT_ID } from "../../fhir/test/inbound-fixtures.js";
import { type CdsService, cdsService } from "../src/index.js";

export * from "../../fhir/test/inbound-fixtures.js";

export const NOW = new Date("2026-11-26T12:00:00Z");
export const BASE = "https://cds.example.org";

/** A service of the registry by id, as the app finds it before validating a call. */
export function service(id: string): CdsService {
  const found = cdsService(id);
  if (found === undefined) throw new Error(`no CDS service ${id}`);
  return found;
}

let counter = 0;
export const options = (extra: Record<string, unknown> = {}) => ({
  now: NOW,
  baseUrl: BASE,
  uuid: () => `00000000-0000-4000-8000-${String(++counter).padStart(12, "0")}`,
  ...extra,
});

export function patientViewRequest(prefetch?: Record<string, unknown>) {
  return {
    hook: "patient-view",
    hookInstance: "d1577c69-dfbe-44ad-ba6d-3e05e953b2ea",
    fhirServer: "https://ehr.example.org/fhir",
    context: { userId: "Practitioner/abc", patientId: PATIENT_ID },
    ...(prefetch ? { prefetch } : {}),
  };
}

export function draftBundle(orders: MedicationRequest[]): Bundle {
  return { resourceType: "Bundle", type: "collection", entry: orders.map((resource) => ({ resource })) };
}

export const draft = (id: string, medication: { rxnorm?: string; display?: string; text?: string }) =>
  medicationRequest(id, medication, "draft", "2026-11-26");

export function orderRequest(
  hook: "order-select" | "order-sign",
  drafts: MedicationRequest[],
  prefetch?: Record<string, unknown>,
  selections: string[] = drafts.slice(-1).map((d) => `MedicationRequest/${d.id}`),
) {
  return {
    hook,
    hookInstance: "2a1e8f7c-9b1e-4f5e-8c7d-1f2e3d4c5b6a",
    context: {
      userId: "PractitionerRole/123",
      patientId: PATIENT_ID,
      ...(hook === "order-select" ? { selections } : {}),
      draftOrders: draftBundle(drafts),
    },
    ...(prefetch ? { prefetch } : {}),
  };
}

/** The patient in context as the EHR's Patient read answers it (a man of 45 at NOW). */
export function patientResource(extra: Record<string, unknown> = {}) {
  return {
    resourceType: "Patient",
    id: PATIENT_ID,
    gender: "male",
    birthDate: "1981-03-14",
    ...extra,
  };
}

export const EMPTY_SEARCH = { resourceType: "Bundle", type: "searchset", total: 0, entry: [] };

/**
 * The patient facts a request carries besides what a test is about: the Patient and an empty
 * MedicationStatement search (patient-view's optional keys). A test's own keys win.
 */
export function withPatientFacts(prefetch: Record<string, unknown> = {}): Record<string, unknown> {
  return { patient: patientResource(), statements: EMPTY_SEARCH, ...prefetch };
}

/** A normal eGFR ten days old (LOINC 98979-8, CKD-EPI 2021): renal function known. */
export function normalEgfr(): Record<string, unknown> {
  return {
    resourceType: "Observation",
    id: "egfr-1",
    status: "final",
    code: { coding: [{ system: "http://loinc.org", code: "98979-8" }] },
    subject: { reference: `Patient/${PATIENT_ID}` },
    effectiveDateTime: new Date(NOW.getTime() - 10 * 86_400_000).toISOString(),
    valueQuantity: {
      value: 95,
      unit: "mL/min/1.73m2",
      system: "http://unitsofmeasure.org",
      code: "mL/min/{1.73_m2}",
    },
  };
}

/**
 * The same for the order hooks: the Patient and a labs search holding a normal eGFR, so renal
 * rules are judged (a test about missing renal function sends its own `labs`).
 */
export function withOrderFacts(prefetch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    patient: patientResource(),
    labs: { ...EMPTY_SEARCH, total: 1, entry: [{ resource: normalEgfr() }] },
    ...prefetch,
  };
}
