import { randomUUID } from "node:crypto";
import type { Bundle, CodeSystem, MedicationRequest, Observation } from "@medplum/fhirtypes";
import { type Card, CDS_SERVICES, isCleanJson } from "@svc/cds-hooks";
import { assertValidFhirR4 } from "@svc/testkit/fhir";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  lithium,
  medicationRequest,
  PATIENT_ID,
  phq9,
  searchset,
} from "../../../packages/fhir/test/inbound-fixtures.js";
import { type CdsTestbed, PUBLIC_BASE, type ScriptedFhirServer, startCdsTestbed } from "./cds-ehr.js";

/**
 * The CDS Hooks services end to end, as an EHR calls them over real HTTP with its own signed JWT:
 * discovery, each hook with its prefetch, each hook without it (the service fetches from a
 * scripted FHIR server on loopback with the EHR's bearer token), prefetch that cannot be had
 * (412), malformed hook requests (400), and the public rule pages a card links to.
 */

const FHIR_TOKEN = "ehr-access-token-for-this-hook";

let bed: CdsTestbed;
let fhir: ScriptedFhirServer;
/** What the scripted FHIR server answers to each search (`status` 200), or an error status. */
let fhirData: Record<"MedicationRequest" | "Observation" | "MedicationStatement", Bundle>;
/** What the scripted FHIR server answers to `GET Patient/<id>`; null: 404. */
let fhirPatient: Record<string, unknown> | null;
let fhirStatus: number;

function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

/** Searches answered from `fhirData`; anything else, or a set `fhirStatus`, an OperationOutcome. */
function answerFhir(path: string): { status: number; body: string } {
  if (fhirStatus === 200 && path === `/fhir/Patient/${PATIENT_ID}` && fhirPatient !== null)
    return { status: 200, body: JSON.stringify(fhirPatient) };
  const type = /^\/fhir\/(MedicationRequest|Observation|MedicationStatement)\?/.exec(path)?.[1] as
    | keyof typeof fhirData
    | undefined;
  if (fhirStatus !== 200 || !type) {
    const outcome = { resourceType: "OperationOutcome", issue: [{ severity: "error", code: "exception" }] };
    return { status: fhirStatus === 200 ? 404 : fhirStatus, body: JSON.stringify(outcome) };
  }
  return { status: 200, body: JSON.stringify(fhirData[type]) };
}

beforeAll(async () => {
  bed = await startCdsTestbed();
  fhir = bed.fhir;
  fhir.answer = answerFhir;
});
afterAll(() => bed.close());
beforeEach(() => {
  fhir.requests = [];
  fhirStatus = 200;
  fhirData = {
    MedicationRequest: searchset([]),
    Observation: searchset([]),
    MedicationStatement: { resourceType: "Bundle", type: "searchset", total: 0, entry: [] },
  };
  fhirPatient = patientOf();
});

const jwt = (aud: string) => bed.jwt(aud);

/** The EHR's Patient (a man born 1981 unless a test says otherwise). */
function patientOf(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { resourceType: "Patient", id: PATIENT_ID, gender: "male", birthDate: "1981-03-14", ...extra };
}

/** A birth date `years` years and a month before today, so the age is `years` whatever the day. */
function bornYearsAgo(years: number): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years, d.getUTCMonth() - 1);
  return d.toISOString().slice(0, 10);
}

const EMPTY: Bundle = { resourceType: "Bundle", type: "searchset", total: 0, entry: [] };
const callHook = (serviceId: string, body: unknown) => bed.callHook(serviceId, body);

const sertraline = () =>
  medicationRequest("m-sertraline", { rxnorm: "36437", display: "sertraline" }, "active", daysAgo(200));
const tramadolDraft = (): MedicationRequest =>
  medicationRequest("d-tramadol", { rxnorm: "10689", display: "tramadol" }, "draft", daysAgo(0));
const lithiumOrder = () =>
  medicationRequest("m-lithium", { text: "Lithium carbonate 400 mg bd" }, "active", daysAgo(300));
const worseningScores = (): Observation[] => [
  phq9("p1", 5, daysAgo(80)),
  phq9("p2", 9, daysAgo(40)),
  phq9("p3", 17, daysAgo(3)),
];

function orderBody(
  hook: "order-select" | "order-sign",
  prefetch?: Record<string, unknown>,
  withServer = true,
) {
  const draftOrders: Bundle = {
    resourceType: "Bundle",
    type: "collection",
    entry: [{ resource: tramadolDraft() }],
  };
  return {
    hook,
    hookInstance: randomUUID(),
    ...(withServer ? { fhirServer: fhir.url, fhirAuthorization: fhirAuthorization() } : {}),
    context: {
      userId: "Practitioner/abc",
      patientId: PATIENT_ID,
      ...(hook === "order-select" ? { selections: ["MedicationRequest/d-tramadol"] } : {}),
      draftOrders,
    },
    ...(prefetch ? { prefetch } : {}),
  };
}

function patientViewBody(prefetch?: Record<string, unknown>) {
  return {
    hook: "patient-view",
    hookInstance: randomUUID(),
    fhirServer: fhir.url,
    fhirAuthorization: fhirAuthorization(),
    context: { userId: "Practitioner/abc", patientId: PATIENT_ID },
    ...(prefetch ? { prefetch } : {}),
  };
}

function fhirAuthorization() {
  return {
    access_token: FHIR_TOKEN,
    token_type: "Bearer",
    expires_in: 300,
    scope: "patient/*.read",
    subject: "cds-service",
  };
}

function expectCleanCards(cards: Card[] | undefined): Card[] {
  expect(cards).toBeDefined();
  for (const card of cards ?? []) {
    expect(isCleanJson(card)).toBe(true);
    expect(card.summary.length).toBeLessThan(140);
    expect(card.source.url.startsWith(`${PUBLIC_BASE}/cds-rules/`)).toBe(true);
    if (card.suggestions) expect(card.selectionBehavior).toBeDefined();
  }
  return cards ?? [];
}

describe("discovery", () => {
  it("lists the three services with their hooks and prefetch templates", async () => {
    const response = await fetch(`${bed.url}${bed.basePath}`, {
      headers: { authorization: `Bearer ${await jwt(`${PUBLIC_BASE}${bed.basePath}`)}` },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      services: { id: string; hook: string; prefetch: Record<string, string> }[];
    };
    expect(body.services.map((s) => [s.id, s.hook])).toEqual(CDS_SERVICES.map((s) => [s.id, s.hook]));
    for (const service of body.services)
      for (const template of Object.values(service.prefetch))
        expect(template).toContain("{{context.patientId}}");
  });
});

describe("order-sign and order-select", () => {
  it("with prefetch: a high-severity interaction is one critical card that offers to delete the draft", async () => {
    const { status, json } = await callHook(
      "psych-interactions-sign",
      orderBody("order-sign", { medications: searchset([sertraline()]), patient: patientOf(), labs: EMPTY }),
    );
    expect(status).toBe(200);
    const cards = expectCleanCards(json.cards);
    const interaction = cards.find((card) => card.indicator === "critical");
    expect(interaction?.summary).toMatch(/tramadol/i);
    expect(interaction?.suggestions?.[0]?.actions?.[0]).toMatchObject({
      type: "delete",
      resourceId: "MedicationRequest/d-tramadol",
    });
    expect(interaction?.overrideReasons?.length).toBeGreaterThan(0);
    expect(fhir.requests).toEqual([]);
  });

  it.each([
    ["psych-interactions-select", "order-select"],
    ["psych-interactions-sign", "order-sign"],
  ] as const)(
    "%s without prefetch: the active medications, the Patient and the Observations are fetched from the EHR with its bearer token",
    async (serviceId, hook) => {
      fhirData.MedicationRequest = searchset([sertraline()]);
      const { status, json } = await callHook(serviceId, orderBody(hook));
      expect(status).toBe(200);
      expect(expectCleanCards(json.cards).some((card) => card.indicator === "critical")).toBe(true);
      expect(fhir.requests).toHaveLength(3);
      const paths = fhir.requests.map((r) => r.path.split("?")[0]).sort();
      expect(paths).toEqual(["/fhir/MedicationRequest", "/fhir/Observation", `/fhir/Patient/${PATIENT_ID}`]);
      expect(fhir.requests.map((r) => r.path)).toContain(
        `/fhir/MedicationRequest?patient=${PATIENT_ID}&status=active`,
      );
      for (const request of fhir.requests) expect(request.authorization).toBe(`Bearer ${FHIR_TOKEN}`);
    },
  );

  it("a null medication list is never read as 'no interaction', and is not fetched", async () => {
    const { status, json } = await callHook(
      "psych-interactions-sign",
      orderBody("order-sign", { medications: null, patient: patientOf(), labs: EMPTY }),
    );
    expect(status).toBe(200);
    const cards = expectCleanCards(json.cards);
    expect(cards.length).toBeGreaterThan(0);
    expect(
      cards.some((card) =>
        /not checked|insufficient|no medication list/i.test(`${card.summary} ${card.detail}`),
      ),
    ).toBe(true);
    expect(fhir.requests).toEqual([]);
  });
});

describe("patient-view", () => {
  it("with prefetch: a worsening PHQ-9 is a relapse warning and a lithium above range on lithium is critical", async () => {
    const body = patientViewBody({
      scores: searchset(worseningScores()),
      labs: searchset([lithium("l1", 1.6, `${daysAgo(2)}T08:00:00Z`, "HH")]),
      medications: searchset([lithiumOrder()]),
      patient: patientOf(),
      statements: EMPTY,
    });
    const { status, json } = await callHook("psych-patient-view", body);
    expect(status).toBe(200);
    const cards = expectCleanCards(json.cards);
    expect(cards.find((card) => /^Relapse early warning/.test(card.summary))?.indicator).toBe("warning");
    expect(cards.find((card) => /^Lithium critical/.test(card.summary))?.indicator).toBe("critical");
    expect(fhir.requests).toEqual([]);
  });

  it("without prefetch: the three searches, the Patient and the statements are fetched, and the cards are the same", async () => {
    fhirData.MedicationRequest = searchset([lithiumOrder()]);
    fhirData.Observation = searchset([
      ...worseningScores(),
      lithium("l1", 1.6, `${daysAgo(2)}T08:00:00Z`, "HH"),
    ]);
    const { status, json } = await callHook("psych-patient-view", patientViewBody());
    expect(status).toBe(200);
    const summaries = expectCleanCards(json.cards).map((card) => card.summary);
    expect(summaries.some((s) => /^Relapse early warning/.test(s))).toBe(true);
    expect(summaries.some((s) => /^Lithium critical/.test(s))).toBe(true);
    expect(fhir.requests).toHaveLength(5);
    for (const request of fhir.requests) {
      expect(request.path).toMatch(new RegExp(`patient=${PATIENT_ID}|^/fhir/Patient/${PATIENT_ID}$`));
      expect(request.authorization).toBe(`Bearer ${FHIR_TOKEN}`);
    }
  });

  it("no data at all (every key null) is an insufficient-data card, never reassurance", async () => {
    const { status, json } = await callHook(
      "psych-patient-view",
      patientViewBody({ scores: null, labs: null, medications: null, patient: null, statements: null }),
    );
    expect(status).toBe(200);
    const cards = expectCleanCards(json.cards);
    expect(cards.length).toBeGreaterThan(0);
    // "is not a normal result" is the service's own warning; anything else calling the data normal is not.
    for (const card of cards)
      expect(`${card.summary} ${card.detail ?? ""}`).not.toMatch(
        /(?<!not a )\bnormal\b|all clear|no concerns/i,
      );
    expect(fhir.requests).toEqual([]);
  });
});

/** An order hook with one draft: citalopram 40 mg once a day (dosage instructions, as EHRs send). */
function citalopramBody(hook: "order-select" | "order-sign", prefetch?: Record<string, unknown>) {
  const draft = medicationRequest(
    "d-citalopram",
    { rxnorm: "2556", display: "citalopram" },
    "draft",
    daysAgo(0),
    {
      dosageInstruction: [
        {
          timing: { repeat: { frequency: 1, period: 1, periodUnit: "d" } },
          doseAndRate: [
            { doseQuantity: { value: 40, unit: "mg", system: "http://unitsofmeasure.org", code: "mg" } },
          ],
        },
      ],
    },
  );
  const body = orderBody(hook, prefetch);
  return {
    ...body,
    context: {
      ...body.context,
      ...(hook === "order-select" ? { selections: ["MedicationRequest/d-citalopram"] } : {}),
      draftOrders: { resourceType: "Bundle", type: "collection", entry: [{ resource: draft }] },
    },
  };
}

const clozapineOrder = (
  id: string,
  status: MedicationRequest["status"],
  authoredOn: string,
  prior?: string,
) =>
  medicationRequest(
    id,
    { rxnorm: "2626", display: "clozapine" },
    status,
    authoredOn,
    prior === undefined ? {} : { priorPrescription: { reference: `MedicationRequest/${prior}` } },
  );

describe("the patient from the EHR", () => {
  it("order-select, Patient fetched: citalopram 40 mg for a 70-year-old is the age-reduced dose card", async () => {
    fhirPatient = patientOf({ birthDate: bornYearsAgo(70), gender: "female" });
    const { status, json } = await callHook(
      "psych-interactions-select",
      citalopramBody("order-select", { medications: EMPTY, labs: EMPTY }),
    );
    expect(status).toBe(200);
    expect(fhir.requests.map((r) => r.path)).toEqual([`/fhir/Patient/${PATIENT_ID}`]);
    const cards = expectCleanCards(json.cards);
    const dose = cards.find((card) => card.source.url.endsWith("/cds-rules/dose-citalopram"));
    expect(dose?.indicator).toBe("critical");
    expect(dose?.summary).toMatch(/^Citalopram 40 mg\/day: above the 20 mg\/day label maximum/);
    expect(dose?.suggestions?.[0]?.actions?.[0]).toMatchObject({
      type: "delete",
      resourceId: "MedicationRequest/d-citalopram",
    });
    expect(JSON.stringify(cards)).not.toMatch(/age not given/);
  });

  it("order-sign, Patient in prefetch at 45: the adult maximum holds and no dose card is given", async () => {
    const { status, json } = await callHook(
      "psych-interactions-sign",
      citalopramBody("order-sign", { medications: EMPTY, labs: EMPTY, patient: patientOf() }),
    );
    expect(status).toBe(200);
    expect(fhir.requests).toEqual([]);
    expect(expectCleanCards(json.cards).filter((c) => c.source.url.includes("/cds-rules/dose-"))).toEqual([]);
  });

  it("a Patient without birthDate: the age is unknown, said so, and the age limit is not checked", async () => {
    const { status, json } = await callHook(
      "psych-interactions-sign",
      citalopramBody("order-sign", {
        medications: EMPTY,
        labs: EMPTY,
        patient: patientOf({ birthDate: undefined }),
      }),
    );
    expect(status).toBe(200);
    const cards = expectCleanCards(json.cards);
    expect(cards.filter((c) => c.source.url.includes("/cds-rules/dose-"))).toEqual([]);
    const notChecked = cards.find((c) => c.source.url.endsWith("/interaction-not-checked"));
    expect(notChecked?.indicator).toBe("info");
    expect(notChecked?.detail).toContain("age not given");
    expect(notChecked?.detail).toMatch(/has no birthDate\\?: the age is unknown/);
  });

  it("an EHR that sends neither the Patient nor a fhirServer still gets its cards (no 412); where the age was needed it is told why it is unknown", async () => {
    const { status, json } = await callHook(
      "psych-interactions-sign",
      orderBody("order-sign", { medications: searchset([sertraline()]) }, false),
    );
    expect(status).toBe(200);
    const cards = expectCleanCards(json.cards);
    expect(cards.some((c) => c.indicator === "critical" && /tramadol/i.test(c.summary))).toBe(true);
    // Tramadol has no age-dependent limit: no card about the Patient on every order.
    expect(JSON.stringify(cards)).not.toMatch(/Patient\\?\) was not provided/);

    const citalopram = await callHook("psych-interactions-sign", {
      ...citalopramBody("order-sign", { medications: EMPTY }),
      fhirServer: undefined,
      fhirAuthorization: undefined,
    });
    expect(citalopram.status).toBe(200);
    const notChecked = expectCleanCards(citalopram.json.cards).find((c) =>
      c.source.url.endsWith("/interaction-not-checked"),
    );
    expect(notChecked?.detail).toContain("age not given");
    expect(notChecked?.detail).toMatch(/Patient\\?\) was not provided by the EHR/);
  });

  it("patient-view: a renewal whose first prescription is in the data starts there; one whose prior is missing is said to have an unknown start", async () => {
    const medications = searchset([
      clozapineOrder("c3", "active", daysAgo(10), "c2"),
      clozapineOrder("c2", "completed", daysAgo(200), "c1"),
      clozapineOrder("c1", "completed", daysAgo(400)),
      lithiumOrder(),
    ]);
    const known = await callHook(
      "psych-patient-view",
      patientViewBody({ scores: EMPTY, labs: EMPTY, medications, patient: patientOf(), statements: EMPTY }),
    );
    expect(known.status).toBe(200);
    expect(JSON.stringify(known.json.cards)).not.toMatch(/Start unknown/);

    const renewalOnly = searchset([clozapineOrder("c3", "active", daysAgo(10), "c2")]);
    const unknown = await callHook(
      "psych-patient-view",
      patientViewBody({
        scores: EMPTY,
        labs: EMPTY,
        medications: renewalOnly,
        patient: patientOf(),
        statements: EMPTY,
      }),
    );
    const data = expectCleanCards(unknown.json.cards).find((c) =>
      c.source.url.endsWith("/insufficient-data"),
    );
    expect(data?.detail).toMatch(/Start unknown \(1\)/);
    expect(data?.detail).toMatch(/MedicationRequest\\?\/c3 renews an earlier prescription/);
  });

  it("patient-view: a MedicationStatement fetched from the EHR gives the start a renewal lacks", async () => {
    fhirData.MedicationStatement = {
      resourceType: "Bundle",
      type: "searchset",
      total: 1,
      entry: [
        {
          resource: {
            resourceType: "MedicationStatement",
            id: "s1",
            status: "active",
            medicationCodeableConcept: { text: "Clozapine 300 mg" },
            subject: { reference: `Patient/${PATIENT_ID}` },
            effectivePeriod: { start: daysAgo(700) },
          },
        },
      ],
    };
    const { status, json } = await callHook(
      "psych-patient-view",
      patientViewBody({
        scores: EMPTY,
        labs: EMPTY,
        medications: searchset([clozapineOrder("c3", "active", daysAgo(10), "c2")]),
        patient: patientOf(),
      }),
    );
    expect(status).toBe(200);
    expect(fhir.requests.map((r) => r.path)).toEqual([
      `/fhir/MedicationStatement?patient=${PATIENT_ID}&status=active`,
    ]);
    expect(JSON.stringify(expectCleanCards(json.cards))).not.toMatch(/Start unknown/);
  });

  it("patient-view: a Patient without birthDate is said on the insufficient-data card, never read as an age", async () => {
    const { json } = await callHook(
      "psych-patient-view",
      patientViewBody({
        scores: EMPTY,
        labs: EMPTY,
        medications: EMPTY,
        patient: patientOf({ birthDate: undefined }),
        statements: EMPTY,
      }),
    );
    const data = expectCleanCards(json.cards).find((c) => c.source.url.endsWith("/insufficient-data"));
    expect(data?.summary).toBe("Insufficient data: some patient facts or medicine start dates are unknown");
    expect(data?.detail).toMatch(/has no birthDate\\?: the age is unknown/);
  });
});

describe("prefetch that cannot be had: 412", () => {
  it("a missing key with no fhirServer to fetch it from", async () => {
    const { status, json } = await callHook(
      "psych-interactions-sign",
      orderBody("order-sign", undefined, false),
    );
    expect(status).toBe(412);
    expect(json.error?.code).toBe("prefetch_unavailable");
    expect(json.error?.message).toContain('"medications"');
  });

  it("the FHIR server answers an error", async () => {
    fhirStatus = 500;
    const { status, json } = await callHook(
      "psych-patient-view",
      patientViewBody({ labs: null, medications: null }),
    );
    expect(status).toBe(412);
    expect(json.error?.code).toBe("prefetch_unavailable");
    expect(json.error?.message).toContain('"scores"');
    expect(json.error?.message).not.toContain(FHIR_TOKEN);
  });

  it("the FHIR server cannot be reached", async () => {
    const body = {
      ...patientViewBody({ labs: null, medications: null }),
      fhirServer: "http://127.0.0.1:9/fhir",
    };
    const { status, json } = await callHook("psych-patient-view", body);
    expect(status).toBe(412);
    expect(json.error?.code).toBe("prefetch_unavailable");
  });
});

describe("malformed hook requests", () => {
  it("a request for another hook, a missing patientId and a body that is not JSON are 400; an unknown service is 404", async () => {
    const wrongHook = await callHook("psych-patient-view", orderBody("order-sign", { medications: null }));
    expect(wrongHook.status).toBe(400);
    expect(wrongHook.json.error?.code).toBe("invalid_request");
    expect(wrongHook.json.error?.issues?.length).toBeGreaterThan(0);
    const body = patientViewBody({ scores: null, labs: null, medications: null });
    const noPatient = await callHook("psych-patient-view", {
      ...body,
      context: { userId: "Practitioner/abc" },
    });
    expect(noPatient.status).toBe(400);
    const notJson = await callHook("psych-patient-view", "{");
    expect(notJson.status).toBe(400);
    const unknown = await callHook("no-such-service", body);
    expect(unknown.status).toBe(404);
  });

  it("a hook call without the EHR's JWT is 401", async () => {
    const response = await fetch(`${bed.url}${bed.basePath}/psych-patient-view`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(patientViewBody({ scores: null, labs: null, medications: null })),
    });
    expect(response.status).toBe(401);
  });
});

describe("the pages a card links to", () => {
  it("each card's rule page is public, with its source attributes, as HTML or JSON", async () => {
    const { json } = await callHook(
      "psych-interactions-sign",
      orderBody("order-sign", { medications: searchset([sertraline()]) }),
    );
    const url = new URL(expectCleanCards(json.cards)[0]?.source.url ?? "");
    const html = await fetch(`${bed.url}${url.pathname}`);
    expect(html.status).toBe(200);
    const page = await html.text();
    for (const label of ["Citation", "Developer", "Evidence level", "Last revised", "Engine and version"])
      expect(page).toContain(label);
    const asJson = await fetch(`${bed.url}${url.pathname}`, { headers: { accept: "application/json" } });
    expect(await asJson.json()).toMatchObject({
      id: decodeURIComponent(url.pathname.split("/").pop() ?? ""),
    });
    expect((await fetch(`${bed.url}/cds-rules/no-such-rule`)).status).toBe(404);
  });

  it("the override reasons are a valid FHIR CodeSystem at the system URL the cards use", async () => {
    const { json } = await callHook(
      "psych-interactions-sign",
      orderBody("order-sign", { medications: searchset([sertraline()]) }),
    );
    const reason = json.cards?.find((card) => card.overrideReasons)?.overrideReasons?.[0];
    expect(reason?.system).toBe(`${PUBLIC_BASE}/cds-rules/override-reasons`);
    const response = await fetch(`${bed.url}/cds-rules/override-reasons`);
    expect(response.status).toBe(200);
    const codeSystem = (await response.json()) as CodeSystem;
    assertValidFhirR4(codeSystem);
    expect(codeSystem.url).toBe(reason?.system);
    expect(codeSystem.concept?.map((c) => c.code)).toContain(reason?.code);
  });
});
