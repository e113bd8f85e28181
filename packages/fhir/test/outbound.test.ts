import type { Bundle, DetectedIssue, GuidanceResponse, Resource, RiskAssessment } from "@medplum/fhirtypes";
import { buildEngineIntelligence, ENGINE_NAMES, ENGINE_REGISTRY, type EngineName } from "@svc/intelligence";
import { assertValidFhirR4 } from "@svc/testkit/fhir";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AnalysisAnswer,
  analysisBundle,
  CODE_SYSTEM_IDS,
  codeSystemResource,
  DETECTED_ISSUE_SEVERITIES,
  mseQuestionnaire,
  mseRecordBundle,
  prefersFhirJson,
} from "../src/index.js";

const BASE = "https://api.example.com";
const NOW = new Date("2026-11-20T10:00:00Z");

/** An analysis answer as the pipeline builds it: the engine's data with `model` and `intelligence`. */
function answerOf(engine: EngineName, body: Record<string, unknown>, sessionRef?: string): AnalysisAnswer {
  const descriptor = ENGINE_REGISTRY[engine];
  // biome-ignore lint/suspicious/noExplicitAny: each engine takes its own input type
  const run = (descriptor.run as any)(body, { now: NOW });
  const intelligence = buildEngineIntelligence({
    engine,
    facts: run.facts,
    model: run.model,
    now: NOW,
    // biome-ignore lint/suspicious/noExplicitAny: as above
    codes: (descriptor.codes as any)(body, run),
    currentInputs: body,
  });
  // biome-ignore lint/suspicious/noExplicitAny: as above
  const unmapped = (descriptor as any).unmapped?.(body, run) ?? [];
  return {
    engine,
    data: {
      ...(sessionRef === undefined ? {} : { sessionRef }),
      ...run.data,
      model: run.model,
      intelligence: unmapped.length > 0 ? { ...intelligence, unmapped } : intelligence,
    },
    request: body,
  } as AnalysisAnswer;
}

const phq9 = (scores: number[], start = "2026-10-01") =>
  scores.map((score, i) => ({
    instrumentId: "phq9",
    instrumentName: "PHQ-9",
    score,
    maxScore: 27,
    createdAt: new Date(Date.parse(`${start}T09:00:00Z`) + i * 7 * 86_400_000).toISOString(),
  }));

/** Richer bodies than the registry's examples, for the engines whose mapping the tests below read. */
const BODIES = {
  dmse: {
    responseLatencySeconds: 4.2,
    speechRateWpm: 95,
    sessionDurationSeconds: 600,
    history: { response_latency: [1.1, 1.3, 1.2, 1.4], speech_rate: [140, 150, 145] },
  },
  biomarker: {
    labs: [
      {
        id: "lab_1",
        labName: "Lab",
        observedAt: "2026-11-01",
        results: { biomarkers: [{ name: "TSH", value: 7.2, unit: "mIU/L", flag: "high" }] },
      },
    ],
  },
  medication: {
    prescriptions: [
      { id: "rx_1", medicationName: "Sertraline 50 mg", status: "active", prescribedAt: "2026-10-20" },
      { id: "rx_2", medicationName: "Tramadol 50 mg", status: "active", prescribedAt: "2026-10-20" },
    ],
    assessments: phq9([20, 19, 18, 14, 12, 10, 9]),
  },
  outcome: { assessments: phq9([20, 17, 14, 11]), avgSleepHours: 7.5, dmseLatencyPctChange: -10 },
  relapse: { assessments: phq9([8, 10, 14, 17]), avgSleepHours: 5, daysSinceLastVisit: 60 },
} satisfies Partial<Record<EngineName, Record<string, unknown>>>;

/** The body each engine is mapped from: its own above, else its registry example. */
const bodyOf = (engine: EngineName): Record<string, unknown> =>
  (BODIES as Partial<Record<EngineName, Record<string, unknown>>>)[engine] ??
  (ENGINE_REGISTRY[engine].example as Record<string, unknown>);

const resources = (bundle: Bundle): Resource[] => (bundle.entry ?? []).map((e) => e.resource as Resource);
const ofType = <T extends Resource>(bundle: Bundle, type: T["resourceType"]) =>
  resources(bundle).filter((r): r is T => r.resourceType === type);

let counter = 0;
const newId = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, "0")}`;

describe("analysisBundle", () => {
  it.each(ENGINE_NAMES)("%s: a valid R4 collection Bundle, every entry valid", (engine) => {
    const bundle = analysisBundle(answerOf(engine, bodyOf(engine), "visit-7"), {
      publicBaseUrl: BASE,
      newId,
    });
    expect(bundle.type).toBe("collection");
    expect(bundle.identifier).toEqual({ system: `${BASE}/fhir/sid/session-ref`, value: "visit-7" });
    assertValidFhirR4(bundle);
    for (const resource of resources(bundle)) assertValidFhirR4(resource);
    const types = resources(bundle).map((r) => r.resourceType);
    expect(types.at(-1)).toBe("Provenance");
    expect(types).toContain("GuidanceResponse");
    const provenance = resources(bundle).at(-1) as {
      target: unknown[];
      contained: { version: { value: string }[] }[];
    };
    expect(provenance.target).toHaveLength(types.length - 1);
    expect(provenance.contained[0]?.version[0]?.value).toBe("default");
    // No invented patient: nothing but the RiskAssessment's display-only subject names one.
    expect(JSON.stringify(bundle)).not.toContain('"Patient/');
  });

  it("relapse: a RiskAssessment with our level code, the score Observation as basis, and no probability", () => {
    const bundle = analysisBundle(answerOf("relapse", BODIES.relapse), { publicBaseUrl: BASE });
    const [risk] = ofType<RiskAssessment>(bundle, "RiskAssessment");
    const prediction = risk?.prediction?.[0];
    expect(prediction?.qualitativeRisk?.coding?.[0]?.system).toBe(`${BASE}/fhir/CodeSystem/relapse-level`);
    expect(["low", "moderate", "elevated", "high"]).toContain(prediction?.qualitativeRisk?.coding?.[0]?.code);
    expect(prediction).not.toHaveProperty("probabilityDecimal");
    expect(prediction).not.toHaveProperty("probabilityRange");
    const basis = risk?.basis?.[0]?.reference;
    expect(bundle.entry?.find((e) => e.fullUrl === basis)?.resource?.resourceType).toBe("Observation");
  });

  it("medication: sertraline + tramadol gives a DRG DetectedIssue, high, implicating both prescriptions", () => {
    const bundle = analysisBundle(answerOf("medication", BODIES.medication), { publicBaseUrl: BASE });
    const issues = ofType<DetectedIssue>(bundle, "DetectedIssue");
    expect(issues.length).toBeGreaterThan(0);
    const issue = issues[0] as DetectedIssue;
    expect(issue.code?.coding?.[0]).toEqual({
      system: "http://terminology.hl7.org/CodeSystem/v3-ActCode",
      code: "DRG",
      display: "Drug Interaction Alert",
    });
    expect(DETECTED_ISSUE_SEVERITIES).toContain(issue.severity);
    expect(issue.implicated?.map((r) => r.identifier?.value).sort()).toEqual(["rx_1", "rx_2"]);
  });

  it("medication: a dose above the label maximum is a High Dose Alert, also for one prescription (decision 176)", () => {
    const body = {
      ...BODIES.medication,
      prescriptions: [{ id: "rx_1", medicationName: "Sertraline", dosage: "300 mg", status: "active" }],
    };
    const bundle = analysisBundle(answerOf("medication", body), { publicBaseUrl: BASE });
    assertValidFhirR4(bundle);
    const issues = ofType<DetectedIssue>(bundle, "DetectedIssue");
    expect(issues.map((i) => [i.code?.coding?.[0]?.code, i.severity])).toEqual([["DOSEH", "high"]]);
    expect(issues[0]?.detail).toContain("above the 200 mg/day label maximum");
  });

  it("an unrecognised prescription makes the interaction check say it is incomplete, never all-clear", () => {
    const body = {
      ...BODIES.medication,
      prescriptions: [
        { id: "rx_1", medicationName: "Sertraline 50 mg", status: "active", prescribedAt: "2026-10-20" },
        { id: "rx_9", medicationName: "Zzqx 10 mg", status: "active", prescribedAt: "2026-10-20" },
      ],
    };
    const bundle = analysisBundle(answerOf("medication", body), { publicBaseUrl: BASE });
    const [guidance] = ofType<GuidanceResponse>(bundle, "GuidanceResponse");
    expect(guidance?.note?.map((n) => n.text).join(" ")).toContain("Interaction check incomplete");
  });

  it("a property a rule needed and the model does not know is said in the GuidanceResponse (decision 176)", () => {
    const body = {
      ...BODIES.medication,
      prescriptions: [
        { id: "rx_1", medicationName: "Citalopram 20 mg", status: "active", prescribedAt: "2026-10-20" },
        { id: "rx_2", medicationName: "Sertraline 50 mg", status: "active", prescribedAt: "2026-10-20" },
      ],
    };
    const bundle = analysisBundle(answerOf("medication", body), { publicBaseUrl: BASE });
    const [guidance] = ofType<GuidanceResponse>(bundle, "GuidanceResponse");
    expect(guidance?.note?.map((n) => n.text).join(" ")).toContain("QT risk category unknown for sertraline");
  });

  it("more active prescriptions than one check takes: no DetectedIssue, and the GuidanceResponse says the check did not run", () => {
    const prescriptions = Array.from({ length: 51 }, (_, i) => ({
      id: `rx_${i}`,
      medicationName: i % 2 === 0 ? "Sertraline" : "Tramadol",
      status: "active",
    }));
    const bundle = analysisBundle(answerOf("medication", { ...BODIES.medication, prescriptions }), {
      publicBaseUrl: BASE,
    });
    expect(ofType<DetectedIssue>(bundle, "DetectedIssue")).toHaveLength(0);
    const [guidance] = ofType<GuidanceResponse>(bundle, "GuidanceResponse");
    expect(guidance?.note?.map((n) => n.text).join(" ")).toContain("Interaction check not run");
    assertValidFhirR4(bundle);
  });

  it("insufficient data: GuidanceResponse data-required with a dataRequirement per field to send", () => {
    const bundle = analysisBundle(answerOf("relapse", { assessments: [] }), { publicBaseUrl: BASE });
    const [guidance] = ofType<GuidanceResponse>(bundle, "GuidanceResponse");
    expect(guidance?.status).toBe("data-required");
    const fields = guidance?.dataRequirement?.map((d) => d.codeFilter?.[0]?.code?.[0]?.code);
    expect(fields).toContain("assessments");
    assertValidFhirR4(bundle);
  });

  it("enough data: GuidanceResponse success without dataRequirement", () => {
    const bundle = analysisBundle(answerOf("outcome", BODIES.outcome), { publicBaseUrl: BASE });
    const [guidance] = ofType<GuidanceResponse>(bundle, "GuidanceResponse");
    expect(guidance?.status).toBe("success");
    expect(guidance?.dataRequirement).toBeUndefined();
  });

  it("property: no RiskAssessment carries a probability; every DetectedIssue severity is high, moderate or low", () => {
    const names = [
      "sertraline",
      "fluoxetine",
      "tramadol",
      "lithium",
      "clozapine",
      "carbamazepine",
      "linezolid",
      "olanzapine",
      "unknownium",
    ];
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 27 }), { minLength: 0, maxLength: 8 }),
        fc.option(fc.double({ min: 0, max: 24, noNaN: true }), { nil: undefined }),
        fc.subarray(names, { minLength: 0, maxLength: 6 }),
        (scores, sleep, meds) => {
          const relapse = analysisBundle(
            answerOf("relapse", {
              assessments: phq9(scores),
              ...(sleep === undefined ? {} : { avgSleepHours: sleep }),
            }),
            { publicBaseUrl: BASE },
          );
          for (const risk of ofType<RiskAssessment>(relapse, "RiskAssessment")) {
            for (const p of risk.prediction ?? []) {
              expect(p.probabilityDecimal).toBeUndefined();
              expect(p.probabilityRange).toBeUndefined();
            }
          }
          const medication = analysisBundle(
            answerOf("medication", {
              prescriptions: meds.map((m, i) => ({
                id: `rx_${i}`,
                medicationName: m,
                status: "active",
                prescribedAt: "2026-10-20",
              })),
              assessments: phq9(scores),
            }),
            { publicBaseUrl: BASE },
          );
          // Every resource emitted over the input space is valid R4, bundle entries included.
          for (const bundle of [relapse, medication]) {
            assertValidFhirR4(bundle);
            for (const resource of resources(bundle)) assertValidFhirR4(resource);
          }
          for (const issue of ofType<DetectedIssue>(medication, "DetectedIssue")) {
            expect(DETECTED_ISSUE_SEVERITIES).toContain(issue.severity);
            expect(issue.code?.coding?.[0]?.code).toBe("DRG");
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("conformance resources", () => {
  it.each(CODE_SYSTEM_IDS)("CodeSystem %s is valid R4 and its url is where it is served", (id) => {
    const cs = codeSystemResource(BASE, id);
    assertValidFhirR4(cs);
    expect(cs.url).toBe(`${BASE}/fhir/CodeSystem/${id}`);
  });

  it("the MSE Questionnaire is valid R4 with 17 domain groups and the C-SSRS items under risk", () => {
    const q = mseQuestionnaire(BASE);
    assertValidFhirR4(q);
    expect(q.item?.filter((i) => i.type === "group")).toHaveLength(17);
    const risk = q.item?.find((i) => i.linkId === "risk");
    const cssrs = risk?.item?.find((i) => i.linkId === "risk.cssrs");
    expect(cssrs?.item?.map((i) => i.linkId)).toEqual([
      "risk.cssrs.q1",
      "risk.cssrs.q2",
      "risk.cssrs.q3",
      "risk.cssrs.q4",
      "risk.cssrs.q5",
      "risk.cssrs.q6",
      "risk.cssrs.q6_recent",
    ]);
    // No LOINC item code was verified on loinc.org: the items carry none.
    expect(JSON.stringify(q)).not.toContain("loinc");
  });
});

describe("mseRecordBundle", () => {
  const record = {
    visitId: "v-1",
    patientId: "pat-1",
    selection: {
      mood: { values: ["depressed", "anxious"], text: "Worse in the mornings" },
      risk: { values: ["active_si"], cssrs: { q1: "yes" as const, q2: "yes" as const } },
    },
    lines: [{ key: "mood" as const, label: "Mood", line: "Mood: depressed, anxious.", codes: [] }],
    objectiveBlock: "",
    riskFlag: true,
    riskLevel: "moderate",
    riskLabels: ["Active suicidal ideation"],
    version: 2,
    savedAt: "2026-11-20T10:00:00.000Z",
    clinicianId: "clin-1",
    contentHash: "ab".repeat(32),
    cssrs: {
      complete: false,
      missingItems: ["q3" as const, "q4" as const, "q5" as const, "q6" as const],
      triageLevel: "moderate" as const,
    },
    signatures: [
      {
        id: "sig_1",
        version: 2,
        contentHash: "ab".repeat(32),
        signedByName: "Dr A",
        credential: "MD",
        license: null,
        organization: "Clinic",
        signedAt: "2026-11-20T11:00:00.000Z",
        attestation: null,
      },
    ],
  };

  it("QuestionnaireResponse, coded-finding Observations (SNOMED from the catalog), risk, signature Provenance: all valid", () => {
    const bundle = mseRecordBundle(record, { publicBaseUrl: BASE });
    assertValidFhirR4(bundle);
    for (const r of resources(bundle)) assertValidFhirR4(r);
    const types = resources(bundle).map((r) => r.resourceType);
    expect(types[0]).toBe("QuestionnaireResponse");
    expect(types.at(-1)).toBe("Provenance");
    const qr = resources(bundle)[0] as { questionnaire: string; status: string };
    expect(qr.questionnaire).toBe(`${BASE}/fhir/Questionnaire/mse`);
    expect(qr.status).toBe("completed");
    const text = JSON.stringify(bundle);
    expect(text).toContain("366979004");
    expect(text).toContain("6471006");
    // Unanswered C-SSRS items are absent, never "no".
    expect(text).toContain("risk.cssrs.q2");
    expect(text).not.toContain("risk.cssrs.q3");
  });
});

describe("prefersFhirJson", () => {
  it.each([
    ["application/fhir+json", true],
    ["application/fhir+json; fhirVersion=4.0", true],
    ["application/fhir+json; fhirVersion=3.0", false],
    ["application/fhir+json; fhirVersion=4.0.1", true],
    ["APPLICATION/FHIR+JSON", true],
    ["application/fhir+json, application/json;q=0.9", true],
    ["application/json, application/fhir+json", false],
    ["application/fhir+json;q=0.5, application/json", false],
    ["application/fhir+json;q=0.9, */*;q=0.1", true],
    ["application/fhir+json;q=0", false],
    ["*/*", false],
    ["application/*", false],
    ["text/html", false],
    ["application/fhir+xml", false],
    ["", false],
    [undefined, false],
    ["garbage;;;,", false],
  ])("%s -> %s", (accept, fhir) => {
    expect(prefersFhirJson(accept)).toBe(fhir);
  });

  it("property: never throws, and application/json at q=1 listed first always keeps JSON", () => {
    const range = fc.constantFrom(
      "application/fhir+json",
      "application/json",
      "*/*",
      "application/*",
      "text/html",
      "x",
    );
    const q = fc.option(fc.constantFrom("0", "0.1", "0.5", "0.9", "1", "1.0", "2", "abc"), {
      nil: undefined,
    });
    const header = fc
      .array(fc.tuple(range, q), { maxLength: 5 })
      .map((parts) => parts.map(([r, v]) => (v === undefined ? r : `${r};q=${v}`)).join(", "));
    fc.assert(
      fc.property(header, fc.string(), (accept, noise) => {
        expect(typeof prefersFhirJson(`${accept}${noise}`)).toBe("boolean");
        // JSON at q=1 ties or beats any FHIR quality (at most 1): never FHIR.
        expect(prefersFhirJson(`application/json, ${accept}`)).toBe(false);
      }),
    );
  });
});
