import { ANALYTES, INSTRUMENTS } from "@svc/engines";
import { PREGNANCY_STATUS_LOINC } from "@svc/fhir";
import { describe, expect, it } from "vitest";
import {
  CDS_SERVICES,
  cdsService,
  cdsServiceById,
  DiscoveryResponseSchema,
  discoveryResponse,
  isCleanJson,
  MAX_REQUEST_ISSUES,
  parseHookRequest,
  prefetchQueries,
  resolveTemplate,
} from "../src/index.js";
import { draft, orderRequest, PATIENT_ID, patientViewRequest, service } from "./fixtures.js";

describe("discovery", () => {
  it("lists the services of the registry with stable ids, hooks and no empty field", () => {
    // Ids are stable (decision 113): these three come first, as they always have; a new service
    // is appended by its module.
    expect(CDS_SERVICES.slice(0, 3).map((s) => [s.id, s.hook])).toEqual([
      ["psych-interactions-select", "order-select"],
      ["psych-interactions-sign", "order-sign"],
      ["psych-patient-view", "patient-view"],
    ]);
    const ids = CDS_SERVICES.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(cdsService(id)?.descriptor).toBe(cdsServiceById(id));
    expect(isCleanJson(discoveryResponse())).toBe(true);
    expect(DiscoveryResponseSchema.safeParse(discoveryResponse()).success).toBe(true);
    expect(cdsServiceById("psych-patient-view")?.hook).toBe("patient-view");
    expect(cdsServiceById("nope")).toBeUndefined();
  });

  it("prefetch templates use {{context.patientId}} tokens only, and codes of the knowledge model", () => {
    const known = new Set([
      ...Object.values(INSTRUMENTS).flatMap((k) => (k.loinc ? [k.loinc.total.code] : [])),
      ...ANALYTES.flatMap((a) => (a.loinc ?? []).map((l) => l.code)),
      PREGNANCY_STATUS_LOINC,
    ]);
    for (const service of CDS_SERVICES) {
      for (const template of Object.values(service.prefetch)) {
        expect([...template.matchAll(/\{\{([^}]*)\}\}/g)].map((m) => m[1])).toEqual(["context.patientId"]);
        for (const [, code] of template.matchAll(/http:\/\/loinc\.org\|([0-9-]+)/g))
          expect(known.has(code as string)).toBe(true);
      }
    }
    const scores = cdsServiceById("psych-patient-view")?.prefetch.scores ?? "";
    expect(scores).toContain("http://loinc.org|44261-6");
    expect(scores).toContain("http://loinc.org|70274-6");
    const labs = cdsServiceById("psych-patient-view")?.prefetch.labs ?? "";
    for (const code of ["14334-7", "4086-5", "751-8", "2951-2", PREGNANCY_STATUS_LOINC])
      expect(labs).toContain(`http://loinc.org|${code}`);
    // Who the patient is, and when medicines started (decision 201), for the services that read them.
    for (const id of ["psych-interactions-select", "psych-interactions-sign", "psych-patient-view"])
      expect(cdsServiceById(id)?.prefetch.patient).toBe("Patient/{{context.patientId}}");
    expect(cdsServiceById("psych-patient-view")?.prefetch.statements).toBe(
      "MedicationStatement?patient={{context.patientId}}&status=active",
    );
    for (const id of ["psych-interactions-select", "psych-interactions-sign"])
      expect(cdsServiceById(id)?.prefetch.labs).toBe(labs);
  });
});

describe("parseHookRequest", () => {
  it("accepts a patient-view request and order requests as the Hook Library shows them", () => {
    expect(parseHookRequest(service("psych-patient-view"), patientViewRequest({ scores: null })).ok).toBe(
      true,
    );
    expect(
      parseHookRequest(
        service("psych-interactions-sign"),
        orderRequest("order-sign", [draft("d1", { rxnorm: "36437" })]),
      ).ok,
    ).toBe(true);
    expect(
      parseHookRequest(
        service("psych-interactions-select"),
        orderRequest("order-select", [draft("d1", { rxnorm: "36437" })]),
      ).ok,
    ).toBe(true);
  });

  it("lists at most MAX_REQUEST_ISSUES issues and counts the rest (60,000 malformed draft orders)", () => {
    const body = orderRequest("order-sign", [draft("d1", { rxnorm: "36437" })]);
    (body.context.draftOrders as { entry: unknown[] }).entry = Array.from({ length: 60_000 }, () => ({
      resource: {},
    }));
    const parsed = parseHookRequest(service("psych-interactions-sign"), body);
    if (parsed.ok) throw new Error("expected issues");
    expect(parsed.issues).toHaveLength(MAX_REQUEST_ISSUES + 1);
    expect(parsed.issues.at(-1)).toEqual({
      path: "",
      message: `and ${60_000 - MAX_REQUEST_ISSUES} more problems of the same request`,
    });
  });

  const issuesOf = (serviceId: string, body: unknown) => {
    const parsed = parseHookRequest(service(serviceId), body);
    if (parsed.ok) throw new Error("expected issues");
    return parsed.issues;
  };

  it("names every problem with its path", () => {
    expect(issuesOf("psych-patient-view", { ...patientViewRequest(), hook: "order-sign" })).toEqual([
      { path: "hook", message: 'must be "patient-view" for this service' },
    ]);
    const { hookInstance: _h, ...noInstance } = patientViewRequest();
    expect(issuesOf("psych-patient-view", noInstance).map((i) => i.path)).toEqual(["hookInstance"]);
    expect(
      issuesOf("psych-patient-view", {
        ...patientViewRequest(),
        context: { userId: "Device/1", patientId: "" },
      }).map((i) => i.path),
    ).toEqual(["context.userId", "context.patientId"]);
    expect(
      issuesOf("psych-patient-view", { ...patientViewRequest(), prefetch: { scores: "Observation?x" } }),
    ).toEqual([{ path: "prefetch.scores", message: "must be a FHIR resource or null" }]);
    expect(issuesOf("psych-patient-view", null)).toHaveLength(1);
    expect(issuesOf("psych-patient-view", "text")).toHaveLength(1);
    // An unknown id has no service to validate against: the app answers 404 before reading the body.
    expect(cdsService("nope")).toBeUndefined();
  });

  it("fhirAuthorization needs fhirServer and a Bearer token with its required fields", () => {
    const { fhirServer: _f, ...noServer } = patientViewRequest();
    const auth = {
      access_token: "t",
      token_type: "Bearer",
      expires_in: 300,
      scope: "patient/*.read",
      subject: "cds",
    };
    expect(issuesOf("psych-patient-view", { ...noServer, fhirAuthorization: auth })).toEqual([
      { path: "fhirServer", message: "is required when fhirAuthorization is given" },
    ]);
    expect(
      issuesOf("psych-patient-view", {
        ...patientViewRequest(),
        fhirAuthorization: { ...auth, token_type: "MAC", expires_in: 1.5 },
      }).map((i) => i.path),
    ).toEqual(["fhirAuthorization.token_type", "fhirAuthorization.expires_in"]);
    expect(
      issuesOf("psych-patient-view", { ...patientViewRequest(), fhirServer: "ftp://ehr" }).map((i) => i.path),
    ).toEqual(["fhirServer"]);
  });

  it("order hooks need a draftOrders Bundle, and order-select's selections must be in it", () => {
    const body = orderRequest("order-select", [draft("d1", { rxnorm: "36437" })], undefined, [
      "MedicationRequest/other",
    ]);
    expect(issuesOf("psych-interactions-select", body)).toEqual([
      {
        path: "context.selections.0",
        message: "names MedicationRequest/other, which is not in context.draftOrders",
      },
    ]);
    const noDrafts = orderRequest("order-sign", []);
    (noDrafts.context as Record<string, unknown>).draftOrders = { resourceType: "Patient" };
    expect(issuesOf("psych-interactions-sign", noDrafts).map((i) => i.path)).toEqual([
      "context.draftOrders.resourceType",
    ]);
    const patientUser = orderRequest("order-sign", []);
    patientUser.context.userId = "Patient/1";
    expect(issuesOf("psych-interactions-sign", patientUser).map((i) => i.path)).toEqual(["context.userId"]);
  });
});

describe("prefetchQueries", () => {
  const patientView = service("psych-patient-view");
  const parse = (body: unknown) => {
    const parsed = parseHookRequest(patientView, body);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    return parsed;
  };

  it("asks for every missing key, never for a null one, with the patient id resolved", () => {
    const result = prefetchQueries(parse(patientViewRequest({ labs: null })));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.queries).sort()).toEqual(["medications", "patient", "scores", "statements"]);
    expect(result.queries.patient).toBe(`Patient/${PATIENT_ID}`);
    expect(result.queries.medications).toBe(`MedicationRequest?patient=${PATIENT_ID}&status=active`);
    expect(result.queries.scores).toMatch(
      new RegExp(`^Observation\\?patient=${PATIENT_ID}&code=http://loinc.org\\|44261-6,`),
    );
  });

  it("asks for nothing when every key is present", () => {
    expect(
      prefetchQueries(
        parse(
          patientViewRequest({
            labs: null,
            scores: null,
            medications: null,
            patient: null,
            statements: null,
          }),
        ),
      ),
    ).toEqual({
      ok: true,
      queries: {},
    });
  });

  it("URL-encodes token values and refuses (412) a token without a primitive value", () => {
    expect(resolveTemplate("Patient/{{context.patientId}}", { patientId: "a b&c" })).toBe(
      "Patient/a%20b%26c",
    );
    expect(resolveTemplate("Encounter/{{context.encounterId}}", { patientId: "1" })).toEqual({
      error: "the token {{context.encounterId}} has no value: context.encounterId is absent",
    });
    expect(resolveTemplate("X?y={{context.draftOrders}}", { draftOrders: {} })).toMatchObject({
      error: expect.stringMatching(/primitive/),
    });
    expect(resolveTemplate("X?y={{context.a.b}}", { a: { b: 1 } })).toMatchObject({
      error: expect.stringMatching(/root-level/),
    });
    expect(resolveTemplate("Practitioner/{{userPractitionerId}}", { userId: "Practitioner/abc" })).toBe(
      "Practitioner/abc",
    );
    expect(
      resolveTemplate("Practitioner/{{userPractitionerId}}", { userId: "PractitionerRole/abc" }),
    ).toMatchObject({
      error: expect.any(String),
    });
    const custom = {
      ...patientView,
      descriptor: { ...patientView.descriptor, prefetch: { encounter: "Encounter/{{context.encounterId}}" } },
    };
    expect(prefetchQueries({ ...parse(patientViewRequest()), service: custom })).toEqual({
      ok: false,
      status: 412,
      reason:
        "prefetch encounter cannot be fetched: the token {{context.encounterId}} has no value: context.encounterId is absent",
    });
  });
});
