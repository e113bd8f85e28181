import type {
  Bundle,
  Observation,
  Provenance,
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
  Resource,
} from "@medplum/fhirtypes";
import { CODES } from "@svc/mse-catalog";
import { call } from "@svc/testkit";
import { assertValidFhirR4 } from "@svc/testkit/fhir";
import { describe, expect, it } from "vitest";
import { serviceWithOrgPerTest, visit } from "./helpers.js";

/**
 * GET /v1/mse/{visitId} as an EHR reads it with `Accept: application/fhir+json`: a Bundle whose
 * QuestionnaireResponse answers our served Questionnaire, an Observation per coded finding (the
 * catalog's SNOMED CT codes), the risk Observation with the C-SSRS screen, and the signature as a
 * Provenance; every resource passes the R4 validator. Other Accept headers and errors are unchanged.
 */
const t = serviceWithOrgPerTest();
const FHIR = "application/fhir+json";

const selection = {
  mood: { values: ["depressed", "anxious"], text: "Worse in the mornings" },
  affect: { values: ["restricted"] },
  thought_content: { values: ["suicidal_ideation"] },
  risk: { values: ["active_si"], cssrs: { q1: "yes", q2: "yes", q3: "no", q4: "no", q5: "no", q6: "no" } },
  insight: { values: ["partial"] },
};

const resourcesOf = (bundle: Bundle): Resource[] => (bundle.entry ?? []).map((e) => e.resource as Resource);
const ofType = <T extends Resource>(bundle: Bundle, type: T["resourceType"]): T[] =>
  resourcesOf(bundle).filter((r): r is T => r.resourceType === type);
const getFhir = (visitId: string, accept = FHIR) =>
  call<Bundle>(t.svc.url, `/v1/mse/${visitId}`, { key: t.key, headers: { accept } });

function linkIds(
  items: readonly (QuestionnaireItem | QuestionnaireResponseItem)[] | undefined,
  out = new Set<string>(),
) {
  for (const item of items ?? []) {
    out.add(item.linkId);
    linkIds(item.item, out);
  }
  return out;
}

describe("GET /v1/mse/{visitId} with Accept: application/fhir+json", () => {
  it("a signed record with a C-SSRS screen: every resource valid, answers our served Questionnaire", async () => {
    const visitId = visit("fhir");
    expect(
      (await t.api.write(visitId, { patientId: "pat-1", selection, clinicianId: "clin-9" })).status,
    ).toBe(200);
    const signed = await t.api.sign(visitId, {
      patientId: "pat-1",
      signedByName: "Dr. Ada Lovelace",
      credential: "MD",
    });
    expect(signed.status).toBe(200);
    const cosigned = await t.api.sign(visitId, {
      patientId: "pat-1",
      signedByName: "Dr. Grace Hopper",
      organization: "North Clinic",
      attestation: "Reviewed with the patient.",
    });
    expect(cosigned.status).toBe(200);

    const res = await getFhir(visitId);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/fhir\+json/);
    expect(res.headers.get("vary")).toContain("Accept");
    const bundle = res.json;
    expect(bundle.type).toBe("collection");
    assertValidFhirR4(bundle);
    for (const resource of resourcesOf(bundle)) assertValidFhirR4(resource);

    const [qr] = ofType<QuestionnaireResponse>(bundle, "QuestionnaireResponse");
    expect(qr?.status).toBe("completed");
    expect(qr?.subject?.identifier?.value).toBe("pat-1");
    expect(qr?.encounter?.identifier?.value).toBe(visitId);
    const publicBase = t.svc.deps.publicBaseUrl;
    expect(qr?.questionnaire).toBe(`${publicBase}/fhir/Questionnaire/mse`);
    const questionnaire = await call<Questionnaire>(
      t.svc.url,
      (qr?.questionnaire ?? "").slice(publicBase.length),
    );
    expect(questionnaire.status).toBe(200);
    assertValidFhirR4(questionnaire.json);
    const known = linkIds(questionnaire.json.item);
    for (const id of linkIds(qr?.item)) expect(known).toContain(id);
    // The screen's answers, as booleans under risk.cssrs.
    const text = JSON.stringify(qr);
    expect(text).toContain('"linkId":"risk.cssrs.q2","answer":[{"valueBoolean":true}]');
    expect(text).toContain('"linkId":"risk.cssrs.q3","answer":[{"valueBoolean":false}]');

    // One Observation per coded finding, carrying the catalog's SNOMED CT code.
    const findings = ofType<Observation>(bundle, "Observation").flatMap(
      (o) => o.valueCodeableConcept?.coding ?? [],
    );
    const snomed = findings.filter((c) => c.system === "http://snomed.info/sct").map((c) => c.code);
    expect(snomed.sort()).toEqual(
      [
        CODES.depressedMood.code,
        CODES.anxiety.code,
        CODES.suicidalThoughts.code,
        CODES.suicidalThoughts.code,
      ].sort(),
    );
    // No LOINC code for a C-SSRS item (none verified on loinc.org).
    expect(JSON.stringify(bundle)).not.toContain("loinc");

    // The signature and the co-signature, oldest first, each a Provenance of every other entry.
    const provenances = ofType<Provenance>(bundle, "Provenance");
    expect(provenances.map((p) => p.agent?.[0]?.who?.display)).toEqual([
      "Dr. Ada Lovelace, MD",
      "Dr. Grace Hopper",
    ]);
    for (const provenance of provenances) {
      expect(provenance.signature?.[0]?.type?.[0]?.code).toBe("1.2.840.10065.1.12.1.1");
      expect(provenance.target).toHaveLength((bundle.entry?.length ?? 0) - provenances.length);
    }
    expect(provenances[1]?.agent?.[0]?.onBehalfOf?.display).toBe("North Clinic");
    expect(provenances[1]?.reason?.[0]?.text).toBe("Reviewed with the patient.");
  });

  it("an unsigned record with an incomplete screen: in-progress, no Provenance, unanswered items absent", async () => {
    const visitId = visit("fhir");
    await t.api.write(visitId, {
      patientId: "pat-2",
      selection: { risk: { values: [], cssrs: { q1: "yes" } } },
    });
    const bundle = (await getFhir(visitId)).json;
    for (const resource of resourcesOf(bundle)) assertValidFhirR4(resource);
    expect(ofType<Provenance>(bundle, "Provenance")).toHaveLength(0);
    const [qr] = ofType<QuestionnaireResponse>(bundle, "QuestionnaireResponse");
    expect(qr?.status).toBe("in-progress");
    const text = JSON.stringify(qr);
    expect(text).toContain("risk.cssrs.q1");
    expect(text).not.toContain("risk.cssrs.q2");
    const risk = ofType<Observation>(bundle, "Observation").find(
      (o) => o.code.coding?.[0]?.code === "record-risk",
    );
    expect(risk?.component?.find((c) => c.valueBoolean !== undefined)?.valueBoolean).toBe(false);
  });

  it("keeps the JSON answer byte for byte for application/json, */*, an unknown type, and a lower fhir q-value", async () => {
    const visitId = visit("fhir");
    await t.api.write(visitId, { patientId: "pat-3", selection });
    const plain = await call(t.svc.url, `/v1/mse/${visitId}`, { key: t.key });
    expect(plain.headers.get("content-type")).toMatch(/^application\/json/);
    for (const accept of ["application/json", "*/*", "text/html", `${FHIR};q=0.4, application/json`]) {
      const res = await getFhir(visitId, accept);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.text).toBe(plain.text);
    }
  });

  it("errors stay the flat JSON error for FHIR callers", async () => {
    const missing = await getFhir(visit("none"));
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/^application\/json/);
    expect((missing.json as unknown as { code: string }).code).toBe("not_found");
    const unauthorized = await call(t.svc.url, `/v1/mse/${visit("x")}`, { headers: { accept: FHIR } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("content-type")).toMatch(/^application\/json/);
  });
});

describe("the Questionnaire the records point at", () => {
  it("is served at its canonical URL, public and cacheable; 404 for what is not served", async () => {
    const res = await call<Questionnaire>(t.svc.url, "/fhir/Questionnaire/mse");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/fhir\+json/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    assertValidFhirR4(res.json);
    expect(res.json.url).toMatch(/\/fhir\/Questionnaire\/mse$/);
    for (const path of ["/fhir/Questionnaire/nope", "/fhir/CodeSystem/nope", "/fhir/ValueSet/mse"]) {
      expect((await call(t.svc.url, path)).status, path).toBe(404);
    }
  });
});
