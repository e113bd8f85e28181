import type { Bundle, Provenance, QuestionnaireResponse, Resource } from "@medplum/fhirtypes";
import { call } from "@svc/testkit";
import { fhirR4Problems } from "@svc/testkit/fhir";
import { describe, expect, it } from "vitest";
import { serviceWithOrgPerTest, visit } from "./helpers.js";

/**
 * GET /v1/mse/{visitId} in FHIR with free text the authors' examples do not use: the API accepts
 * blank text, clinician id, organization, licence and attestation, and the Bundle must still be
 * valid R4 (a FHIR string needs non-whitespace content).
 */
const t = serviceWithOrgPerTest();

describe("MSE record in FHIR with blank free text", () => {
  it("blank section text, clinicianId, credential, licence, organization and attestation are left out; every resource is valid R4", async () => {
    const visitId = visit("fhir-blank");
    const selection = {
      mood: { values: ["depressed"], text: " " },
      affect: { values: ["restricted"], text: "\n" },
      risk: { values: ["active_si"], cssrs: { q1: "yes", q2: "no" } },
    };
    expect((await t.api.write(visitId, { patientId: "pat-1", selection, clinicianId: " " })).status).toBe(
      200,
    );
    const signed = await t.api.sign(visitId, {
      patientId: "pat-1",
      signedByName: "Dr A",
      credential: " ",
      license: " ",
      organization: " ",
      attestation: " ",
    });
    expect(signed.status).toBe(200);
    const res = await call<Bundle>(t.svc.url, `/v1/mse/${visitId}`, {
      key: t.key,
      headers: { accept: "application/fhir+json" },
    });
    expect(res.status).toBe(200);
    const resources = (res.json.entry ?? []).map((e) => e.resource as Resource);
    expect([res.json, ...resources].flatMap((resource) => fhirR4Problems(resource))).toEqual([]);
    const qr = resources.find((r): r is QuestionnaireResponse => r.resourceType === "QuestionnaireResponse");
    expect(qr?.author).toBeUndefined();
    const provenance = resources.find((r): r is Provenance => r.resourceType === "Provenance");
    expect(provenance?.agent?.[0]?.who?.display).toBe("Dr A");
    expect(provenance?.agent?.[0]?.onBehalfOf).toBeUndefined();
    expect(provenance?.reason).toBeUndefined();
  });
});
