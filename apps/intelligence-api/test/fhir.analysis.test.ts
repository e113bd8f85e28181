import type {
  Bundle,
  CodeSystem,
  Coding,
  DetectedIssue,
  GuidanceResponse,
  Provenance,
  Resource,
  RiskAssessment,
} from "@medplum/fhirtypes";
import { checkInteractions } from "@svc/engines";
import { DETECTED_ISSUE_SEVERITIES } from "@svc/fhir";
import { call } from "@svc/testkit";
import { assertValidFhirR4 } from "@svc/testkit/fhir";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type { RelapsePredictionResponse } from "../src/index.js";
import { bodies } from "./analysis-bodies.js";

/**
 * The analysis endpoints as an EHR reads them: `Accept: application/fhir+json` gives a FHIR R4
 * collection Bundle whose every resource passes the R4 validator; other Accept headers keep the
 * JSON answer; errors keep the JSON envelope; our canonicals resolve on the running service.
 */
const svc = useTestService();
let key: string;
/** The public base URL the test service names in canonicals (`deps.publicBaseUrl`). */
let publicBase: string;

beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
  publicBase = svc.deps.publicBaseUrl;
});

const FHIR = "application/fhir+json";
const fhirCall = (path: string, body: unknown, accept = FHIR) =>
  call<Bundle>(svc.url, path, { key, body, headers: { accept } });
const resourcesOf = (bundle: Bundle): Resource[] => (bundle.entry ?? []).map((e) => e.resource as Resource);
const ofType = <T extends Resource>(bundle: Bundle, type: T["resourceType"]): T[] =>
  resourcesOf(bundle).filter((r): r is T => r.resourceType === type);
/** ISO timestamps replaced, so two answers to the same body compare equal. */
const untimed = (text: string) => text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, "<time>");

/** Every Coding in a resource tree. */
function codingsOf(value: unknown, out: Coding[] = []): Coding[] {
  if (Array.isArray(value)) for (const v of value) codingsOf(v, out);
  else if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    if (typeof o.system === "string" && typeof o.code === "string") out.push(o as Coding);
    for (const v of Object.values(o)) codingsOf(v, out);
  }
  return out;
}

describe.each(Object.entries(bodies))("%s with Accept: application/fhir+json", (engine, spec) => {
  it("answers a valid R4 collection Bundle: every entry valid, a GuidanceResponse, a Provenance naming engine and version", async () => {
    const res = await fhirCall(spec.path, { ...spec.body, sessionRef: "visit-42" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/fhir\+json/);
    expect(res.headers.get("vary")).toContain("Accept");
    const bundle = res.json;
    expect(bundle.resourceType).toBe("Bundle");
    expect(bundle.type).toBe("collection");
    expect(bundle.identifier?.value).toBe("visit-42");
    assertValidFhirR4(bundle);
    for (const resource of resourcesOf(bundle)) assertValidFhirR4(resource);
    expect(ofType<GuidanceResponse>(bundle, "GuidanceResponse")).toHaveLength(1);
    const [provenance] = ofType<Provenance>(bundle, "Provenance");
    const device = provenance?.contained?.[0] as {
      identifier: { value: string }[];
      version: { value: string }[];
    };
    expect(device.identifier[0]?.value).toBe(engine);
    expect(device.version[0]?.value).toBe("default");
    expect(provenance?.target).toHaveLength((bundle.entry?.length ?? 0) - 1);
  });

  it("keeps the JSON answer for no Accept, application/json, */*, an unknown type and a lower fhir q-value", async () => {
    const plain = await call(svc.url, spec.path, { key, body: spec.body });
    expect(plain.headers.get("content-type")).toMatch(/^application\/json/);
    for (const accept of ["application/json", "*/*", "text/html", `${FHIR};q=0.5, application/json`]) {
      const res = await fhirCall(spec.path, spec.body, accept);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(untimed(res.text).replace(/"requestId":"req_[^"]+"/, "")).toBe(
        untimed(plain.text).replace(/"requestId":"req_[^"]+"/, ""),
      );
    }
  });

  it("resolves every code of our CodeSystems on this service, no key needed", async () => {
    const bundle = (await fhirCall(spec.path, spec.body)).json;
    const ours = codingsOf(bundle).filter((c) => c.system?.startsWith(`${publicBase}/fhir/CodeSystem/`));
    expect(ours.length).toBeGreaterThan(0);
    const systems = new Map<string, CodeSystem>();
    for (const coding of ours) {
      const system = coding.system as string;
      if (!systems.has(system)) {
        const res = await call<CodeSystem>(svc.url, system.slice(publicBase.length));
        expect(res.status).toBe(200);
        expect(res.json.url).toBe(system);
        systems.set(system, res.json);
      }
      const cs = systems.get(system) as CodeSystem;
      if (cs.content === "complete") expect(cs.concept?.map((c) => c.code)).toContain(coding.code);
    }
  });
});

describe("relapse", () => {
  it("a RiskAssessment with the JSON answer's level as qualitativeRisk and no probability", async () => {
    const json = await call<RelapsePredictionResponse>(svc.url, bodies.relapse.path, {
      key,
      body: bodies.relapse.body,
    });
    const bundle = (await fhirCall(bodies.relapse.path, bodies.relapse.body)).json;
    const [risk] = ofType<RiskAssessment>(bundle, "RiskAssessment");
    const prediction = risk?.prediction?.[0];
    expect(prediction?.qualitativeRisk?.coding?.[0]).toMatchObject({
      system: `${publicBase}/fhir/CodeSystem/relapse-level`,
      code: json.json.data.level,
    });
    expect(prediction?.probabilityDecimal).toBeUndefined();
    expect(prediction?.probabilityRange).toBeUndefined();
    for (const p of risk?.prediction ?? []) {
      expect(Object.keys(p).filter((k) => k.startsWith("probability"))).toEqual([]);
    }
  });

  it("no symptom scores: GuidanceResponse data-required naming assessments", async () => {
    const bundle = (await fhirCall(bodies.relapse.path, { assessments: [] })).json;
    assertValidFhirR4(bundle);
    const [guidance] = ofType<GuidanceResponse>(bundle, "GuidanceResponse");
    expect(guidance?.status).toBe("data-required");
    expect(guidance?.dataRequirement?.map((d) => d.codeFilter?.[0]?.code?.[0]?.code)).toContain(
      "assessments",
    );
  });
});

describe("explain: true", () => {
  it("the narrator's reasoning is a GuidanceResponse note", async () => {
    const bundle = (await fhirCall(bodies.outcome.path, { ...bodies.outcome.body, explain: true })).json;
    assertValidFhirR4(bundle);
    const [guidance] = ofType<GuidanceResponse>(bundle, "GuidanceResponse");
    expect(guidance?.note?.some((n) => n.text.startsWith("Reasoning (template"))).toBe(true);
  });
});

describe("medication interactions", () => {
  it("a DRG DetectedIssue per interaction, severity as the engine's tool gives it, implicating the prescriptions", async () => {
    const prescriptions = [
      { id: "rx_1", medicationName: "Sertraline 100 mg", status: "active", prescribedAt: "2026-06-20" },
      { id: "rx_2", medicationName: "Tramadol 50 mg", status: "active", prescribedAt: "2026-06-20" },
      { id: "rx_3", medicationName: "Lithium 400 mg", status: "discontinued", prescribedAt: "2026-01-20" },
    ];
    const body = { ...bodies.medication.body, prescriptions };
    const bundle = (await fhirCall(bodies.medication.path, body)).json;
    for (const resource of resourcesOf(bundle)) assertValidFhirR4(resource);
    const issues = ofType<DetectedIssue>(bundle, "DetectedIssue");
    const expected = checkInteractions(["Sertraline 100 mg", "Tramadol 50 mg"]).interactions;
    expect(expected.length).toBeGreaterThan(0);
    expect(issues.map((i) => i.severity)).toEqual(expected.map((i) => i.severity));
    for (const issue of issues) {
      expect(issue.code?.coding?.[0]).toEqual({
        system: "http://terminology.hl7.org/CodeSystem/v3-ActCode",
        code: "DRG",
        display: "Drug Interaction Alert",
      });
      // The validator does not check this required binding: we do.
      expect(DETECTED_ISSUE_SEVERITIES).toContain(issue.severity);
      expect(issue.implicated?.map((r) => r.identifier?.value).sort()).toEqual(["rx_1", "rx_2"]);
    }
  });
});

describe("medication interactions through the JSON door (decision 176)", () => {
  it("sertraline + tramadol as JSON carries the same interaction as the FHIR answer, and asks for a clinician", async () => {
    const prescriptions = [
      { id: "rx_1", medicationName: "Sertraline 100 mg", status: "active", prescribedAt: "2026-06-20" },
      { id: "rx_2", medicationName: "Tramadol 50 mg", status: "active", prescribedAt: "2026-06-20" },
    ];
    const body = { ...bodies.medication.body, prescriptions };
    const json = (await fhirCall(bodies.medication.path, body, "application/json")).json as unknown as {
      data: {
        interactionCheck?: { highestSeverity: string; interactions: { id: string; severity: string }[] };
        intelligence: { summary: { requiresClinicianReview: boolean; flagged: string[] } };
      };
    };
    const fhir = ofType<DetectedIssue>((await fhirCall(bodies.medication.path, body)).json, "DetectedIssue");
    expect(json.data.interactionCheck?.highestSeverity).toBe("high");
    expect(json.data.interactionCheck?.interactions.map((i) => i.severity)).toEqual(
      fhir.map((i) => i.severity),
    );
    expect(json.data.interactionCheck?.interactions.map((i) => i.id)).toEqual(
      fhir.map((i) => i.identifier?.[0]?.value),
    );
    expect(json.data.intelligence.summary.requiresClinicianReview).toBe(true);
    expect(json.data.intelligence.summary.flagged).toContain(
      "Interaction (high): sertraline + tramadol (serotonergic-tramadol)",
    );
  });
});

describe("errors stay the JSON envelope for FHIR callers", () => {
  it("400 for a bad body", async () => {
    const res = await fhirCall(bodies.relapse.path, { assessments: "nope" });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect((res.json as unknown as { ok: boolean }).ok).toBe(false);
  });

  it("401 without a key", async () => {
    const res = await call(svc.url, bodies.relapse.path, {
      body: bodies.relapse.body,
      headers: { accept: FHIR },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });
});

describe("conformance resources", () => {
  it.each([
    "/fhir/CodeSystem/engine",
    "/fhir/CodeSystem/analysis-observation",
    "/fhir/CodeSystem/dmse-interpretation",
    "/fhir/CodeSystem/relapse-level",
    "/fhir/CodeSystem/analysis-input",
    "/fhir/CodeSystem/mse",
    "/fhir/Questionnaire/mse",
  ])("%s: public, application/fhir+json, valid R4, url = its address", async (path) => {
    const res = await call<Resource & { url: string }>(svc.url, path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/fhir\+json/);
    assertValidFhirR4(res.json);
    expect(res.json.url).toBe(`${publicBase}${path}`);
  });

  it("404 for an unknown id or type", async () => {
    expect((await call(svc.url, "/fhir/CodeSystem/nope")).status).toBe(404);
    expect((await call(svc.url, "/fhir/Questionnaire/phq9")).status).toBe(404);
    expect((await call(svc.url, "/fhir/ValueSet/mse")).status).toBe(404);
  });
});
