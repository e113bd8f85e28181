import { randomUUID } from "node:crypto";
import type { Bundle, MedicationRequest } from "@medplum/fhirtypes";
import { isCleanJson } from "@svc/cds-hooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { medicationRequest, PATIENT_ID, searchset } from "../../../packages/fhir/test/inbound-fixtures.js";
import { type CdsTestbed, PUBLIC_BASE, type ScriptedFhirServer, startCdsTestbed } from "./cds-ehr.js";

/**
 * CDS Hooks 2.0.1 and Hook Library 1.0.1 checked from the outside, as an EHR would meet them
 * over real HTTP: the empty answer, the hook contexts as the Hook Library writes them, the
 * `fhirAuthorization` rules, prefetch semantics (only what is missing is fetched; an
 * OperationOutcome is the EHR's answer, not a reason to fetch), what a FHIR server may answer
 * that is not a search result, discovery's templates, and CORS on every kind of answer.
 */

const ORIGIN = "https://ehr.example.org";

let bed: CdsTestbed;
let fhir: ScriptedFhirServer;

beforeAll(async () => {
  bed = await startCdsTestbed();
  fhir = bed.fhir;
});
afterAll(() => bed.close());
beforeEach(() => {
  fhir.requests = [];
  fhir.answer = () => ({ status: 200, body: JSON.stringify(searchset([])) });
});

const jwt = (aud: string) => bed.jwt(aud);
const callHook = (serviceId: string, body: unknown, headers: Record<string, string> = {}) =>
  bed.callHook(serviceId, body, headers);

function fhirAuthorization() {
  return {
    access_token: "ehr-token",
    token_type: "Bearer",
    expires_in: 300,
    scope: "user/MedicationRequest.read user/Observation.read",
    subject: "cds-service",
  };
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const draft = (id: string, rxnorm: string, display: string): MedicationRequest =>
  medicationRequest(id, { rxnorm, display }, "draft", daysAgo(0));
const active = (id: string, rxnorm: string, display: string): MedicationRequest =>
  medicationRequest(id, { rxnorm, display }, "active", daysAgo(200));

function orderSign(drafts: MedicationRequest[], extra: Record<string, unknown> = {}) {
  return {
    hook: "order-sign",
    hookInstance: randomUUID(),
    context: {
      userId: "PractitionerRole/123",
      patientId: PATIENT_ID,
      draftOrders: { resourceType: "Bundle", entry: drafts.map((resource) => ({ resource })) },
    },
    ...extra,
  };
}

function patientView(context: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    hook: "patient-view",
    hookInstance: randomUUID(),
    context: { userId: "Practitioner/abc", patientId: PATIENT_ID, ...context },
    ...extra,
  };
}

const NO_DATA = { scores: null, labs: null, medications: null, patient: null, statements: null };

/** The EHR's Patient, as a read of `Patient/{{context.patientId}}` answers it. */
const PATIENT = { resourceType: "Patient", id: PATIENT_ID, gender: "male", birthDate: "1981-03-14" };
const EMPTY_SEARCH = { resourceType: "Bundle", type: "searchset", total: 0, entry: [] };

describe("the answer", () => {
  it("nothing to say is exactly { cards: [] }: no systemActions, no empty field", async () => {
    const body = orderSign([draft("d-sertraline", "36437", "sertraline")], {
      prefetch: { medications: searchset([]), patient: PATIENT, labs: EMPTY_SEARCH },
    });
    const { status, text, headers } = await callHook("psych-interactions-sign", body);
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/^application\/json/);
    expect(JSON.parse(text)).toEqual({ cards: [] });
  });

  it("cards and every field in them are clean, with uuids unique across cards and suggestions", async () => {
    const body = orderSign(
      [draft("d-tramadol", "10689", "tramadol"), draft("d-linezolid", "190376", "linezolid")],
      { prefetch: { medications: searchset([active("m-sertraline", "36437", "sertraline")]) } },
    );
    const { status, json } = await callHook("psych-interactions-sign", body);
    expect(status).toBe(200);
    const cards = json.cards ?? [];
    expect(cards.length).toBeGreaterThan(0);
    const uuids: string[] = [];
    for (const card of cards) {
      expect(isCleanJson(card)).toBe(true);
      expect(card.summary.length).toBeLessThan(140);
      expect(["info", "warning", "critical"]).toContain(card.indicator);
      expect(card.source.label.trim()).not.toBe("");
      uuids.push(card.uuid, ...(card.suggestions ?? []).map((s) => s.uuid));
      if (card.suggestions) expect(["at-most-one", "any"]).toContain(card.selectionBehavior);
      for (const link of card.links ?? []) {
        expect(["absolute", "smart"]).toContain(link.type);
        expect(new URL(link.url).protocol).toBe("https:");
        expect(link).not.toHaveProperty("appContext");
      }
      for (const reason of card.overrideReasons ?? []) expect(reason.display.trim()).not.toBe("");
    }
    expect(new Set(uuids).size).toBe(uuids.length);
  });
});

describe("hook contexts (Hook Library 1.0.1)", () => {
  it("patient-view: userId may be a Practitioner, PractitionerRole, Patient or RelatedPerson; nothing else", async () => {
    for (const userId of ["Practitioner/a", "PractitionerRole/b", "Patient/c", "RelatedPerson/d"]) {
      const { status } = await callHook("psych-patient-view", patientView({ userId }, { prefetch: NO_DATA }));
      expect(status, userId).toBe(200);
    }
    for (const userId of ["Device/a", "abc", "Practitioner/"]) {
      const { status, json } = await callHook(
        "psych-patient-view",
        patientView({ userId }, { prefetch: NO_DATA }),
      );
      expect(status, userId).toBe(400);
      expect(json.error?.issues?.map((i) => i.path)).toContain("context.userId");
    }
  });

  it("order-sign: a Patient user is refused (Practitioner or PractitionerRole only)", async () => {
    const body = orderSign([draft("d-sertraline", "36437", "sertraline")], {
      prefetch: { medications: searchset([]), patient: PATIENT, labs: EMPTY_SEARCH },
    });
    const { status, json } = await callHook("psych-interactions-sign", {
      ...body,
      context: { ...body.context, userId: "Patient/123" },
    });
    expect(status).toBe(400);
    expect(json.error?.issues?.map((i) => i.path)).toContain("context.userId");
  });

  it("order-select as the Hook Library's example: a NutritionOrder among the selections is not an error", async () => {
    const body = {
      hook: "order-select",
      hookInstance: randomUUID(),
      context: {
        userId: "PractitionerRole/123",
        patientId: PATIENT_ID,
        encounterId: "89284",
        selections: ["NutritionOrder/pureeddiet-simple", "MedicationRequest/d-tramadol"],
        draftOrders: {
          resourceType: "Bundle",
          entry: [
            {
              resource: {
                resourceType: "NutritionOrder",
                id: "pureeddiet-simple",
                status: "draft",
                intent: "order",
                patient: { reference: `Patient/${PATIENT_ID}` },
                dateTime: "2026-11-26",
              },
            },
            { resource: draft("d-tramadol", "10689", "tramadol") },
          ],
        },
      },
      prefetch: { medications: searchset([active("m-sertraline", "36437", "sertraline")]) },
    };
    const { status, json } = await callHook("psych-interactions-select", body);
    expect(status).toBe(200);
    expect(json.cards?.some((card) => card.indicator === "critical")).toBe(true);
  });

  it("order-select: a selection that is not in draftOrders is 400 at its path", async () => {
    const body = {
      ...orderSign([draft("d-tramadol", "10689", "tramadol")], { prefetch: { medications: null } }),
      hook: "order-select",
    };
    const { status, json } = await callHook("psych-interactions-select", {
      ...body,
      context: { ...body.context, selections: ["MedicationRequest/not-a-draft"] },
    });
    expect(status).toBe(400);
    expect(json.error?.issues?.map((i) => i.path)).toContain("context.selections.0");
  });
});

describe("fhirServer and fhirAuthorization", () => {
  it("fhirAuthorization without fhirServer, a token_type other than Bearer, or no subject: 400", async () => {
    const bodies = [
      patientView({}, { fhirAuthorization: fhirAuthorization(), prefetch: NO_DATA }),
      patientView(
        {},
        { fhirServer: fhir.url, fhirAuthorization: { ...fhirAuthorization(), token_type: "MAC" } },
      ),
      patientView(
        {},
        { fhirServer: fhir.url, fhirAuthorization: { ...fhirAuthorization(), subject: undefined } },
      ),
    ];
    for (const body of bodies) {
      const { status } = await callHook("psych-patient-view", body);
      expect(status).toBe(400);
    }
    expect(fhir.requests).toEqual([]);
  });
});

describe("prefetch semantics", () => {
  it("only the missing key is fetched: a given key and a null one are not", async () => {
    const body = patientView(
      {},
      {
        fhirServer: fhir.url,
        fhirAuthorization: fhirAuthorization(),
        prefetch: { scores: searchset([]), labs: null, patient: PATIENT, statements: null },
      },
    );
    const { status } = await callHook("psych-patient-view", body);
    expect(status).toBe(200);
    expect(fhir.requests).toHaveLength(1);
    expect(fhir.requests[0]?.path).toMatch(/^\/fhir\/MedicationRequest\?/);
  });

  it("an OperationOutcome sent as prefetch is the EHR's answer: not fetched again, and said as not checked", async () => {
    const outcome = {
      resourceType: "OperationOutcome",
      issue: [{ severity: "error", code: "timeout", diagnostics: "medication search timed out" }],
    };
    const body = orderSign([draft("d-tramadol", "10689", "tramadol")], {
      fhirServer: fhir.url,
      fhirAuthorization: fhirAuthorization(),
      prefetch: { medications: outcome, patient: PATIENT, labs: EMPTY_SEARCH },
    });
    const { status, json } = await callHook("psych-interactions-sign", body);
    expect(status).toBe(200);
    expect(fhir.requests).toEqual([]);
    expect(json.cards?.some((card) => /not checked|incomplete/i.test(`${card.summary} ${card.detail}`))).toBe(
      true,
    );
  });

  it("a fetched search answered with something that is not a FHIR resource ([], null, a bare array) is 412, never 'no interaction'", async () => {
    for (const answer of [[], null, [active("m-sertraline", "36437", "sertraline")]]) {
      fhir.answer = () => ({ status: 200, body: JSON.stringify(answer) });
      const body = orderSign([draft("d-tramadol", "10689", "tramadol")], {
        fhirServer: fhir.url,
        fhirAuthorization: fhirAuthorization(),
      });
      const { status, json } = await callHook("psych-interactions-sign", body);
      expect(status, JSON.stringify(answer).slice(0, 40)).toBe(412);
      expect(json.error?.code).toBe("prefetch_unavailable");
      expect(json.error?.message).toContain('"medications"');
    }
  });

  it("a fetched search with a next page it did not read says the data may be partial", async () => {
    const page: Bundle = {
      ...searchset([]),
      link: [{ relation: "next", url: `${fhir.url}/MedicationRequest?page=2` }],
    };
    fhir.answer = () => ({ status: 200, body: JSON.stringify(page) });
    const body = orderSign([draft("d-tramadol", "10689", "tramadol")], {
      fhirServer: fhir.url,
      fhirAuthorization: fhirAuthorization(),
    });
    const { status, json } = await callHook("psych-interactions-sign", body);
    expect(status).toBe(200);
    expect(json.cards?.some((card) => /partial|further pages/i.test(card.detail ?? ""))).toBe(true);
  });

  it("a template needing encounterId when the EHR sent none is never fetched with an empty token", async () => {
    // Our templates name context.patientId only; check the query the EHR server saw is complete.
    const body = patientView({}, { fhirServer: fhir.url, fhirAuthorization: fhirAuthorization() });
    const { status } = await callHook("psych-patient-view", body);
    expect(status).toBe(200);
    for (const { path } of fhir.requests) {
      // A search names the patient; the one read is the Patient itself (decision 201).
      if (path.startsWith("/fhir/Patient/")) expect(path).toBe(`/fhir/Patient/${PATIENT_ID}`);
      else expect(path).toContain(`patient=${PATIENT_ID}`);
      expect(path).not.toMatch(/=(&|$)/);
    }
  });
});

describe("discovery", () => {
  it("every service has hook, id, description, title and usageRequirements; templates use allowed tokens and query forms only", async () => {
    const response = await fetch(`${bed.url}${bed.basePath}`, {
      headers: { authorization: `Bearer ${await jwt(`${PUBLIC_BASE}${bed.basePath}`)}` },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      services: Record<string, unknown>[];
    };
    expect(isCleanJson(body)).toBe(true);
    const allowedTokens =
      /^(context\.[A-Za-z]+|userPractitionerId|userPractitionerRoleId|userPatientId|userRelatedPersonId)$/;
    for (const service of body.services) {
      for (const field of ["hook", "id", "description", "title", "usageRequirements"])
        expect(typeof service[field], field).toBe("string");
      for (const key of Object.keys(service))
        expect(["hook", "id", "description", "title", "usageRequirements", "prefetch"]).toContain(key);
      for (const template of Object.values(service.prefetch as Record<string, string>)) {
        for (const [, token] of template.matchAll(/\{\{(.*?)\}\}/g)) expect(token).toMatch(allowedTokens);
        expect(template.replace(/\{\{.*?\}\}/g, "")).not.toMatch(/[{}]/);
        // A read of the patient in context (decision 201), or a type-level search: ResourceType?param=value&...
        if (!template.includes("?")) {
          expect(template).toMatch(/^[A-Z][A-Za-z]+\/\{\{context\.[A-Za-z]+\}\}$/);
          continue;
        }
        const [type, query] = template.split("?");
        expect(type).toMatch(/^[A-Z][A-Za-z]+$/);
        for (const param of (query ?? "").split("&")) {
          const name = param.split("=")[0] ?? "";
          // token equality (no modifier other than :in), _count, _sort
          expect(name).toMatch(/^([a-z][a-z-]*(:in)?|_count|_sort)$/);
        }
      }
    }
  });
});

describe("CORS for browser-based EHRs", () => {
  it("the hook call's answer is readable cross-origin: 200, 400, 404 and 412", async () => {
    const headers = { origin: ORIGIN };
    const ok = await callHook("psych-patient-view", patientView({}, { prefetch: NO_DATA }), headers);
    expect(ok.status).toBe(200);
    const bad = await callHook("psych-patient-view", { hook: "patient-view" }, headers);
    expect(bad.status).toBe(400);
    const unknown = await callHook("no-such-service", patientView({}, { prefetch: NO_DATA }), headers);
    expect(unknown.status).toBe(404);
    const unavailable = await callHook("psych-patient-view", patientView({}), headers);
    expect(unavailable.status).toBe(412);
    for (const answer of [ok, bad, unknown, unavailable])
      expect(answer.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("the EHR's JWT, cases next to the obvious ones", () => {
  const signed = (claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
    bed.sign(claims, header);
  const hookUrl = () => `${PUBLIC_BASE}${bed.basePath}/psych-patient-view`;
  const post = async (token: string, path = `${bed.basePath}/psych-patient-view`) =>
    (
      await fetch(`${bed.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(patientView({}, { prefetch: NO_DATA })),
      })
    ).status;

  it("aud must be the endpoint exactly: a trailing slash, another case, the feedback URL or the base URL are 401", async () => {
    for (const aud of [`${hookUrl()}/`, hookUrl().toUpperCase(), `${hookUrl()}/feedback`, PUBLIC_BASE]) {
      expect(await post(await signed({ aud })), aud).toBe(401);
    }
    expect(await post(await signed({ aud: [PUBLIC_BASE, hookUrl()] }))).toBe(200);
  });

  it("a jku the client never registered (it registered an inline set), a typ other than JWT, or a future nbf: 401", async () => {
    expect(await post(await signed({ aud: hookUrl() }, { jku: "https://ehr.example.org/jwks" }))).toBe(401);
    expect(await post(await signed({ aud: hookUrl() }, { typ: "at+jwt" }))).toBe(401);
    const now = Math.floor(Date.now() / 1000);
    expect(await post(await signed({ aud: hookUrl(), nbf: now + 600 }))).toBe(401);
  });

  it("a token refused for its audience does not spend its jti; a token used once cannot serve discovery either", async () => {
    const jti = randomUUID();
    expect(await post(await signed({ aud: `${hookUrl()}/`, jti }))).toBe(401);
    expect(await post(await signed({ aud: hookUrl(), jti }))).toBe(200);
    expect(await post(await signed({ aud: hookUrl(), jti }))).toBe(401);
  });
});
