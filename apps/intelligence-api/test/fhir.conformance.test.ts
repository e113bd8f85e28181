import type { Bundle, Resource } from "@medplum/fhirtypes";
import { call } from "@svc/testkit";
import { fhirR4Problems } from "@svc/testkit/fhir";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import { bodies } from "./analysis-bodies.js";

/**
 * The FHIR answers of the analysis endpoints with caller text the authors' examples do not use:
 * every resource must still be valid R4 (a FHIR string is never empty or whitespace only).
 */
const svc = useTestService();
let key: string;

beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
});

const FHIR = "application/fhir+json";

describe.each(Object.entries(bodies))("%s in FHIR with odd caller text", (_engine, spec) => {
  it("an empty or blank sessionRef still gives a valid R4 Bundle", async () => {
    for (const sessionRef of ["", "   ", " visit 42 "]) {
      const res = await call<Bundle>(svc.url, spec.path, {
        key,
        body: { ...spec.body, sessionRef },
        headers: { accept: FHIR },
      });
      expect(res.status).toBe(200);
      const problems = [res.json, ...(res.json.entry ?? []).map((e) => e.resource as Resource)].flatMap(
        (resource) => fhirR4Problems(resource),
      );
      expect(problems, JSON.stringify(sessionRef)).toEqual([]);
    }
  });
});

describe("medication in FHIR with blank prescription fields", () => {
  const assessments = bodies.medication.body.assessments;
  const prescription = (id: string, medicationName: string) => ({
    id,
    medicationName,
    status: "active",
    prescribedAt: "2026-06-20",
  });

  it("a blank prescription id or name is left out of focus and implicated, and every resource stays valid R4", async () => {
    for (const prescriptions of [
      [prescription(" ", "Sertraline 50 mg"), prescription("rx_2", "Tramadol 50 mg")],
      [prescription("rx_1", " ")],
    ]) {
      const res = await call<Bundle>(svc.url, bodies.medication.path, {
        key,
        body: { prescriptions, assessments },
        headers: { accept: FHIR },
      });
      expect(res.status).toBe(200);
      const resources = (res.json.entry ?? []).map((e) => e.resource as Resource);
      const problems = [res.json, ...resources].flatMap((resource) => fhirR4Problems(resource));
      expect(problems, JSON.stringify(prescriptions)).toEqual([]);
    }
  });
});
