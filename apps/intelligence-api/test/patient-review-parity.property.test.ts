import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { DOOR_LEVELS, type PatientFinding, reviewPatient } from "@svc/engines";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcp } from "./mcp-client.js";
import { daysBefore, REVIEWED_MEDICINES } from "./patient-review-fixtures.js";

/**
 * One patient review behind every door (decision 189), over real HTTP: generated patients,
 * medicines with start dates and dated readings (ECG, neutrophils, creatinine, weight, lithium,
 * pregnancy tests) go through the engine, the JSON medication and biomarker answers, the
 * medication agent, the MCP `reviewPatient` tool and the FHIR medication answer. Every door
 * carries the same findings (rule and level), and FHIR writes each through `DOOR_LEVELS`: a
 * judged finding a DetectedIssue of the mapped severity, one not assessed a "not evaluated"
 * Observation. The CDS cards read the same findings through `findingCard` (review-cards tests)
 * and the blind runner (tooling/blind-cases/run-patient.mjs) calls the CDS service itself.
 */
const svc = useTestService();
let key: string;
let mcp: Client;

beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
  mcp = await connectMcp(svc.url, key, "patient-review-parity");
});
afterAll(async () => {
  await mcp?.close();
});

const MEDICINES = [
  ...REVIEWED_MEDICINES,
  "quetiapine 300 mg at night",
  "topiramate 50 mg daily",
  "sertraline 100 mg daily",
] as const;

/** A series of one analyte: values with their age in days. */
const series = (analyte: string, unit: string, values: fc.Arbitrary<number>) =>
  fc
    .array(fc.record({ value: values, daysAgo: fc.integer({ min: 0, max: 720 }) }), { maxLength: 4 })
    .map((xs) => xs.map((x) => ({ analyte, unit, ...x })));

const caseArb = fc.record({
  patient: fc.record(
    {
      ageYears: fc.integer({ min: 16, max: 90 }),
      sex: fc.constantFrom("female", "male"),
      pregnancy: fc.constantFrom("pregnant", "possible", "not_pregnant", "unknown"),
      egfr: fc.integer({ min: 10, max: 120 }),
      hepaticImpairment: fc.constantFrom("none", "mild", "moderate"),
    },
    { requiredKeys: [] },
  ),
  medicines: fc.uniqueArray(
    fc.record({
      name: fc.constantFrom(...MEDICINES),
      startedDaysAgo: fc.option(fc.integer({ min: 1, max: 900 }), { nil: null }),
    }),
    { selector: (m) => m.name, minLength: 1, maxLength: 3 },
  ),
  readings: fc
    .tuple(
      series("QTc", "ms", fc.integer({ min: 380, max: 540 })),
      series("Neutrophils", "10*9/L", fc.constantFrom(0.4, 1.2, 1.8, 2.5, 4.0, 6.0)),
      series("Creatinine", "umol/L", fc.integer({ min: 50, max: 300 })),
      series("Weight", "kg", fc.integer({ min: 50, max: 120 })),
      series("Lithium", "mmol/L", fc.constantFrom(0.3, 0.7, 1.1, 1.6)),
      fc.array(
        fc.record({
          analyte: fc.constant("hCG"),
          unit: fc.constant("IU/L"),
          value: fc.constantFrom(2, 15, 400),
          daysAgo: fc.integer({ min: 0, max: 300 }),
        }),
        { maxLength: 1 },
      ),
    )
    .map((parts) => parts.flat()),
});
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

const ruleLevels = (findings: readonly PatientFinding[]) =>
  findings.map((f) => `${f.kind}:${f.rule}:${f.level}:${f.assessed}`).sort();

function requestOf(c: Case, now: number) {
  const prescriptions = c.medicines.map((m, i) => ({
    id: `rx${i}`,
    medicationName: m.name,
    status: "active",
    ...(m.startedDaysAgo === null ? {} : { prescribedAt: daysBefore(now, m.startedDaysAgo) }),
  }));
  const byDay = new Map<number, { name: string; value: number; unit: string }[]>();
  for (const r of c.readings) {
    const list = byDay.get(r.daysAgo) ?? [];
    list.push({ name: r.analyte, value: r.value, unit: r.unit });
    byDay.set(r.daysAgo, list);
  }
  const labs = [...byDay].map(([d, biomarkers], i) => ({
    id: `p${i}`,
    labName: "Parity lab",
    observedAt: daysBefore(now, d),
    results: { biomarkers },
  }));
  return { prescriptions, labs };
}

describe("the patient review is one judgement behind every door", () => {
  it("engine, JSON medication and biomarker, medication agent, MCP and FHIR carry the same findings", async () => {
    // What the generated cases reached, so a generator that stops producing findings fails here.
    const kindsSeen = new Set<string>();
    const levelsSeen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        // One clock for every door: whole days, so the service's own "now" a few milliseconds
        // later places no date differently (every date in the case is a whole number of days old).
        const now = Date.now();
        const { prescriptions, labs } = requestOf(c, now);
        const medicines = prescriptions.map((p) => ({
          name: p.medicationName,
          startedAt: p.prescribedAt ?? null,
        }));
        const readings = labs.flatMap((panel) =>
          panel.results.biomarkers.map((b) => ({
            analyte: b.name,
            value: b.value,
            unit: b.unit,
            observedAt: panel.observedAt,
          })),
        );
        const engine = reviewPatient({ patient: c.patient, medicines, readings, now: new Date(now) });
        const expected = ruleLevels(engine.findings);
        for (const f of engine.findings) {
          kindsSeen.add(f.kind);
          levelsSeen.add(f.level);
        }

        const body = { prescriptions, assessments: [], patient: c.patient, ...(labs.length ? { labs } : {}) };
        const json = await call<{ data: { patientReview?: { level: string; findings: PatientFinding[] } } }>(
          svc.url,
          "/v1/medication/analyze",
          { key, body },
        );
        expect(json.status).toBe(200);
        expect(json.json.data.patientReview?.level).toBe(engine.level);
        expect(ruleLevels(json.json.data.patientReview?.findings ?? [])).toEqual(expected);

        if (labs.length) {
          const bio = await call<{ data: { patientReview?: { findings: PatientFinding[] } } }>(
            svc.url,
            "/v1/biomarker/analyze",
            { key, body: { labs, prescriptions, patient: c.patient } },
          );
          expect(bio.status).toBe(200);
          expect(ruleLevels(bio.json.data.patientReview?.findings ?? [])).toEqual(expected);
        }

        const agent = await call<{ data: { patientReview?: { findings: PatientFinding[] } } }>(
          svc.url,
          "/v1/medication/pt_parity/agent",
          {
            key,
            body: {
              medications: medicines.map((m) => m.name),
              patient: c.patient,
              medicationStarts: medicines.flatMap((m) =>
                m.startedAt === null ? [] : [{ medication: m.name, startedAt: m.startedAt }],
              ),
              ...(readings.length ? { readings } : {}),
            },
          },
        );
        expect(agent.status).toBe(200);
        expect(ruleLevels(agent.json.data.patientReview?.findings ?? [])).toEqual(expected);

        const tool = (await mcp.callTool({
          name: "reviewPatient",
          arguments: { patient: c.patient, medicines, readings, asOf: new Date(now).toISOString() },
        })) as CallToolResult;
        expect(tool.isError ?? false).toBe(false);
        const structured = tool.structuredContent as { level: string; findings: PatientFinding[] };
        expect(structured.level).toBe(engine.level);
        expect(ruleLevels(structured.findings)).toEqual(expected);

        const fhir = await call<{ entry?: { resource: Record<string, unknown> }[] }>(
          svc.url,
          "/v1/medication/analyze",
          { key, body, headers: { Accept: "application/fhir+json" } },
        );
        expect(fhir.status).toBe(200);
        const resources = (fhir.json.entry ?? []).map((e) => e.resource);
        const notEvaluated = resources.filter(
          (r) =>
            r.resourceType === "Observation" &&
            JSON.stringify(r.code ?? {}).includes("patient-review.not-evaluated"),
        );
        expect(notEvaluated.length).toBe(engine.findings.filter((f) => !f.assessed).length);
        const reviewIssues = resources
          .filter(
            (r) =>
              r.resourceType === "DetectedIssue" &&
              JSON.stringify(r.identifier ?? []).includes("patient-review-rule"),
          )
          .map((r) => r.severity)
          .sort();
        const mapped = engine.findings
          .filter((f) => f.assessed)
          .flatMap((f) => DOOR_LEVELS[f.level].fhirDetectedIssue ?? [])
          .sort();
        expect(reviewIssues).toEqual(mapped);
      }),
      { numRuns: 40 },
    );
    expect([...kindsSeen].sort()).toEqual(["ecg", "monitoring", "patient_factor", "trend"]);
    expect([...levelsSeen].sort()).toEqual(["high", "low", "moderate", "none"]);
  }, 300_000);
});
