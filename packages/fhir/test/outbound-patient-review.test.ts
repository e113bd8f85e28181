import type { Bundle, DetectedIssue, Observation, Resource } from "@medplum/fhirtypes";
import { DOOR_LEVELS, type PatientFinding } from "@svc/engines";
import { assertValidFhirR4 } from "@svc/testkit/fhir";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AnalysisAnswer,
  analysisBundle,
  DETECTED_ISSUE_SEVERITIES,
  patientFindingResources,
} from "../src/index.js";
import { medicationAnalysis, patientFindingArb } from "./analysis-fixtures.js";

/**
 * The patient review's findings in the FHIR answer (decision 204): a judged finding is a
 * DetectedIssue at the door table's severity (OBSA for patient factors), a finding that could not
 * be judged an Observation saying "not evaluated"; every resource validates as R4.
 */

const BASE = "https://api.example.com";
const NOW = new Date("2026-11-20T10:00:00Z");
let counter = 0;
const newId = () => `00000000-0000-4000-9000-${String(++counter).padStart(12, "0")}`;
const ctx = { base: BASE, newId, identifiedAt: NOW.toISOString() };

const valproateInPregnancy: PatientFinding = {
  kind: "patient_factor",
  rule: "teratogen_pregnancy",
  level: "high",
  assessed: true,
  title: "Valproate in pregnancy",
  detail: "Valproate is taken by a patient recorded as pregnant (Observation/preg-1).",
  medicines: ["valproate 1000 mg per day"],
  source: "MHRA Drug Safety Update, valproate Pregnancy Prevention Programme",
};
const ancDue: PatientFinding = {
  kind: "monitoring",
  rule: "monitoring_overdue",
  level: "moderate",
  assessed: true,
  title: "Neutrophil count due: last 94 days ago",
  detail: "Clozapine: the last neutrophil count is 94 days old; monthly counts after week 52.",
  medicines: ["clozapine"],
  analyte: "anc",
  since: "2026-10-20",
  source: "Clozaril SmPC, monitoring",
};
const startUnknown: PatientFinding = {
  kind: "monitoring",
  rule: "start_unknown",
  level: "low",
  assessed: false,
  title: "Clozapine start date unknown",
  detail: "Only a renewal date is known, so the monitoring phase cannot be placed.",
  medicines: ["clozapine"],
  source: "Clozaril SmPC, monitoring",
};
const nothingFound: PatientFinding = { ...ancDue, level: "none", title: "Lithium level current" };

function medicationAnswer(findings: readonly PatientFinding[]): AnalysisAnswer {
  return {
    ...medicationAnalysis(["Sertraline 50 mg"], NOW).answer,
    patientFindings: findings,
  } as AnalysisAnswer;
}

const resources = (bundle: Bundle): Resource[] => (bundle.entry ?? []).map((e) => e.resource as Resource);

describe("patient review findings in FHIR", () => {
  it("a patient factor is an OBSA DetectedIssue, monitoring a DetectedIssue with its title, not assessed an Observation; none gives nothing", () => {
    const out = patientFindingResources(ctx, [valproateInPregnancy, ancDue, startUnknown, nothingFound]);
    expect(out.map((e) => e.resource.resourceType)).toEqual([
      "DetectedIssue",
      "DetectedIssue",
      "Observation",
    ]);
    for (const e of out) assertValidFhirR4(e.resource);
    const [factor, monitoring, notAssessed] = out.map((e) => e.resource) as [
      DetectedIssue,
      DetectedIssue,
      Observation,
    ];
    expect(factor.code?.coding?.[0]).toEqual({
      system: "http://terminology.hl7.org/CodeSystem/v3-ActCode",
      code: "OBSA",
      display: "Observation Alert",
    });
    expect(factor.severity).toBe("high");
    expect(factor.detail).toContain("MHRA");
    expect(factor.identifier?.[0]).toEqual({
      system: `${BASE}/fhir/sid/patient-review-rule`,
      value: "teratogen_pregnancy",
    });
    expect(monitoring.code).toEqual({ text: "Neutrophil count due: last 94 days ago" });
    expect(monitoring.severity).toBe("moderate");
    expect(monitoring.detail).toContain("Since 2026-10-20");
    expect(notAssessed.interpretation?.[0]?.text).toBe("not evaluated");
    expect(notAssessed.valueString).toContain("renewal");
    expect(notAssessed.code.coding?.[0]?.code).toBe("patient-review.not-evaluated");
  });

  it("the analysis Bundle carries them before the GuidanceResponse, each a Provenance target, all valid R4", () => {
    const bundle = analysisBundle(medicationAnswer([valproateInPregnancy, startUnknown]), {
      publicBaseUrl: BASE,
      newId,
    });
    assertValidFhirR4(bundle);
    for (const resource of resources(bundle)) assertValidFhirR4(resource);
    const titles = resources(bundle).flatMap((r) =>
      r.resourceType === "DetectedIssue"
        ? [r.code?.text]
        : r.resourceType === "Observation"
          ? [r.code.text]
          : [],
    );
    expect(titles).toContain("Valproate in pregnancy");
    expect(titles).toContain("Clozapine start date unknown");
    const types = resources(bundle).map((r) => r.resourceType);
    expect(types.indexOf("GuidanceResponse")).toBeGreaterThan(types.lastIndexOf("DetectedIssue"));
    const provenance = resources(bundle).at(-1) as { target: unknown[] };
    expect(provenance.target).toHaveLength(types.length - 1);
  });

  it("property: every finding's severity is the door table's; a not-assessed finding is never a DetectedIssue", () => {
    const finding = patientFindingArb({ title: 60, detail: 120, source: 60 });
    fc.assert(
      fc.property(fc.array(finding, { maxLength: 6 }), (findings) => {
        const out = patientFindingResources(ctx, findings);
        const expected = findings.filter(
          (f) => !f.assessed || DOOR_LEVELS[f.level].fhirDetectedIssue !== null,
        );
        expect(out).toHaveLength(expected.length);
        out.forEach((e, i) => {
          const f = expected[i] as PatientFinding;
          if (!f.assessed) expect(e.resource.resourceType).toBe("Observation");
          else {
            const issue = e.resource as DetectedIssue;
            expect(issue.severity).toBe(DOOR_LEVELS[f.level].fhirDetectedIssue);
            expect(DETECTED_ISSUE_SEVERITIES).toContain(issue.severity);
          }
          assertValidFhirR4(e.resource);
        });
      }),
      { numRuns: 60 },
    );
  });
});
